// Protects the point-label placement of the scatter charts (web/src/charts/labels.js): a lone
// label sits right of its point; labels of points too close to share a line move up or down
// one line, or to the left at the frame's right edge; none is placed over another label or
// another point's dot while a free place exists. Pixel geometry computed by hand.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { placeLabels } from '../../web/src/charts/labels.js';

// charWidth 10 and lineHeight 10 keep the arithmetic readable.
const frame = { left: 0, right: 400, top: 0, bottom: 300, charWidth: 10, lineHeight: 10, gap: 5, dotRadius: 2 };

test('a lone label goes right of its point, on its line', () => {
  assert.deepEqual(placeLabels([{ x: 100, y: 100, text: 'add' }], frame), [{ side: 'right', dy: 0 }]);
});

test('a second point on the same spot moves its label one line up, a third one line down', () => {
  const items = [
    { x: 100, y: 100, text: 'sum' },
    { x: 102, y: 100, text: 'softmax' },
    { x: 101, y: 100, text: 'layernorm' },
  ];
  assert.deepEqual(placeLabels(items, frame), [
    { side: 'right', dy: 0 },
    { side: 'right', dy: -10 },
    { side: 'right', dy: 10 },
  ]);
});

test('points far apart keep their labels on their own lines', () => {
  const items = [
    { x: 50, y: 50, text: 'a' },
    { x: 200, y: 200, text: 'b' },
  ];
  assert.deepEqual(placeLabels(items, frame), [
    { side: 'right', dy: 0 },
    { side: 'right', dy: 0 },
  ]);
});

test('a label that would leave the frame on the right goes to the left of its point', () => {
  // 'matmul' is 60 px wide: from x = 360 + 5 it would end at 425 > 400.
  assert.deepEqual(placeLabels([{ x: 360, y: 100, text: 'matmul' }], frame), [{ side: 'left', dy: 0 }]);
});

test('a label does not cover another point\'s dot', () => {
  // The second point's dot (x 118-122, y 98-102) lies where the first label would go
  // (x 105-135, y 95-105), so the first label moves up a line; the second then has its line.
  const items = [
    { x: 100, y: 100, text: 'add' },
    { x: 120, y: 100, text: 'mul' },
  ];
  assert.deepEqual(placeLabels(items, frame), [
    { side: 'right', dy: -10 },
    { side: 'right', dy: 0 },
  ]);
});

test('with no free place a label stays right of its point, and empty labels are left alone', () => {
  const tiny = { ...frame, right: 40, bottom: 10 };
  assert.deepEqual(placeLabels([{ x: 5, y: 5, text: 'x' }, { x: 6, y: 5, text: 'y' }, { x: 7, y: 5, text: '' }], tiny), [
    { side: 'right', dy: 0 },
    { side: 'right', dy: 0 },
    { side: 'right', dy: 0 },
  ]);
});

test('a point at the bottom edge of the frame keeps its label on its line', () => {
  // The text reaches half a line below the frame (y 295-305 against a bottom of 300): allowed,
  // as long as its middle line is inside.
  assert.deepEqual(placeLabels([{ x: 100, y: 300, text: 'gelu' }], frame), [{ side: 'right', dy: 0 }]);
  assert.deepEqual(placeLabels([{ x: 100, y: 0, text: 'gelu' }], frame), [{ side: 'right', dy: 0 }]);
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
