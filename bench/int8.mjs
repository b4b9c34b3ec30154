// The int8 Linear in wasm under Node: the simd int8 kernel (activations quantized inside the
// timed call) against the float packed matmul at the fashion MLP's layer shapes (784→256,
// 256→128, 128→10) at batch 1 and 64, and square N = 256 (batch 256), each pair timed on the
// same inputs in one measureInt8Linear call (verified in core first: bit for bit against the
// naive int8 kernel, and within the quantization error bound of the exact product). Rounds
// alternate the order of shapes; each ratio is taken within a round, then the median and the
// range over rounds. A bench, not a test: timings are noisy, so nothing here fails a build;
// the floor line says whether the int8 kernel reaches 1.8× the float one at N = 256.
// Usage: tools/lab build && node --no-experimental-fetch bench/int8.mjs [--build simd|scalar] [--quick]
import { BUILDS, loadPerflabTrain } from '../tests/wasm/perflab_module.mjs';

const buildArg = process.argv.indexOf('--build');
const wanted = buildArg > 0 ? process.argv[buildArg + 1] : 'simd';
const build = BUILDS.find((b) => b.flavour === wanted);
if (!build) {
  console.error(`bench/int8.mjs: --build takes ${BUILDS.map((b) => b.flavour).join(' or ')}, got ${wanted}`);
  process.exit(2);
}
const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 1 : 3;
const OPTIONS = quick
  ? { warmup: 1, samples: 5, min_sample_ms: 5, max_total_ms: 300 }
  : { warmup: 3, samples: 21, min_sample_ms: 5, max_total_ms: 3000 };
const SHAPES = [
  { batch: 1, in: 784, out: 256 },
  { batch: 1, in: 256, out: 128 },
  { batch: 1, in: 128, out: 10 },
  { batch: 64, in: 784, out: 256 },
  { batch: 64, in: 256, out: 128 },
  { batch: 64, in: 128, out: 10 },
  { batch: 256, in: 256, out: 256 },
];
const FLOOR_SHAPE = 6;
const FLOOR_RATIO = 1.8;

const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
};

const m = await loadPerflabTrain(build);
console.log(`int8 Linear against the float packed matmul, ${build.flavour} build, Node ${process.version}; timer ${JSON.stringify(OPTIONS)}, ${ROUNDS} round${ROUNDS === 1 ? '' : 's'}`);
const rows = SHAPES.map(() => []);
for (let round = 0; round < ROUNDS; ++round) {
  const order = SHAPES.map((_, i) => i);
  if (round % 2 === 1) order.reverse();
  for (const i of order) {
    const s = SHAPES[i];
    rows[i].push(m.measureInt8Linear('simd', s.batch, s.in, s.out, OPTIONS));
  }
}
console.log('batch        Linear    int8 ms   float ms   float / int8 (range)   bytes f32 / i8   error / bound');
for (const [i, s] of SHAPES.entries()) {
  const r = rows[i];
  const ratios = r.map((p) => p.speedup);
  console.log(
    `${String(s.batch).padStart(5)}   ${`${s.in}→${s.out}`.padStart(11)}   ${median(r.map((p) => p.int8.median_ms)).toPrecision(3).padStart(8)}` +
      `   ${median(r.map((p) => p.float32.median_ms)).toPrecision(3).padStart(8)}` +
      `   ${`${median(ratios).toFixed(2)}x (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})`.padStart(20)}` +
      `   ${`${(r[0].float32_bytes / r[0].int8_bytes).toFixed(2)}x`.padStart(14)}   ${Math.max(...r.map((p) => p.max_error_to_bound)).toFixed(2).padStart(13)}`,
  );
}
const f = SHAPES[FLOOR_SHAPE];
const ratio = median(rows[FLOOR_SHAPE].map((p) => p.speedup));
console.log(`\nint8 / float packed at batch ${f.batch}, ${f.in}→${f.out}: ${ratio.toFixed(2)}x, floor ${FLOOR_RATIO}x: ${ratio >= FLOOR_RATIO ? 'met' : 'not met'}`);
