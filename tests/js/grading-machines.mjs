// Simulated student machines for the grading tests: each has its own browser clock (Chromium's
// 5 µs or 100 µs grid, Firefox's 20 µs or 1 ms), its own peak, bandwidth and speed, and a
// probe measured at its own time. Rows are honest by construction: every sample is the
// difference of two clock readings on that grid divided by the calls per sample, the calls per
// sample follow the timer's rule (each sample at least max(100 ticks, min_sample_ms)), the
// statistics and rates are computed from those samples, an A/B's rounds follow core's seeded
// order and its comparison is core's own (analyzeAB from the main module, when given).
// Not a test file itself.

// The clocks browsers give performance.now(), in whole microseconds.
const CLOCK_US = [5, 100, 20, 1000];
const MIN_SAMPLE_MS = 1;
const TICKS_PER_SAMPLE = 100;

const pick = (random, list) => list[Math.floor(random() * list.length)];

/** A machine of its own: clock, roofs, speed and the time its probe was measured. */
export function simulatedMachine(random, { start_ms = Date.UTC(2026, 10, 20, 10, 0) } = {}) {
  const tick_us = pick(random, CLOCK_US);
  const peak = 20 + random() * 200;
  const probe_ms = start_ms + Math.floor(random() * 3_600_000);
  return {
    tick_us,
    resolution_ms: tick_us / 1000,
    peak_gflops_per_s: peak,
    bandwidth_gb_per_s: 5 + random() * 60,
    // the share of the peak the lab's kernels reach on this machine
    efficiency: 0.05 + random() * 0.4,
    probe_ms,
    // the clock's reading when the page loaded its first run, in ticks
    reading_ticks: Math.floor(random() * 1e8),
    random,
  };
}

/** machine.probe as the page exports it. */
export const probeOf = (m) => ({ peak_gflops_per_s: m.peak_gflops_per_s, bandwidth_gb_per_s: m.bandwidth_gb_per_s, measured_at: new Date(m.probe_ms).toISOString() });

// One reading of the coarsened clock, as Chromium computes it: whole microseconds / 1000.
const readingMs = (m, ticks) => (ticks * m.tick_us) / 1000;

/** Calls per sample by the timer's rule for a call of `call_ms`. */
export function callsPerSample(m, call_ms) {
  const target = Math.max(TICKS_PER_SAMPLE * m.resolution_ms, MIN_SAMPLE_MS);
  return Math.max(1, Math.ceil(target / call_ms));
}

/** `count` per-call samples of a call taking about `call_ms` (a few % noise), `calls` per sample. */
export function clockSamples(m, call_ms, count, calls = callsPerSample(m, call_ms)) {
  const out = [];
  for (let i = 0; i < count; i++) {
    const elapsed = calls * call_ms * (1 + 0.08 * m.random() * m.random());
    const start = m.reading_ticks;
    const end = start + Math.max(1, Math.round(elapsed / m.resolution_ms));
    m.reading_ticks = end + 1 + Math.floor(m.random() * 50);
    out.push((readingMs(m, end) - readingMs(m, start)) / calls);
  }
  return out;
}

const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** Statistics of samples the way a measured row carries them (the fields the checks read). */
function statsOf(m, samples, calls) {
  return {
    samples: samples.length,
    median_ms: median(samples),
    min_ms: Math.min(...samples),
    max_ms: Math.max(...samples),
    inner_iterations: calls,
    resolution_ms: m.resolution_ms,
  };
}

// A matmul of N×N on this machine: 2N³ FLOPs at its efficiency, slower for the naive loop.
const matmulMs = (m, n, slowdown = 1) => (2 * n ** 3 * slowdown) / (m.peak_gflops_per_s * m.efficiency * 1e6);

/** The batch-size experiment's rows at batch 1 and 32 (measureForwardPoint's shape). */
export function batchRows(m) {
  const flops_per_sample = 2 * (784 * 256 + 256 * 10);
  return [1, 32].map((batch_size) => {
    const call_ms = 0.02 + (flops_per_sample * batch_size) / (m.peak_gflops_per_s * m.efficiency * 1e6);
    const calls = callsPerSample(m, call_ms);
    const latency = statsOf(m, clockSamples(m, call_ms, 15, calls), calls);
    const flops_per_batch = flops_per_sample * batch_size;
    return {
      name: 'fashion_mlp',
      batch_size,
      flops_per_sample,
      flops_per_batch,
      samples_per_s: (batch_size * 1000) / latency.median_ms,
      ms_per_sample: latency.median_ms / batch_size,
      gflops_per_s: flops_per_batch / (latency.median_ms * 1e6),
      latency,
    };
  });
}

