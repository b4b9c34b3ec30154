// A throwaway Worker that runs one student's code on one exercise's tests. sandbox.js starts a
// fresh one per run and terminates it when the run ends or hits the time limit, so an
// infinite loop costs the student a timeout, never a frozen page or a poisoned next run.
// Messages out: {type:'started'}, {type:'result', index, result}, {type:'log', line}, {type:'done'}.
// Not for: anything but running student code (the lab worker owns the wasm module).
import { runStudentTests } from './sandbox-runner.js';

self.onmessage = (event) => {
  const { code, function_name: functionName, tests } = event.data ?? {};
  self.postMessage({ type: 'started' });
  runStudentTests({
    code: String(code ?? ''),
    functionName,
    tests: Array.isArray(tests) ? tests : [],
    onResult: (index, result) => self.postMessage({ type: 'result', index, result }),
    onLog: (line) => self.postMessage({ type: 'log', line }),
  });
  self.postMessage({ type: 'done' });
};
