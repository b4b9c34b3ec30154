// A scatter chart with log-log axes by default, optional point labels and reference lines:
// full-width rules ({y} or {x}) and segments ({x1, y1, x2, y2}), each with a label. The
// roofline is its main use (shape.js's rooflineReferences draws the peak and bandwidth
// lines); an interval is a segment with caps. A log axis from the data reaches the next
// labelled value beyond its points; a label moved off its point's line gets a leader line;
// a segment end the axis cannot show (0 on a log axis, infinite, beyond a fixed domain) stops
// at the frame's edge with an arrowhead. Not for: computing the points or the lines (they
// arrive computed).

import { Plot } from './plot-lib.js';
import { placeLabels } from './labels.js';
import { CHART_STYLE, PlotChart, emptyPlot, positionalAxis } from './plot-chart.js';

const MARGIN = Object.freeze({ left: 60, right: 24, top: 20, bottom: 44 });

// Every value a reference puts on an axis, so a log domain taken from the data holds the lines too.
const referenceValues = (references, keys) => references.flatMap((r) => keys.map((k) => r[k])).filter((v) => v !== undefined);

// A segment end on an axis with a known domain: where it is drawn and whether it was cut
// ('low' or 'high'); null when it has no value to draw (missing or NaN).
function clampEnd(v, domain, log) {
  if (typeof v !== 'number' || Number.isNaN(v)) return null;
  if (!domain) return { v, cut: null };
  const [lo, hi] = [Math.min(...domain), Math.max(...domain)];
  if (v < lo || (log && v <= 0)) return { v: lo, cut: 'low' };
  if (v > hi) return { v: hi, cut: 'high' };
  return { v, cut: null };
}

// An interval's cap: a short horizontal stroke (a d3 symbol, so it sits on any scale).
const CAP = Object.freeze({
  draw(context, size) {
    const half = Math.sqrt(size) / 1.2;
    context.moveTo(-half, 0);
    context.lineTo(half, 0);
  },
});

