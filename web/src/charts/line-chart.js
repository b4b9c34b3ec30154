// A small line chart (one line with points per series, a legend, labelled axes with units,
// an ARIA label) drawn with Observable Plot. `update(rows)` redraws from plain rows; the
// chart redraws itself when its container changes width.
// Not for: computing anything shown (rows arrive computed) or animating.

import * as Plot from '@observablehq/plot';
import { CHART_STYLE, PlotChart, emptyPlot } from './plot-chart.js';

export class LineChart extends PlotChart {
  /**
   * @param {HTMLElement} container the chart replaces this element's children
   * @param {object} options
   * @param {string} options.x field for the x value
   * @param {string} options.y field for the y value
   * @param {string} options.series field naming each row's line
   * @param {string[]} [options.seriesDomain] fixes the series order and colours
   * @param {string} options.xLabel axis label with unit
   * @param {string} options.yLabel axis label with unit
   * @param {'linear'|'log'} [options.xType]
   * @param {'linear'|'log'} [options.yType] a log y axis drops the zero baseline
   * @param {number[]} [options.xTicks] tick values (useful on a log axis)
   * @param {(value: number) => string} [options.xTickFormat] tick text (default String)
   * @param {number} [options.xBase] a log x axis's base (default 10)
   * @param {number[]} [options.xDomain] fixed [min, max] so the frame does not jump as rows arrive
   * @param {number[]} [options.yDomain] fixed [min, max] (e.g. [0, 100] for a percentage)
   * @param {Array<{y: number, label?: string}>} [options.yReferences] dashed horizontal rules,
   *        each labelled at the right (e.g. a 95% target a coverage should reach)
   * @param {string} options.ariaLabel what the chart shows, for screen readers
   * @param {string} [options.emptyText] shown while there is no data
   * @param {number} [options.height] in CSS pixels
   */
  constructor(container, options) {
    super(container, options, { xType: 'linear', yType: 'linear', yReferences: [] });
  }

  figure(width) {
    const o = this.options;
    if (this.data.length === 0) return emptyPlot(width, o);
    const logY = o.yType === 'log';
    return Plot.plot({
      width,
      height: o.height,
      marginLeft: 56,
      marginBottom: 44,
      style: CHART_STYLE,
      ariaLabel: o.ariaLabel,
      x: {
        type: o.xType,
        domain: o.xDomain,
        label: o.xLabel,
        labelAnchor: 'center',
        ticks: o.xTicks,
        tickFormat: o.xTickFormat ?? (o.xTicks ? String : undefined),
        // A log axis labels only ticks near powers of its base: base 2 labels 4 KiB, 32 KiB.
        base: o.xType === 'log' ? o.xBase : undefined,
        grid: true,
      },
      // Log ticks as plain numbers (0.1, 0.2), not SI prefixes (100m) a student reads as milli-.
      y: {
        type: o.yType,
        domain: o.yDomain,
        label: o.yLabel,
        zero: !logY && !o.yDomain, // a fixed domain is kept as given
        grid: true,
        nice: true,
        tickFormat: logY ? '~g' : undefined,
      },
      color: { legend: true, domain: o.seriesDomain, scheme: 'observable10' },
      marks: [
        // The zero baseline, unless the axis is log or a fixed domain leaves zero out.
        logY || o.yDomain?.[0] > 0 ? null : Plot.ruleY([0]),
        Plot.ruleY(o.yReferences, { y: 'y', stroke: 'currentColor', strokeOpacity: 0.75, strokeDasharray: '5,4' }),
        Plot.text(
          o.yReferences.filter((r) => r.label),
          { y: 'y', frameAnchor: 'right', text: 'label', textAnchor: 'end', dx: -4, dy: -8, fill: 'currentColor' },
        ),
        Plot.line(this.data, { x: o.x, y: o.y, stroke: o.series, strokeWidth: 2 }),
        Plot.dot(this.data, { x: o.x, y: o.y, fill: o.series, r: 3.5, tip: true }),
      ],
    });
  }
}
