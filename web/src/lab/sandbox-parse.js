// The sandbox's check of a student's code before it runs, on a syntax tree (acorn) rather than
// a text pattern: the code is parsed exactly as compileFunction (sandbox-intrinsics.js) hands
// it to the Function constructor, a sloppy-mode script with Annex B's HTML-like comments and
// every line terminator of the language, so what the parser sees is what the engine runs.
// A dynamic import() is refused wherever it is (the one escape the lockdown cannot delete from
// the language: it would load a module from anywhere); a syntax error is answered as the
// student's, with the line and column in their code. Static import and export (and whatever
// acorn takes for them) are refused with their own sentence; import.meta is a syntax error.
// Used by the page's sandbox worker (sandbox-worker.js) and the command line's code worker
// (tools/grading/code-worker.mjs), both before the runner compiles anything.
// Not for: running code (sandbox-runner.js) or closing the worker's APIs (sandbox-lockdown.js).
import { parse } from 'acorn';

// The text V8 compiles for `new Function(parameters, body)` (ECMA-262 CreateDynamicFunction):
// the body starts on the third line of this wrapper.
const BEFORE_BODY_LINES = 2;
const wrapped = (body, parameters) => `(function anonymous(${parameters}\n) {\n${body}\n})`;

/** The syntax tree's nodes, depth first (every object with a `type` below `node`). */
function* nodesOf(node) {
  const stack = [node];
  while (stack.length > 0) {
    const n = stack.pop();
    yield n;
    for (const key of Object.keys(n)) {
      const v = n[key];
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) if (v[i] && typeof v[i].type === 'string') stack.push(v[i]);
      } else if (v && typeof v === 'object' && typeof v.type === 'string') {
        stack.push(v);
      }
    }
  }
}

/** " (line L, column C)" in the student's code, from a position in the wrapped text. */
const where = (loc) => ` (line ${loc.line - BEFORE_BODY_LINES}, column ${loc.column + 1})`;

/**
 * Why the sandbox refuses to run `code` (a sentence that reads as the test's error), or null
 * when it does not. `code` is the body compileFunction compiles with `parameters` (the
 * runner's "console"); pass the same body the runner compiles. Throws a TypeError when `code`
 * or `parameters` is not a string.
 */
export function refusedCode(code, parameters = 'console') {
  if (typeof code !== 'string' || typeof parameters !== 'string') {
    throw new TypeError(`refusedCode takes the code and its parameters as strings, got ${typeof code} and ${typeof parameters}`);
  }
  let program;
  try {
    program = parse(wrapped(code, parameters), { ecmaVersion: 'latest', sourceType: 'script', locations: true, allowHashBang: false });
  } catch (e) {
    if (!(e instanceof SyntaxError) || !e.loc) throw e;
    const message = e.message.replace(/ \(\d+:\d+\)$/, '');
    // A static import or export, or a dynamic import acorn reads as one: at the start of a
    // statement it looks past spaces and // or /* */ comments for the "(", not past an
    // HTML-like one (`import<!--⏎(url)`), which the engine would run as import(url).
    if (/^'import' and 'export' may /.test(message)) {
      return `Error: your code uses import or export, which the sandbox does not run: exercises run without modules or network access. Remove it${where(e.loc)}.`;
    }
    return `SyntaxError: ${message}${where(e.loc)}`;
  }
  // A body that closes the function it is compiled into (`}); ...; (function () {`) parses as
  // more than one statement here; the engine refuses it too.
  const [only] = program.body;
  if (program.body.length !== 1 || only.type !== 'ExpressionStatement' || only.expression.type !== 'FunctionExpression') {
    const loc = program.body[1]?.loc.start ?? only?.loc.start ?? { line: BEFORE_BODY_LINES + 1, column: 0 };
    return `SyntaxError: your code closes the function it is compiled into; write it as a script of declarations${where(loc)}`;
  }
  for (const node of nodesOf(program)) {
    if (node.type === 'ImportExpression') {
      return `Error: your code calls import(), which the sandbox does not run: exercises run without modules or network access. Remove the import${where(node.loc.start)}.`;
    }
  }
  return null;
}
