// A scatter chart with log-log axes by default, optional point labels and reference lines:
// full-width rules ({y} or {x}) and segments ({x1, y1, x2, y2}), each with a label. The
// roofline is its main use (shape.js's rooflineReferences draws the peak and bandwidth
// lines). Not for: computing the points or the lines (they arrive computed).

import { Plot } from './plot-lib.js';
import { placeLabels } from './labels.js';
import { CHART_STYLE, PlotChart, emptyPlot, positionalAxis } from './plot-chart.js';

const MARGIN = Object.freeze({ left: 60, right: 24, top: 20, bottom: 44 });

// Every value a reference puts on an axis, so a log domain taken from the data holds the lines too.
const referenceValues = (references, keys) => references.flatMap((r) => keys.map((k) => r[k])).filter((v) => v !== undefined);

export class ScatterChart extends PlotChart {
  /**
   * @param {HTMLElement} container
   * @param {object} options
   * @param {string} options.x field for the x value
   * @param {string} options.y field for the y value
   * @param {string} [options.series] field for the point's colour
   * @param {string} [options.label] field whose text is written beside each point
   * @param {string[]} [options.seriesDomain]
   * @param {'log'|'linear'} [options.xType] default 'log'
   * @param {'log'|'linear'} [options.yType] default 'log'
   * @param {number[]} [options.xDomain] fixed [min, max]
   * @param {number[]} [options.yDomain] fixed [min, max]
   * @param {'bytes'|'count'|Function} [options.xFormat] tick text in the table's units (default 'count': 200k, 1M)
   * @param {'bytes'|'count'|Function} [options.yFormat]
   * @param {Array<object>} [options.references] `{y, label}`, `{x, label}` or
   *        `{x1, y1, x2, y2, label}`; each may set `stroke` and `dashed`
   * @param {string} options.xLabel axis label with unit
   * @param {string} options.yLabel axis label with unit
   * @param {string} options.ariaLabel
   * @param {string} [options.emptyText]
   * @param {number} [options.height]
   */
  // update(data) takes the points, or {points, references} when the lines come with them.
  constructor(container, options) {
    super(container, options, { xType: 'log', yType: 'log', references: [] });
  }

  figure(width) {
    const o = this.options;
    const points = Array.isArray(this.data) ? this.data : (this.data?.points ?? []);
    const references = (Array.isArray(this.data) ? null : this.data?.references) ?? o.references ?? [];
    const rulesY = references.filter((r) => r.y !== undefined && r.x1 === undefined);
    const rulesX = references.filter((r) => r.x !== undefined && r.x1 === undefined);
    const segments = references.filter((r) => r.x1 !== undefined);
    const refStyle = (r) => ({
      stroke: r.stroke ?? 'currentColor',
      strokeOpacity: 0.75,
      strokeWidth: 1.5,
      strokeDasharray: r.dashed ? '5,4' : undefined,
    });
    const empty = points.length === 0 && references.length === 0;
    if (empty) return emptyPlot(width, o);
    const x = positionalAxis('x', {
      type: o.xType,
      domain: o.xDomain,
      values: [...points.map((p) => p[o.x]), ...referenceValues(references, ['x', 'x1', 'x2'])],
      format: o.xFormat,
      label: o.xLabel,
      labelAnchor: 'center',
    });
    const y = positionalAxis('y', {
      type: o.yType,
      domain: o.yDomain,
      values: [...points.map((p) => p[o.y]), ...referenceValues(references, ['y', 'y1', 'y2'])],
      format: o.yFormat,
      label: o.yLabel,
    });
    const config = (labelMarks) => ({
      width,
      height: o.height,
      marginLeft: MARGIN.left,
      marginBottom: MARGIN.bottom,
      marginRight: MARGIN.right,
      marginTop: MARGIN.top,
      style: CHART_STYLE,
      ariaLabel: o.ariaLabel,
      ariaDescription: points.length ? undefined : o.emptyText,
      x: x.scale,
      y: y.scale,
      color: { legend: Boolean(o.series), domain: o.seriesDomain, scheme: 'observable10' },
      marks: [
        ...x.marks,
        ...y.marks,
        ...rulesY.map((r) => Plot.ruleY([r.y], refStyle(r))),
        ...rulesX.map((r) => Plot.ruleX([r.x], refStyle(r))),
        ...segments.map((r) => Plot.link([r], { x1: 'x1', y1: 'y1', x2: 'x2', y2: 'y2', ...refStyle(r) })),
        // Labels sit just above the right end of each line, inside the frame.
        // A segment's label sits at (labelX, labelY) when given (the roofline puts the
        // bandwidth label halfway up its diagonal), else at the segment's right end.
        Plot.text(
          segments.filter((r) => r.label),
          {
            x: (r) => r.labelX ?? r.x2,
            y: (r) => r.labelY ?? r.y2,
            text: 'label',
            textAnchor: 'end',
            dx: -4,
            dy: -8,
            fill: 'currentColor',
          },
        ),
        Plot.text(
          rulesY.filter((r) => r.label),
          { y: 'y', frameAnchor: 'right', text: 'label', textAnchor: 'end', dx: -4, dy: -8, fill: 'currentColor' },
        ),
        Plot.text(
          rulesX.filter((r) => r.label),
          { x: 'x', frameAnchor: 'top', text: 'label', textAnchor: 'start', dx: 4, dy: 10, fill: 'currentColor' },
        ),
        Plot.dot(points, { x: o.x, y: o.y, fill: o.series ?? 'currentColor', r: 4.5, tip: true }),
        ...labelMarks,
      ],
    });
    if (!o.label || points.length === 0) return Plot.plot(config([]));
    // Labels are placed in pixels: draw once without them to learn the scales, place each
    // label clear of the others (labels.js), then draw with the labels at those places.
    const height = o.height;
    const bare = Plot.plot(config([]));
    const sx = bare.scale('x');
    const sy = bare.scale('y');
    const labelled = points
      .map((p) => ({ p, x: sx.apply(p[o.x]), y: sy.apply(p[o.y]), text: String(p[o.label] ?? '') }))
      .filter((l) => l.text && Number.isFinite(l.x) && Number.isFinite(l.y));
    // Half a line (7 px) of slack above and below: the extreme dots of a log axis sit on, or a
    // pixel past, the frame's edge, and their labels belong on their own line.
    const places = placeLabels(labelled, {
      left: MARGIN.left,
      right: width - MARGIN.right,
      top: MARGIN.top - 7,
      bottom: height - MARGIN.bottom + 7,
    });
    const atPlace = (side) =>
      labelled.flatMap((l, i) =>
        places[i].side === side ? [{ x: l.p[o.x], y: sy.invert(l.y + places[i].dy), text: l.text }] : [],
      );
    const text = (data, side) =>
      Plot.text(data, {
        x: 'x',
        y: 'y',
        text: 'text',
        dx: side === 'right' ? 8 : -8,
        textAnchor: side === 'right' ? 'start' : 'end',
        fill: 'currentColor',
      });
    return Plot.plot(config([text(atPlace('right'), 'right'), text(atPlace('left'), 'left')]));
  }
}
