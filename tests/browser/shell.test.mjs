// Protects the page's shell: it loads without console errors, shows this machine's facts
// (timer resolution measured by core through the lab worker, cross-origin isolation under
// the preview server's COOP/COEP headers) and routes between the three chapters by hash.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openLab, readMachineFacts } from './harness.mjs';

let lab;
before(async () => {
  lab = await openLab();
});
after(async () => {
  await lab?.close();
});

test('the page loads and shows the machine facts measured by the lab', async () => {
  const facts = await readMachineFacts(lab.page);
  const resolution_ms = Number(facts.timer.value);
  assert.ok(Number.isFinite(resolution_ms) && resolution_ms > 0, `timer resolution: ${facts.timer.value}`);
  assert.match(facts.timer.text, /\d.*(µs|ms)/);
  assert.equal(facts.isolated.value, 'true', 'the preview server sends COOP/COEP');
  assert.equal(await lab.page.locator('[data-role="isolation-note"]').isVisible(), false);
  assert.match(facts.simd.text, /^(available · simd|not available · scalar) build$/);
  assert.ok(Number(facts.cores.value) >= 1, `cores: ${facts.cores.value}`);
});

test('hash navigation shows one chapter at a time and marks its link', async () => {
  const { page } = lab;
  for (const id of ['acceleration', 'benchmarking', 'optimization', 'profiling']) {
    await page.click(`.chapters-nav a[data-chapter="${id}"]`);
    // The hash changes at the click; the page routes when its hashchange event runs, a task
    // later (a busy main thread, a chapter mounting, makes that later still): wait for both.
    await page.waitForFunction(
      (cid) => location.hash === `#${cid}` && document.querySelector(`section.chapter[data-chapter="${cid}"]`)?.hidden === false,
      id,
    );
    const visible = await page.$$eval('section.chapter', (els) =>
      els.filter((el) => !el.hidden).map((el) => el.dataset.chapter),
    );
    assert.deepEqual(visible, [id]);
    assert.equal(await page.getAttribute(`.chapters-nav a[data-chapter="${id}"]`, 'aria-current'), 'page');
    assert.ok((await page.textContent(`section[data-chapter="${id}"] h2`)).length > 0);
  }
});

test('the page logged no console errors', () => {
  assert.deepEqual(lab.errors, []);
});
