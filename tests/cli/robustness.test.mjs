// Protects the CLI's promise on bad input: exit status 2 and one sentence on stderr, never an
// abort (134), a crash (139), a wait that never ends (a named pipe, links that loop) or a JSON
// library's own message; `--help` in its usual forms; advice that names this command's flags.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { spawnSync } from 'node:child_process';

import { cli, perflab, scratchDir } from './cli.mjs';

const dir = scratchDir('robustness');
const gradeScript = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'tools', 'grade.mjs');
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

test('tools/serve.mjs --help prints its usage and exits 0 instead of serving', () => {
  const serve = path.resolve(path.dirname(gradeScript), 'serve.mjs');
  const run = (...args) => {
    const r = spawnSync(process.execPath, [serve, ...args], { encoding: 'utf8', timeout: 20_000 });
    assert.equal(r.error?.code, undefined, `serve.mjs ${args.join(' ')} did not return (it served): ${r.error}`);
    return r;
  };
  for (const flag of ['--help', '-h']) {
    const r = run(flag);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^usage: node tools\/serve\.mjs \[--port N\] \[--host H\] \[--course FILE\]\n/);
    assert.equal(r.stderr, '');
  }
  const bad = run('--prot', '8080');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /^tools\/serve\.mjs: unknown argument --prot\n\nusage:/);
  assert.match(run('--port').stderr, /^tools\/serve\.mjs: --port needs a value/);
});

test('a directory or a binary file given as a spec is named for what it is', () => {
  assertRefused(perflab('profile', dir),
    /^perflab: spec file '.*robustness-[^']*' is a directory; give the path of a JSON file$/m);
  const nul = writeSpec('nul.json', Buffer.alloc(100));
  assertRefused(perflab('profile', nul),
    /^perflab: spec file '.*nul\.json' is not text \(it contains NUL bytes\); give a JSON file$/m);
  // A device never ends: refused before it is opened.
  assertRefused(perflab('suite', '/dev/zero'),
    /^perflab: suite file '\/dev\/zero' is a character device, not a regular file; give the path of a JSON file$/m);
  assertRefused(perflab('compare', dir, nul), /is a directory; give the path of a JSON file/);
});

test('a named pipe is refused before it is opened, not waited on', () => {
  // Opening a FIFO for reading blocks until a writer comes: profile and compare waited forever.
  const fifo = path.join(dir, 'spec.fifo');
  const made = spawnSync('mkfifo', [fifo]);
  assert.equal(made.status, 0, `mkfifo: ${made.stderr}`);
  const run = (...args) => {
    const r = spawnSync(cli, args, { encoding: 'utf8', timeout: 20_000 });
    assert.equal(r.error?.code, undefined, `perflab ${args.join(' ')} did not return: ${r.error}`);
    return r;
  };
  assertRefused(run('profile', fifo),
    /^perflab: spec file '.*spec\.fifo' is a named pipe \(FIFO\), not a regular file; give the path of a JSON file$/m);
  assertRefused(run('compare', fifo, fifo), /'.*spec\.fifo' is a named pipe \(FIFO\), not a regular file/);
  assertRefused(run('suite', fifo), /suite file '.*spec\.fifo' is a named pipe \(FIFO\)/);
});

