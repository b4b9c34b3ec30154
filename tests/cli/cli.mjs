// What the CLI tests share: the built binary (PERFLAB_CLI, set by tools/CMakeLists.txt and
// tools/lab), running it, and a scratch folder for the files a test writes.
// Not a test file itself: only *.test.mjs are run.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const cli = process.env.PERFLAB_CLI;
assert.ok(cli, 'PERFLAB_CLI must name the built perflab binary');

/** Runs `perflab ...args`; its exit status and output. */
export function perflab(...args) {
  const r = spawnSync(cli, args, { encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A fresh folder under the system's temp folder: perflab-<name>-XXXXXX. */
export const scratchDir = (name) => mkdtempSync(path.join(tmpdir(), `perflab-${name}-`));
