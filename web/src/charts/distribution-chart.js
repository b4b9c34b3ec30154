// The distribution of one sample: a histogram whose samples outside Tukey's fences are
// coloured apart, the mean and the median as labelled rules, and optionally a box plot under
// it on the same axis. `update({values, summary})` takes the raw sample and core's summary
// of it (mean, median, p25, p75, lower_fence, upper_fence), all in the chart's unit.
// Not for: computing the summary (core does; stats-shape.js only bins and splits).

import * as Plot from '@observablehq/plot';
import { CHART_STYLE, PlotChart, emptyMark } from './plot-chart.js';
import { HISTOGRAM_PARTS, binCount, boxPlot, centreRules, histogram } from './stats-shape.js';
import { formatSig } from '../ui/format.js';

const MARGIN = Object.freeze({ left: 56, right: 24 });
const BOX_HEIGHT = 84;

export class DistributionChart extends PlotChart {
  /**
   * @param {HTMLElement} container
   * @param {object} options
   * @param {string} options.unit the values' unit, written after each label value ("µs")
   * @param {string} options.xLabel axis label with unit ("time per call (µs) →")
   * @param {string} [options.yLabel] default '↑ samples'
   * @param {boolean} [options.box] draw a box plot under the histogram (default false)
   * @param {number} [options.maxBins] at most this many bins (default 60)
   * @param {(value: number) => string} [options.valueFormat] label numbers (default 3 significant digits)
   * @param {string} options.ariaLabel
   * @param {string} [options.emptyText]
   * @param {number} [options.height] the histogram's height; the box plot adds its own
   */
  constructor(container, options) {
    super(container, options, { box: false, maxBins: 60, yLabel: '↑ samples', valueFormat: formatSig });
  }

  figure(width) {
    const o = this.options;
    const values = this.data?.values ?? [];
    const summary = this.data?.summary;
    if (values.length === 0 || !summary) {
      // No scales, so no axes: only the hint inside an empty frame of the chart's size.
      return Plot.plot({
        width,
        height: o.height,
        style: CHART_STYLE,
        ariaLabel: o.ariaLabel,
        ariaDescription: o.emptyText,
        marks: [Plot.frame({ strokeOpacity: 0.15 }), emptyMark(true, o.emptyText)],
      });
    }
    const min = Math.min(...values);
    const max = Math.max(...values);
    const bins = binCount({ n: values.length, iqr: summary.p75 - summary.p25, min, max }, o.maxBins);
    const rows = histogram(values, { bins, lowerFence: summary.lower_fence, upperFence: summary.upper_fence });
    const xDomain = [rows[0].x0, rows[rows.length - 1].x1];
    const withUnit = (v) => `${o.valueFormat(v)} ${o.unit}`;
    const rules = centreRules(summary.mean, summary.median, withUnit);
    const outlierCount = rows.filter((r) => r.part === HISTOGRAM_PARTS[1]).reduce((s, r) => s + r.count, 0);
    const x = { domain: xDomain, label: o.box ? null : o.xLabel, labelAnchor: 'center', grid: true };
    const histogramSvg = Plot.plot({
      width,
      height: o.height,
      marginLeft: MARGIN.left,
      marginRight: MARGIN.right,
      marginTop: 28,
      marginBottom: o.box ? 24 : 44,
      style: CHART_STYLE,
      ariaLabel: o.ariaLabel,
      ariaDescription:
        `${values.length} samples, median ${withUnit(summary.median)}, mean ${withUnit(summary.mean)}, ` +
        `${outlierCount} outside Tukey's fences`,
      x,
      y: { label: o.yLabel, grid: true, nice: true },
      color: { legend: true, domain: HISTOGRAM_PARTS, range: ['var(--accent, #2457c5)', '#d62728'] },
      marks: [
        Plot.rectY(rows, { x1: 'x0', x2: 'x1', y: 'count', fill: 'part', inset: 0.5, tip: true }),
        Plot.ruleY([0]),
        // The median solid, the mean dashed: the legend-free way to tell them apart.
        Plot.ruleX(rules, {
          x: 'x',
          stroke: 'currentColor',
          strokeWidth: 1.5,
          strokeDasharray: (r) => (r.key === 'mean' ? '5,3' : null),
        }),
        ...rules.map((r) =>
          Plot.text([r], {
            x: 'x',
            frameAnchor: 'top',
            text: 'label',
            textAnchor: r.anchor,
            dx: r.anchor === 'end' ? -4 : 4,
            dy: -14,
            fill: 'currentColor',
          }),
        ),
      ],
    });
    if (!o.box) return histogramSvg;
    const box = boxPlot(values, summary);
    const boxSvg = Plot.plot({
      width,
      height: BOX_HEIGHT,
      marginLeft: MARGIN.left,
      marginRight: MARGIN.right,
      marginTop: 8,
      marginBottom: 40,
      style: CHART_STYLE,
      ariaLabel: `${o.ariaLabel}: box plot`,
      ariaDescription:
        `box from ${withUnit(box.q1)} to ${withUnit(box.q3)}, whiskers from ${withUnit(box.whiskerLow)} ` +
        `to ${withUnit(box.whiskerHigh)}, ${box.outliers.length} outliers`,
      x: { ...x, label: o.xLabel },
      y: { axis: null, domain: [0, 1] },
      marks: [
        Plot.ruleY([box], { x1: 'whiskerLow', x2: 'whiskerHigh', y: 0.5, stroke: 'currentColor' }),
        Plot.ruleX([box.whiskerLow, box.whiskerHigh], { x: (v) => v, y1: 0.3, y2: 0.7, stroke: 'currentColor' }),
        Plot.rect([box], {
          x1: 'q1',
          x2: 'q3',
          y1: 0.15,
          y2: 0.85,
          fill: 'var(--surface, #f5f7fa)',
          stroke: 'currentColor',
        }),
        Plot.ruleX([box], { x: 'median', y1: 0.15, y2: 0.85, stroke: 'currentColor', strokeWidth: 2.5 }),
        Plot.dot(box.outliers, { x: (v) => v, y: 0.5, r: 3, stroke: '#d62728', fill: 'none', tip: true }),
      ],
    });
    const figure = document.createElement('div');
    figure.className = 'distribution-chart';
    figure.append(histogramSvg, boxSvg);
    return figure;
  }
}
