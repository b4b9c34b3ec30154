// Fashion-MNIST images on canvas: one grey image of the test split by its row, from the IDX
// bytes core has already read and checked (loadFashionMnist), with the image size core
// reported (the rows and cols of loadFashionMnist's answer). Also which rows show each class, for the sample
// grid. Not for: checking IDX (core's parse_idx did) or choosing what to show (the views).

import { h } from '../../ui/dom.js';

// IDX data starts after the magic (4 bytes) and one 4-byte size per dimension (byte 3 is the rank).
const dataOffset = (bytes) => 4 + 4 * bytes[3];

/** The label of row i. */
export const labelAt = (labelBytes, i) => labelBytes[dataOffset(labelBytes) + i];

/** The first `perClass` rows of each class, in row order: rows[class] = [row, ...]. */
export function rowsByClass(labelBytes, classes, count, perClass) {
  const rows = Array.from({ length: classes }, () => []);
  let missing = classes * perClass;
  for (let i = 0; i < count && missing > 0; i++) {
    const list = rows[labelAt(labelBytes, i)];
    if (list && list.length < perClass) {
      list.push(i);
      missing -= 1;
    }
  }
  return rows;
}

/**
 * A canvas showing row i of the images (0 dark, 255 bright, as stored), drawn at its own
 * resolution and scaled up by CSS without smoothing.
 */
export function imageCanvas(imageBytes, i, { rows, cols }, { label, size = 56 } = {}) {
  const canvas = h('canvas', { width: cols, height: rows, class: 'fm-image', role: 'img', 'aria-label': label, title: label });
  canvas.style.width = `${size}px`;
  canvas.style.height = `${size}px`;
  const ctx = canvas.getContext('2d');
  const picture = ctx.createImageData(cols, rows);
  const start = dataOffset(imageBytes) + i * rows * cols;
  for (let p = 0; p < rows * cols; p++) {
    const v = imageBytes[start + p];
    picture.data[4 * p] = v;
    picture.data[4 * p + 1] = v;
    picture.data[4 * p + 2] = v;
    picture.data[4 * p + 3] = 255;
  }
  ctx.putImageData(picture, 0, 0);
  return canvas;
}
