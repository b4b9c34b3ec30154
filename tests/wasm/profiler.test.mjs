// The Profiling chapter's bindings, in both Node builds: profileModel returns the CLI's
// object with the hand-computed counts (from a spec object or its JSON text), and the same
// counts as the native CLI for every zoo model and for custom specs written to a file, when a
// native build is at hand (PERFLAB_CLI, else build/native/tools/perflab; a PERFLAB_CLI that
// names no file fails the test, as tools/lab test sets it); the zoo, the attention rows, the
// one-point experiment calls and the errors of bad specs and options; the machine roofs a
// profile judges its bottleneck against change through setMachineRoofs and never by
// probing. Timings are never asserted.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

import { BUILDS, loadPerflab } from './perflab_module.mjs';

const modules = await Promise.all(BUILDS.map(loadPerflab));
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const nativeCli = process.env.PERFLAB_CLI ?? path.join(repoRoot, 'build', 'native', 'tools', 'perflab');

// Tiny budgets and fixed roofs: fast, and the bottleneck verdict is deterministic.
const MACHINE = { peak_gflops_per_s: 100, bandwidth_gb_per_s: 10 };
const FAST = { warmup: 0, samples: 2, min_sample_ms: 0, machine: MACHINE };
const COUNTS_ONLY = { ...FAST, layers: false, backward: false, context_passes: 0 };
// Without given roofs: the bottleneck is judged against the machine roofs in force.
const NO_MACHINE = { ...COUNTS_ONLY, machine: undefined };
const TIMER = { warmup: 0, samples: 2, min_sample_ms: 0 };

// Specs outside the zoo, covering every layer type and the non-default fields (bias off,
// stride, padding, MaxPool2d's own stride, LayerNorm over a flattened axis, attention heads).
const CUSTOM_SPECS = [
  { name: 'custom_cnn', input: [3, 2, 12, 10], seed: 5,
    layers: [{ type: 'Conv2d', in_channels: 2, out_channels: 4, kernel: 3, stride: 2, padding: 1,
      bias: false },
    { type: 'Sigmoid' }, { type: 'MaxPool2d', kernel: 2, stride: 1 }, { type: 'Flatten' },
    { type: 'LayerNorm', features: 80 }, { type: 'Linear', in: 80, out: 24 }, { type: 'GELU' },
    { type: 'Linear', in: 24, out: 5, bias: false }, { type: 'Softmax' }] },
  { name: 'custom_sequence', input: [2, 6, 16],
    layers: [{ type: 'LayerNorm', features: 16 }, { type: 'MultiHeadAttention', d_model: 16, heads: 4 },
      { type: 'ReLU' }, { type: 'TransformerBlock', d_model: 16, heads: 2, d_ff: 24 },
      { type: 'Linear', in: 16, out: 3 }] },
];

// The CLI to compare with. Named by PERFLAB_CLI, it must exist (a silent skip would hide that
// the comparison never ran); found by default, its absence is a visible skip.
function cliOrSkip(t) {
  if (process.env.PERFLAB_CLI) {
    assert.ok(existsSync(nativeCli), `PERFLAB_CLI=${nativeCli} names no file: build the native CLI`);
    assert.equal(spawnSync(nativeCli, ['zoo']).status, 0,
      `the native CLI at ${nativeCli} has no zoo subcommand: rebuild it`);
    return nativeCli;
  }
  if (!existsSync(nativeCli)) {
    t.skip(`no native CLI at ${nativeCli} (set PERFLAB_CLI)`);
    return undefined;
  }
  if (spawnSync(nativeCli, ['zoo']).status !== 0) {
    t.skip(`the native CLI at ${nativeCli} has no zoo subcommand: a build older than this test`);
    return undefined;
  }
  return nativeCli;
}

// Core's zoo as the first module lists it; every build must list the same, the original
// course's seven first.
const ZOO = modules[0].zooNames();

