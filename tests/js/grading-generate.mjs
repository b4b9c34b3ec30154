// Makes submission files from the real exercise bank for the grading tests, the CLI test and
// bench/regrade.mjs. core never tells the expected values, so right numeric answers are found
// the way a patient student would: by grading candidates and following core's "Too high" /
// "Too low" until one is graded correct (not for the exercises whose feedback hides the
// answer: they stay wrong); right choices by trying each. Code comes from
// reference solutions written from the prompts (the Benchmarking ones shared with the CLI
// and wasm tests). Experiment-backed exercises get rows of a plausible run where their row
// fields are simple to write; the others are left unanswered. A "skill" draws which
// exercises a student gets right, so generated classes are partly wrong, as real ones are.
// Not a test file itself.
import { runStudentTests } from '../../web/src/lab/sandbox-runner.js';
import { BOOTSTRAP, CLASSIFY, SCHEDULE, generatorOf } from './benchmarking-solutions.mjs';
import { machineRows, probeOf, simulatedMachine } from './grading-machines.mjs';
import { TRANSFORM_SOLUTIONS } from './optimization-transform-solutions.mjs';

export const SOLUTIONS = Object.freeze({
  ...TRANSFORM_SOLUTIONS,
  'profiling.count-linear-flops': 'function countLinearFlops(inFeatures, outFeatures) {\n  return 2 * inFeatures * outFeatures;\n}',
  'profiling.count-conv2d-flops': 'function countConv2dFlops(inChannels, outChannels, kernel, hOut, wOut) {\n  return 2 * inChannels * outChannels * kernel * kernel * hOut * wOut;\n}',
  'profiling.median': 'function median(times) {\n  const s = [...times].sort((a, b) => a - b);\n  const m = s.length >> 1;\n  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;\n}',
  'profiling.measure-latency': `function measureLatency(fn, { warmup, iterations }, clock) {
  for (let i = 0; i < warmup; i++) fn();
  const times = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = clock.now();
    fn();
    times.push(clock.now() - t0);
  }
  times.sort((a, b) => a - b);
  const m = times.length >> 1;
  return times.length % 2 ? times[m] : (times[m - 1] + times[m]) / 2;
}`,
  'profiling.count-parameters': `function countParameters(model) {
  let total = 0;
  for (const l of model.layers) {
    const bias = l.bias === false ? 0 : 1;
    if (l.type === 'Linear') total += l.in * l.out + bias * l.out;
    else if (l.type === 'Conv2d') total += l.in_channels * l.out_channels * l.kernel * l.kernel + bias * l.out_channels;
    else if (l.type === 'LayerNorm') total += 2 * l.features;
    else if (l.type === 'MultiHeadAttention') total += 4 * (l.d_model * l.d_model + l.d_model);
    else if (l.type === 'TransformerBlock') {
      const d = l.d_model;
      total += 2 * 2 * d + 4 * (d * d + d) + (d * l.d_ff + l.d_ff) + (l.d_ff * d + d);
    }
  }
  return total;
}`,
  'acceleration.attainable-code': 'function attainable(peak, bandwidth, intensity) {\n  return Math.min(peak, bandwidth * intensity);\n}',
  'optimization.cross-entropy': `function meanCrossEntropy(logits, labels) {
  let total = 0;
  for (let i = 0; i < logits.length; i++) {
    const row = logits[i];
    const m = Math.max(...row);
    let sum = 0;
    for (const x of row) sum += Math.exp(x - m);
    total += m + Math.log(sum) - row[labels[i]];
  }
  return total / logits.length;
}`,
  'acceleration.matmul-loop-order': `function matmul(a, b, n) {
  const c = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < n; k++) {
      const aik = a[i * n + k];
      for (let j = 0; j < n; j++) c[i * n + j] += aik * b[k * n + j];
    }
  }
  return c;
}`,
});

// The honest reference solution of a code exercise (null when there is none); the
// Benchmarking solutions need the starter code's generator after them.
export function solutionOf(exercise) {
  if (exercise.id === 'benchmarking.bootstrap-ci') return BOOTSTRAP + generatorOf(exercise.starter_code);
  if (exercise.id === 'benchmarking.interleaved-schedule') return SCHEDULE + generatorOf(exercise.starter_code);
  if (exercise.id === 'benchmarking.classify-complexity') return CLASSIFY;
  return SOLUTIONS[exercise.id] ?? null;
}

