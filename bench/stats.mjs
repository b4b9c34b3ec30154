// The Benchmarking chapter's statistics in wasm, timed in Node (both builds): a 10,000-resample
// bootstrap of the median of 100 values (summarizeSample) and a full two-sample comparison of
// 100 against 100 (compareSamples: bootstrap of the ratio, Welch, Mann-Whitney, effect sizes).
// The floor: the bootstrap under 50 ms in wasm. Prints medians of repeated calls; a
// bench, not a test (machines are noisy).
// Usage: tools/lab build && node --no-experimental-fetch bench/stats.mjs [--rounds N]
import { performance } from 'node:perf_hooks';
import { BUILDS, loadPerflab, rng } from '../tests/wasm/perflab_module.mjs';

const roundsArg = process.argv.indexOf('--rounds');
const rounds = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 15;
if (!Number.isInteger(rounds) || rounds < 3) {
  console.error(`bench/stats.mjs: --rounds takes a whole number of at least 3, got ${process.argv[roundsArg + 1]}`);
  process.exit(2);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
function timeMs(fn) {
  fn(); // warmup: the first call runs in the baseline tier
  const ms = [];
  for (let i = 0; i < rounds; ++i) {
    const t0 = performance.now();
    fn();
    ms.push(performance.now() - t0);
  }
  return median(ms);
}

const next = rng(42);
const sample = (n, scale) => Array.from({ length: n }, () => scale * (1 + 0.1 * next()));
const a = sample(100, 1.0);
const b = sample(100, 1.2);

console.log(`statistics in wasm under Node ${process.version}, median of ${rounds} calls each`);
console.log('build    bootstrap 10,000 x 100 (ms)   floor 50 ms   compare 100 vs 100 (ms)');
for (const build of BUILDS) {
  const Module = await loadPerflab(build);
  const bootstrap = timeMs(() => Module.summarizeSample(a, { bootstrap_resamples: 10000, seed: 7 }));
  const compare = timeMs(() => Module.compareSamples(a, b, { seed: 7 }));
  const met = bootstrap < 50 ? 'met' : 'NOT met';
  console.log(
    `${build.flavour.padEnd(8)} ${bootstrap.toFixed(2).padStart(28)}   ${met.padStart(11)}   ${compare.toFixed(2).padStart(23)}`,
  );
}
