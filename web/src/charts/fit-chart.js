// Measured times against size on log-log axes with one fitted curve per complexity class,
// coloured by class with a legend. `update({points, curves})`: points `{n, value, series?}`
// (series names the kernel when several are shown, drawn as different symbols), curves
// `{n, value, fit, series?}` evaluated by core at the sizes it chose; every value in the
// chart's unit. Not for: fitting (core fits; stats-shape.js only groups the curve rows).

import { Plot } from './plot-lib.js';
import { CHART_STYLE, PlotChart, emptyPlot, positionalAxis } from './plot-chart.js';
import { curveSeries } from './stats-shape.js';

export class FitChart extends PlotChart {
  /**
   * @param {HTMLElement} container
   * @param {object} options
   * @param {string} options.xLabel axis label ("size n (log) →")
   * @param {string} options.yLabel axis label with unit ("↑ time per call (ms, log)")
   * @param {'bytes'|'count'|Function} [options.xFormat] tick text (default 'count': 200k, 1M, never 1e+6)
   * @param {'bytes'|'count'|Function} [options.yFormat]
   * @param {string[]} [options.fitDomain] fixes the classes' order and colours (default: as
   *        the curves list them, which core sends best first)
   * @param {string} options.ariaLabel
   * @param {string} [options.emptyText]
   * @param {number} [options.height]
   */
  constructor(container, options) {
    super(container, options, {});
  }

  figure(width) {
    const o = this.options;
    const points = (this.data?.points ?? []).filter((p) => p.n > 0 && p.value > 0);
    const { rows, fits } = curveSeries(this.data?.curves ?? []);
    if (points.length === 0 && rows.length === 0) {
      return emptyPlot(width, o);
    }
    const kernels = [...new Set(points.map((p) => p.series).filter((s) => s !== undefined))];
    const values = (key) => [...points.map((p) => p[key]), ...rows.map((r) => r[key])];
    const x = positionalAxis('x', { type: 'log', values: values('n'), format: o.xFormat, label: o.xLabel, labelAnchor: 'center' });
    const y = positionalAxis('y', { type: 'log', values: values('value'), nice: true, format: o.yFormat, label: o.yLabel });
    return Plot.plot({
      width,
      height: o.height,
      marginLeft: 60,
      marginRight: 24,
      marginBottom: 44,
      style: CHART_STYLE,
      ariaLabel: o.ariaLabel,
      ariaDescription: `${points.length} measured sizes; fitted classes: ${fits.join(', ')}`,
      // Every tick labelled, in k and M (a size of 1e+6 reads as 1M), never SI milli- prefixes.
      x: x.scale,
      y: y.scale,
      color: { legend: true, domain: o.fitDomain ?? fits, scheme: 'observable10' },
      symbol: kernels.length > 1 ? { legend: true, domain: kernels } : undefined,
      marks: [
        ...x.marks,
        ...y.marks,
        Plot.line(rows, { x: 'n', y: 'value', z: 'line', stroke: 'fit', strokeWidth: 1.75, strokeOpacity: 0.9 }),
        Plot.dot(points, {
          x: 'n',
          y: 'value',
          symbol: kernels.length > 1 ? 'series' : undefined,
          stroke: 'currentColor',
          fill: 'var(--bg, white)',
          r: 4,
          strokeWidth: 1.5,
          tip: true,
        }),
      ],
    });
  }
}
