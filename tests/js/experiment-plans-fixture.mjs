// Experiment plans in the shape core's experimentPlan gives them (core/suite/experiment_plans),
// for the tests of the chapters' pure halves, which get their plan from init's facts: input
// data, not expected results. tests/wasm/api.test.mjs checks the real module's plans have
// these fields; a test here may change a plan to see the page follow it. Not a test.

const timer = (warmup, samples, min_sample_ms, max_total_ms) => ({ warmup, samples, min_sample_ms, max_total_ms });
const KiB = 1024;
const MiB = 1024 * KiB;
const doublings = (lo, hi) => {
  const out = [];
  for (let b = lo; b <= hi; b *= 2) out.push(b);
  return out;
};
const PROFILING_FULL = timer(1, 10, 5, 800);
const PROFILING_QUICK = timer(1, 3, 1, 100);

export const PLANS = Object.freeze({
  'acceleration-vectorization': {
    full: { sizes: [64, 128, 256, 512, 1024, 2048], maxN: { naive: 512, reordered: 1024 }, options: timer(1, 10, 10, 1500) },
    quick: { sizes: [64, 128], maxN: {}, options: timer(1, 3, 2, 150) },
  },
  'acceleration-builds': {
    full: { sizes: [128, 256, 512], maxN: { naive: 256 }, options: timer(1, 10, 10, 1000) },
    quick: { sizes: [64, 128], maxN: {}, options: timer(1, 3, 2, 100) },
  },
  'acceleration-cache-sweep': {
    full: { sizes: doublings(4 * KiB, 256 * MiB), options: timer(1, 10, 5, 500) },
    quick: { sizes: [4 * KiB, 32 * KiB, 256 * KiB, 2 * MiB, 16 * MiB], options: timer(1, 3, 2, 80) },
  },
  'acceleration-linear-loops': {
    full: { shapes: [[64, 64], [784, 256], [512, 512], [1024, 1024]], options: timer(1, 8, 10, 1000) },
    quick: { shapes: [[64, 64], [256, 128]], options: timer(1, 3, 2, 100) },
  },
  'acceleration-gelu-fusion': {
    full: { elements: [1 << 12, 1 << 15, 1 << 18, 1 << 20, 1 << 22], options: timer(1, 10, 10, 1000) },
    quick: { elements: [1 << 14, 1 << 20], options: timer(1, 3, 2, 100) },
  },
  'acceleration-thread-scaling': {
    full: { matmul_n: 512, gelu_elements: 1 << 23, options: timer(1, 10, 10, 1500) },
    quick: { matmul_n: 256, gelu_elements: 1 << 20, options: timer(1, 3, 2, 150) },
  },
  'acceleration-fma': {
    full: { sizes: [128, 256, 512], options: timer(1, 10, 10, 1000) },
    quick: { sizes: [64, 128], options: timer(1, 3, 2, 150) },
  },
  'profiling-overhead': {
    full: { models: ['linear_128_64', 'mlp_784', 'cnn_28', 'transformer_block'], options: PROFILING_FULL },
    quick: { models: ['linear_128_64', 'mlp_784', 'cnn_28'], options: PROFILING_QUICK },
  },
  'profiling-model-scaling': { full: { options: PROFILING_FULL }, quick: { max_points: 3, options: PROFILING_QUICK } },
  'profiling-batch-size': { full: { options: PROFILING_FULL }, quick: { max_points: 4, max_batch: 32, options: PROFILING_QUICK } },
  'profiling-operation-efficiency': {
    full: { elements: [1 << 16, 1 << 20], matmul_n: [64, 128, 256], options: PROFILING_FULL },
    quick: { elements: [1 << 16], matmul_n: [64, 128], options: PROFILING_QUICK },
  },
  'profiling-architectures': { full: { options: PROFILING_FULL }, quick: { options: PROFILING_QUICK } },
  'profiling-attention': { full: {}, quick: { max_seq_len: 1024 } },
  'profiling-forward-backward': {
    full: { models: ['linear_128_64', 'linear_1000_500', 'mlp_784', 'cnn_28', 'transformer_block'], options: PROFILING_FULL },
    quick: { models: ['linear_128_64', 'mlp_784', 'cnn_28'], options: PROFILING_QUICK },
  },
});

/** Init's facts as experiments/plans.js's experimentPlans gives them, with `extra` beside. */
export function planInfo(id, quick, extra = {}) {
  const { full, quick: quickPlan } = structuredClone(PLANS[id]);
  return { ...extra, plan: quick ? quickPlan : full, fullPlan: full, quickPlan };
}

/** A plan hook's context `{quick, info}` for experiment `id`. */
export const planCtx = (id, quick, extra = {}) => ({ quick, info: planInfo(id, quick, extra) });
