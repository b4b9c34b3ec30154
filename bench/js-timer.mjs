// The JavaScript side of compare.mjs's timing, shared by its Node process and the Chromium
// worker that times TensorFlow.js's threaded backend (chromium-side.mjs), so both time with
// one procedure: the same as core's Timer (timer.cpp), so that a figure of theirs and one of
// ours get the same warmup, sample length, budget and statistic. Environment-free: no Node
// or browser API but performance.now().
//
// sampleCalls: calibrate the calls per sample until a sample lasts min_sample_ms (growing at
// most 10× per step), then take `samples` samples (at least 2 if the budget runs out);
// returns the per-call time of each sample. summarizeSamples: drop Tukey outliers, median
// (with the caller's median, core's median() in compare.mjs) and coefficient of variation.

export function sampleCalls(fn, options) {
  const start = performance.now();
  for (let i = 0; i < options.warmup; ++i) fn();
  const timeBatch = (inner) => {
    const t0 = performance.now();
    for (let i = 0; i < inner; ++i) fn();
    return performance.now() - t0;
  };
  let inner = 1;
  let batchMs = timeBatch(inner);
  while (batchMs < options.min_sample_ms) {
    let multiplier = 10;
    if (batchMs > 0.1 * options.min_sample_ms) multiplier = Math.min(10, (options.min_sample_ms * 1.4) / batchMs);
    inner = Math.max(Math.ceil(inner * multiplier), inner + 1);
    batchMs = timeBatch(inner);
  }
  const perCallMs = [];
  while (perCallMs.length < options.samples) {
    perCallMs.push(timeBatch(inner) / inner);
    if (perCallMs.length >= 2 && performance.now() - start >= options.max_total_ms) break;
  }
  return { perCallMs, inner_iterations: inner };
}

function percentileSorted(sorted, p) {
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

export function summarizeSamples({ perCallMs, inner_iterations }, median) {
  const sorted = [...perCallMs].sort((x, y) => x - y);
  const q1 = percentileSorted(sorted, 25);
  const q3 = percentileSorted(sorted, 75);
  const kept = sorted.filter((t) => t >= q1 - 1.5 * (q3 - q1) && t <= q3 + 1.5 * (q3 - q1));
  const mean = kept.reduce((s, t) => s + t, 0) / kept.length;
  const sd = kept.length < 2 ? 0 : Math.sqrt(kept.reduce((s, t) => s + (t - mean) ** 2, 0) / (kept.length - 1));
  return { median_ms: median(kept), cv: mean > 0 ? sd / mean : 0, samples: kept.length, inner_iterations };
}

// The inputs both sides multiply: uniform in [-1, 1) from a seed (mulberry32), the same
// floats in Node and in the browser.
export function randomFloat32(seed, n) {
  let a = seed >>> 0;
  const out = new Float32Array(n);
  for (let i = 0; i < n; ++i) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = (((t ^ (t >>> 14)) >>> 0) / 4294967296) * 2 - 1;
  }
  return out;
}
