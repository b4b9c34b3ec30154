// A worker thread that runs students' code for tools/grade.mjs, one job at a time, each in a
// fresh V8 context (node:vm) holding only the language's built-ins: no process, require,
// file system or network, and nothing one student's code changes survives into the next
// job. Inside that context runs the page's own test runner (web/src/lab/sandbox-runner.js,
// evaluated as one script: see runnerSource), so the command line and the page run a test
// the same way (argument markers $fake_clock and $fake_fn, timed `benchmark` tests).
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

const RUNNER_URL = new URL('../../web/src/lab/sandbox-runner.js', import.meta.url);

/**
 * sandbox-runner.js as a script that evaluates to an object of its exports: the module's
 * text inside a strict function (its top-level names stay private to it, as in a module),
 * `export ` removed, the exported names returned. It imports nothing; if it ever does, this
 * says so instead of running a half-loaded runner.
 */
export function runnerSource(text) {
  if (/^\s*import\s/m.test(text) || /^\s*export\s+(default|\{|\*)/m.test(text)) {
    throw new Error('web/src/lab/sandbox-runner.js now has an import or an export list; tools/grading/code-worker.mjs evaluates it as one script and must learn that form');
  }
  const names = [];
  const body = text.replace(/^export\s+((?:async\s+)?(?:function\*?|const|let|class))\s+([A-Za-z_$][\w$]*)/gm, (_, kind, name) => {
    names.push(name);
    return `${kind} ${name}`;
  });
  return `(function () {\n'use strict';\n${body}\n;return { ${names.join(', ')} };\n})()`;
}

const runnerScript = new vm.Script(runnerSource(readFileSync(RUNNER_URL, 'utf8')), { filename: 'sandbox-runner.js' });

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
const driverScript = new vm.Script(`(function () {
  'use strict';
  const runner = globalThis.__runner;
  const job = JSON.parse(globalThis.__job);
  const post = globalThis.__post;
  delete globalThis.__runner;
  delete globalThis.__job;
  delete globalThis.__post;
  runner.runStudentTests({
    code: job.code,
    functionName: job.functionName,
    tests: job.tests,
    onResult: (index, result) => { post(index, result); },
  });
})()`, { filename: 'driver.js' });

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
  const context = vm.createContext({}, {
    name: 'student code',
    codeGeneration: { strings: true, wasm: false },
    microtaskMode: 'afterEvaluate',
  });
  bridgeScript.runInContext(context)(hostNow, hostRandom);
  context.__runner = runnerScript.runInContext(context);
  context.__job = JSON.stringify({ code: String(code ?? ''), functionName, tests });
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
