// Protects the point-label placement of the scatter charts (web/src/charts/labels.js): a lone
// label sits right of its point; labels of points too close to share a line go left of it, or
// move up or down one line (displaced, so the chart draws a leader line); none is placed over
// another label or another point's dot, or nearer another point than its own, while a free
// place exists. Pixel geometry computed by hand.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { placeLabels } from '../../web/src/charts/labels.js';

// charWidth 10 and lineHeight 10 keep the arithmetic readable.
const frame = { left: 0, right: 400, top: 0, bottom: 300, charWidth: 10, lineHeight: 10, gap: 5, dotRadius: 2 };

test('a lone label goes right of its point, on its line', () => {
  assert.deepEqual(placeLabels([{ x: 100, y: 100, text: 'add' }], frame), [{ side: 'right', dy: 0, displaced: false }]);
});

test('a second point on the same spot puts its label left, on its line; a third moves one line up', () => {
  const items = [
    { x: 100, y: 100, text: 'sum' },
    { x: 102, y: 100, text: 'softmax' },
    { x: 101, y: 100, text: 'layernorm' },
  ];
  assert.deepEqual(placeLabels(items, frame), [
    { side: 'right', dy: 0, displaced: false },
    { side: 'left', dy: 0, displaced: false },
    { side: 'right', dy: -10, displaced: true },
  ]);
});

test('points far apart keep their labels on their own lines', () => {
  const items = [
    { x: 50, y: 50, text: 'a' },
    { x: 200, y: 200, text: 'b' },
  ];
  assert.deepEqual(placeLabels(items, frame), [
    { side: 'right', dy: 0, displaced: false },
    { side: 'right', dy: 0, displaced: false },
  ]);
});

test('a label that would leave the frame on the right goes to the left of its point', () => {
  // 'matmul' is 60 px wide: from x = 360 + 5 it would end at 425 > 400.
  assert.deepEqual(placeLabels([{ x: 360, y: 100, text: 'matmul' }], frame), [{ side: 'left', dy: 0, displaced: false }]);
});

test('a label does not cover another point\'s dot', () => {
  // The second point's dot (x 118-122, y 98-102) lies where the first label would go
  // (x 105-135, y 95-105), so the first label goes left of its point, on its line.
  const items = [
    { x: 100, y: 100, text: 'add' },
    { x: 120, y: 100, text: 'mul' },
  ];
  assert.deepEqual(placeLabels(items, frame), [
    { side: 'left', dy: 0, displaced: false },
    { side: 'right', dy: 0, displaced: false },
  ]);
});

test('a label never sits nearer another point than its own while a place is free', () => {
  // The roofline printed "softmax, layernorm naive" one line under its points and beside the
  // gelu fused dot. Here 'alpha' (50 px) cannot go right or left on its line (dots at x 120
  // and 80), and one line up on the right (x 105-155, y 85-95) it would end 3 px from the dot
  // at (158, 88) and 7 px from its own: it must go elsewhere.
  const items = [
    { x: 100, y: 100, text: 'alpha' },
    { x: 120, y: 100, text: '' },
    { x: 80, y: 100, text: '' },
    { x: 158, y: 88, text: '' },
  ];
  const [place] = placeLabels(items, frame);
  const w = 50;
  const x0 = place.side === 'right' ? 100 + frame.gap : 100 - frame.gap - w;
  const box = { x0, x1: x0 + w, y0: 100 + place.dy - 5, y1: 100 + place.dy + 5 };
  const dist = (p) => Math.hypot(Math.max(box.x0 - p.x, 0, p.x - box.x1), Math.max(box.y0 - p.y, 0, p.y - box.y1));
  // A tie within half a pixel is allowed: a label straight above another point, as far from it.
  for (const other of items.slice(1)) {
    assert.ok(dist(other) >= dist(items[0]) - 0.5, `${JSON.stringify(place)}: (${other.x}, ${other.y}) is nearer the label`);
  }
  assert.equal(place.displaced, true, 'off its line, so the chart draws a leader line');
});

test('with no free place a label stays right of its point, and empty labels are left alone', () => {
  const tiny = { ...frame, right: 40, bottom: 10 };
  assert.deepEqual(placeLabels([{ x: 5, y: 5, text: 'x' }, { x: 6, y: 5, text: 'y' }, { x: 7, y: 5, text: '' }], tiny), [
    { side: 'right', dy: 0, displaced: false },
    { side: 'right', dy: 0, displaced: false },
    { side: 'right', dy: 0, displaced: false },
  ]);
});

test('a point at the bottom edge of the frame keeps its label on its line', () => {
  // The text reaches half a line below the frame (y 295-305 against a bottom of 300): allowed,
  // as long as its middle line is inside.
  assert.deepEqual(placeLabels([{ x: 100, y: 300, text: 'gelu' }], frame), [{ side: 'right', dy: 0, displaced: false }]);
  assert.deepEqual(placeLabels([{ x: 100, y: 0, text: 'gelu' }], frame), [{ side: 'right', dy: 0, displaced: false }]);
});

test('in a crowd, labels move further away rather than print over each other', () => {
  // Sixteen points on one spot: the three nearest lines on each side give 14 places; the
  // last two labels go four lines away instead of over the first.
  const items = Array.from({ length: 16 }, (_, i) => ({ x: 200, y: 150, text: `kernel ${String(i).padStart(2, '0')}` }));
  const places = placeLabels(items, frame);
  const w = 'kernel 00'.length * frame.charWidth;
  const boxes = places.map(({ side, dy }) => {
    const x0 = side === 'right' ? 200 + frame.gap : 200 - frame.gap - w;
    return { x0, x1: x0 + w, y0: 150 + dy - frame.lineHeight / 2, y1: 150 + dy + frame.lineHeight / 2 };
  });
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) {
      assert.ok(!(a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1), `labels ${i} and ${boxes.indexOf(b)} overlap`);
    }
  }
  assert.ok(places.some((p) => Math.abs(p.dy) >= 4 * frame.lineHeight), 'some label went beyond three lines');
});

test('a label does not cover the chart’s own texts (a reference line’s label)', () => {
  // The roofline printed "matmul packed N=64" over "ridge 1.64 FLOP/byte".
  const ridge = { x0: 40, x1: 95, y0: 95, y1: 105 };
  const items = [
    { x: 100, y: 100, text: 'packed' },
    { x: 130, y: 100, text: '' },
  ];
  const [place] = placeLabels(items, frame, [ridge]);
  const x0 = place.side === 'right' ? 105 : 100 - 5 - 60;
  const box = { x0, x1: x0 + 60, y0: 100 + place.dy - 5, y1: 100 + place.dy + 5 };
  assert.ok(!(box.x0 < ridge.x1 && ridge.x0 < box.x1 && box.y0 < ridge.y1 && ridge.y0 < box.y1), JSON.stringify(place));
});
