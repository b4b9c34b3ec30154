// The native CLI's `zoo` and `profile` subcommands end to end: the JSON object has the
// fields the issue lists with the hand-computed counts, a spec file and the same zoo model
// give the same counts, the text mode prints a per-layer table, and bad specs (missing file,
// invalid JSON, shapes that do not chain, unknown zoo name) exit 2 with the reason on stderr
// and nothing on stdout. Timings are never asserted. Run by ctest (tools/CMakeLists.txt) with
// PERFLAB_CLI set to the built binary.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { perflab, scratchDir } from './cli.mjs';

const dir = scratchDir('cli');

// Small budgets and fixed roofs: quick, and the bottleneck verdict is deterministic.
const FAST = ['--samples', '2', '--min-sample-ms', '0', '--peak-gflops-per-s', '100',
  '--bandwidth-gb-per-s', '10'];


function profileJson(...args) {
  const r = perflab('profile', ...args, '--json', ...FAST);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

function writeSpec(name, text) {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

test('perflab zoo lists core\'s zoo, the original course\'s models first, with --json their specs', () => {
  const text = perflab('zoo');
  assert.equal(text.status, 0);
  const zoo = JSON.parse(perflab('zoo', '--json').stdout);
  // The text lists the same models, in the same order, one a line.
  assert.deepEqual(text.stdout.trimEnd().split('\n').map((line) => line.split(' ')[0]),
    zoo.map((e) => e.name));
  assert.deepEqual(zoo.slice(0, 7).map((e) => e.name), ['linear_128_64', 'linear_768_3072',
    'linear_1000_500', 'conv7x7_224', 'mlp_784', 'cnn_28', 'transformer_block']);
  assert.equal(new Set(zoo.map((e) => e.name)).size, zoo.length);
  for (const e of zoo) assert.equal(e.spec.name, e.name);
});

test('profile --zoo mlp_784 --json has every field with the hand-computed counts', () => {
  const p = profileJson('--zoo', 'mlp_784');
  assert.equal(p.name, 'mlp_784');
  assert.deepEqual(p.input, [64, 784]);
  assert.deepEqual(p.output_shape, [64, 10]);
  assert.equal(p.parameters, 235146);
  assert.equal(p.parameter_bytes, 4 * 235146);
  assert.equal(p.flops_per_sample, 469504);
  assert.equal(p.flops_per_batch, 64 * 469504);
  assert.deepEqual(Object.keys(p.flops_breakdown).sort(), ['bias', 'elementwise', 'matmul', 'total']);
  assert.equal(p.flops_breakdown.matmul, 64 * 469504);
  assert.equal(p.flops_breakdown.bias, 64 * (256 + 128 + 10));
  assert.equal(p.flops_breakdown.elementwise, 64 * (256 + 128));
  assert.equal(p.activation_bytes, 64 * 4 * (256 + 256 + 128 + 128 + 10));
  assert.ok(p.peak_bytes >= 64 * 4 * 256, 'peak at least the largest activation');
  assert.equal(p.gradient_bytes, 4 * 235146);
  assert.deepEqual(p.optimizer_bytes,
    { sgd: 0, momentum: 4 * 235146, adam: 8 * 235146, adamw: 8 * 235146 });
  assert.equal(p.layers.length, 5);
  for (const [i, layer] of p.layers.entries()) {
    for (const key of ['index', 'type', 'output_shape', 'parameters', 'flops_per_sample',
      'activation_bytes', 'forward_ms']) {
      assert.ok(key in layer, `layers[${i}].${key}`);
    }
    assert.equal(layer.index, i);
    assert.equal(typeof layer.forward_ms, 'number');
  }
  assert.deepEqual(p.layers.map((l) => l.parameters), [200960, 0, 32896, 0, 1290]);
  for (const key of ['median_ms', 'mean_ms', 'stddev_ms', 'p95_ms', 'p99_ms', 'ci95_low_ms',
    'ci95_high_ms', 'cv', 'samples']) {
    assert.equal(typeof p.latency[key], 'number', `latency.${key}`);
  }
  assert.equal(typeof p.gflops_per_s, 'number');
  // Intensity: all FLOPs (30,098,048) over parameters + input + activations bytes.
  const bytes = 4 * 235146 + 64 * 784 * 4 + p.activation_bytes;
  assert.equal(p.bytes_moved, bytes);
  assert.equal(p.bottleneck.verdict, 'compute-bound');  // 22 FLOP/byte, ridge 10
  assert.match(p.bottleneck.reason, /^compute-bound: intensity 22 FLOP\/byte is above the ridge point 10 FLOP\/byte/);
  assert.equal(p.bottleneck.machine.source, 'given');
  // One spelling of the roofline's fields, as in every other roofline row.
  assert.equal(p.bottleneck.ridge_flops_per_byte, 10);
  assert.equal(p.bottleneck.intensity_flops_per_byte, p.arithmetic_intensity);
  assert.equal(p.bottleneck.ridge_flop_per_byte, undefined);
  // Counted: every dweight (469,504 per sample) and the dinput of Linear #2 and #4
  // (65,536 + 2,560), none for Linear #0; the original's 2 × forward beside it.
  assert.equal(p.backward.flops, 64 * 537600);
  assert.equal(p.backward.forward_flops, 64 * 469504);
  assert.equal(p.backward.skipped_input_grad_flops, 64 * 2 * 784 * 256);
  assert.equal(p.backward.estimated_flops, 2 * 64 * 469504);
  assert.equal(typeof p.backward.measured_ms, 'number');
  assert.equal(typeof p.backward.estimated_ms, 'number');
  assert.ok(p.top_operations.length >= 5);
  // The original course's fields: memory efficiency (useful of held), memory bandwidth (MB/s,
  // 2^20 bytes) and a training step's forward + backward totals beside its 3 × forward.
  // Useful: parameters 940,584 + input 64·784·4 + output 64·10·4.
  assert.equal(p.useful_bytes, 940584 + 200704 + 2560);
  assert.equal(p.held_bytes, 940584 + 200704 + p.peak_bytes);
  assert.equal(p.memory_efficiency, p.useful_bytes / p.held_bytes);
  assert.ok(p.memory_efficiency > 0 && p.memory_efficiency < 1);
  assert.ok(Math.abs(p.memory_bandwidth_mb_per_s / (p.bytes_moved / 2 ** 20 / (p.latency.median_ms / 1000)) - 1) < 1e-9);
  assert.equal(typeof p.bottleneck.original_memory_bandwidth_mb_per_s, 'number');
  assert.equal(p.backward.total_flops, 64 * (469504 + 537600));
  assert.equal(p.backward.estimated_total_flops, 3 * 64 * 469504);
  assert.ok(Math.abs(p.backward.total_ms - (p.backward.forward_ms + p.backward.measured_ms)) < 1e-12);
  assert.ok(Math.abs(p.backward.estimated_total_ms - 3 * p.backward.forward_ms) < 1e-12);
  assert.equal(p.backward.total_memory_bytes,
    p.backward.training_memory.parameter_bytes + p.backward.training_memory.gradient_bytes + p.backward.training_memory.step_peak_bytes);
});

test('a spec file and the same zoo model give the same counts', () => {
  const zoo = JSON.parse(perflab('zoo', '--json').stdout);
  const cnn = zoo.find((e) => e.name === 'cnn_28');
  const file = writeSpec('cnn.json', JSON.stringify(cnn.spec));
  const a = profileJson(file, '--no-backward');
  const b = profileJson('--zoo', 'cnn_28', '--no-backward');
  for (const key of ['name', 'input', 'output_shape', 'parameters', 'flops_per_sample',
    'flops_per_batch', 'flops_breakdown', 'activation_bytes', 'gradient_bytes',
    'optimizer_bytes', 'bytes_moved']) {
    assert.deepEqual(a[key], b[key], key);
  }
  assert.equal(a.parameters, 80 + 1168 + 7850);
  assert.equal(a.flops_per_sample, 112896 + 451584 + 15680);
  assert.equal(a.backward, null);
});

test('--batch changes per-batch counts, not per-sample ones', () => {
  const p = profileJson('--zoo', 'linear_128_64', '--batch', '3', '--no-layers');
  assert.deepEqual(p.input, [3, 128]);
  assert.equal(p.parameters, 8256);
  assert.equal(p.flops_per_sample, 16384);
  assert.equal(p.flops_per_batch, 3 * 16384);
  assert.equal(p.layers[0].forward_ms, null);
});

test('a single Linear\'s backward counts dweight only: as many FLOPs as its forward, beside the 2x estimate', () => {
  const p = profileJson('--zoo', 'linear_128_64', '--batch', '3', '--no-layers');
  assert.equal(p.backward.forward_flops, 3 * 16384);
  assert.equal(p.backward.flops, 3 * 16384);  // xᵀ·dout; no dx for the first layer
  assert.equal(p.backward.flops_ratio_to_forward, 1);
  assert.equal(p.backward.skipped_input_grad_flops, 3 * 16384);
  assert.equal(p.backward.estimated_flops, 2 * 3 * 16384);
});

test('text mode prints the per-layer table and the totals', () => {
  const r = perflab('profile', '--zoo', 'cnn_28', ...FAST);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^model cnn_28: input \(32, 1, 28, 28\) -> output \(32, 10\), batch 32/);
  assert.match(r.stdout, /^\s+0\s+Conv2d\s+\(32, 8, 28, 28\)\s+80\s+112,896/m);
  assert.match(r.stdout, /^parameters\s+9,098 /m);
  assert.match(r.stdout, /^bottleneck\s+(compute|memory)-bound: /m);
  assert.match(r.stdout, /^memory use\s+efficiency [\d.]+%: useful 134\.8 KiB \(parameters, input, output\) of /m);
  assert.match(r.stdout, /^bandwidth\s+[\d,]+ MB\/s: bytes moved \/ median, MB = 2\^20 bytes/m);
  assert.match(r.stdout, /^step total\s+forward \+ backward: 52,082,688 FLOPs, .*the original's rule, 3 x forward: 55,695,360 FLOPs/m);
  assert.match(r.stdout, /^top operations/m);
});

test('bad specs exit with status 2 and the reason on stderr', () => {
  const cases = [
    [[path.join(dir, 'missing.json')], /^perflab: cannot read spec file '.*missing\.json'/],
    [[writeSpec('broken.json', '{"input": [2, 3], "layers": [')],
      /^perflab: model spec is not valid JSON: parse error at line 1, column 30/],
    [[writeSpec('chain.json', JSON.stringify({ input: [2, 3],
      layers: [{ type: 'Linear', in: 4, out: 2 }] }))],
    /^perflab: layers\[0\]\.in is 4 but the model input gives 3 features; set layers\[0\]\.in to 3$/m],
    [[writeSpec('type.json', JSON.stringify({ input: [2, 3], layers: [{ type: 'Dense' }] }))],
      /^perflab: layers\[0\]\.type "Dense" is not a known layer type/],
    [['--zoo', 'resnet50'], /^perflab: unknown zoo model "resnet50"; the zoo has linear_128_64/],
    [['--zoo', 'mlp_784', '--samples', 'ten'], /^perflab: --samples needs a number, got 'ten'/],
    [[], /^perflab: profile needs either SPEC.json or --zoo NAME/],
  ];
  for (const [args, message] of cases) {
    const r = perflab('profile', ...args, '--json');
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.equal(r.stdout, '');
  }
});
