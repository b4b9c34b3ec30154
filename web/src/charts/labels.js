// Where each point's label goes on a chart, so that labels of nearby points do not print over
// each other and each sits by its own point: greedy, in pixel space, in the order given. A
// label first tries its point's own line, right then left, then one, two, three lines above
// or below it (right, then left); the first place whose text stays between the frame's left
// and right and whose middle line stays between its top and bottom, that overlaps neither a
// label placed before it nor another point's dot, and to which no other point is nearer than
// its own wins. In a crowd it then tries four to eight lines away, first still with those
// rules, then allowed to cover a dot or sit nearer another point, never over another label
// (else it stays right of its point). A label off its point's line is `displaced`: the chart
// draws a leader line from the dot to it. Text width is estimated from its length.
// Not for: drawing (the chart draws the labels where this says), or many hundreds of points.

const NEAR = [0, -1, 1, -2, 2, -3, 3];
const FAR = [-4, 4, -5, 5, -6, 6, -7, 7, -8, 8];
// Each pass: the line offsets it tries and whether a label may cover another point's dot.
const PASSES = [
  { offsets: NEAR, coverDots: false },
  { offsets: FAR, coverDots: false },
  { offsets: [...NEAR, ...FAR], coverDots: true },
];

const overlaps = (a, b) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
// Pixels from a point to the nearest spot of a box (0 inside it).
const distance = (p, b) => Math.hypot(Math.max(b.x0 - p.x, 0, p.x - b.x1), Math.max(b.y0 - p.y, 0, p.y - b.y1));

/**
 * @param {Array<{x: number, y: number, text: string}>} items each point's pixel position and label
 * @param {object} frame
 * @param {number} frame.left  @param {number} frame.right  @param {number} frame.top
 * @param {number} frame.bottom the plotting area in pixels
 * @param {number} [frame.charWidth] estimated pixels per character (12 px font: 6.6)
 * @param {number} [frame.lineHeight] pixels per label line
 * @param {number} [frame.gap] pixels between a point and its label
 * @param {number} [frame.dotRadius] radius of every point's dot, an obstacle for other labels
 * @param {Array<{x0: number, x1: number, y0: number, y1: number}>} [obstacles] boxes already
 *        taken (the chart's own texts, such as a reference line's label), never covered
 * @returns {Array<{side: 'right'|'left', dy: number, displaced: boolean}>} per item, in pixels
 *          (dy down); displaced when the label is off its point's line (dy not 0)
 */
export function placeLabels(items, frame, obstacles = []) {
  const { left, right, top, bottom, charWidth = 6.6, lineHeight = 14, gap = 8, dotRadius = 4.5 } = frame;
  const dots = items.map((p) => ({
    x0: p.x - dotRadius,
    x1: p.x + dotRadius,
    y0: p.y - dotRadius,
    y1: p.y + dotRadius,
  }));
  const placed = [...obstacles];
  const place = (side, dy) => ({ side, dy, displaced: dy !== 0 });
  return items.map((p, i) => {
    if (!p.text) return place('right', 0);
    const w = p.text.length * charWidth;
    const boxFor = (side, dy) => {
      const x0 = side === 'right' ? p.x + gap : p.x - gap - w;
      const yc = p.y + dy;
      return { x0, x1: x0 + w, y0: yc - lineHeight / 2, y1: yc + lineHeight / 2 };
    };
    // Another point nearer the label than its own would have the label read as its (a point
    // whose dot overlaps this one's is not another place: either reading is right).
    const nearerOther = (box) => {
      const own = distance(p, box);
      return items.some(
        (q, j) => j !== i && Math.hypot(q.x - p.x, q.y - p.y) > 2 * dotRadius && distance(q, box) < own - 0.5,
      );
    };
    for (const { offsets, coverDots } of PASSES) {
      for (const k of offsets) {
        for (const side of ['right', 'left']) {
          const dy = k * lineHeight;
          const box = boxFor(side, dy);
          // Whole text inside left-right; its middle inside top-bottom (half a line may reach
          // into a margin, so the lowest and highest points keep their labels beside them).
          const middle = p.y + dy;
          const inside = box.x0 >= left && box.x1 <= right && middle >= top && middle <= bottom;
          if (!inside) continue;
          if (placed.some((b) => overlaps(b, box))) continue;
          if (!coverDots && (dots.some((d, j) => j !== i && overlaps(d, box)) || nearerOther(box))) continue;
          placed.push(box);
          return place(side, dy);
        }
      }
    }
    placed.push(boxFor('right', 0));
    return place('right', 0);
  });
}
