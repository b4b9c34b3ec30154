// The page's wasm API, declared once: every Module function the page may reach, its
// argument names in the order the binding (wasm/bind_*.cpp) takes them, whether it is a
// sweep point or a one-shot call, which point fields each measured row carries back, and
// what ends a sweep early, and which wasm module holds it (MODULES). The worker builds its
// handlers from this table and loads each function's module, client.js builds the main
// thread's helpers from it, and tests/wasm/api.test.mjs checks it against both real wasm
// builds of each module. Imports nothing. How to add a binding: docs/BINDINGS.md.

/** A sweep point: called once per planned point; its result is one row. */
export const POINT = 'point';
/** A one-shot call: called once with named arguments; its result is the reply. */
export const CALL = 'call';

/**
 * The wasm modules, each built in every build (BUILDS), with the binding files they hold
 * (wasm/CMakeLists.txt). main: every binding but training's, loaded at the page's first call.
 * train: training in core (data sets, models, training, evaluation, model files) and the
 * benchmark suites (a suite measures the trained models it holds), loaded
 * only when one of its functions is first called, so that its code (about a tenth of the
 * page's initial load) is not downloaded by a page that never trains.
 * grade: the exercise bank (with its prose), the grader and course identity, loaded at the
 * first grading call (the exercise engine's, after the page is usable), so that the initial
 * load stays within its budget (docs/PERFORMANCE.md).
 */
export const MODULES = Object.freeze({
  main: 'wasm/bind_*.cpp but bind_train.cpp and bind_grader.cpp',
  train: 'wasm/bind_train.cpp, bind_suite.cpp, bind_optimize.cpp and bind_module.cpp',
  grade: 'wasm/bind_grader.cpp and bind_module.cpp',
});

/**
 * The module's own facts (wasm/bind_module.cpp), which every module exports: declared below
 * with the main module, the one the page asks; tests ask each module (a training module's
 * tracked bytes, its build).
 */
export const IN_EVERY_MODULE = Object.freeze(['buildInfo', 'memoryStats', 'jsonTextLimits', 'jsonTextProblem']);

const specName = (spec) =>
  spec && typeof spec === 'object' && typeof spec.name === 'string' ? spec.name : 'the model';
const atBatch = (batch) => (batch ? ` at batch ${batch}` : '');
const tilesText = (tiles) =>
  tiles && typeof tiles === 'object'
    ? ['tile_m', 'tile_n', 'tile_k'].map((k) => tiles[k] ?? 'default').join('×')
    : 'default tiles';

// The sentence core's AllocationError ("... does not fit: the lab's memory cap ...",
// "cannot allocate ...") or guarded()'s "out of memory: the WebAssembly heap could not
// grow" says when a working set is too large: where a growing sweep found its limit.
const outOfMemory = (message) => /does not fit|cannot allocate|out of memory/.test(message);

// The training module's functions (MODULES.train), and the grading module's (MODULES.grade).
const TRAIN = Object.freeze({ module: 'train' });
const GRADE = Object.freeze({ module: 'grade' });
// The main module's functions that run kernels on the kernel engine.
const ENGINE = Object.freeze({ engine: true });
const point = (args, carries, label, extra = {}) => Object.freeze({ type: POINT, args, carries, label, module: 'main', ...extra });
const call = (args, label, extra = {}) => Object.freeze({ type: CALL, args, label: () => label, module: 'main', ...extra });

/**
 * name -> {type, args, carries?, label(args), module, endsSweep?(message), inflates?}.
 * - args: the binding's parameters in order; a request names them, the worker passes them
 *   positionally. Missing ones arrive as undefined (the binding's default).
 * - carries (points only): the arguments every row keeps beside core's measurement; the
 *   point's other fields (a chapter's role, label, name, ...) are kept too (rowOf below).
 * - label: how progress and error text name a call or a point.
 * - module: the wasm module that exports it (MODULES; 'main' unless the entry says 'train' or 'grade').
 * - engine: true when the call needs the kernel engine (the FMA and threaded kernels in their
 *   own modules, web/src/lab/engine/): the worker loads it and installs it in the module
 *   (engine-seam.js) before the call; nothing else loads it, so a page that never measures a
 *   parallel or FMA kernel never downloads the engine.
 * - inflates (calls only): the byte arguments the worker inflates first when they are gzip
 *   (lab/inflate.js, DecompressionStream), so the page can hand over the .gz files as fetched.
 */
