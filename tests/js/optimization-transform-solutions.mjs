// Reference solutions of the Optimization chapter's code exercises on its transforms, written
// from the prompts: symmetric int8 with halves to even, and a CSR matrix-vector product. Shared
// by the wasm and CLI tests and tests/js/grading-generate.mjs. Not a test file itself.

export const TRANSFORM_SOLUTIONS = Object.freeze({
  'optimization.quantize-int8': `function quantizeInt8(values) {
  let top = 0;
  for (const x of values) top = Math.max(top, Math.abs(x));
  const scale = top === 0 ? 1 : top / 127;
  const halfEven = (t) => {
    const r = Math.round(t);
    return r - t === 0.5 && r % 2 !== 0 ? r - 1 : r;
  };
  const codes = values.map((x) => Math.min(127, Math.max(-127, halfEven(x / scale))));
  let maxError = 0;
  values.forEach((x, i) => { maxError = Math.max(maxError, Math.abs(x - codes[i] * scale)); });
  return { scale, codes, maxError };
}`,
  'optimization.csr-matvec': `function csrMatVec(values, colIndex, rowStart, x) {
  const rows = rowStart.length - 1;
  const y = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    let sum = 0;
    for (let k = rowStart[i]; k < rowStart[i + 1]; k++) sum += values[k] * x[colIndex[k]];
    y[i] = sum;
  }
  return Array.from(y);
}`,
});

// Wrong on purpose: halves rounded up (Math.round), and a row loop that runs one entry too far
// (into the next row's first nonzero).
export const TRANSFORM_MISTAKES = Object.freeze({
  'optimization.quantize-int8': TRANSFORM_SOLUTIONS['optimization.quantize-int8'].replace('halfEven(x / scale)', 'Math.round(x / scale)'),
  'optimization.csr-matvec': TRANSFORM_SOLUTIONS['optimization.csr-matvec'].replace('k < rowStart[i + 1]', 'k <= rowStart[i + 1] && k < values.length'),
});