// Rows of a plausible run, for the experiment-backed exercises whose rows carry no timing; the
// timed ones come from the student's simulated machine (grading-machines.mjs).
const EVIDENCE_ROWS = Object.freeze({
  // fashion_mlp's 784→256 at batch 64: the sparse kernel's speedup falls as 1/density and
  // crosses 1× between 0.2 and 0.5.
  'optimization-sparsity': (r) => {
    const k = 0.3 + r() * 0.1;
    return [0.05, 0.2, 0.5, 1].map((density) => ({ density, speedup: k / density, batch: 64, in: 784, out: 256 }));
  },
  // A pruned fashion_mlp's Linears.
  'optimization-structured': (r) => {
    const [h1, h2] = [64 + Math.round(r() * 128), 32 + Math.round(r() * 64)];
    return [
      { linear: 0, in: 784, out: h1 },
      { linear: 1, in: h1, out: h2 },
      { linear: 2, in: h2, out: 10 },
    ];
  },
  // Both calibrations' input ranges of the three Linears.
  'optimization-quantization': (r) =>
    [0, 1].flatMap((percentile) => [0, 1, 2].map((linear) => ({ percentile, linear, lo: linear === 0 ? -r() : 0, hi: 1 + Math.round(r() * 800) / 100 }))),
});

/** mulberry32: the same class for the same seed. */
export function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const direction = (feedback) => (/^Too high/.test(feedback) ? -1 : /^Too low/.test(feedback) ? 1 : 0);

/**
 * A numeric answer core grades correct, found by search: every part moves on core's own
 * "Too high" / "Too low" (exponential steps, then bisection). null when none is found.
 */
export async function findNumeric(lab, exercise, seed, extra = {}) {
  const parts = exercise.parts?.length ?? 0;
  const n = Math.max(1, parts);
  const state = Array.from({ length: n }, () => ({ x: 0, lo: null, hi: null, step: 1e-6, done: false }));
  const answerOf = () => (parts ? { values: state.map((s) => s.x) } : { value: state[0].x });
  for (let round = 0; round < 400; round++) {
    const graded = await lab.gradeExercise(exercise.id, seed, { ...answerOf(), ...extra });
    if (graded.correct) return answerOf();
    const feedbacks = parts ? graded.parts.map((p) => (p.correct ? 'Correct.' : p.feedback)) : [graded.feedback];
    // An exercise whose feedback hides the answer gives no direction to follow.
    if (feedbacks.every((f) => direction(f) === 0)) return null;
    for (let i = 0; i < n; i++) {
      const s = state[i];
      const d = direction(feedbacks[i]);
      if (d === 0) continue;
      if (d > 0) s.lo = s.x;
      else s.hi = s.x;
      if (s.lo !== null && s.hi !== null) s.x = (s.lo + s.hi) / 2;
      else {
        s.x = s.x === 0 ? d * s.step : s.x * (Math.sign(s.x) === d ? 4 : 0.25);
        if (s.lo !== null && s.x <= s.lo) s.x = s.lo + Math.abs(s.lo) + 1;
        if (s.hi !== null && s.x >= s.hi) s.x = s.hi - Math.abs(s.hi) - 1;
      }
    }
  }
  return null;
}

// A choice exercise as an honest student answers it: each try shows a new variant (core's
// choiceVariant), wrong before `attempt`, then the right choice of try `attempt`'s variant,
// found by trying each; `wrong` is a wrong answer to try 1's.
async function findChoice(lab, exercise, seed, extra, attempt) {
  const rightOn = async (t) => {
    const { choices } = await lab.choiceVariant(exercise.id, seed, t);
    for (let choice = 0; choice < choices.length; choice++) {
      if ((await lab.gradeExercise(exercise.id, seed, { choice, attempt: t, ...extra })).correct) return { choice, count: choices.length };
    }
    return null;
  };
  const found = await rightOn(attempt);
  const first = attempt === 1 ? found : await rightOn(1);
  if (!found || !first) return null;
  return { answer: { choice: found.choice, attempt, ...extra }, wrong: { choice: (first.choice + 1) % first.count, attempt: 1, ...extra } };
}

// Whether core's variant of a code exercise holds a timed test (the same for every seed),
// asked once per lab and exercise.
const timedExercises = new WeakMap();
async function isTimed(lab, exercise, seed) {
  if (!timedExercises.has(lab)) timedExercises.set(lab, new Map());
  const known = timedExercises.get(lab);
  if (!known.has(exercise.id)) {
    const { tests } = await lab.exerciseVariant(exercise.id, seed);
    known.set(exercise.id, tests.some((t) => t.benchmark));
  }
  return known.get(exercise.id);
}

/**
 * One submission for `studentId` in `course` (course.json's object, salt included).
 * @param {object} options skill: chance of a right answer per exercise (default 0.7); timed:
 *   chance of answering each timed code exercise (one whose variant has a benchmark test) at
 *   all (default 1); random: a generator;
 *   fast: for scale (bench/regrade.mjs), numeric answers are guessed (one grading each,
 *   nearly always wrong) instead of searched, and a reference solution claims its points
 *   without being run here (default false)
 */
