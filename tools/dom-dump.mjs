// Dumps the built page's DOM, chapter by chapter, as indented text with every measured
// number masked, so a refactor of the page can be checked for "identical except measured
// numbers": dump before, dump after, diff. Each element is written with its tag, id, class,
// role, data-*, aria-*, hidden and disabled; each text with its digit runs as `#`. Optionally
// runs experiments (quick mode) and dumps their sections once idle again. Exercise seeds come
// from a fixed seed, so two dumps draw the same exercises. Not a test.
// Usage: npx vite build && node tools/dom-dump.mjs out.txt [--run=experiment-id,...]

import { writeFile } from 'node:fs/promises';
import { openLab } from '../tests/browser/harness.mjs';

const out = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 'dom-dump.txt';
const runIds = (process.argv.find((a) => a.startsWith('--run='))?.slice(6) ?? '').split(',').filter(Boolean);
const CHAPTERS = ['#benchmarking', '#acceleration', '#profiling'];

// The page's random numbers (exercise seeds) from a fixed seed, so two dumps draw the same
// exercises.
function seededRandom() {
  let state = 0x2545f491;
  crypto.getRandomValues = (array) => {
    for (let i = 0; i < array.length; i++) {
      state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
      array[i] = state % 2 ** (8 * array.BYTES_PER_ELEMENT);
    }
    return array;
  };
}

// Runs in the page: the element as indented lines (numbers masked, charts as their tag only).
function serialize(root) {
  const mask = (s) => s.replace(/\d+([.,]\d+)*/g, '#').replace(/\s+/g, ' ').trim();
  const lines = [];
  const walk = (el, depth) => {
    const attrs = [];
    for (const a of [...el.attributes].sort((x, y) => x.name.localeCompare(y.name))) {
      const n = a.name;
      if (n === 'id' || n === 'class' || n === 'role' || n === 'for' || n === 'type' || n.startsWith('data-') || n.startsWith('aria-')) {
        attrs.push(`${n}="${mask(a.value)}"`);
      }
    }
    if (el.hidden) attrs.push('hidden');
    if (el.disabled) attrs.push('disabled');
    lines.push(`${'  '.repeat(depth)}<${el.tagName.toLowerCase()}${attrs.length ? ' ' + attrs.join(' ') : ''}>`);
    // A chart's drawing depends on measured values: its box, not its marks.
    if (el.tagName.toLowerCase() === 'svg' || el.tagName.toLowerCase() === 'figure') return;
    for (const child of el.childNodes) {
      if (child.nodeType === 3) {
        const t = mask(child.textContent);
        if (t) lines.push(`${'  '.repeat(depth + 1)}"${t}"`);
      } else if (child.nodeType === 1) walk(child, depth + 1);
    }
  };
  walk(root, 0);
  return lines.join('\n');
}

const parts = [];
let errors = [];
for (const hash of CHAPTERS) {
  const lab = await openLab({ query: '?quick=1', hash, initScript: seededRandom });
  try {
    const { page } = lab;
    // The experiments' init (machine facts, options from core) settles.
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(3000);
    parts.push(`==== ${hash}\n` + (await page.$eval('main', serialize)));
    for (const id of runIds) {
      const sel = `[data-experiment="${id}"]`;
      if (!(await page.$(sel))) continue;
      await page.click(`${sel} [data-action="run"]`);
      await page.waitForFunction((s) => document.querySelector(s).dataset.state === 'idle', sel, { timeout: 300000 });
      parts.push(`==== run ${id}\n` + (await page.$eval(sel, serialize)));
    }
    errors = errors.concat(lab.errors);
  } finally {
    await lab.close();
  }
}
await writeFile(out, parts.join('\n') + '\n');
console.log(`wrote ${out}`);
if (errors.length) console.log(`console errors:\n${errors.join('\n')}`);
