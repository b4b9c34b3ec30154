// The engine smoke suite's steps, the same for every browser engine (firefox.test.mjs,
// webkit.test.mjs): the built page (web/dist, served with COOP/COEP like tools/serve.mjs)
// loads; its header states the wasm build, SIMD support, cross-origin isolation and the kernel
// engine's flavour (FMA where relaxed SIMD validates) and threads as this engine has them; one quick experiment per chapter runs to Done with rows and chart marks;
// one graded exercise is graded wrong, then right, by core; and nothing logged an error. What
// the engine chose (SIMD, relaxed SIMD, threads) is printed as test diagnostics. The Chromium
// suite (tests/browser/) covers each feature in depth; this one asks only "does the lab work in
// this engine". No timing asserted. Needs `npx vite build` first.
// The steps talk to the page only through driver.evaluate (a function sent as source, so each
// one is self-contained) and poll from here, so a driver needs nothing but evaluate.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startPreview } from '../browser/harness.mjs';

/** Polls fn(...args) in the page until it returns a truthy value, which it resolves with. */
async function waitFor(driver, what, timeout_ms, fn, ...args) {
  const deadline = Date.now() + timeout_ms;
  for (;;) {
    const value = await driver.evaluate(fn, ...args);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${driver.name}: waited ${timeout_ms / 1000} s for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

// The header's facts, {name: {text, value}}; null until core's timer resolution is shown
// (the last fact the lab worker fills); {labError} when the lab failed to start.
function readHeader() {
  const labError = document.querySelector('[data-role="lab-error"]');
  if (labError && !labError.hidden) return { labError: labError.textContent };
  if (document.querySelector('[data-fact="timer"] dd')?.dataset.value === undefined) return null;
  const facts = Object.fromEntries(
    [...document.querySelectorAll('.site-header [data-fact]')].map((el) => {
      const dd = el.querySelector('dd');
      return [el.dataset.fact, { text: dd.textContent.trim(), value: dd.dataset.value }];
    }),
  );
  // wasm-feature-detect's relaxed-SIMD module (i32x4.relaxed_trunc_f32x4_s): what this engine
  // validates, against which the header's kernel-engine flavour is checked.
  const relaxed = WebAssembly.validate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 15, 1, 13, 0, 65, 1, 253, 15, 65, 2, 253, 15, 253, 128, 2, 11]));
  const why = document.querySelector('.site-header [data-fact="engine"]')?.dataset.why;
  return {
    facts,
    why,
    relaxed,
    cores: navigator.hardwareConcurrency,
    isolated: Boolean(globalThis.crossOriginIsolated),
    sharedMemory: typeof SharedArrayBuffer === 'function',
  };
}

// Clicks Run of experiment `id` once it is enabled (its choices come from core); true when clicked.
function clickRun(id) {
  const run = document.querySelector(`[data-experiment="${id}"] [data-action="run"]`);
  if (!run || run.disabled) return false;
  run.click();
  return true;
}

// The experiment's outcome once its status leaves "Measuring…": status, error, rows, marks per chart.
function experimentOutcome(id) {
  const scope = document.querySelector(`[data-experiment="${id}"]`);
  const status = scope.querySelector('[data-role="status"]')?.textContent ?? '';
  if (!/^(Done|Stopped|Cancelled|Failed)/.test(status) && scope.querySelector('[data-role="error"]')?.hidden !== false) return null;
  const marks = 'svg g[aria-label="dot"] circle, svg g[aria-label="line"] path, svg g[aria-label="bar"] rect, svg g[aria-label="rect"] rect';
  return {
    status,
    error: scope.querySelector('[data-role="error"]')?.hidden === false ? scope.querySelector('[data-role="error"]').textContent : '',
    rows: scope.querySelectorAll('[data-role="table"] tbody tr').length,
    marks: [...scope.querySelectorAll('[data-role="chart"]')].filter((c) => !c.hidden && c.querySelector('svg')).map((c) => c.querySelectorAll(marks).length),
  };
}

// The chapters' quickest experiments in quick mode (?quick=1), one each.
export const EXPERIMENTS = [
  { chapter: 'profiling', id: 'profiling-training-memory' },
  { chapter: 'acceleration', id: 'acceleration-linear-loops' },
  { chapter: 'benchmarking', id: 'benchmarking-warmup' },
  { chapter: 'optimization', id: 'optimization-sparsity' },
];

// The graded exercise: a Linear layer's parameters, in·out + out for the variant shown.
const EXERCISE = 'profiling.linear-params';

/**
 * Defines the suite for one engine: launch() resolves with a driver (webdriver.mjs).
 * expect.isolated: whether the page must be cross-origin isolated in this engine (it is served
 * with COOP/COEP; an engine that cannot isolate it must still say so truthfully in the header).
 */
