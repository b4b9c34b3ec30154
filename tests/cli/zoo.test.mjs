// Every zoo model through `perflab profile --zoo NAME --json` (forward, backward, per layer,
// training memory) and each model's spec through `perflab profile SPEC.json`: exit 0 and a
// profile of that model. Under the asan preset (ctest cli_zoo) this walks the whole model
// path with AddressSanitizer and UndefinedBehaviorSanitizer watching; a report ends the
// binary with a non-zero status, which fails the test. Timings are never asserted.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { perflab, scratchDir } from './cli.mjs';

const dir = scratchDir('zoo');
// Batch 1, two short samples and fixed roofs: quick (also under the sanitizers), and no
// machine probe.
const FAST = ['--json', '--batch', '1', '--samples', '2', '--min-sample-ms', '0',
  '--peak-gflops-per-s', '100', '--bandwidth-gb-per-s', '10'];

const listed = perflab('zoo', '--json');
assert.equal(listed.status, 0, listed.stderr);
const zoo = JSON.parse(listed.stdout);

test('the zoo is not empty', () => assert.ok(zoo.length >= 7, `${zoo.length} models`));

for (const { name, spec } of zoo) {
  test(`profile --zoo ${name} and its spec file give a profile of ${name}`, () => {
    const byName = perflab('profile', '--zoo', name, ...FAST);
    assert.equal(byName.status, 0, byName.stderr);
    const p = JSON.parse(byName.stdout);
    assert.equal(p.name, name);
    assert.deepEqual(p.input, [1, ...spec.input.slice(1)]);
    assert.equal(p.layers.length, spec.layers.length);

    const file = path.join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(spec));
    const byFile = perflab('profile', file, ...FAST, '--no-backward', '--no-layers');
    assert.equal(byFile.status, 0, byFile.stderr);
    const q = JSON.parse(byFile.stdout);
    assert.equal(q.parameters, p.parameters);
    assert.equal(q.flops_per_batch, p.flops_per_batch);
  });
}