export const API = Object.freeze({
  // ---- sweep points (one measured row per point)
  measureMatmul: point(['variant', 'n', 'options'], ['variant', 'n'], (a) => `${a.variant} at N=${a.n}`),
  measureMatmulBlocked: point(['n', 'tiles', 'options'], ['n'], (a) => `blocked ${tilesText(a.tiles)} at N=${a.n}`),
  measureGelu: point(['variant', 'elements', 'options'], ['variant', 'elements'], (a) => `${a.variant} GELU over ${a.elements} elements`),
  measureReadBandwidth: point(['bytes', 'options'], ['bytes'], (a) => `read bandwidth over ${a.bytes} bytes`, {
    // The points grow, so a working set the lab cannot allocate is where the sweep ends.
    endsSweep: outOfMemory,
  }),
  measureOperation: point(['op', 'n', 'options'], ['op', 'n'], (a) =>
    `${a.op}${a.op === 'matmul' ? ` at N=${a.n}` : ` on ${a.n} elements`}`,
  ),
  measureLinear: point(['in_features', 'out_features', 'batch', 'variant', 'options'], ['in_features', 'out_features', 'batch', 'variant'], (a) =>
    `Linear ${a.in_features}→${a.out_features} (${a.variant}) at batch ${a.batch}`,
  ),
  measureForwardPoint: point(['spec', 'batch', 'options'], [], (a) => `${specName(a.spec)}${atBatch(a.batch)}`),
  measureMlpForwardPoint: point(['widths', 'batch', 'options'], ['widths', 'batch'], (a) => `MLP ${a.widths?.join?.('-')} at batch ${a.batch}`),
  measureBackwardPoint: point(['spec', 'batch', 'options'], [], (a) => `${specName(a.spec)} forward and backward${atBatch(a.batch)}`),
  memoryBreakdown: point(['spec', 'batch'], [], (a) => `memory of ${specName(a.spec)}${atBatch(a.batch)}`),
  profilingOverhead: point(['spec', 'batch', 'options'], [], (a) => `profiling overhead of ${specName(a.spec)}`),
  // Every per-call sample of one of the lab's kernels, in order, outliers kept.
  sampleKernel: point(['op', 'variant', 'n', 'options'], ['op', 'variant', 'n'], (a) => `${a.variant} ${a.op} at n=${a.n}`),
  // Two variants of one of the lab's kernels timed in rounds (interleaved or sequential), both
  // arms' samples and core's comparison of them.
  runAB: point(['op', 'variant_a', 'variant_b', 'n', 'options'], ['op', 'variant_a', 'variant_b', 'n'], (a) =>
    `${a.variant_a} against ${a.variant_b} ${a.op}${a.op === 'matmul' ? ` at N=${a.n}` : ` on ${a.n} elements`}${a.options?.mode ? `, ${a.options.mode}` : ''}`,
  ),
  // One convolution by one method (direct loops or im2col + matmul), verified then timed,
  // with the bytes of the unfolded matrix.
  measureConv: point(['method', 'shape', 'options'], ['method'], (a) =>
    `${a.method} convolution ${a.shape?.channels}→${a.shape?.filters}, ${a.shape?.kernel}×${a.shape?.kernel} on ${a.shape?.height}×${a.shape?.width}`,
  ),
  // One point of a benchmark suite (a model or a kernel), as JSON suiteReport reads back; in
  // the training module: `models` maps the suite's {model_file: NAME} entries to held model
  // ids, and their accuracy is measured on the held test split `test_dataset`.
  measureSuitePoint: point(['suite', 'index', 'models', 'test_dataset'], ['index'], (a) => `suite point ${a.index}`, TRAIN),
  // The kernel engine's packed matmul and fused GELU in one flavour (fma or simd) on a number
  // of threads, verified against core's reference, then timed (docs/PARALLEL.md).
  measureParallelMatmul: point(['flavour', 'threads', 'n', 'options'], ['flavour', 'threads', 'n'], (a) =>
    `${a.flavour} matmul on ${a.threads} thread${a.threads === 1 ? '' : 's'} at N=${a.n}`, ENGINE),
  measureParallelGelu: point(['flavour', 'threads', 'elements', 'options'], ['flavour', 'threads', 'elements'], (a) =>
    `${a.flavour} GELU on ${a.threads} thread${a.threads === 1 ? '' : 's'} over ${a.elements} elements`, ENGINE),
  // Counted, nothing timed: attention's FLOPs and bytes at one sequence length.
  attentionPoint: point(['d_model', 'heads', 'seq_len', 'batch'], [], (a) => `attention at T=${a.seq_len}`),
  // Training in chunks: up to `steps` optimizer steps of a model core holds (startTraining);
  // a sweep of chunks reports each chunk's row (loss, epochs finished) and sees a cancel
  // between chunks, after which cancelTraining puts back the last finished epoch's weights.
  trainSteps: point(['model_id', 'steps'], ['model_id'], (a) => `training model ${a.model_id} for ${a.steps} steps`, TRAIN),

  // ---- one-shot calls
  buildInfo: call([], 'read which wasm build this is'),
  // The kernel engine: its thread cap (no engine needed), what it can run and why, its peaks,
  // and a thread-scaling run's analysis (speedup, efficiency, Karp-Flatt, the Amdahl fit).
  engineLimits: call([], 'read the kernel engine’s thread cap'),
  engineFacts: call([], 'read what the kernel engine can run', ENGINE),
  probeEngine: call(['threads', 'options'], 'probe the kernel engine’s peaks', ENGINE),
  analyzeScaling: call(['points'], 'analyze a thread-scaling run'),
  timerResolutionMs: call([], 'measure the clock’s resolution'),
  memoryStats: call([], 'read what the lab has allocated and its memory cap'),
  jsonTextLimits: call([], 'read the longest and deepest JSON text core reads'),
  // null when core reads the text as JSON, else core's reason with the place (line, column).
  jsonTextProblem: call(['text'], 'say why a text is not JSON'),
  profileModel: call(['spec', 'options'], 'profile a model spec'),
  profileTimerDefaults: call([], 'read the profile’s default timer settings'),
  zooModels: call([], 'list the model zoo with specs'),
  layerTypes: call([], 'list the spec’s layer types and the fields each takes'),
  mlpSpec: call(['widths', 'batch'], 'build an MLP spec'),
  matmulVariants: call([], 'list the matmul variants'),
  matmulDefaults: call([], 'read the blocked matmul’s default tiles'),
  geluVariants: call([], 'list the GELU variants'),
  convMethods: call([], 'list the convolution methods'),
  im2col: call(['x', 'shape', 'kernel', 'stride', 'padding'], 'unfold an image’s patches (im2col)'),
  col2im: call(['col', 'col_shape', 'image_shape', 'kernel', 'stride', 'padding'], 'fold patches back onto an image (col2im)'),
  rooflinePlan: call(['quick'], 'read the roofline plan'),
  experimentPlan: call(['experiment', 'quick'], 'read an experiment’s plan (its sizes and Timer options)'),
  probeMachine: call(['options'], 'probe this machine’s peak and bandwidth'),
  setMachineRoofs: call(['roofs'], 'give the profiler this machine’s roofs'),
  rooflinePoint: call(['point', 'roofs'], 'place a kernel on the roofline'),
  cliReport: call(['text'], 'read pasted perflab CLI JSON'),
  exerciseBank: call([], 'list the exercises', GRADE),
  // hidden_key: a re-grade's grading key (its fresh hidden tests); omitted on the student's side.
  exerciseVariant: call(['id', 'seed', 'hidden_key'], 'make an exercise variant', GRADE),
  // A choice exercise's variant for one try (try 1 is exerciseVariant's): each wrong try redraws.
  choiceVariant: call(['id', 'seed', 'try'], 'make a choice exercise’s variant for a try', GRADE),
  // mode: the course's answer mode for the exercise (practice, assessed, sealed); omitted in practice.
  gradeExercise: call(['id', 'seed', 'answer', 'hidden_key', 'mode'], 'grade an answer', GRADE),
  exerciseBankVersion: call([], 'read the exercise bank’s version', GRADE),
  courseFromJson: call(['course'], 'read course.json', GRADE),
  courseSeed: call(['course', 'student_id'], 'derive a student’s seed for the course', GRADE),
  // The course's assignments and one student's scores in them, late policy applied
  // (core/include/perflab/grading/assignments.hpp); the gradebook writers only present them.
  courseAssignments: call(['course'], 'list the course’s assignments', GRADE),
  assignmentScores: call(['course', 'student'], 'score a student’s assignments with the late policy', GRADE),
  // Forensic flags on a submission's measured evidence (grading/forensics.hpp): [{code, exercise, reason}].
  evidenceForensics: call(['submission'], 'check a submission’s measured evidence', GRADE),
  // The Benchmarking chapter's statistics (core/include/perflab/stats/).
  timerDefaults: call([], 'read the timer’s default settings'),
  statsLimits: call([], 'read the limits on the statistics’ work (sample sizes, bootstrap, A/B sizes)'),
  summarizeSample: call(['values', 'options'], 'summarize a sample'),
  compareSamples: call(['a', 'b', 'options'], 'compare two samples'),
  // An A/B whose arms the page times one sample at a time (in two builds): core's seeded
  // order of the rounds, then its analysis of the samples, in runAB's shape.
  abRoundOrder: call(['mode', 'rounds', 'seed'], 'read the seeded order of an A/B’s rounds'),
  analyzeAB: call(['a_ms', 'b_ms', 'a_first', 'options'], 'compare the rounds of an A/B'),
  fitComplexity: call(['sizes', 'times'], 'fit complexity classes to times against sizes'),
  intervalCoverage: call(['reference', 'sizes', 'options'], 'check how often small samples’ intervals cover the reference median'),
  benchPlan: call(['quick'], 'read the benchmarks perflab bench times'),
  compareRuns: call(['baseline', 'run', 'options'], 'compare a run with its baseline'),
  modelMetrics: call([], 'list the metrics a suite may measure'),
  suiteReport: call(['suite', 'points', 'version', 'models'], 'write a suite’s report', TRAIN),
  // Training in core (core/include/perflab/train/session_table.hpp), in the training module:
  // data sets and models held by id in that module between calls. Data arrives as inflated
  // IDX bytes (Uint8Array).
  loadFashionMnist: call(['images', 'labels', 'split', 'first'], 'read a Fashion-MNIST split', {
    ...TRAIN,
    inflates: ['images', 'labels'],
  }),
  datasetInfo: call(['dataset_id'], 'read a data set’s facts', TRAIN),
  dropDataset: call(['dataset_id'], 'free a data set', TRAIN),
  createModel: call(['spec'], 'create a model to train', TRAIN),
  loadModelFile: call(['bytes'], 'read a model file', TRAIN),
  modelInfo: call(['model_id'], 'read a model’s facts', TRAIN),
  dropModel: call(['model_id'], 'free a model', TRAIN),
  modelFileBytes: call(['model_id'], 'write a model file', TRAIN),
  baselineRecipe: call(['name'], 'read a zoo model’s baseline training recipe', TRAIN),
  startTraining: call(['model_id', 'dataset_id', 'recipe'], 'start training a model', TRAIN),
  cancelTraining: call(['model_id'], 'cancel training (the epochs done are kept)', TRAIN),
  trainingResult: call(['model_id'], 'read a training’s epochs', TRAIN),
  evaluateModel: call(['model_id', 'dataset_id', 'max_misclassified'], 'evaluate a model', TRAIN),
  weightDistribution: call(['model_id'], 'read a model’s weight distribution', TRAIN),
  // Transforms of held models (the Optimization chapter): structured pruning into a new held
  // model, its fine-tuning and a distillation (both run by trainSteps, like startTraining),
  // and two held models' forwards timed by core's interleaved A/B at one batch.
  pruneStructured: call(['model_id', 'fraction'], 'prune whole hidden units of a model', TRAIN),
  startFinetuning: call(['model_id', 'dataset_id', 'epochs'], 'start fine-tuning a pruned model', TRAIN),
  startDistillation: call(['student_id', 'teacher_id', 'dataset_id', 'recipe', 'temperature', 'alpha'], 'start distilling a teacher into a student', TRAIN),
  forwardAB: call(['model_a', 'model_b', 'batch', 'options'], 'time two models’ forward passes interleaved', TRAIN),
  // The Optimization chapter's kernels (wasm/bind_optimize.cpp): one point of the sparsity
  // sweep, a CSR variant and the dense kernel timed on the same inputs.
  sparseVariants: call([], 'list the sparse kernel’s variants', TRAIN),
  measureSparseLinear: point(['variant', 'batch', 'in', 'out', 'density', 'options'], ['variant', 'batch', 'in', 'out', 'density'], (a) =>
    `${a.variant} sparse Linear ${a.in}→${a.out} at batch ${a.batch}, density ${a.density}`, TRAIN),
  sparseCrossover: call(['points'], 'find where the sparse kernel starts to pay', TRAIN),
  // What the chapter does to the models the student made (wasm/bind_made_models.cpp): a held
  // float model quantized to int8 (calibrated on a held train split, each layer's error on a
  // held test split) and held; a chunk of one interleaved timing run of held models; which
  // points are on the Pareto frontier of cost against accuracy.
  quantizeHeldModel: call(['model_id', 'train_dataset', 'test_dataset', 'images', 'calibration', 'error_images'], 'quantize a model to int8', TRAIN),
  timeHeldModels: point(['model_ids', 'dataset_id', 'batch', 'options'], ['batch'], (a) =>
    `${a.model_ids?.length ?? 0} models timed interleaved at batch ${a.batch}`, TRAIN),
  paretoFront: call(['points'], 'find the Pareto frontier', TRAIN),
  // One int8 point: an int8 variant (quantizing x included) and the float packed matmul
  // timed on the same inputs, verified first.
  int8Variants: call([], 'list the int8 kernel’s variants', TRAIN),
  measureInt8Linear: point(['variant', 'batch', 'in', 'out', 'options'], ['variant', 'batch', 'in', 'out'], (a) =>
    `${a.variant} int8 Linear ${a.in}→${a.out} at batch ${a.batch}`, TRAIN),
  // One length of the KV cache experiment: a greedy generation of `tokens` tokens by core's
  // decoder with and without the cache, verified identical, then both timed interleaved.
  // An int8 point's int8 and float32 kernels placed on a machine's roofs: core's ideal bytes of
  // each (the weights in their own type), intensity and rate from the medians.
  int8Roofline: call(['batch', 'in', 'out', 'int_median_ms', 'float_median_ms', 'roofs'], 'place the int8 and float kernels on the roofline', TRAIN),
  measureKvCache: point(['decoder', 'prompt', 'tokens', 'options'], ['tokens'], (a) => `${a.tokens} tokens with and without the KV cache`, TRAIN),
  // The Olympics (wasm/bind_olympics.cpp): core's events, an entry's standing from its figures,
  // the latency ratio from a timing's raw samples, a held model's pipeline, a model file's
  // checksum; the grader's checker opened on a held baseline and two held splits, one entry
  // checked; a class's leaderboard, its CSV and Markdown.
  olympicsEvents: call([], 'read the Olympics’ events', TRAIN),
  olympicsJudge: call(['figures'], 'judge an entry against every event', TRAIN),
  olympicsLatency: call(['timing'], 'compute an entry’s latency ratio', TRAIN),
  olympicsPipelineOf: call(['model_id'], 'read a model’s pipeline', TRAIN),
  modelFileChecksum: call(['bytes'], 'read a model file’s checksum', TRAIN),
  olympicsCheckerOpen: call(['base_model_id', 'train_dataset_id', 'test_dataset_id'], 'open the Olympics checker', TRAIN),
  olympicsCheck: call(['entry', 'exported_at', 'machine'], 'check an Olympics entry', TRAIN),
  olympicsLeaderboard: call(['rows'], 'rank a class’s Olympics entries', TRAIN),
  olympicsLeaderboardCsv: call(['board'], 'write the leaderboard as CSV', TRAIN),
  olympicsLeaderboardMarkdown: call(['board'], 'write the leaderboard as Markdown', TRAIN),
});

