// A small line chart (one line with points per series, a legend, labelled axes with units,
// an ARIA label) drawn with Observable Plot. `update(rows)` redraws from plain rows; the
// chart redraws itself when its container changes width. On a log y axis a row at 0 (or
// below) has no place: it is drawn as an open triangle on the frame's bottom edge, and the
// chart says so (`zeroNote`), rather than its line stopping without a word.
// Not for: computing anything shown (rows arrive computed) or animating.

import { Plot } from './plot-lib.js';
import { CHART_STYLE, PlotChart, emptyPlot, positionalAxis } from './plot-chart.js';

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
   * @param {number[]} [options.xTicks] tick values (useful on a log axis); every one is labelled
   * @param {'bytes'|'count'|Function} [options.xFormat] tick text in the table's units: 'bytes'
   *        (4 KiB, 1 MiB), 'count' (the default: 200k, 1M) or a function (`xTickFormat` too)
   * @param {'bytes'|'count'|Function} [options.yFormat] the same for y
   * @param {number} [options.xBase] a log x axis's base (default 10, 2 for bytes)
   * @param {number[]} [options.xDomain] fixed [min, max] so the frame does not jump as rows arrive
   * @param {number[]} [options.yDomain] fixed [min, max] (e.g. [0, 100] for a percentage)
   * @param {Array<{y: number, label?: string}>} [options.yReferences] dashed horizontal rules,
   *        each labelled at the right (e.g. a 95% target a coverage should reach)
   * @param {string} [options.zeroNote] on a log y axis, what a row at 0 means, written at the
   *        bottom right when there is one (default "▽ on the bottom edge: 0, which a log axis cannot show")
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
    // A log axis cannot show 0: such rows become triangles on the bottom edge.
    const atZero = logY ? this.data.filter((d) => d[o.y] <= 0) : [];
    const drawn = logY ? this.data.filter((d) => d[o.y] > 0) : this.data;
    const x = positionalAxis('x', {
      type: o.xType,
      domain: o.xDomain,
      values: this.data.map((d) => d[o.x]),
      ticks: o.xTicks,
      format: o.xTickFormat ?? o.xFormat,
      base: o.xBase,
      label: o.xLabel,
      labelAnchor: 'center',
    });
    const y = positionalAxis('y', {
      type: o.yType,
      domain: o.yDomain,
      values: [...drawn.map((d) => d[o.y]), ...o.yReferences.map((r) => r.y)],
      format: o.yFormat,
      label: o.yLabel,
      // A log axis runs from power to power; a linear one starts at zero unless its domain is
      // fixed (kept as given).
      nice: true,
      scale: logY ? {} : { zero: !o.yDomain, nice: true },
    });
    return Plot.plot({
      width,
      height: o.height,
      marginLeft: 56,
      marginBottom: 44,
      style: CHART_STYLE,
      ariaLabel: o.ariaLabel,
      x: x.scale,
      y: y.scale,
      color: { legend: true, domain: o.seriesDomain, scheme: 'observable10' },
      marks: [
        ...x.marks,
        ...y.marks,
        // The zero baseline, unless the axis is log or a fixed domain leaves zero out.
        logY || o.yDomain?.[0] > 0 ? null : Plot.ruleY([0]),
        Plot.ruleY(o.yReferences, { y: 'y', stroke: 'currentColor', strokeOpacity: 0.75, strokeDasharray: '5,4' }),
        Plot.text(
          o.yReferences.filter((r) => r.label),
          { y: 'y', frameAnchor: 'right', text: 'label', textAnchor: 'end', dx: -4, dy: -8, fill: 'currentColor' },
        ),
        // z named: with one point per series (the first rows of a run) Plot would warn of a
        // "high cardinality" implicit z.
        Plot.line(drawn, { x: o.x, y: o.y, z: o.series ?? null, stroke: o.series, strokeWidth: 2 }),
        Plot.dot(drawn, { x: o.x, y: o.y, fill: o.series, r: 3.5, tip: true }),
        // On the bottom edge, pointing down: below everything the axis shows.
        Plot.dot(atZero, {
          x: o.x,
          frameAnchor: 'bottom',
          symbol: 'triangle',
          rotate: 180,
          r: 5,
          stroke: o.series ?? 'currentColor',
          strokeWidth: 1.5,
          fill: 'var(--bg, white)',
          tip: true,
          className: 'zero',
        }),
        atZero.length
          ? Plot.text([o.zeroNote ?? '▽ on the bottom edge: 0, which a log axis cannot show'], {
              frameAnchor: 'bottom-right',
              dx: -4,
              dy: -8,
              fill: 'currentColor',
              stroke: 'var(--bg, white)',
              strokeWidth: 3,
              paintOrder: 'stroke',
              className: 'zero-note',
            })
          : null,
      ],
    });
  }
}
