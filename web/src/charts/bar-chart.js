// A bar chart, grouped (one bar per series side by side within each category) or stacked
// (series piled up, with the total above each stack), drawn with Observable Plot from
// long-form rows (shape.js's toLong makes them from wide rows). Labelled axes with units,
// a legend and an ARIA label. Not for: computing the values (rows arrive computed).

import * as Plot from '@observablehq/plot';
import { CHART_STYLE, PlotChart, emptyMark } from './plot-chart.js';
import { formatSig } from '../ui/format.js';

// Dashed horizontal references with their labels at the right edge, drawn once there are bars
// (an empty chart shows only its hint). The labels sit above their line.
function referenceMarks(references, drawn) {
  if (!drawn || references.length === 0) return [];
  return [
    Plot.ruleY(references, { y: 'y', stroke: 'currentColor', strokeDasharray: '4,3', strokeOpacity: 0.7 }),
    Plot.text(references, {
      y: 'y',
      text: 'label',
      frameAnchor: 'right',
      textAnchor: 'end',
      dy: -6,
      fill: 'currentColor',
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
   * @param {(value: number) => string} [options.valueFormat] for stack totals and tips
   * @param {boolean} [options.totals] stacked mode: write each stack's total above it (default true)
   * @param {Array<{y: number, label: string}>} [options.references] single-series bars:
   *        dashed horizontal lines, each labelled at its right end (a 1× or 4× mark)
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
    // Categories in the order the rows list them (Plot would sort "8" after "32").
    const xDomain = o.xDomain ?? [...new Set(data.map((d) => d[o.x]))];
    const common = {
      width,
      height: o.height,
      marginLeft: 64,
      marginBottom: 44,
      style: CHART_STYLE,
      ariaLabel: o.ariaLabel,
      ariaDescription: data.length ? undefined : o.emptyText,
      y: { label: o.yLabel, grid: true, nice: true, zero: true, tickFormat: o.yTickFormat },
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
          o.totals && data.length
            ? Plot.text(
                data,
                Plot.groupX(
                  { y: 'sum', text: (values) => o.valueFormat(values.reduce((a, b) => a + b, 0)) },
                  { x: o.x, y: o.y, text: o.y, dy: -8, fill: 'currentColor' },
                ),
              )
            : null,
          Plot.ruleY([0]),
          emptyMark(data.length === 0, o.emptyText),
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
          ...referenceMarks(o.references ?? [], data.length > 0),
          emptyMark(data.length === 0, o.emptyText),
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
        emptyMark(data.length === 0, o.emptyText),
      ],
    });
  }
}