/**
 * Declared functions whose chapter is not on the page yet, each with the chapter that will call
 * it. tests/js/api.test.mjs reports them, and fails once the page uses one that is still
 * listed here (or leaves unused one that is not).
 */
export const NOT_YET_MOUNTED = Object.freeze({
  trainingResult: 'the Optimization chapter',
});

/**
 * Bindings the modules export that the page does not call, each with why (the main module's,
 * unless the entry names its module: {module, why}); the api test fails on an exported
 * function that is in neither table.
 */
export const NOT_FOR_PAGE = Object.freeze({
  matmul: 'a kernel on caller data, for tests/wasm to compare each variant with naive',
  gelu: 'a kernel on caller data, for tests/wasm to compare each variant with the reference',
  add: 'a kernel on caller data, for tests/wasm',
  mul: 'a kernel on caller data, for tests/wasm',
  median: 'a statistics check for tests/wasm (the timer reports medians itself)',
  operationNames: 'the operation names alone; the page measures the operations core’s rooflinePlan names',
  zooSpec: 'one zoo spec; the page reads zooModels, which has every spec at once',
  zooNames: 'the zoo’s names alone; the page reads zooModels, which has them with their specs',
  flopCosts: 'the documented element-wise FLOP costs, checked by tests/wasm; no page section lists them',
  attentionScaling: 'several sequence lengths in one call, for tests/wasm; the page sweeps attentionPoint',
  suitePlan: {
    module: 'train',
    why: 'a suite’s points with their labels, for tests/wasm; the page plans its suite from the ticked models and metrics',
  },
});

