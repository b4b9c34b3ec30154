// The grading key a class re-grade draws code exercises' hidden tests with (core's
// exercise_variant hidden_key): fresh inputs of the same distribution that the students'
// pages never showed, so an answer looked up by the arguments a page showed does not carry
// over. The instructor gives one (tools/grade.mjs --hidden-key, the instructor view's field)
// or each run draws its own; the outputs record it, and the same key reproduces the
// gradebook. Keep it from the students: with the key, the hidden tests can be drawn again.
// Not for: the rule a key follows (core checks it) or the draw itself (core).

/** A fresh key: 16 hex digits from the platform's cryptographic random source. */
export function newHiddenKey() {
  const bytes = new Uint8Array(8);
  globalThis.crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Asks core whether `key` is a usable grading key by drawing one code exercise's variant
 * with it; rejects with core's sentence when it is not. A bank without code exercises
 * accepts any key (none is used).
 */
export async function checkHiddenKey(lab, key) {
  const code = (await lab.exerciseBank()).find((e) => e.kind === 'code');
  if (code) await lab.exerciseVariant(code.id, 0, key);
}

/**
 * grading-run.json: what a re-grade needs to be repeated with the same hidden tests (its
 * grading key, the bank it graded with, the course). No time, so the same run writes the
 * same file.
 * @param {object} graded gradeClass's result
 * @param {{course?: object|null}} [options]
 */
export function gradingRunJson(graded, { course = null } = {}) {
  const run = {
    format: 'perflab-grading-run',
    hidden_key: graded.hidden_key ?? null,
    bank_version: graded.bank_version ?? null,
    course_id: course?.id ?? null,
    files_graded: graded.students.length,
  };
  return `${JSON.stringify(run, null, 2)}\n`;
}
