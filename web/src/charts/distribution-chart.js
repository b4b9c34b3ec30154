// The distribution of one sample: a histogram whose samples outside Tukey's fences are
// coloured apart, the mean and the median as labelled rules, and optionally a box plot under
// it on the same axis. `update({values, summary, note?})` takes the raw sample and core's
// summary of it (mean, median, p25, p75, lower_fence, upper_fence), all in the chart's unit,
// and a sentence written above the histogram (what a zoomed histogram left out).
// Not for: computing the summary (core does; stats-shape.js only bins and splits).

import { Plot } from './plot-lib.js';
import { CHART_STYLE, PlotChart, emptyPlot } from './plot-chart.js';
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
    if (values.length === 0 || !summary) return emptyPlot(width, o);
    // A loop, not Math.min(...values): spreading a very large sample overflows the call stack.
    let min = Infinity;
    let max = -Infinity;
    for (const v of values) [min, max] = [Math.min(min, v), Math.max(max, v)];
    const bins = binCount({ n: values.length, iqr: summary.p75 - summary.p25, min, max }, o.maxBins);
    const rows = histogram(values, { bins, lowerFence: summary.lower_fence, upperFence: summary.upper_fence });
    const xDomain = [rows[0].x0, rows[rows.length - 1].x1];
    const withUnit = (v) => `${o.valueFormat(v)} ${o.unit}`;
    // A centre outside the histogram (the mean of a zoom that left the slow tail out) is not
    // drawn off the frame; the data's note says where it is.
    const rules = centreRules(summary.mean, summary.median, withUnit, xDomain).filter((r) => r.x >= xDomain[0] && r.x <= xDomain[1]);
    const stacks = new Map();
    for (const r of rows) stacks.set(r.x0, (stacks.get(r.x0) ?? 0) + r.count);
    const tallest = Math.max(...stacks.values());
    const box = boxPlot(values, summary);
    const outliers = box.outliers;
    const x = { domain: xDomain, label: o.box ? null : o.xLabel, labelAnchor: 'center', grid: true };
    const histogramSvg = Plot.plot({
      width,
      height: o.height,
      marginLeft: MARGIN.left,
      marginRight: MARGIN.right,
      marginTop: 20,
      marginBottom: o.box ? 24 : 44,
      style: CHART_STYLE,
      ariaLabel: o.ariaLabel,
      ariaDescription:
        `${values.length} samples, median ${withUnit(summary.median)}, mean ${withUnit(summary.mean)}, ` +
        `${outliers.length} outside Tukey's fences`,
      x,
      // 25% headroom above the tallest bar for the median and mean labels.
      y: { label: o.yLabel, domain: [0, tallest * 1.25], grid: true, nice: true },
      color: { legend: true, domain: HISTOGRAM_PARTS, range: ['var(--accent, #2457c5)', '#d62728'] },
      marks: [
        Plot.rectY(rows, { x1: 'x0', x2: 'x1', y: 'count', fill: 'part', inset: 0.5, tip: true }),
        Plot.ruleY([0]),
        // Without the box plot, a lone slow sample is a one-pixel bar: ring each outlier on the baseline.
        o.box ? null : Plot.dot(outliers, { x: (v) => v, y: 0, r: 3, stroke: '#d62728', fill: 'none', tip: true }),
        // The median solid, the mean dashed (a dash pattern is one per mark, not a channel).
        ...rules.map((r) =>
          Plot.ruleX([r], {
            x: 'x',
            stroke: 'currentColor',
            strokeWidth: 1.5,
            strokeDasharray: r.key === 'mean' ? '5,3' : undefined,
          }),
        ),
        // Inside the frame's top band, kept clear of the bars by the y domain's headroom.
        ...rules.map((r) =>
          Plot.text([r], {
            x: 'x',
            frameAnchor: 'top',
            text: 'label',
            textAnchor: r.anchor,
            dx: r.anchor === 'end' ? -5 : 5,
            dy: 10 + 16 * r.line,
            fill: 'currentColor',
            stroke: 'var(--bg, white)',
            strokeWidth: 3,
            paintOrder: 'stroke',
          }),
        ),
      ],
    });
    const note = this.data?.note;
    if (!o.box && !note) return histogramSvg;
    const figure = document.createElement('div');
    figure.className = 'distribution-chart';
    if (note) {
      const p = document.createElement('p');
      p.className = 'hint chart-note';
      p.dataset.role = 'chart-note';
      p.textContent = note;
      figure.append(p);
    }
    figure.append(histogramSvg);
    if (!o.box) return figure;
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
    figure.append(boxSvg);
    return figure;
  }
}
