// The page follows the system's light or dark scheme (prefers-color-scheme), live: page,
// tables, buttons, the code editor and its syntax colours, and chart text all stay readable,
// measured as WCAG contrast ratios of the colours Chromium computes.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openLab } from './harness.mjs';

const builder = '[data-role="builder"]';

// WCAG 2 relative luminance and contrast ratio, from computed "rgb(r, g, b)" colours.
function rgbOf(css) {
  const m = /rgba?\(([^)]+)\)/.exec(css);
  assert.ok(m, `not an rgb() colour: ${css}`);
  return m[1].split(/[\s,/]+/).filter(Boolean).slice(0, 3).map(Number);
}
function luminance(css) {
  const [r, g, b] = rgbOf(css).map((c) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

// Every colour pair the checks read, computed in the page as it is drawn now.
async function colours(page) {
  return page.evaluate((sel) => {
    const style = (el) => getComputedStyle(el);
    const body = style(document.body);
    const hint = document.querySelector(`${sel} .hint`);
    const primary = document.querySelector(`${sel} button.primary`);
    const editor = document.querySelector(`${sel} .cm-editor`);
    const tokens = [...document.querySelectorAll(`${sel} .cm-content span`)].map((s) => style(s).color);
    const axisText = document.querySelector(`${sel} [data-role="top-ops-chart"] svg text`);
    return {
      bg: body.backgroundColor,
      text: body.color,
      hint: style(hint).color,
      primaryBg: style(primary).backgroundColor,
      primaryText: style(primary).color,
      editorBg: style(editor).backgroundColor,
      editorText: style(editor.querySelector('.cm-content')).color,
      tokens,
      chartText: axisText ? style(axisText).fill : null,
    };
  }, builder);
}

// Emulates a scheme and waits until the editor has redrawn its syntax colours: the media
// query's change event fires at the next rendering step, which the rAF polling drives.
async function switchScheme(page, colorScheme) {
  const firstToken = `${builder} .cm-content .cm-line span`;
  const before = await page.$eval(firstToken, (el) => getComputedStyle(el).color);
  await page.emulateMedia({ colorScheme });
  await page.waitForFunction(
    ([sel, old]) => getComputedStyle(document.querySelector(sel)).color !== old,
    [firstToken, before],
    { polling: 'raf', timeout: 5000 },
  );
}

function assertReadable(c, scheme) {
  assert.ok(contrast(c.text, c.bg) >= 7, `${scheme}: body text ${c.text} on ${c.bg}`);
  assert.ok(contrast(c.hint, c.bg) >= 4.5, `${scheme}: hint ${c.hint} on ${c.bg}`);
  assert.ok(contrast(c.primaryText, c.primaryBg) >= 4.5, `${scheme}: primary button ${c.primaryText} on ${c.primaryBg}`);
  assert.ok(contrast(c.editorText, c.editorBg) >= 4.5, `${scheme}: editor text ${c.editorText} on ${c.editorBg}`);
  assert.ok(c.tokens.length > 0, `${scheme}: the editor shows highlighted tokens`);
  for (const t of c.tokens) assert.ok(contrast(t, c.editorBg) >= 3, `${scheme}: syntax colour ${t} on ${c.editorBg}`);
  assert.ok(c.chartText, `${scheme}: a chart is drawn`);
  assert.ok(contrast(c.chartText, c.bg) >= 4.5, `${scheme}: chart text ${c.chartText} on ${c.bg}`);
}

describe('light and dark schemes', () => {
  let lab;
  before(async () => {
    lab = await openLab({ query: '?quick=1', hash: '#profiling' });
    const { page } = lab;
    await page.emulateMedia({ colorScheme: 'light' });
    await page.waitForSelector(`${builder}[data-zoo="ready"]`, { timeout: 30000 });
    // A profile draws the builder's chart, so its axis text can be read.
    await page.selectOption('#builder-zoo', 'linear_128_64');
    await page.click(`${builder} [data-action="load-zoo"]`);
    await page.click(`${builder} [data-action="profile"]`);
    await page.waitForSelector(`${builder} [data-role="top-ops-chart"] svg text`, { timeout: 60000 });
  });
  after(async () => {
    await lab?.close();
  });

  test('light: a light page, everything readable', async () => {
    const c = await colours(lab.page);
    assert.ok(luminance(c.bg) > 0.8, `light background, got ${c.bg}`);
    assertReadable(c, 'light');
  });

  test('dark, switched live: a dark page, editor and chart included, everything readable', async () => {
    await switchScheme(lab.page, 'dark');
    const c = await colours(lab.page);
    assert.ok(luminance(c.bg) < 0.05, `dark background, got ${c.bg}`);
    assert.ok(luminance(c.editorBg) < 0.05, `dark editor, got ${c.editorBg}`);
    assertReadable(c, 'dark');
  });

  test('back to light, live', async () => {
    await switchScheme(lab.page, 'light');
    const c = await colours(lab.page);
    assert.ok(luminance(c.bg) > 0.8 && luminance(c.editorBg) > 0.8, `light again, got ${c.bg} and ${c.editorBg}`);
    assertReadable(c, 'light');
  });

  test('logged no console errors', () => {
    assert.deepEqual(lab.errors, []);
  });
});
