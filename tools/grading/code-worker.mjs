// A worker thread that runs students' code for tools/grade.mjs, one job at a time, each in a
// fresh V8 context (node:vm) holding only the language's built-ins: no process, require,
// file system or network, and nothing one student's code changes survives into the next
// job. Inside that context runs the page's own test runner (web/src/lab/sandbox-runner.js and
// the sibling modules it imports, evaluated as one script: see runnerModules and
// runnerSource), so the command line and the page run a test
// the same way (argument markers $fake_clock and $fake_fn, timed `benchmark` tests), after the
// page's check of the code (web/src/lab/sandbox-parse.js, which refuses a dynamic import).
// The context's clock and random source are the host's, reached through closures the
// student's code cannot see. vm's `timeout` stops an endless loop at the exercise's time
// limit; code-runner.mjs terminates this whole worker when even that does not return.
// Messages in: {id, code, functionName, tests, timeLimitMs}. Out, per job: {id, type:
// 'result', index, result} as each test finishes, then {id, type: 'done', timedOut}.
// Not for: security against a determined attacker (node:vm is not a security boundary);
// grade on a machine you would let run the students' code.
import { readFileSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import vm from 'node:vm';
import { parentPort } from 'node:worker_threads';
import { refusedCode } from '../../web/src/lab/sandbox-parse.js';

const RUNNER_URL = new URL('../../web/src/lab/sandbox-runner.js', import.meta.url);

/**
 * sandbox-runner.js as a script that evaluates to an object of its exports: the module's
 * text inside a strict function (its top-level names stay private to it, as in a module),
 * `export ` removed, the exported names returned. It imports nothing; if it ever does, this
 * says so instead of running a half-loaded runner.
 */
export function runnerSource(text) {
  if (/^\s*import\s/m.test(text) || /^\s*export\s+(default|\{|\*)/m.test(text)) {
    throw new Error('web/src/lab/sandbox-runner.js now has an import or an export list that is not a sibling module linked by name; tools/grading/code-worker.mjs evaluates it as one script and must learn that form');
  }
  const names = [];
  const body = text.replace(/^export\s+((?:async\s+)?(?:function\*?|const|let|class))\s+([A-Za-z_$][\w$]*)/gm, (_, kind, name) => {
    names.push(name);
    return `${kind} ${name}`;
  });
  return `(function () {\n'use strict';\n${body}\n;return { ${names.join(', ')} };\n})()`;
}

// `import {a, b} from './x.js';` or `export {a} from './x.js';` (possibly over several lines).
const SIBLING_LINK = /^(import|export)\s*\{([^}]*)\}\s*from\s*'\.\/([\w.-]+\.js)';[ \t]*$/gm;
const TOP_LEVEL_NAME = /^(?:export\s+)?(?:async\s+)?(?:function\*?|const|let|class)\s+([A-Za-z_$][\w$]*)/gm;

/**
 * The sandbox runner's modules as one text without imports, for runnerSource: `entry` and the
 * sibling modules it imports by name (`import {a, b} from './x.js'`, `export {a} from
 * './x.js'`), each placed after the modules it imports, its import and re-export lines removed
 * (in one script the names are simply in scope). `read(file)` returns a module's text.
 * Throws for a renamed, default or namespace import, a name a sibling does not export, a
 * circle, or one top-level name declared in two modules (which one script cannot hold).
 */
export function runnerModules(read, entry = 'sandbox-runner.js') {
  const texts = [];
  const state = new Map();
  const declaredIn = new Map();
  const visit = (file) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') throw new Error(`the sandbox runner's modules import each other in a circle through ${file}`);
    state.set(file, 'open');
    const links = [];
    const text = read(file).replace(SIBLING_LINK, (_, kind, list, from) => {
      const names = list.split(',').map((n) => n.trim()).filter(Boolean);
      const odd = names.find((n) => !/^[A-Za-z_$][\w$]*$/.test(n));
      if (odd) throw new Error(`${file} ${kind}s ${JSON.stringify(odd)} from ${from}; the runner's modules link plain names only (no as, default or *)`);
      links.push({ from, names });
      return '';
    });
    for (const { from, names } of links) {
      visit(from);
      const exported = new Set([...read(from).matchAll(/^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]));
      const missing = names.filter((n) => !exported.has(n));
      if (missing.length) throw new Error(`${file} imports ${missing.join(', ')} from ${from}, which does not declare ${missing.length === 1 ? 'it' : 'them'} as an export`);
    }
    for (const [, name] of text.matchAll(TOP_LEVEL_NAME)) {
      if (declaredIn.has(name)) throw new Error(`${name} is declared in both ${declaredIn.get(name)} and ${file}; the runner's modules run as one script, so their top-level names must differ`);
      declaredIn.set(name, file);
    }
    state.set(file, 'done');
    texts.push({ file, text: `// ---- ${file}\n${text}` });
  };
  visit(entry);
  return texts.map((t) => t.text).join('\n');
}

