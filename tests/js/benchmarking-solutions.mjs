// Reference JavaScript solutions of the Benchmarking chapter's code exercises, written from
// the prompts (bootstrapCI, interleavedSchedule, classify), and plausible wrong ones. Shared by
// the CLI test (tests/cli/benchmarking-exercises.test.mjs) and the wasm test
// (tests/wasm/benchmarking-exercises.test.mjs), which grade them with core on core's hidden tests.
// Not a test file itself.

/** The starter code's mulberry32, unchanged (everything from its comment on). */
export function generatorOf(starterCode) {
  const at = starterCode.indexOf('// A small seeded generator');
  if (at <= 0) throw new Error('the starter code gives no mulberry32');
  return starterCode.slice(at);
}

export const BOOTSTRAP = `
function bootstrapCI(xs, seed) {
  const rng = mulberry32(seed);
  const median = (v) => {
    const s = [...v].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  };
  const medians = [];
  for (let r = 0; r < 1000; r++) {
    const resample = [];
    for (let i = 0; i < xs.length; i++) resample.push(xs[Math.floor(rng() * xs.length)]);
    medians.push(median(resample));
  }
  medians.sort((a, b) => a - b);
  const percentile = (p) => {
    const h = (medians.length - 1) * p / 100;
    const k = Math.floor(h);
    return k + 1 < medians.length ? medians[k] + (h - k) * (medians[k + 1] - medians[k]) : medians[k];
  };
  return [percentile(2.5), percentile(97.5)];
}`;

export const SCHEDULE = `
function interleavedSchedule(rounds, seed) {
  const rng = mulberry32(seed);
  const out = [];
  for (let r = 0; r < rounds / 2; r++) out.push(['A', 'B']);
  for (let r = 0; r < rounds / 2; r++) out.push(['B', 'A']);
  for (let i = rounds - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}`;

export const CLASSIFY = `
function classify(sizes, times) {
  const classes = [
    ['1', () => 1], ['log n', (n) => Math.log2(n)], ['n', (n) => n],
    ['n log n', (n) => n * Math.log2(n)], ['n^2', (n) => n * n], ['n^3', (n) => n * n * n],
  ];
  let best = null;
  for (const [name, g] of classes) {
    let tg = 0, gg = 0;
    sizes.forEach((n, i) => { tg += times[i] * g(n); gg += g(n) * g(n); });
    const c = tg / gg;
    let ss = 0;
    sizes.forEach((n, i) => { ss += (times[i] - c * g(n)) ** 2; });
    const rms = Math.sqrt(ss / sizes.length);
    if (!best || rms < best.rms) best = { name, rms };
  }
  return best.name;
}`;

/** Wrong solutions: an unseeded generator, the mean instead of the median. */
export const BOOTSTRAP_UNSEEDED = BOOTSTRAP.replace('const rng = mulberry32(seed);', 'const rng = Math.random;');
export const BOOTSTRAP_MEAN = BOOTSTRAP.replace(
  'medians.push(median(resample));',
  'medians.push(resample.reduce((a, b) => a + b, 0) / resample.length);',
);

/** Balanced but never shuffled: A B, B A, A B, ... */
export const SCHEDULE_ALTERNATING = `function interleavedSchedule(rounds) {
  return Array.from({ length: rounds }, (_, r) => (r % 2 ? ['B', 'A'] : ['A', 'B']));
}`;

/** Rounds the log-log slope: right for 1, n, n^2 and n^3, never for log n or n log n. */
export const CLASSIFY_BY_SLOPE = `function classify(sizes, times) {
  const xs = sizes.map(Math.log), ys = times.map(Math.log);
  const mx = xs.reduce((a, b) => a + b) / xs.length, my = ys.reduce((a, b) => a + b) / ys.length;
  let sxy = 0, sxx = 0;
  xs.forEach((x, i) => { sxy += (x - mx) * (ys[i] - my); sxx += (x - mx) ** 2; });
  return ['1', 'n', 'n^2', 'n^3'][Math.min(3, Math.max(0, Math.round(sxy / sxx)))];
}`;
