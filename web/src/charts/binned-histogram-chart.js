// A histogram whose bins arrive counted (core's: a model's weights in 60 bins), drawn with
// Observable Plot as adjacent bars, with optional labelled vertical rules (a pruning threshold
// at ±t). `update({bins: [{x0, x1, count}], rules: [{x, label}]})`.
// Not for: counting (core counts; distribution-chart.js bins a raw sample itself).

import { Plot } from './plot-lib.js';
import { CHART_STYLE, PlotChart, emptyPlot } from './plot-chart.js';
import { tickFormatter } from './ticks.js';

export class BinnedHistogramChart extends PlotChart {
  /**
   * @param {HTMLElement} container
   * @param {object} options
   * @param {string} options.xLabel axis label ("weight value →")
   * @param {string} [options.yLabel] default '↑ weights'
   * @param {string} options.ariaLabel
   * @param {string} [options.emptyText]
   * @param {number} [options.height]
   */
  constructor(container, options) {
    super(container, options, { yLabel: '↑ weights', height: 300 });
  }

  figure(width) {
    const o = this.options;
    const bins = this.data?.bins ?? [];
    if (bins.length === 0) return emptyPlot(width, o);
    const rules = this.data?.rules ?? [];
    const tallest = Math.max(...bins.map((b) => b.count));
    return Plot.plot({
      width,
      height: o.height,
      marginLeft: 64,
      marginTop: 24,
      marginBottom: 44,
      style: CHART_STYLE,
      ariaLabel: o.ariaLabel,
      x: { label: o.xLabel, labelAnchor: 'center', grid: true },
      // Headroom above the tallest bar for the rules' labels.
      y: { label: o.yLabel, domain: [0, tallest * 1.15], grid: true, nice: true, tickFormat: tickFormatter('count') },
      marks: [
        Plot.rectY(bins, { x1: 'x0', x2: 'x1', y: 'count', fill: 'var(--accent, #2457c5)', inset: 0.25, tip: true }),
        Plot.ruleY([0]),
        Plot.ruleX(rules, { x: 'x', stroke: 'currentColor', strokeDasharray: '4,3', strokeWidth: 1.5 }),
        Plot.text(rules, {
          x: 'x',
          text: 'label',
          frameAnchor: 'top',
          textAnchor: 'middle',
          dy: 8,
          fill: 'currentColor',
          stroke: 'var(--bg, white)',
          strokeWidth: 3,
          paintOrder: 'stroke',
        }),
      ],
    });
  }
}
