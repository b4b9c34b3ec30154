// A throwaway Worker that runs one student's code on one exercise's tests. sandbox.js starts a
// fresh one per run and terminates it when the run ends or hits the time limit, so an
// infinite loop costs the student a timeout, never a frozen page or a poisoned next run.
// The first message brings the code, the tests and a private MessagePort; every reply goes
// through that port, which only this module's closure holds: {type:'started'}, {type:'result',
// index, result}, {type:'log', line}, {type:'done'}. The worker's own postMessage, its network,
// storage and eval are gone before any message arrives (sandbox-lockdown.js), and code holding a
// dynamic import() is refused before it runs (sandbox-parse.js), so the student's code can
// neither forge nor intercept a reply, nor reach anything outside the worker.
// Not for: anything but running student code (the lab worker owns the wasm module).
import { lockDownSandbox } from './sandbox-lockdown.js';
import { refusedCode } from './sandbox-parse.js';
import { freezeIntrinsics, runStudentTests } from './sandbox-runner.js';

// Captured before the lockdown and before any student code exists.
const ReflectApply = Reflect.apply;
const ArrayIsArray = Array.isArray;
const portPostMessage = MessagePort.prototype.postMessage;
const portsOf = Object.getOwnPropertyDescriptor(MessageEvent.prototype, 'ports').get;
const dataOf = Object.getOwnPropertyDescriptor(MessageEvent.prototype, 'data').get;

let claimed = false;
function onFirstMessage(event) {
  if (claimed) return;
  claimed = true;
  const port = ReflectApply(portsOf, event, [])[0];
  if (!port) throw new Error('the sandbox was started without its reply channel');
  const post = (message) => ReflectApply(portPostMessage, port, [message]);
  const { code, function_name: functionName, tests } = ReflectApply(dataOf, event, []) ?? {};
  const list = ArrayIsArray(tests) ? tests : [];
  post({ type: 'started' });
  const source = String(code ?? '');
  const refusal = stillOpen.length > 0
    ? `Error: your code was not run: this browser's sandbox could not remove ${stillOpen.join(', ')}`
    : refusedCode(source);
  if (refusal !== null) {
    for (let i = 0; i < list.length; i++) post({ type: 'result', index: i, result: { error: refusal } });
  } else {
    runStudentTests({
      code: source,
      functionName,
      tests: list,
      onResult: (index, result) => post({ type: 'result', index, result }),
      onLog: (line) => post({ type: 'log', line }),
    });
  }
  post({ type: 'done' });
}

self.addEventListener('message', onFirstMessage);
const stillOpen = lockDownSandbox(self);
// A timed test's reference runs in this realm: what it goes through is frozen first.
freezeIntrinsics(self);