// What must agree between the page and the CLI: everything counted, nothing timed.
function counts(p) {
  return {
    name: p.name, input: p.input, output_shape: p.output_shape, parameters: p.parameters,
    parameter_bytes: p.parameter_bytes, flops_per_sample: p.flops_per_sample,
    flops_per_batch: p.flops_per_batch, flops_breakdown: p.flops_breakdown,
    flops_breakdown_per_sample: p.flops_breakdown_per_sample,
    activation_bytes: p.activation_bytes, activation_estimate_bytes: p.activation_estimate_bytes,
    largest_activation_bytes: p.largest_activation_bytes, input_bytes: p.input_bytes,
    gradient_bytes: p.gradient_bytes, optimizer_bytes: p.optimizer_bytes,
    bytes_moved: p.bytes_moved, arithmetic_intensity: p.arithmetic_intensity,
    verdict: p.bottleneck.verdict, reason: p.bottleneck.reason,
    layers: p.layers.map((l) => ({
      index: l.index, type: l.type, label: l.label, input_shape: l.input_shape,
      output_shape: l.output_shape, parameters: l.parameters,
      flops_per_sample: l.flops_per_sample, flops_per_batch: l.flops_per_batch,
      flops_breakdown: l.flops_breakdown, activation_bytes: l.activation_bytes,
    })),
  };
}

