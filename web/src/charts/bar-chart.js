// A bar chart, grouped (one bar per series side by side within each category) or stacked
// (series piled up, with the total above each stack), drawn with Observable Plot from
// long-form rows (shape.js's toLong makes them from wide rows). Labelled axes with units,
// a legend and an ARIA label. Not for: computing the values (rows arrive computed).

import { Plot } from './plot-lib.js';
import { CHART_STYLE, PlotChart, emptyPlot } from './plot-chart.js';
import { tickFormatter } from './ticks.js';
import { formatSig } from '../ui/format.js';

// Dashed horizontal references with their labels at the right edge (an empty chart shows only
// its hint, so these are drawn with bars). The labels sit above their line; in grouped bars
// (one facet per category) the line crosses every facet and its label is written once, in
// the last facet (`lastFacet`).
function referenceMarks(references, lastFacet) {
  if (references.length === 0) return [];
  const once = lastFacet === undefined ? {} : { fx: () => lastFacet };
  return [
    Plot.ruleY(references, { y: 'y', stroke: 'currentColor', strokeDasharray: '4,3', strokeOpacity: 0.7 }),
    Plot.text(references, {
      y: 'y',
      text: 'label',
      frameAnchor: 'right',
      textAnchor: 'end',
      dy: -6,
      fill: 'currentColor',
      stroke: 'var(--bg, white)',
      strokeWidth: 3,
      paintOrder: 'stroke',
      ...once,
    }),
  ];
}

export class BarChart extends PlotChart {
  /**
   * @param {HTMLElement} container
   * @param {object} options
   * @param {string} options.x field naming each row's category (a group or a stack)
   * @param {string} options.y field for the bar's value
   * @param {string} [options.series] field naming each row's series (colour)
   * @param {'grouped'|'stacked'} [options.mode] default 'grouped'
   * @param {string[]} [options.xDomain] category order (default: as the rows list them)
   * @param {string[]} [options.seriesDomain] fixes the series order and colours
   * @param {string} options.xLabel axis label
   * @param {string} options.yLabel axis label with unit
   * @param {'bytes'|'count'|Function} [options.yFormat] value-axis tick text in the table's
   *        units (default 'count': 200k, 1M); `yTickFormat` too
   * @param {(value: number) => string} [options.valueFormat] for stack totals and tips
   * @param {boolean} [options.totals] stacked mode: write each stack's total above it (default true)
   * @param {Array<{y: number, label: string}>} [options.references] dashed horizontal lines,
   *        each labelled at its right end (a 1× or 4× mark, a noise threshold); the value axis
   *        reaches them
   * @param {string} options.ariaLabel what the chart shows, for screen readers
   * @param {string} [options.emptyText]
   * @param {number} [options.height]
   */
  constructor(container, options) {
    super(container, options, { mode: 'grouped', totals: true, valueFormat: formatSig });
  }

  figure(width) {
    const o = this.options;
    const data = this.data;
    // Nothing to draw yet: the hint in a faint frame, no axis (an empty value axis prints a stray "0.000000").
    if (data.length === 0) return emptyPlot(width, o);
    // Categories in the order the rows list them (Plot would sort "8" after "32").
    const xDomain = o.xDomain ?? [...new Set(data.map((d) => d[o.x]))];
    const common = {
      width,
      height: o.height,
      marginLeft: 64,
      marginBottom: 44,
      style: CHART_STYLE,
      ariaLabel: o.ariaLabel,
      y: { label: o.yLabel, grid: true, nice: true, zero: true, tickFormat: tickFormatter(o.yTickFormat ?? o.yFormat) },
      color: { legend: Boolean(o.series), domain: o.seriesDomain, scheme: 'observable10' },
    };
    const tipFormat = { y: o.valueFormat };
    if (o.mode === 'stacked') {
      return Plot.plot({
        ...common,
        x: { label: o.xLabel, labelAnchor: 'center', domain: xDomain, padding: 0.3 },
        marks: [
          Plot.barY(data, {
            x: o.x,
            y: o.y,
            fill: o.series,
            order: o.seriesDomain,
            tip: { format: tipFormat },
          }),
          o.totals
            ? Plot.text(
                data,
                Plot.groupX(
                  { y: 'sum', text: (values) => o.valueFormat(values.reduce((a, b) => a + b, 0)) },
                  { x: o.x, y: o.y, text: o.y, dy: -8, fill: 'currentColor' },
                ),
              )
            : null,
          Plot.ruleY([0]),
          ...referenceMarks(o.references ?? []),
        ],
      });
    }
    if (!o.series) {
      return Plot.plot({
        ...common,
        x: { label: o.xLabel, labelAnchor: 'center', domain: xDomain, padding: 0.3 },
        marks: [
          Plot.barY(data, { x: o.x, y: o.y, fill: 'var(--accent, steelblue)', tip: { format: tipFormat } }),
          Plot.ruleY([0]),
          ...referenceMarks(o.references ?? []),
        ],
      });
    }
    // Grouped: one facet per category, the series side by side inside it.
    return Plot.plot({
      ...common,
      fx: { label: o.xLabel, labelAnchor: 'center', domain: xDomain, padding: 0.15, axis: 'bottom' },
      x: { axis: null, domain: o.seriesDomain, padding: 0.1 },
      marks: [
        Plot.barY(data, { fx: o.x, x: o.series, y: o.y, fill: o.series, tip: { format: tipFormat } }),
        Plot.ruleY([0]),
        ...referenceMarks(o.references ?? [], xDomain.at(-1)),
      ],
    });
  }
}