export class ScatterChart extends PlotChart {
  /**
   * @param {HTMLElement} container
   * @param {object} options
   * @param {string} options.x field for the x value
   * @param {string} options.y field for the y value
   * @param {string} [options.series] field for the point's colour
   * @param {string} [options.label] field whose text is written beside each point
   * @param {string} [options.front] field that is true on a Pareto frontier's points: those
   *        are ringed and joined, in order of x, by a dashed line
   * @param {string[]} [options.seriesDomain]
   * @param {'log'|'linear'} [options.xType] default 'log'
   * @param {'log'|'linear'} [options.yType] default 'log'
   * @param {number[]} [options.xDomain] fixed [min, max]
   * @param {number[]} [options.yDomain] fixed [min, max]
   * @param {'bytes'|'count'|Function} [options.xFormat] tick text in the table's units (default 'count': 200k, 1M)
   * @param {'bytes'|'count'|Function} [options.yFormat]
   * @param {Array<object>} [options.references] `{y, label}`, `{x, label}` or
   *        `{x1, y1, x2, y2, label}`; each may set `stroke` and `dashed`, a segment `caps`
   *        (an interval: a short stroke across each end it reaches)
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
    const given = references.filter((r) => r.x1 !== undefined);
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
      nice: 'ticks',
    });
    const y = positionalAxis('y', {
      type: o.yType,
      domain: o.yDomain,
      values: [...points.map((p) => p[o.y]), ...referenceValues(references, ['y', 'y1', 'y2'])],
      format: o.yFormat,
      label: o.yLabel,
      nice: 'ticks',
    });
    // Segments with their ends on the axes: cut at the frame where the axis cannot show them.
    const segments = [];
    const cuts = [];
    for (const r of given) {
      const ends = [
        [clampEnd(r.x1, x.scale.domain, o.xType === 'log'), clampEnd(r.y1, y.scale.domain, o.yType === 'log')],
        [clampEnd(r.x2, x.scale.domain, o.xType === 'log'), clampEnd(r.y2, y.scale.domain, o.yType === 'log')],
      ];
      if (ends.flat().some((e) => e === null)) continue;
      const [[x1, y1], [x2, y2]] = ends;
      segments.push({ ...r, x1: x1.v, y1: y1.v, x2: x2.v, y2: y2.v, ends });
      for (const [ex, ey] of ends) {
        const cut = ey.cut ?? ex.cut;
        if (cut) {
          // The arrowhead points out of the frame: up or down on y, right or left on x.
          const rotate = ey.cut ? (cut === 'high' ? 0 : 180) : cut === 'high' ? 90 : 270;
          cuts.push({ x: ex.v, y: ey.v, rotate, stroke: r.stroke ?? 'currentColor' });
        }
      }
    }
    // A frontier: its points in order of x (then y), ringed and joined.
    const front = o.front ? points.filter((p) => p[o.front]).sort((a, b) => a[o.x] - b[o.x] || a[o.y] - b[o.y]) : [];
    const caps = segments
      .filter((r) => r.caps)
      .flatMap((r) => r.ends.filter(([ex, ey]) => !ex.cut && !ey.cut).map(([ex, ey]) => ({ x: ex.v, y: ey.v, stroke: r.stroke ?? 'currentColor' })));
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
        Plot.dot(caps, { x: 'x', y: 'y', symbol: CAP, r: 5, stroke: 'stroke', strokeWidth: 1.5, strokeOpacity: 0.75, className: 'interval-end' }),
        Plot.dot(cuts, { x: 'x', y: 'y', symbol: 'triangle', rotate: 'rotate', r: 4.5, fill: 'stroke', stroke: 'none', className: 'cut-at-frame' }),
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
        // A vertical rule's label at the top of the frame, or at its foot with labelAt: 'bottom'
        // (the roofline's ridge, whose top meets the roofs and their labels).
        Plot.text(
          rulesX.filter((r) => r.label && r.labelAt !== 'bottom'),
          { x: 'x', frameAnchor: 'top', text: 'label', textAnchor: 'start', dx: 4, dy: 10, fill: 'currentColor' },
        ),
        Plot.text(
          rulesX.filter((r) => r.label && r.labelAt === 'bottom'),
          { x: 'x', frameAnchor: 'bottom', text: 'label', textAnchor: 'start', dx: 4, dy: -10, fill: 'currentColor' },
        ),
        ...(front.length
          ? [
              Plot.line(front, { x: o.x, y: o.y, stroke: 'currentColor', strokeOpacity: 0.6, strokeWidth: 1.5, strokeDasharray: '5,4', className: 'frontier' }),
              Plot.dot(front, { x: o.x, y: o.y, r: 8, stroke: 'currentColor', strokeWidth: 1.5, fill: 'none', className: 'frontier-point' }),
            ]
          : []),
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
    // The reference lines' labels, where config() writes them, are taken places.
    const CHAR = 6.6;
    const textBox = (x0, yc, text) => ({ x0, x1: x0 + text.length * CHAR, y0: yc - 7, y1: yc + 7 });
    const taken = [
      ...segments
        .filter((r) => r.label)
        .map((r) => {
          const x1 = sx.apply(r.labelX ?? r.x2) - 4;
          return textBox(x1 - r.label.length * CHAR, sy.apply(r.labelY ?? r.y2) - 8, r.label);
        }),
      ...rulesY.filter((r) => r.label).map((r) => textBox(width - MARGIN.right - 4 - r.label.length * CHAR, sy.apply(r.y) - 8, r.label)),
      ...rulesX.filter((r) => r.label).map((r) => textBox(sx.apply(r.x) + 4, MARGIN.top + 10, r.label)),
    ].filter((b) => Number.isFinite(b.x0) && Number.isFinite(b.y0));
    const places = placeLabels(
      labelled,
      { left: MARGIN.left, right: width - MARGIN.right, top: MARGIN.top - 7, bottom: height - MARGIN.bottom + 7 },
      taken,
    );
    const atPlace = (side) =>
      labelled.flatMap((l, i) =>
        places[i].side === side ? [{ x: l.p[o.x], y: sy.invert(l.y + places[i].dy), text: l.text }] : [],
      );
    // A label off its point's line is tied to its dot by a thin leader line, so it cannot be
    // read as a neighbour's (needs scales that invert: not a point or band axis).
    // Drawn as headless arrows, so the chart's links and lines stay its references and data.
    const leaders = sx.invert
      ? labelled.flatMap((l, i) =>
          places[i].displaced
            ? [{ x1: l.p[o.x], y1: l.p[o.y], x2: sx.invert(l.x + (places[i].side === 'right' ? 6 : -6)), y2: sy.invert(l.y + places[i].dy) }]
            : [],
        )
      : [];
    const leaderMark = Plot.arrow(leaders, {
      x1: 'x1',
      y1: 'y1',
      x2: 'x2',
      y2: 'y2',
      headLength: 0,
      stroke: 'currentColor',
      strokeOpacity: 0.45,
      strokeWidth: 1,
      className: 'leader',
    });
    const text = (data, side) =>
      Plot.text(data, {
        x: 'x',
        y: 'y',
        text: 'text',
        dx: side === 'right' ? 8 : -8,
        textAnchor: side === 'right' ? 'start' : 'end',
        fill: 'currentColor',
      });
    return Plot.plot(config([leaderMark, text(atPlace('right'), 'right'), text(atPlace('left'), 'left')]));
  }
}