export function describeEngine(label, launch, expect = {}) {
  describe(`${label}: the lab works`, () => {
    let server;
    let driver;
    // Set once the header shows core's facts: the steps after it need a lab that started, and
    // without one they fail at once instead of each waiting out its timeout.
    let labStarted = false;
    const needLab = () => assert.ok(labStarted, 'the lab did not start (the first test says why)');
    before(async () => {
      server = await startPreview();
      driver = await launch();
      await driver.open(`${server.url}?quick=1#profiling`);
    });
    after(async () => {
      await driver?.close();
      await server?.close();
    });

    test('the page loads and its header states the build, SIMD, isolation and kernel engine this engine has', async (t) => {
      t.diagnostic(`${driver.name} ${driver.version}`);
      const header = await waitFor(driver, 'the lab worker to fill the header', 60000, readHeader);
      assert.equal(header.labError, undefined, `the lab failed to start: ${header.labError}`);
      labStarted = true;
      const { facts } = header;
      for (const [name, fact] of Object.entries(facts)) t.diagnostic(`header ${name}: ${fact.text}`);
      // The build the header names is the one its SIMD support picks.
      const simd = facts.simd.value === 'true';
      assert.match(facts.simd.text, simd ? /^available · simd build$/ : /^not available · scalar build$/);
      assert.equal(facts.isolated.value, String(header.isolated), 'the header says what the page is');
      if (expect.isolated !== undefined) assert.equal(header.isolated, expect.isolated, 'cross-origin isolated under COOP/COEP');
      assert.ok(Number(facts.timer.value) > 0, `a timer resolution: ${facts.timer.text}`);
      // The kernel engine's flavour and threads (the header's "FMA and threads" fact, value
      // flavour:threads): FMA exactly when this engine validates relaxed SIMD, more than one
      // thread only on a cross-origin-isolated page and never more than its cores, and a reason.
      if (facts.engine) {
        const value = facts.engine.value;
        if (value === 'none') {
          assert.equal(simd, false, 'the engine is missing only without SIMD');
        } else {
          const m = /^(fma|simd):(\d+)$/.exec(value ?? '');
          assert.ok(m, `the engine fact's value is flavour:threads, got ${value}`);
          const [, flavour, threads] = [m[0], m[1], Number(m[2])];
          assert.equal(flavour, header.relaxed ? 'fma' : 'simd', `relaxed SIMD ${header.relaxed ? 'validates' : 'does not validate'} in this engine`);
          assert.ok(threads >= 1 && threads <= Math.max(1, header.cores), `${threads} threads on ${header.cores} cores`);
          if (!header.isolated) assert.equal(threads, 1, 'one thread on a page that is not cross-origin isolated');
          assert.ok(header.why?.length > 0, 'the header says why');
          t.diagnostic(`${driver.name} kernel engine: ${flavour === 'fma' ? 'FMA (relaxed SIMD)' : 'multiply-add (no relaxed SIMD)'}, ${threads} of ${header.cores} threads: ${header.why}`);
        }
      } else {
        t.diagnostic(`${driver.name}: no kernel-engine fact in this build's header; relaxed SIMD ${header.relaxed ? 'validates' : 'does not validate'}`);
      }
      // WebKitGTK isolates the page and shares wasm memory without exposing the SharedArrayBuffer global.
      t.diagnostic(`${driver.name} chose the ${simd ? 'SIMD' : 'scalar'} build; cross-origin isolated: ${header.isolated ? 'yes' : 'no'}; SharedArrayBuffer global: ${header.sharedMemory ? 'yes' : 'no'}`);
    });

    for (const { chapter, id } of EXPERIMENTS) {
      test(`${chapter}: ${id} runs to Done with rows and chart marks`, async (t) => {
        needLab();
        await driver.evaluate((hash) => {
          location.hash = hash;
        }, `#${chapter}`);
        const started = Date.now();
        await waitFor(driver, `${id}'s Run button`, 60000, clickRun, id);
        const outcome = await waitFor(driver, `${id} to finish`, 120000, experimentOutcome, id);
        t.diagnostic(`${id}: ${outcome.status} (${((Date.now() - started) / 1000).toFixed(1)} s with the wait for its choices)`);
        assert.match(outcome.status, /^Done/, `${outcome.status} ${outcome.error}`);
        assert.equal(outcome.error, '');
        assert.ok(outcome.rows > 0, 'the table has rows');
        assert.ok(outcome.marks.length > 0 && outcome.marks.every((m) => m > 0), `every chart drew marks: ${outcome.marks}`);
      });
    }

    test(`the exercise ${EXERCISE} is graded wrong, then right, by core`, async () => {
      needLab();
      await driver.evaluate(() => {
        location.hash = '#profiling';
      });
      const params = await waitFor(driver, `${EXERCISE}'s variant`, 60000, (id) => {
        const card = document.querySelector(`article[data-exercise-id="${id}"][data-params]`);
        return card && !card.querySelector('button[type="submit"]').disabled ? JSON.parse(card.dataset.params) : null;
      }, EXERCISE);
      assert.ok(Number.isInteger(params.in) && Number.isInteger(params.out), JSON.stringify(params));
      // Types the answer, submits, and resolves with data-correct once the attempt is counted.
      const answer = async (value) => {
        const before = await driver.evaluate(
          (id, v) => {
            const card = document.querySelector(`article[data-exercise-id="${id}"]`);
            const input = card.querySelector('input[data-role="answer"]');
            input.value = v;
            input.dispatchEvent(new Event('input', { bubbles: true }));
            const attempts = Number(card.dataset.attempts);
            card.querySelector('button[type="submit"]').click();
            return attempts;
          },
          EXERCISE,
          String(value),
        );
        return waitFor(driver, `${EXERCISE}'s grade`, 30000, (id, n) => {
          const card = document.querySelector(`article[data-exercise-id="${id}"]`);
          return Number(card.dataset.attempts) === n ? card.querySelector('[data-role="result"]').getAttribute('data-correct') : null;
        }, EXERCISE, before + 1);
      };
      // Without the bias: in·out is wrong; in·out + out is right.
      assert.equal(await answer(params.in * params.out), 'false');
      assert.equal(await answer(params.in * params.out + params.out), 'true');
      assert.equal(await driver.evaluate((id) => document.querySelector(`article[data-exercise-id="${id}"]`).dataset.solved, EXERCISE), 'true');
    });

    test('nothing logged an error', async () => {
      assert.deepEqual(await driver.errors(), []);
    });
  });
}