/** The module and the reason of a NOT_FOR_PAGE entry. */
export const notForPage = (name) => {
  const e = NOT_FOR_PAGE[name];
  return typeof e === 'string' ? { module: 'main', why: e } : e;
};

/** Builds the page may ask for; a request without one gets the best this browser runs. */
export const BUILDS = Object.freeze(['simd', 'scalar']);

/** A sweep longer than this is a planning mistake, not an experiment a student waits for. */
export const MAX_SWEEP_POINTS = 10000;

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The declaration of `name`, or an Error listing the declared ones. */
export function declared(name) {
  if (typeof name === 'string' && Object.hasOwn(API, name)) return API[name];
  throw new Error(`unknown lab function ${JSON.stringify(name)}; declared: ${Object.keys(API).join(', ')}`);
}

/** The positional arguments of a call of `name` from named ones. */
export function positional(name, named) {
  return declared(name).args.map((a) => named?.[a]);
}

/**
 * The one rule for a measured row: the point's identifying fields (every field that is not
 * an argument, plus the arguments the declaration carries), then core's measurement, then
 * the build that measured it. Core's fields win over a point's of the same name.
 */
export function rowOf(name, pointArgs, measured, build) {
  const { args, carries } = declared(name);
  const identity = Object.fromEntries(
    Object.entries(pointArgs).filter(([k]) => !args.includes(k) || carries.includes(k)),
  );
  return { build, ...identity, ...measured };
}

