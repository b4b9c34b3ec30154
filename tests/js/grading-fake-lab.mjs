// A small stand-in for core's grader with the lab's async shape, for the grading module's
// unit tests: three exercises whose right answers follow from the seed, so a test knows
// them without core. Not a test file itself.
export const FAKE_BANK = [
  { id: 'ch1.number', chapter: 'ch1', title: 'A number', kind: 'numeric', points: 10, function_name: '', starter_code: '', time_limit_ms: 2000 },
  { id: 'ch1.pick', chapter: 'ch1', title: 'A choice', kind: 'choice', points: 10, function_name: '', starter_code: '', time_limit_ms: 2000 },
  { id: 'ch2.double', chapter: 'ch2', title: 'Double it', kind: 'code', points: 15, function_name: 'double', starter_code: 'function double(x) {\n  // your code\n}\n', time_limit_ms: 500 },
];
export const FAKE_VERSION = 'bank-00000000000000aa';

export const rightNumber = (seed) => seed % 97;
export const rightChoice = (seed) => seed % 3;

export function fakeLab() {
  const calls = [];
  return {
    calls,
    async exerciseBank() { return FAKE_BANK; },
    async exerciseBankVersion() { return FAKE_VERSION; },
    // The fake bank has no experiment-backed exercise, so no file carries measured evidence.
    async evidenceForensics() { return []; },
    // Not core's sentence (tests/wasm/json-text-problem.test.mjs checks that): null for JSON.
    async jsonTextProblem(text) {
      try {
        JSON.parse(text);
        return null;
      } catch {
        return 'parse error somewhere (the fake lab does not say where)';
      }
    },
    async courseSeed(course, id) {
      const student_id = String(id).trim().toLowerCase();
      let h = 7;
      for (const c of `${course.salt}/${student_id}`) h = (h * 31 + c.charCodeAt(0)) >>> 0;
      return { seed: h, student_id };
    },
    // ch1.pick's choices as each try shows them (the fake draws the same three every try).
    async choiceVariant(id, seed, t) {
      return { id, seed, try: t, choices: ['one', 'two', 'three'] };
    },
    async exerciseVariant(id, seed) {
      return { id, seed, tests: [{ name: 'one', args: [seed % 5] }, { name: 'two', args: [7] }] };
    },
    async gradeExercise(id, seed, answer) {
      calls.push({ id, seed, answer });
      const max = FAKE_BANK.find((e) => e.id === id).points;
      let correct;
      if (id === 'ch1.number') {
        if (typeof answer.value !== 'number') throw new Error('answer.value must be a number');
        correct = answer.value === rightNumber(seed);
      } else if (id === 'ch1.pick') {
        correct = answer.choice === rightChoice(seed);
      } else {
        const want = [(seed % 5) * 2, 14];
        const passed = answer.results.filter((r, i) => r.value === want[i]).length;
        return { correct: passed === 2, score: (max * passed) / 2, max_score: max, feedback: `${passed} of 2 tests passed.`, tests: [] };
      }
      return { correct, score: correct ? max : 0, max_score: max, feedback: correct ? 'Correct.' : 'Not correct.', tests: [] };
    },
  };
}

/** Runs the code with new Function in this process: enough for the fake bank's tests. */
export async function fakeRunCode({ code, functionName, tests }) {
  try {
    const fn = new Function(`${code}\n;return ${functionName};`)();
    return tests.map((t) => {
      try {
        return { value: fn(...t.args) };
      } catch (e) {
        return { error: String(e) };
      }
    });
  } catch (e) {
    return tests.map(() => ({ error: String(e) }));
  }
}

export const COURSE = { id: 'perf-test', title: 'Test course', salt: 'pepper', chapters: ['ch1', 'ch2'] };

/** A submission whose answers are right (or as `wrong` says) for `id` in COURSE. */
export async function fakeSubmission(id, { lab = fakeLab(), wrong = [], claim = null, seed: forcedSeed, code } = {}) {
  const { seed } = await lab.courseSeed(COURSE, id);
  const useSeed = forcedSeed ?? seed;
  const right = (ex) => !wrong.includes(ex);
  const entry = (score, extra) => ({ attempts: 1, solved: score > 0, best_score: score, best_code: null, last_answer: null, code: null, hints_used: 0, ...extra });
  const exercises = {
    'ch1.number': entry(right('ch1.number') ? 10 : 0, { best_answer: { value: right('ch1.number') ? rightNumber(useSeed) : -1 } }),
    'ch1.pick': entry(right('ch1.pick') ? 10 : 0, { best_answer: { choice: right('ch1.pick') ? rightChoice(useSeed) : (rightChoice(useSeed) + 1) % 3, attempt: 1 } }),
    'ch2.double': entry(right('ch2.double') ? 15 : 0, { best_answer: { results: [] }, best_code: code ?? (right('ch2.double') ? `function double(x) { return ${'2 * x'}; } // ${id}` : 'function double(x) { return x; }') }),
  };
  if (claim) for (const [ex, score] of Object.entries(claim)) exercises[ex].best_score = score;
  return {
    format: 'perflab-submission',
    version: 2,
    course: { id: COURSE.id, title: COURSE.title, chapters: COURSE.chapters },
    student: { id, name: `Student ${id}` },
    seed: useSeed,
    bank_version: FAKE_VERSION,
    page_version: '0.1.0+test',
    machine: { build: 'simd', cores: 2, user_agent: 'test', probe: null },
    exported_at: '2026-11-20T10:00:00.000Z',
    exercises,
  };
}
