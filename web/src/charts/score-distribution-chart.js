// How a class scored on each exercise: one horizontal bar per exercise, in the order given
// (the instructor view passes hardest first), split into how many students got no points,
// part of the points and full points (and any other bands the caller counts, such as not
// attempted). Observable Plot; labelled axes and an ARIA label.
// Not for: ordering or counting (the rows arrive counted, grading/summary.js).

import { Plot } from './plot-lib.js';
import { CHART_STYLE, PlotChart, emptyPlot } from './plot-chart.js';

const ROW_HEIGHT = 18;

export class ScoreDistributionChart extends PlotChart {
  /**
   * @param {HTMLElement} container
   * @param {object} options
   * @param {string[]} options.bands the band names in stacking order (left to right)
   * @param {string[]} [options.colors] one colour per band (default: red, amber, green for three)
   * @param {string} options.ariaLabel
   * @param {string} [options.emptyText]
   */
  // update({rows, order}): rows [{exercise, title, band, students}], order the exercise ids top to bottom.
  constructor(container, options) {
    super(container, options, { xLabel: 'students →' });
  }

  figure(width) {
    const o = this.options;
    const rows = this.data?.rows ?? [];
    const order = this.data?.order ?? [];
    if (!rows.length) return emptyPlot(width, o);
    return Plot.plot({
      width,
      height: 60 + ROW_HEIGHT * order.length,
      marginLeft: Math.min(260, Math.max(120, 7 * Math.max(...order.map((id) => id.length)))),
      marginRight: 24,
      style: CHART_STYLE,
      ariaLabel: o.ariaLabel,
      x: { label: o.xLabel, grid: true, tickFormat: (v) => (Number.isInteger(v) ? String(v) : '') },
      y: { domain: order, label: null },
      color: { domain: o.bands, range: o.colors ?? ['#c0392b', '#e5a50a', '#2e7d32'], legend: true },
      marks: [
        Plot.barX(rows, { y: 'exercise', x: 'students', fill: 'band', order: o.bands, tip: { format: { x: true, y: true, fill: true } } }),
        Plot.ruleX([0]),
      ],
    });
  }
}