/** The label of a point or call as the declaration names it ("naive at N=64"), or null. */
export function labelOf(name, named = {}) {
  return Object.hasOwn(API, name) ? API[name].label(named) : null;
}

/**
 * Returns null when `payload` is a well-formed request of `name`, else a sentence saying
 * what is wrong. A call: `{...named args, build?}`. A point: `{points, build?}` or
 * `{points, builds}` (every point measured in each build). A point may name its own `build`
 * (one of BUILDS): it runs in that build, the others in the sweep's (not with `builds`).
 */
export function payloadProblem(name, payload) {
  if (!Object.hasOwn(API, name)) {
    return `unknown lab function ${JSON.stringify(name)}; declared: ${Object.keys(API).join(', ')}`;
  }
  const entry = API[name];
  if (!isObject(payload)) return `the request of ${name} must be an object`;
  if (payload.build !== undefined && payload.build !== 'auto' && !BUILDS.includes(payload.build)) {
    return `unknown build ${JSON.stringify(payload.build)}; allowed: auto, ${BUILDS.join(', ')}`;
  }
  const allowed = entry.type === POINT ? ['points', 'build', 'builds'] : [...entry.args, 'build'];
  const extra = Object.keys(payload).filter((k) => !allowed.includes(k));
  if (extra.length > 0) {
    return `${name} takes ${allowed.length > 1 ? allowed.slice(0, -1).join(', ') + ' and ' : ''}${allowed.at(-1)}; got also ${extra.join(', ')}`;
  }
  if (entry.type === CALL) return null;

  const { points, builds } = payload;
  if (!Array.isArray(points) || points.length === 0) {
    return `sweep points must be a non-empty array, got ${Array.isArray(points) ? 'an empty array' : JSON.stringify(points)}`;
  }
  const bad = points.findIndex((p) => !isObject(p));
  if (bad >= 0) return `sweep point #${bad} must be an object of named arguments, got ${JSON.stringify(points[bad])}`;
  const badBuild = points.findIndex((p) => p.build !== undefined && !BUILDS.includes(p.build));
  if (badBuild >= 0) {
    return `sweep point #${badBuild} names the unknown build ${JSON.stringify(points[badBuild].build)}; allowed: ${BUILDS.join(', ')}`;
  }
  if (builds !== undefined) {
    if (payload.build !== undefined) return 'a sweep takes build or builds, not both';
    if (points.some((p) => p.build !== undefined)) return 'a sweep whose points name their build takes no builds';
    if (!Array.isArray(builds) || builds.length === 0 || new Set(builds).size !== builds.length || !builds.every((b) => BUILDS.includes(b))) {
      return `builds must be a non-empty list of distinct builds from ${BUILDS.join(', ')}, got ${JSON.stringify(builds)}`;
    }
  }
  const total = points.length * (builds?.length ?? 1);
  if (total > MAX_SWEEP_POINTS) {
    return `a sweep may have at most ${MAX_SWEEP_POINTS} points, got ${points.length}${builds ? ` × ${builds.length} builds` : ''}`;
  }
  return null;
}