/** The forward-vs-backward experiment's rows (measureBackwardPoint's shape), three batches. */
export function backwardRows(m) {
  const flops_per_sample = 2 * (784 * 256 + 256 * 10);
  return [1, 8, 32].map((batch_size) => {
    const forward_call = 0.01 + (flops_per_sample * batch_size) / (m.peak_gflops_per_s * m.efficiency * 1e6);
    const call = 2.2 * forward_call;
    const [calls_f, calls_b] = [callsPerSample(m, forward_call), callsPerSample(m, call)];
    const forward_latency = statsOf(m, clockSamples(m, forward_call, 9, calls_f), calls_f);
    const latency = statsOf(m, clockSamples(m, call, 9, calls_b), calls_b);
    const flops = 2 * flops_per_sample * batch_size;
    return {
      name: 'fashion_mlp', batch_size, flops, forward_flops: flops_per_sample * batch_size, latency, forward_latency,
      measured_ms: latency.median_ms, forward_ms: forward_latency.median_ms,
      gflops_per_s: flops / (latency.median_ms * 1e6), ratio_to_forward: latency.median_ms / forward_latency.median_ms, timing: 'interleaved',
    };
  });
}

/** The roofline experiment's matmul row, placed against this machine's probe (measureOperation's shape). */
export function rooflineRows(m) {
  const n = 64;
  const call_ms = matmulMs(m, n);
  const calls = callsPerSample(m, call_ms);
  const stats = statsOf(m, clockSamples(m, call_ms, 9, calls), calls);
  const flops = 2 * n ** 3;
  const bytes = 3 * n * n * 4;
  return [{
    op: 'matmul', n, variant: 'packed', flops, bytes, stats,
    gflops_per_s: flops / (stats.median_ms * 1e6),
    gb_per_s: bytes / (stats.median_ms * 1e6),
    peak_gflops_per_s: m.peak_gflops_per_s,
    bandwidth_gb_per_s: m.bandwidth_gb_per_s,
  }];
}

/** The complexity experiment's naive matmul rows (sampleKernel's shape), four sizes. */
export function complexityRows(m) {
  return [32, 64, 128, 256].map((n) => {
    // cache misses slow the naive loop more at larger N
    const call_ms = matmulMs(m, n, 4 * (1 + n / 512));
    const calls = callsPerSample(m, call_ms);
    return { build: 'simd', op: 'matmul', variant: 'naive', n, samples_ms: clockSamples(m, call_ms, 7, calls), inner_iterations: calls, resolution_ms: m.resolution_ms, clock_tick_ms: 0, warning: '' };
  });
}

// One A/B run (runAB's row): rounds in core's seeded order, the comparison core's analyzeAB.
function abRow(m, core, { variant_a, variant_b, slow_a, slow_b, mode, rounds, seed, extra = {} }) {
  const n = 64;
  const [ms_a, ms_b] = [matmulMs(m, n, slow_a), matmulMs(m, n, slow_b)];
  const [calls_a, calls_b] = [callsPerSample(m, ms_a), callsPerSample(m, ms_b)];
  const a_first = core.abRoundOrder(mode, rounds, seed);
  const a_ms = [];
  const b_ms = [];
  for (let r = 0; r < rounds; r++) {
    a_ms.push(clockSamples(m, ms_a, 1, calls_a)[0]);
    b_ms.push(clockSamples(m, ms_b, 1, calls_b)[0]);
  }
  const analysis = core.analyzeAB(a_ms, b_ms, a_first, { mode, seed });
  return { build: 'simd', ...extra, op: 'matmul', variant_a, variant_b, n, ...analysis, inner_iterations_a: calls_a, inner_iterations_b: calls_b, resolution_ms: m.resolution_ms };
}

/** The A/A experiment's rows: `repeats` comparisons of a kernel with itself. */
export function aaRows(m, core, { repeats = 8, rounds = 10, seed = 1 } = {}) {
  return Array.from({ length: repeats }, (_, i) =>
    abRow(m, core, { variant_a: 'simd', variant_b: 'simd', slow_a: 1, slow_b: 1, mode: 'interleaved', rounds, seed: seed + i, extra: { repeat: i + 1 } }));
}

/** The A/B experiment's rows: naive against simd, interleaved then sequential. */
export function abRows(m, core, { rounds = 8, seed = 1 } = {}) {
  return ['interleaved', 'sequential'].map((mode) => abRow(m, core, { variant_a: 'naive', variant_b: 'simd', slow_a: 4, slow_b: 1, mode, rounds, seed }));
}

/**
 * The rows of each experiment-backed exercise's experiment this machine can make (the
 * Benchmarking chapter's need `core`, the main module's abRoundOrder and analyzeAB).
 */
export function machineRows(m, core = null) {
  const rows = {
    'profiling-batch-size': () => batchRows(m),
    'acceleration-roofline': () => rooflineRows(m),
    'profiling-forward-backward': () => backwardRows(m),
  };
  if (core) {
    rows['benchmarking-complexity'] = () => complexityRows(m);
    rows['benchmarking-aa'] = () => aaRows(m, core, { seed: 1 + Math.floor(m.random() * 1000) });
    rows['benchmarking-ab'] = () => abRows(m, core, { seed: 1 + Math.floor(m.random() * 1000) });
  }
  return rows;
}
