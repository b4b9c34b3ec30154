// Core's complexity fit on real kernels, in wasm under Node (issue 11's "naive matmul near 3,
// GELU near 1"): times the naive matmul over N = 32..256 and fused-simd GELU over 16 Ki..4 Mi
// elements with the lab's timer, fits the medians with fitComplexity, and prints the best
// class, the log-log exponent with its 95% interval, and whether the expected exponent lies in
// it. A bench, not a test: timings are noisy, so nothing here fails a build.
// Usage: tools/lab build && node --no-experimental-fetch bench/complexity.mjs [--build simd|scalar]
import { BUILDS, loadPerflab } from '../tests/wasm/perflab_module.mjs';

const buildArg = process.argv.indexOf('--build');
const wanted = buildArg > 0 ? process.argv[buildArg + 1] : 'simd';
const build = BUILDS.find((b) => b.flavour === wanted);
if (!build) {
  console.error(`bench/complexity.mjs: --build takes ${BUILDS.map((b) => b.flavour).join(' or ')}, got ${wanted}`);
  process.exit(2);
}

// Sizes where each kernel's cost dominates its call overhead: matmul from N = 32 (a call of
// 65,536 multiply-adds), GELU from 16 Ki elements; the largest stay within seconds per point.
const KERNELS = [
  { label: 'naive matmul', expected: 3, sizes: [32, 48, 64, 96, 128, 192, 256], measure: (m, n, o) => m.measureMatmul('naive', n, o) },
  {
    label: 'fused-simd GELU',
    expected: 1,
    sizes: [16384, 65536, 262144, 1048576, 4194304],
    measure: (m, n, o) => m.measureGelu('fused-simd', n, o),
  },
];
const OPTIONS = { warmup: 2, samples: 15, min_sample_ms: 5, max_total_ms: 3000 };

const m = await loadPerflab(build);
console.log(`complexity fits of real kernels, ${build.flavour} build, Node ${process.version}; timer ${JSON.stringify(OPTIONS)}`);
console.log('kernel             best class   its normalized RMS   exponent (95% interval)   expected   inside');
for (const k of KERNELS) {
  const medians = k.sizes.map((n) => k.measure(m, n, OPTIONS).stats.median_ms);
  const fit = m.fitComplexity(k.sizes, medians);
  const best = fit.fits[0];
  const p = fit.power_law;
  const { low: lo, high: hi } = p.exponent_interval;
  const inside = lo <= k.expected && k.expected <= hi;
  console.log(
    `${k.label.padEnd(18)} ${best.complexity.padEnd(12)} ${`${(100 * best.normalized_rms).toFixed(1)}%`.padStart(18)}` +
      `   ${p.exponent.toFixed(2)} (${lo.toFixed(2)} to ${hi.toFixed(2)})`.padEnd(27) +
      `   ${String(k.expected).padStart(8)}   ${inside ? 'yes' : 'no'}`,
  );
  console.log(`  sizes ${k.sizes.join(', ')}; medians (ms) ${medians.map((x) => x.toPrecision(3)).join(', ')}`);
}