export async function generateSubmission(lab, course, studentId, { skill = 0.7, timed = 1, fast = false, core = null, random = seeded(studentId.length * 7919 + studentId.charCodeAt(studentId.length - 1)) } = {}) {
  const { seed } = await lab.courseSeed(course, studentId);
  const bank = await lab.exerciseBank();
  const exercises = {};
  // The student's own machine: its clock, roofs and probe; runs finish after the probe, one
  // run per experiment whichever exercises read it, and the export after every run.
  const machine = simulatedMachine(random);
  const timedRows = machineRows(machine, core);
  const runs = new Map(); // experiment id -> {rows, finished_at}
  let clock_ms = machine.probe_ms;
  const runOf = (experiment) => {
    if (!runs.has(experiment)) {
      const make = timedRows[experiment] ?? ((r) => EVIDENCE_ROWS[experiment](r));
      clock_ms += 60_000 + Math.floor(random() * 600_000);
      runs.set(experiment, { rows: make(random), finished_at: new Date(clock_ms).toISOString() });
    }
    return runs.get(experiment);
  };
  for (const exercise of bank) {
    if (Array.isArray(course.chapters) && course.chapters.length && !course.chapters.includes(exercise.chapter)) continue;
    const right = random() < skill;
    const entry = { attempts: 1 + Math.floor(random() * 3), solved: false, best_score: 0, best_answer: null, best_code: null, last_answer: null, code: null, hints_used: Math.floor(random() * 2) };
    const experiment = exercise.evidence?.experiment;
    if (experiment && !timedRows[experiment] && !EVIDENCE_ROWS[experiment]) continue; // unanswered
    const extraAnswer = experiment ? { evidence: { experiment, ...runOf(experiment) } } : {};
    if (exercise.kind === 'code') {
      if ((await isTimed(lab, exercise, seed)) && random() >= timed) continue;
      const solution = solutionOf(exercise);
      // Each student's own text (a line of their own), so only deliberate copies match.
      const code = right && solution ? `${solution}\nconst author_${studentId.replace(/\W/g, '_')} = 1;\n` : exercise.starter_code;
      entry.best_code = code;
      entry.code = code;
      if (exercise.id === 'acceleration.matmul-loop-order' || (fast && right && solution)) {
        // Timed on the student's machine: the page's score is taken as full for the right loop order.
        entry.best_answer = { results: [] };
        entry.best_score = right && solution ? exercise.points : 0;
      } else {
        // What the page would have graded: the same runner, in this process.
        const { tests } = await lab.exerciseVariant(exercise.id, seed);
        entry.best_answer = { results: runStudentTests({ code, functionName: exercise.function_name, tests }) };
        entry.best_score = (await lab.gradeExercise(exercise.id, seed, entry.best_answer)).score;
      }
    } else if (exercise.kind === 'choice') {
      const attempt = right ? 1 + Math.floor(random() * 2) : 1;
      const found = await findChoice(lab, exercise, seed, extraAnswer, attempt);
      if (!found) continue;
      entry.best_answer = right ? found.answer : found.wrong;
      entry.attempts = Math.max(entry.attempts, entry.best_answer.attempt);
      entry.best_score = (await lab.gradeExercise(exercise.id, seed, entry.best_answer)).score;
    } else {
      const found = right && !fast ? await findNumeric(lab, exercise, seed, extraAnswer) : null;
      const parts = exercise.parts?.length ?? 0;
      const guess = () => Math.round(random() * 1000) / 10;
      const answer = found ?? (parts ? { values: Array.from({ length: parts }, guess) } : { value: guess() });
      entry.best_answer = { ...answer, ...extraAnswer };
      entry.best_score = (await lab.gradeExercise(exercise.id, seed, entry.best_answer)).score;
    }
    entry.solved = entry.best_score >= exercise.points;
    entry.last_answer = entry.best_answer;
    exercises[exercise.id] = entry;
  }
  return {
    format: 'perflab-submission',
    version: 2,
    course: { id: course.id, title: course.title, chapters: course.chapters ?? [] },
    student: { id: studentId, name: `Student ${studentId}` },
    seed,
    bank_version: await lab.exerciseBankVersion(),
    page_version: '0.1.0+generated',
    machine: {
      build: 'simd',
      cores: 2 + 2 * Math.floor(random() * 4),
      user_agent: 'generated',
      timer_resolution_ms: machine.resolution_ms,
      probe: probeOf(machine),
    },
    exported_at: new Date(clock_ms + 60_000 + Math.floor(random() * 600_000)).toISOString(),
    exercises,
  };
}

/** `count` submissions (ids s001, s002, ...) as files {name, text}. */
export async function generateClass(lab, course, count, options = {}) {
  const files = [];
  for (let i = 1; i <= count; i++) {
    const id = `s${String(i).padStart(3, '0')}`;
    const submission = await generateSubmission(lab, course, id, { ...options, random: seeded(i * 2654435761) });
    files.push({ name: `${id}.json`, text: `${JSON.stringify(submission, null, 2)}\n` });
  }
  return files;
}
