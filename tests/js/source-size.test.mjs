// Protects the size rule of web/src: no file over 450 lines, so a file that grows past one job
// is split by job before it gets there (docs/ARCHITECTURE.md). Lines are counted as `wc -l`
// does (newlines; a last line without one counts too). A failure names every file over the
// limit with its count.
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const MAX_LINES = 450;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function lineCount(text) {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

/** Every file under `dir` (recursively) with more than `max` lines, as "path: N lines". */
function oversized(dir, max, base = dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...oversized(path, max, base));
    else if (entry.isFile()) {
      const n = lineCount(readFileSync(path, 'utf8'));
      if (n > max) found.push(`${relative(base, path)}: ${n} lines`);
    }
  }
  return found.sort();
}

test('line counts agree with wc -l', () => {
  assert.equal(lineCount(''), 0);
  assert.equal(lineCount('a\n'), 1);
  assert.equal(lineCount('a\nb'), 2);
  assert.equal(lineCount('a\n\nb\n'), 3);
});

test('a file over the limit is named with its count, in any folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'source-size-'));
  try {
    mkdirSync(join(dir, 'deep', 'er'), { recursive: true });
    writeFileSync(join(dir, 'ok.js'), 'x\n'.repeat(MAX_LINES));
    writeFileSync(join(dir, 'deep', 'er', 'big.js'), 'x\n'.repeat(MAX_LINES + 6));
    assert.deepEqual(oversized(dir, MAX_LINES), [`${join('deep', 'er', 'big.js')}: 456 lines`]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test(`no file under web/src has more than ${MAX_LINES} lines`, () => {
  const base = join(ROOT, 'web', 'src');
  const over = oversized(base, MAX_LINES).map((line) => `web/src/${line}`);
  assert.deepEqual(over, [], `split by job: ${over.join('; ')}`);
});