test('profile --batch 0 is refused, not read as the spec\'s batch', () => {
  assertRefused(perflab('profile', '--zoo', 'mlp_784', '--batch', '0'),
    /^perflab: --batch must be at least 1, got 0; leave --batch out to run at the spec's input\[0\]$/m);
});

// Advice names only what the reader can do where they read it: this command's flags, the
// suite file's fields; never the page's Measure longer or a field the command has no flag for.
test('profile\'s timer advice and budget errors name its own flags, --max-total-ms among them', () => {
  const budget = perflab('profile', '--zoo', 'mlp_784', '--max-total-ms', '0.001');
  assertRefused(budget,
    /^perflab: one call of .* more than the 0\.001 ms time budget: give it at least \d+ ms with --max-total-ms, or use a smaller size$/m);
  assertRefused(perflab('profile', '--zoo', 'mlp_784', '--max-total-ms', 'soon'),
    /^perflab: --max-total-ms needs a number, got 'soon'/m);
  const few = perflab('profile', '--zoo', 'mlp_784', '--samples', '2', '--no-layers', '--no-backward',
    '--peak-gflops-per-s', '100', '--bandwidth-gb-per-s', '10');
  assert.equal(few.status, 0, few.stderr);
  assert.match(few.stdout, /warning: only 2 samples kept: too few for an interval of the median; take more samples with --samples/);
  assert.doesNotMatch(few.stdout, /measure longer|max_total_ms/i);
});

test('suite\'s timer advice names the suite file\'s fields', () => {
  const suite = writeSpec('few-samples-suite.json', JSON.stringify({
    name: 'few', models: ['linear_128_64'], metrics: ['latency_ms'],
    options: { warmup: 0, samples: 2, min_sample_ms: 0, max_total_ms: 50 },
  }));
  const r = perflab('suite', suite, '--json');
  assert.equal(r.status, 0, r.stderr);
  const warnings = JSON.stringify(JSON.parse(r.stdout)).match(/only 2 samples kept[^"]*/g) ?? [];
  assert.ok(warnings.length > 0, r.stdout.slice(0, 400));
  for (const w of warnings) {
    assert.match(w, /; take more samples with options\.samples in the suite file/);
    assert.doesNotMatch(w, /measure longer/i);
  }
});

test('tools/grade.mjs walks a folder holding links that loop once, each loop a problem', () => {
  // class/sub/up -> class, class/sub/self -> class/sub: following links, the walk never ended.
  const root = path.join(dir, 'class');
  mkdirSync(path.join(root, 'sub'), { recursive: true });
  writeFileSync(path.join(root, 's1.json'), '{}');
  writeFileSync(path.join(root, 'sub', 's2.json'), '{}');
  symlinkSync('..', path.join(root, 'sub', 'up'));
  symlinkSync('.', path.join(root, 'sub', 'self'));
  // collectFiles alone (the grading itself needs the wasm build), in a child with a time limit.
  const script = `import { collectFiles } from ${JSON.stringify(pathToFileURL(gradeScript).href)};
    process.stdout.write(JSON.stringify(collectFiles(process.argv.slice(1))));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, root], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.error?.code, undefined, `the walk did not end: ${r.error}`);
  assert.equal(r.status, 0, r.stderr);
  const { files, problems } = JSON.parse(r.stdout);
  assert.deepEqual(files.map((f) => path.relative(root, f.name)).sort(), ['s1.json', path.join('sub', 's2.json')]);
  assert.deepEqual(problems.map((p) => [path.relative(root, p.file), p.kind]).sort(),
    [[path.join('sub', 'self'), 'unreadable'], [path.join('sub', 'up'), 'unreadable']]);
  assert.match(problems.find((p) => p.file.endsWith('up')).reason,
    /^a link to the folder .*class, which is read once; not followed again$/);
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

test('variant --try shows a choice exercise\'s variant of that try, which its grade follows; a bad try is refused', () => {
  const id = 'profiling.bound-classify';
  const first = JSON.parse(perflab('variant', id, '7').stdout);
  const second = JSON.parse(perflab('variant', id, '7', '--try', '2').stdout);
  assert.equal(second.try, 2);
  assert.notDeepEqual(second.params, first.params);
  assert.deepEqual(JSON.parse(perflab('variant', id, '7', '--try', '1').stdout), { ...first, try: 1 });
  // The right pick of try 2, found by grading each; graded as try 2 it earns half the points.
  const right = [0, 1, 2, 3].find((c) => perflab('grade', id, '7', JSON.stringify({ choice: c, attempt: 2 })).status === 0);
  assert.equal(JSON.parse(perflab('grade', id, '7', JSON.stringify({ choice: right, attempt: 2 })).stdout).score, 5);
  assertRefused(perflab('variant', id, '7', '--try', '0'), /^perflab: --try must be an integer from 1 to 1000, got '0'/);
  assertRefused(perflab('variant', 'profiling.linear-params', '7', '--try', '2'), /only choice exercises draw a variant per try/);
});
