// A JSON text the page or a tool parses itself (a fetched course.json, a loaded baseline, a
// handed-in submission): JavaScript's JSON.parse reads it, and when it cannot, core says why
// (the jsonTextProblem binding), so every refusal names the place in core's words, the same
// on the page, in the CLI and in the grader, never the engine's own wording.
// Not for: texts core reads itself (model specs, pasted reports), which core refuses directly.

/** What a refusal says when core reads a text JavaScript could not (no known case). */
export const UNREADABLE = 'the text is not JSON that the lab can read';

/**
 * `{value}` when `text` is JSON, else `{reason}`: core's sentence naming the place ("parse
 * error at line 1, column 7: ..."). `jsonTextProblem(text)` is the binding (the worker's lab
 * call or the module's own function; it may return a promise).
 * @param {string} text
 * @param {(text: string) => (string|null|Promise<string|null>)} jsonTextProblem
 */
export async function readJsonText(text, jsonTextProblem) {
  if (typeof jsonTextProblem !== 'function') throw new TypeError(`readJsonText: jsonTextProblem must be the lab's function, got ${typeof jsonTextProblem}`);
  try {
    return { value: JSON.parse(text) };
  } catch {
    return { reason: (await jsonTextProblem(text)) ?? UNREADABLE };
  }
}