for (const [index, build] of BUILDS.entries()) {
  const m = modules[index];
  describe(`profiler bindings (${build.flavour})`, () => {
    it('lists the zoo and hands out its specs', () => {
      assert.deepEqual(m.zooNames(), ZOO);
      assert.deepEqual(ZOO.slice(0, 7), ['linear_128_64', 'linear_768_3072', 'linear_1000_500',
        'conv7x7_224', 'mlp_784', 'cnn_28', 'transformer_block']);
      const models = m.zooModels();
      assert.deepEqual(models.map((e) => e.name), ZOO);
      assert.deepEqual(m.zooSpec('mlp_784'), models[4].spec);
      assert.deepEqual(m.zooSpec('mlp_784').input, [64, 784]);
      assert.throws(() => m.zooSpec('resnet50'), {
        message: 'unknown zoo model "resnet50"; the zoo has ' + ZOO.join(', '),
      });
    });

    it('layerTypes lists every layer type with the fields the parser takes', () => {
      const types = m.layerTypes();
      assert.deepEqual(types.map((t) => t.type), ['Linear', 'Conv2d', 'ReLU', 'GELU', 'Sigmoid', 'Softmax', 'LayerNorm', 'MaxPool2d', 'Flatten', 'MultiHeadAttention', 'TransformerBlock']);
      const conv = types[1];
      assert.equal(conv.takes, 'in_channels, out_channels, kernel, stride [1], padding [0], bias [true]');
      assert.deepEqual(conv.fields.find((f) => f.name === 'padding'), { name: 'padding', kind: 'non-negative integer', default: '0' });
      // The parser's own message for a wrong field quotes the same text.
      assert.throws(() => m.profileModel({ name: 'x', input: [1, 1, 8, 8], layers: [{ type: 'Conv2d', in_channels: 1, kernel: 3 }] }, FAST), {
        message: `layers[0].out_channels is missing; Conv2d takes ${conv.takes}`,
      });
    });

    it('profileTimerDefaults gives the settings a profile uses when none are given (the builder scales them)', () => {
      const d = m.profileTimerDefaults();
      for (const key of ['warmup', 'samples', 'min_sample_ms', 'max_total_ms']) assert.equal(typeof d[key], 'number', key);
      assert.ok(Number.isInteger(d.samples) && d.samples >= 1);
      // Scaled as Measure longer scales them, core accepts them.
      const p = m.profileModel(m.zooSpec('linear_128_64'), { samples: 2 * d.samples, max_total_ms: 4 * d.max_total_ms, min_sample_ms: 0, layers: false, backward: false, context_passes: 0 });
      assert.ok(p.latency.samples + p.latency.outliers >= 2);
    });

    it('profileModel gives the hand-computed counts of mlp_784 and the CLI fields', () => {
      const p = m.profileModel(m.zooSpec('mlp_784'), FAST);
      assert.equal(p.parameters, 235146);
      assert.equal(p.flops_per_sample, 469504);
      assert.equal(p.flops_per_batch, 64 * 469504);
      assert.equal(p.flops_breakdown.bias, 64 * 394);
      assert.equal(p.activation_bytes, 64 * 4 * 778);
      assert.ok(p.peak_bytes >= 64 * 4 * 256);
      assert.deepEqual(p.optimizer_bytes,
        { sgd: 0, momentum: 4 * 235146, adam: 8 * 235146, adamw: 8 * 235146 });
      assert.deepEqual(p.layers.map((l) => l.parameters), [200960, 0, 32896, 0, 1290]);
      for (const l of p.layers) assert.equal(typeof l.forward_ms, 'number');
      for (const key of ['median_ms', 'mean_ms', 'stddev_ms', 'p95_ms', 'p99_ms', 'ci95_low_ms',
        'ci95_high_ms', 'cv', 'samples']) {
        assert.equal(typeof p.latency[key], 'number', key);
      }
      assert.equal(p.bottleneck.verdict, 'compute-bound');
      assert.equal(p.backward.flops, 64 * 537600);  // no dinput for Linear #0
      assert.equal(p.backward.estimated_flops, 2 * 64 * 469504);
      assert.equal(p.top_operations.length, 10);
    });

    it('the backward is timed interleaved with the training forward: one run, both medians, their ratio', () => {
      const profile = m.profileModel(m.zooSpec('linear_128_64'), { ...FAST, samples: 4, layers: false, context_passes: 2 });
      assert.equal(profile.top_operations_passes, 2);  // the passes top_operations' totals sum
      assert.equal(profile.top_operations.find((r) => r.pass === 'forward').calls, 2);
      for (const backward of [
        profile.backward,
        m.measureBackwardPoint(m.zooSpec('linear_128_64'), 8, { ...TIMER, samples: 4 }),
      ]) {
        assert.equal(backward.timing, 'interleaved');
        assert.ok(Number.isInteger(backward.rounds) && backward.rounds >= 2 && backward.rounds <= 4, String(backward.rounds));
        // Every round took one sample of each (outliers are dropped from the kept ones).
        assert.equal(backward.forward_latency.samples + backward.forward_latency.outliers, backward.rounds);
        assert.equal(backward.latency.samples + backward.latency.outliers, backward.rounds);
        assert.equal(backward.forward_ms, backward.forward_latency.median_ms);
        assert.equal(backward.measured_ms, backward.latency.median_ms);
        assert.ok(Math.abs(backward.ratio_to_forward - backward.measured_ms / backward.forward_ms) <= 1e-12 * backward.ratio_to_forward);
        assert.equal(backward.estimated_ms, 2 * backward.forward_ms);
      }
    });

    it('setMachineRoofs sets the roofs a profile judges against; probeMachine leaves them', () => {
      const set = m.setMachineRoofs({ peak_gflops_per_s: 40, bandwidth_gb_per_s: 8,
        simd_backend: 'test' });
      assert.deepEqual(set, { peak_gflops_per_s: 40, bandwidth_gb_per_s: 8, source: 'probe',
        simd_backend: 'test' });
      const judged = () => m.profileModel(m.zooSpec('linear_128_64'), NO_MACHINE).bottleneck;
      assert.deepEqual(judged().machine, set);
      assert.equal(judged().ridge_flops_per_byte, 5);
      m.probeMachine({ quick: true });
      assert.deepEqual(judged().machine, set);
      // Given roofs still win over the machine's.
      assert.equal(m.profileModel(m.zooSpec('linear_128_64'), COUNTS_ONLY).bottleneck.machine
        .source, 'given');
      assert.deepEqual(m.setMachineRoofs({ peak_gflops_per_s: 100, bandwidth_gb_per_s: 25 }),
        { peak_gflops_per_s: 100, bandwidth_gb_per_s: 25, source: 'probe', simd_backend: '' });
      assert.equal(judged().ridge_flops_per_byte, 4);
    });

    it('setMachineRoofs refuses bad roofs, naming the field, and keeps the ones in force', () => {
      m.setMachineRoofs({ peak_gflops_per_s: 40, bandwidth_gb_per_s: 8 });
      const bad = [
        [{ peak_gflops_per_s: -1, bandwidth_gb_per_s: 8 },
          'peak_gflops_per_s must be a finite number greater than 0, got -1'],
        [{ peak_gflops_per_s: 40, bandwidth_gb_per_s: 0 },
          'bandwidth_gb_per_s must be a finite number greater than 0, got 0'],
        [{ peak_gflops_per_s: 40 }, 'roofs.bandwidth_gb_per_s must be a finite number, got undefined'],
        [{ peak_gflops_per_s: 40, bandwidth_gb_per_s: Infinity },
          'roofs.bandwidth_gb_per_s must be a finite number, got Infinity'],
        [{ peak_gflops_per_s: 40, bandwidth_gb_per_s: 8, simd_backend: 5 },
          'roofs.simd_backend must be a string, got 5'],
        [{ peak_gflops_per_s: 40, bandwidth_gb_per_s: 8, ridge_flops_per_byte: 5 },
          'unknown field "ridge_flops_per_byte" in roofs; the allowed fields are ' +
          'peak_gflops_per_s, bandwidth_gb_per_s and simd_backend'],
        [40, 'roofs must be an object with the fields peak_gflops_per_s, bandwidth_gb_per_s and ' +
          'simd_backend, got 40'],
      ];
      for (const [roofs, message] of bad) {
        assert.throws(() => m.setMachineRoofs(roofs), { message });
      }
      assert.deepEqual(m.profileModel(m.zooSpec('linear_128_64'), NO_MACHINE).bottleneck.machine,
        { peak_gflops_per_s: 40, bandwidth_gb_per_s: 8, source: 'probe', simd_backend: '' });
    });

    it('a spec as JSON text gives the same counts as the object', () => {
      const spec = m.zooSpec('cnn_28');
      const fromText = m.profileModel(JSON.stringify(spec), COUNTS_ONLY);
      const fromObject = m.profileModel(spec, COUNTS_ONLY);
      assert.deepEqual(counts(fromText), counts(fromObject));
      assert.equal(fromText.parameters, 80 + 1168 + 7850);
      assert.equal(fromText.layers[0].forward_ms, null);
      assert.equal(fromText.backward, null);
    });

    it('options.batch changes per-batch counts only', () => {
      const p = m.profileModel(m.zooSpec('linear_128_64'), { ...COUNTS_ONLY, batch: 3 });
      assert.deepEqual(p.input, [3, 128]);
      assert.equal(p.flops_per_sample, 16384);
      assert.equal(p.flops_per_batch, 3 * 16384);
    });

    it('gives the same counts as the native CLI for every zoo model', (t) => {
      if (!cliOrSkip(t)) return;
      for (const name of ZOO) {
        const r = spawnSync(nativeCli, ['profile', '--zoo', name, '--json', '--samples', '2',
          '--min-sample-ms', '0', '--no-layers', '--no-backward', '--peak-gflops-per-s', '100',
          '--bandwidth-gb-per-s', '10'], { encoding: 'utf8' });
        assert.equal(r.status, 0, r.stderr);
        const cli = JSON.parse(r.stdout);
        const page = m.profileModel(m.zooSpec(name), COUNTS_ONLY);
        assert.deepEqual(counts(page), counts(cli), name);
      }
    });

    it('gives the same counts as the native CLI for a custom spec file, layer by layer', (t) => {
      if (!cliOrSkip(t)) return;
      const dir = mkdtempSync(path.join(os.tmpdir(), 'perflab-spec-'));
      try {
        for (const spec of CUSTOM_SPECS) {
          const file = path.join(dir, `${spec.name}.json`);
          writeFileSync(file, JSON.stringify(spec, null, 2));
          // Backward on: its counted FLOPs and training-memory counts must agree too.
          const r = spawnSync(nativeCli, ['profile', file, '--json', '--samples', '2',
            '--min-sample-ms', '0', '--peak-gflops-per-s', '100', '--bandwidth-gb-per-s', '10'],
          { encoding: 'utf8' });
          assert.equal(r.status, 0, r.stderr);
          const cli = JSON.parse(r.stdout);
          const page = m.profileModel(JSON.stringify(spec), { ...FAST, context_passes: 0 });
          assert.equal(page.layers.length, spec.layers.length);
          assert.deepEqual(counts(page), counts(cli), spec.name);
          const backwardCounts = (p) => ({
            flops: p.backward.flops, estimated_flops: p.backward.estimated_flops,
            flops_breakdown: p.backward.flops_breakdown,
            parameter_bytes: p.backward.training_memory.parameter_bytes,
            gradient_bytes: p.backward.training_memory.gradient_bytes,
            optimizer_bytes: p.backward.training_memory.optimizer_bytes,
          });
          assert.deepEqual(backwardCounts(page), backwardCounts(cli), spec.name);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('bad specs and options are Errors with core messages', () => {
      const spec = m.zooSpec('linear_128_64');
      const cases = [
        [() => m.profileModel('{"input": [2, 3], "layers": [', COUNTS_ONLY),
          /^model spec is not valid JSON: parse error at line 1, column 30/],
        [() => m.profileModel({ input: [2, 3], layers: [{ type: 'Linear', in: 4, out: 2 }] },
          COUNTS_ONLY), /^layers\[0\]\.in is 4 but the model input gives 3 features; set layers\[0\]\.in to 3$/],
        [() => m.profileModel(5), /^spec must be a model spec object or its JSON text, got 5$/],
        [() => m.profileModel(spec, { iterations: 5 }),
          /^unknown option "iterations"; the allowed options are warmup, samples/],
        [() => m.profileModel(spec, { samples: 'ten' }),
          /^options\.samples must be an integer, got "ten"$/],
        [() => m.attentionScaling(128, 3, [64]), /^heads must divide d_model \(128\), got 3$/],
        [() => m.attentionScaling(128, 4, [64, -1]),
          /^seqLengths must be an array of non-negative integers, got \[64, -1\]$/],
        [() => m.measureForwardPoint(spec, 'two'),
          /^batch must be a non-negative integer, got "two"$/],
      ];
      for (const [call, message] of cases) assert.throws(call, { message });
      // Still usable afterwards.
      assert.equal(m.profileModel(spec, COUNTS_ONLY).parameters, 8256);
    });

    it('attention rows grow the quadratic term 4x when the sequence doubles', () => {
      const rows = m.attentionScaling(128, 4, [64, 128, 256]);
      assert.equal(rows.length, 3);
      for (let i = 0; i + 1 < rows.length; ++i) {
        assert.equal(rows[i + 1].quadratic_flops, 4 * rows[i].quadratic_flops);
        assert.equal(rows[i + 1].projection_flops, 2 * rows[i].projection_flops);
        assert.equal(rows[i + 1].score_matrix_bytes, 4 * rows[i].score_matrix_bytes);
      }
      assert.equal(rows[0].projection_flops, 8 * 64 * 128 * 128);
      assert.equal(rows[0].quadratic_flops, 4 * 64 * 64 * 128);
      assert.equal(rows[0].score_matrix_bytes, 4 * 4 * 64 * 64);  // batch 1
    });

    it('the experiment points measure one spec at one batch', () => {
      const spec = m.mlpSpec([64, 32, 8], 4);
      assert.equal(spec.name, 'mlp_64_32_8');
      const forward = m.measureForwardPoint(spec, 6, TIMER);
      assert.equal(forward.batch_size, 6);
      assert.equal(forward.flops_per_batch, 6 * 2 * (64 * 32 + 32 * 8));
      assert.equal(typeof forward.latency.median_ms, 'number');
      const backward = m.measureBackwardPoint(spec, undefined, TIMER);
      assert.equal(backward.batch_size, 4);
      assert.equal(backward.flops, 4 * 2 * (64 * 32 + 32 * 8 + 32 * 8));  // one dinput
      assert.equal(backward.estimated_flops, 2 * 4 * 2 * (64 * 32 + 32 * 8));
      assert.equal(typeof backward.measured_ms, 'number');
      const memory = m.memoryBreakdown(spec, 2);
      assert.equal(memory.inference.parameter_bytes, 4 * (64 * 32 + 32 + 32 * 8 + 8));
      assert.equal(memory.training.optimizer_bytes.adam, 2 * memory.inference.parameter_bytes);
      const overhead = m.profilingOverhead(m.zooSpec('transformer_block'), 1, TIMER);
      assert.equal(overhead.layer_calls_per_forward, 7);
      const costs = m.flopCosts();
      assert.ok(costs.some((c) => c.op === 'GELU' && c.forward === '9' && c.backward === '19'));
    });
  });
}