const runnerScript = new vm.Script(runnerSource(runnerModules((file) => readFileSync(new URL(file, RUNNER_URL), 'utf8'))), { filename: 'sandbox-runner.js' });

// Installs performance.now and crypto.getRandomValues in a context from host functions kept
// in closures: the student's code sees functions of its own realm only.
const bridgeScript = new vm.Script(`(function (hostNow, hostRandom) {
  'use strict';
  const now = () => hostNow();
  Object.defineProperty(globalThis, 'performance', { value: Object.freeze({ now }), writable: true, configurable: true });
  const getRandomValues = (array) => {
    for (let i = 0; i < array.length; i++) array[i] = hostRandom();
    return array;
  };
  Object.defineProperty(globalThis, 'crypto', { value: Object.freeze({ getRandomValues }), writable: true, configurable: true });
})`, { filename: 'bridge.js' });

// Runs one job in the context: the job arrives as JSON text (no host object reaches the
// student's code) and each result leaves through `post`, called with the runner's object.
// A timed test's reference comes from `referenceSide`, the runner of a context of its own
// (referenceContext), so the reference never goes through an intrinsic of this one; the
// typed-array intrinsics are frozen here too, as in the page's sandbox worker, so the code
// runs under the same rules in both.
const driverScript = new vm.Script(`(function () {
  'use strict';
  const runner = globalThis.__runner;
  const job = JSON.parse(globalThis.__job);
  const post = globalThis.__post;
  const referenceSide = globalThis.__referenceSide;
  delete globalThis.__runner;
  delete globalThis.__job;
  delete globalThis.__post;
  delete globalThis.__referenceSide;
  runner.freezeIntrinsics(globalThis);
  runner.runStudentTests({
    code: job.code,
    functionName: job.functionName,
    tests: job.tests,
    onResult: (index, result) => { post(index, result); },
    referenceSide: (name, n, density) => referenceSide(name, n, density),
  });
})()`, { filename: 'driver.js' });

/**
 * A context of its own for a job's timed references, never given to the student's code: its
 * runner's referenceSide (a function of that realm: its clock, constructors and prototypes
 * are that realm's, untouched). Made only for a job that has a timed test.
 */
function referenceContext() {
  const context = vm.createContext({}, { name: 'timed reference', codeGeneration: { strings: true, wasm: false } });
  bridgeScript.runInContext(context)(hostNow, hostRandom);
  const runner = runnerScript.runInContext(context);
  runner.freezeIntrinsics();
  return runner.referenceSide;
}

const hostNow = () => performance.now();
const hostRandom = () => randomInt(0, 2 ** 32 - 1);

function plain(result) {
  try {
    return structuredClone(result);
  } catch (e) {
    return { error: `the result could not be read: ${e.message}` };
  }
}

function runJob({ id, code, functionName, tests, timeLimitMs }) {
  // The page's check, here in the host's realm before a context exists: a refused code never
  // runs (a dynamic import in node:vm would end this worker).
  const refusal = refusedCode(String(code ?? ''));
  if (refusal !== null) {
    const count = Array.isArray(tests) ? tests.length : 0;
    for (let i = 0; i < count; i++) parentPort.postMessage({ id, type: 'result', index: i, result: { error: refusal } });
    parentPort.postMessage({ id, type: 'done', timedOut: false });
    return;
  }
  const context = vm.createContext({}, {
    name: 'student code',
    codeGeneration: { strings: true, wasm: false },
    microtaskMode: 'afterEvaluate',
  });
  bridgeScript.runInContext(context)(hostNow, hostRandom);
  context.__runner = runnerScript.runInContext(context);
  context.__job = JSON.stringify({ code: String(code ?? ''), functionName, tests });
  const timed = Array.isArray(tests) && tests.some((t) => t && typeof t === 'object' && t.benchmark !== undefined);
  context.__referenceSide = timed ? referenceContext() : null;
  // Never throws into the context: a host Error would hand the student's code this realm.
  context.__post = (index, result) => {
    try {
      if (Number.isInteger(index)) parentPort.postMessage({ id, type: 'result', index, result: plain(result) });
    } catch {
      // The message could not be sent: the test stays without a result (a timeout).
    }
  };
  let timedOut = false;
  try {
    driverScript.runInContext(context, { timeout: Math.max(1, Math.ceil(timeLimitMs)) });
  } catch (e) {
    if (e?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') timedOut = true;
    else parentPort.postMessage({ id, type: 'failed', message: String(e?.message ?? e) });
  }
  parentPort.postMessage({ id, type: 'done', timedOut });
}

// Imported on the main thread (tests read runnerSource), it only defines.
if (parentPort) {
  parentPort.on('message', (job) => runJob(job));
  parentPort.postMessage({ type: 'ready' });
}
