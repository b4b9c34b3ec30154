// A podium: three steps in the podium's order (2nd, 1st, 3rd), the 1st the tallest, and above
// each step the names on it with their scores, one per line; rows that share a place stand on
// the same step (a tie is a tie, not an order). A place nobody holds keeps its faint step and
// a dash. Drawn with Observable Plot. Not for: ranking (rows arrive with their place).

import { Plot } from './plot-lib.js';
import { CHART_STYLE, PlotChart, emptyPlot } from './plot-chart.js';

const STEPS = Object.freeze([
  { place: 2, label: '2nd', height: 2, fill: '#a8a9ad' },
  { place: 1, label: '1st', height: 3, fill: '#d4a017' },
  { place: 3, label: '3rd', height: 1, fill: '#b87333' },
]);

export class PodiumChart extends PlotChart {
  /**
   * @param {HTMLElement} container
   * @param {object} options
   * @param {string} options.ariaLabel
   * @param {number} [options.maxNames] names written on one step at most (default 4); the
   *        rest are counted ("+2 more")
   * @param {string} [options.emptyText]
   * @param {number} [options.height]
   */
  // update(rows): [{place: 1|2|3, name, score_text}], in the order each step lists them.
  constructor(container, options) {
    super(container, options, { height: 210, maxNames: 4 });
  }

  figure(width) {
    const o = this.options;
    const rows = Array.isArray(this.data) ? this.data : [];
    if (rows.length === 0) return emptyPlot(width, o);
    const steps = STEPS.map((s) => {
      const on = rows.filter((r) => r.place === s.place);
      const shown = on.slice(0, o.maxNames).map((r) => `${r.name}  ${r.score_text}`);
      if (on.length > o.maxNames) shown.push(`+${on.length - o.maxNames} more`);
      return { ...s, held: on.length > 0, names: on.length ? shown.join('\n') : '—', lines: Math.max(1, shown.length) };
    });
    // The y domain leaves room above each step (height h units) for its names, 15 px a line:
    // (top - h) units of the plot's height must hold them.
    const area = o.height - 22; // the plot's height inside its top and bottom margins
    const need = (s) => Math.min(area - 40, s.lines * 15 + 12);
    const top = Math.max(3.6, ...steps.map((s) => (s.height * area) / (area - need(s))));
    return Plot.plot({
      width,
      height: o.height,
      marginTop: 10,
      marginBottom: 12,
      marginLeft: 10,
      marginRight: 10,
      style: CHART_STYLE,
      ariaLabel: o.ariaLabel,
      x: { domain: STEPS.map((s) => s.label), padding: 0.08, axis: null }, // each step says its place
      y: { domain: [0, top], axis: null },
      marks: [
        Plot.barY(steps, { x: 'label', y: 'height', fill: 'fill', fillOpacity: (s) => (s.held ? 0.9 : 0.2), className: 'podium-step' }),
        Plot.text(steps, { x: 'label', y: 'height', text: (s) => s.label, dy: 14, fill: (s) => (s.held ? 'white' : 'currentColor'), fontWeight: 'bold', fontSize: 14 }),
        Plot.text(steps, { x: 'label', y: 'height', text: 'names', lineAnchor: 'bottom', dy: -6, fill: 'currentColor', className: 'podium-names' }),
        Plot.ruleY([0]),
      ],
    });
  }
}
