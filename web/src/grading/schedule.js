// The page's runs of students' code during a re-grade, scheduled so that a run with a timed
// test has the machine to itself. Pure (promises only). Not for: running code (sandbox.js).

/**
 * Runs tasks so that an exclusive one (a run with a timed test) has the machine to itself:
 * it waits for the running ones, and the others wait for it. The command line's pool does
 * the same (tools/grading/code-runner.mjs).
 */
export function exclusiveScheduler() {
  let running = 0;
  let exclusiveRunning = false;
  const waiting = [];
  const wake = () => {
    while (waiting.length) {
      const next = waiting[0];
      if (exclusiveRunning || (next.exclusive && running > 0)) return;
      waiting.shift();
      running += 1;
      if (next.exclusive) exclusiveRunning = true;
      next.start();
    }
  };
  return (exclusive, task) => new Promise((resolve, reject) => {
    waiting.push({
      exclusive,
      start: () => {
        Promise.resolve().then(task).then(resolve, reject).finally(() => {
          running -= 1;
          if (exclusive) exclusiveRunning = false;
          wake();
        });
      },
    });
    wake();
  });
}
