// Is the timed exercise fair? acceleration.matmul-loop-order times the student's matmul
// against the naive i-j-k loop, and that loop is the exercise's starter code: the unchanged
// starter code must measure within noise of 1.0× (the sandbox compiles and warms up both
// sides the same way, web/src/lab/sandbox-runner.js). This runs the starter code's timed
// test R times (20 by default) and prints each run's ratio (median naive / median yours, the
// figure core grades against its 1.2× rule) and their median, range and how many runs the
// 1.2× rule would have passed:
//   node: the command line's code runner (tools/grading/code-runner.mjs, the one
//         tools/grade.mjs re-grades with: the page's runner in a node:vm context);
//   chromium: the built page (web/dist) in headless Chromium, through the exercise card's
//         Run tests button and the page's sandbox worker, ratio read from core's feedback.
// Usage: node bench/timed-test-fairness.mjs [--runs 20]
//          [--where node,chromium] [--code FILE] (FILE: another solution, e.g. the i-k-j order)
// Needs the wasm build (build/wasm) for the variant; chromium needs `npx vite build` too.
import { readFileSync } from 'node:fs';

import { createCodeRunner } from '../tools/grading/code-runner.mjs';
import { loadNodeLab } from '../tools/grading/node-lab.mjs';

const ID = 'acceleration.matmul-loop-order';
const SEED = 7;

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : process.argv[i + 1];
}
const runs = Number(option('--runs', '20'));
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs takes a whole number ≥ 1, got ${option('--runs')}`);
const where = option('--where', 'node,chromium').split(',');
const codeFile = option('--code', null);

const { lab } = await loadNodeLab();
const bank = await lab.exerciseBank();
const exercise = bank.find((e) => e.id === ID);
const code = codeFile ? readFileSync(codeFile, 'utf8') : exercise.starter_code;
const variant = await lab.exerciseVariant(ID, SEED);
const timedIndex = variant.tests.findIndex((t) => t.benchmark);
const { n, rounds } = variant.tests[timedIndex].benchmark;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const ms = (x) => `${x.toFixed(0)} ms`;

function summarize(label, ratios) {
  const passing = ratios.filter((r) => r >= 1.2).length;
  console.log(
    `${label}: ratio over ${ratios.length} runs: median ${median(ratios).toFixed(3)}×, ` +
      `range ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}×; ` +
      `${passing} of ${ratios.length} at or above 1.2× (${codeFile ? codeFile : 'the starter code: should be 0'})`,
  );
}

async function inNode() {
  const runner = createCodeRunner({ workers: 1 });
  const ratios = [];
  try {
    for (let r = 0; r < runs; r++) {
      const results = await runner.runCode({ code, functionName: exercise.function_name, tests: variant.tests, timeLimitMs: exercise.time_limit_ms });
      const timed = results[timedIndex];
      if (!timed.value) throw new Error(`run ${r + 1}: the timed test did not time: ${JSON.stringify(timed)}`);
      const graded = await lab.gradeExercise(ID, SEED, { results });
      const { student_ms: yours, reference_ms: naive } = timed.value;
      const ratio = median(naive) / median(yours);
      ratios.push(ratio);
      const each = (xs) => xs.map((x) => x.toFixed(0)).join(', ');
      console.log(`node run ${r + 1}: yours ${ms(median(yours))} (${each(yours)}), naive ${ms(median(naive))} (${each(naive)}): ${ratio.toFixed(3)}× (score ${graded.score} of ${graded.max_score})`);
    }
  } finally {
    await runner.close();
  }
  summarize(`node ${process.version}, N = ${n}, ${rounds} rounds`, ratios);
}

async function inChromium() {
  const { exerciseCards, openLab } = await import('../tests/browser/harness.mjs');
  const lab = await openLab({ hash: '#acceleration' });
  const ratios = [];
  try {
    const { page } = lab;
    const { card, waitForCards, dataOf } = exerciseCards(page);
    await waitForCards([ID]);
    const editor = card(ID).locator('.cm-content');
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(code);
    const version = await page.evaluate(() => navigator.userAgent.match(/Chrom(e|ium)\/[\d.]+/)?.[0] ?? 'Chromium');
    for (let r = 0; r < runs; r++) {
      const before = Number((await dataOf(ID)).attempts);
      await card(ID).locator('button[data-role="run"]').click();
      await page.waitForFunction(
        ([id, count]) => Number(document.querySelector(`article[data-exercise-id="${id}"]`).dataset.attempts) === count,
        [ID, before + 1],
        { timeout: exercise.time_limit_ms + 30000 },
      );
      const text = await card(ID).locator('.pl-ex-tests li').nth(timedIndex).textContent();
      const found = /yours ([\d.e+-]+) ms, the naive ijk loop ([\d.e+-]+) ms/.exec(text);
      if (!found) throw new Error(`run ${r + 1}: the timed test did not time: ${text}`);
      // Core's ratio is printed to 2 decimals; the medians give it in full.
      const ratio = Number(found[2]) / Number(found[1]);
      ratios.push(ratio);
      console.log(`chromium run ${r + 1}: yours ${found[1]} ms, naive ${found[2]} ms: ${ratio.toFixed(3)}×`);
    }
    summarize(`${version} (the page's sandbox), N = ${n}, ${rounds} rounds`, ratios);
  } finally {
    await lab.close();
  }
}

if (where.includes('node')) await inNode();
if (where.includes('chromium')) await inChromium();
