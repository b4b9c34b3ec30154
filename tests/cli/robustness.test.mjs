// Protects the CLI's promise on bad input: exit status 2 and one sentence on stderr, never an
// abort (134), a crash (139) or a JSON library's own message; and `--help` in its usual forms.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'node:test';

import { spawnSync } from 'node:child_process';

import { cli, perflab, scratchDir } from './cli.mjs';

const dir = scratchDir('robustness');
const writeSpec = (name, text) => {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
};

function assertRefused(r, message) {
  assert.equal(r.status, 2, `status ${r.status}, stderr: ${r.stderr}`);
  assert.match(r.stderr, message);
  assert.doesNotMatch(r.stderr, /json\.exception|terminate|nlohmann/);
}

test('a number outside the range of a double is refused with its position', () => {
  const spec = writeSpec('overflow.json',
    '{"name":"x","input":[4,1e400],"layers":[{"type":"ReLU"}]}');
  assertRefused(perflab('profile', spec),
    /^perflab: model spec is not valid JSON: the number 1e400 at line 1, column 24 is outside the range of a double/);
  assertRefused(perflab('grade', 'profiling.linear-params', '1', '{"value": 1e400}'),
    /^perflab: ANSWER_JSON is not valid JSON: the number 1e400 at line 1, column 11 is outside the range of a double/);
});

test('text nested deeper than 64 levels is refused before anything recurses on it', () => {
  const deep = (n) => '['.repeat(n) + ']'.repeat(n);
  const spec = writeSpec('deep.json', `{"name": "x", "input": [4, 3], "layers": ${deep(100_000)}}`);
  assertRefused(perflab('profile', spec, '--batch', '2'),
    /^perflab: model spec is nested 100001 levels deep; at most 64 are allowed$/m);
  assertRefused(perflab('grade', 'profiling.linear-params', '1', `{"value": ${deep(65)}}`),
    /^perflab: ANSWER_JSON is nested 66 levels deep; at most 64 are allowed$/m);
  const suite = writeSpec('deep-suite.json', deep(70));
  assertRefused(perflab('suite', suite), /suite is nested 70 levels deep; at most 64 are allowed/);
});

test('help, --help and -h print the usage on stdout and exit 0', () => {
  for (const flag of ['help', '--help', '-h']) {
    const r = perflab(flag);
    assert.equal(r.status, 0, `${flag}: ${r.stderr}`);
    assert.match(r.stdout, /^usage:\n {2}perflab help \| --help \| -h/);
    assert.match(r.stdout, /^ {2}perflab profile SPEC\.json \[OPTIONS\]/m);
    assert.equal(r.stderr, '');
  }
});

test('a directory or a binary file given as a spec is named for what it is', () => {
  assertRefused(perflab('profile', dir),
    /^perflab: spec file '.*robustness-[^']*' is a directory; give the path of a JSON file$/m);
  const nul = writeSpec('nul.json', Buffer.alloc(100));
  assertRefused(perflab('profile', nul),
    /^perflab: spec file '.*nul\.json' is not text \(it contains NUL bytes\); give a JSON file$/m);
  // Endless input is refused at its first bytes, not read whole.
  assertRefused(perflab('suite', '/dev/zero'),
    /^perflab: suite file '\/dev\/zero' is not text \(it contains NUL bytes\)/m);
  assertRefused(perflab('compare', dir, nul), /is a directory; give the path of a JSON file/);
});

test('a file over 16 MiB is refused at the limit, not read whole', () => {
  const big = writeSpec('big.json', ' '.repeat(17 * 1024 * 1024));
  try {
    assertRefused(perflab('profile', big),
      /^perflab: spec file '.*big\.json' is larger than 16 MiB, the most perflab reads from a file$/m);
  } finally {
    rmSync(big);
  }
});

test('the native tensor cap refuses a spec before it allocates, and says how to change the cap', () => {
  // 64 × 1,048,576 floats is a 256 MiB input: over a 64 MiB cap. Without a cap, a spec
  // with 16 GiB of activations ran until the system killed it.
  const big = writeSpec('cap.json', JSON.stringify({
    name: 'wide', input: [64, 1048576], layers: [{ type: 'ReLU' }],
  }));
  const r = spawnSync(cli, ['profile', big], {
    encoding: 'utf8', env: { ...process.env, PERFLAB_TENSOR_CAP_MIB: '64' },
  });
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /^perflab: cannot allocate 256\.0 MiB for a tensor: the lab's memory cap is 64\.0 MiB and 0 B is in use; use smaller sizes \(the CLI's cap is 4096 MiB unless PERFLAB_TENSOR_CAP_MIB sets another\)$/m);
});
