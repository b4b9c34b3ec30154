// The Benchmarking chapter's statistics through both Node builds: summarizeSample,
// compareSamples and fitComplexity give the values core's doctests check by hand
// (tests/core/test_stats_*.cpp), runAB returns both arms' raw samples with the comparison of
// exactly those samples (and abRoundOrder and analyzeAB give its order and its analysis for
// rounds timed elsewhere), every bad argument is refused with a message naming it (inputs
// over core's bounds on the work with core's sentence, before any work), and the
// module stays usable after 100 failing calls; sampleKernel keeps every sample it took.
// No timing is asserted.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { BUILDS, loadPerflab } from './perflab_module.mjs';

const modules = await Promise.all(BUILDS.map(loadPerflab));

// Relative to the expected value: some are far below 1 (the exact p 2/184756 ≈ 1.1e-5, a
// coefficient of 3e-6), where an absolute 1e-6 would pass a p off by 9% or a coefficient off by 33%.
const close = (got, want, tol = 1e-6) =>
  assert.ok(Math.abs(got - want) <= tol * Math.abs(want), `got ${got}, want ${want}`);
// 10.0, 10.1, ..., 10.9 (no ties) and the same scaled: core's compare doctest's samples.
const tens = Array.from({ length: 10 }, (_, i) => 10 + 0.1 * i);
const scaled = (v, by) => v.map((x) => x * by);
// `count` rows of a bench run, each with `samples` samples: compareRuns' input.
const benchRows = (count, samples) =>
  Array.from({ length: count }, (_, i) => ({ op: 'gelu', variant: 'fused', n: i + 1, samples_ms: new Array(samples).fill(1) }));
const QUICK_AB = { rounds: 6, warmup: 1, min_sample_ms: 0.05, bootstrap_resamples: 200, seed: 3 };

// [what, call(m), exact message]: the boundary's messages (wasm/convert.cpp, bind_stats.cpp)
// and core's, verbatim.
const BAD_CALLS = [
  ['an empty sample', (m) => m.summarizeSample([]), 'values is empty: a sample needs at least one value'],
  ['a NaN', (m) => m.summarizeSample([1, NaN]), 'values[1] is nan: values must be finite and not negative'],
  ['an infinity', (m) => m.summarizeSample(new Float64Array([1, 2, Infinity])),
   'values[2] is inf: values must be finite and not negative'],
  ['a negative value', (m) => m.summarizeSample([1, -2]), 'values[1] is -2: values must be finite and not negative'],
  ['a string for values', (m) => m.summarizeSample('abc'),
   'values must be a Float32Array, a Float64Array or an array of numbers, got "abc"'],
  ['a string in values', (m) => m.summarizeSample([1, 'x']), 'values[1] must be a number, got "x"'],
  ['a sample over the limit', (m) => m.summarizeSample(new Float64Array(100001)),
   'values has 100001 values; at most 100000 are allowed in one sample: summarize a part of it, or split the run'],
  // Copying 2^32 − 1 holes would need 32 GiB: only a check of the length before the copy
  // can give this message.
  ['a sparse array far over the limit', (m) => m.summarizeSample(new Array(2 ** 32 - 1)),
   'values has 4294967295 values; at most 100000 are allowed in one sample: summarize a part of it, or split the run'],
  ['an unknown summary option', (m) => m.summarizeSample([1], { resamples: 5 }),
   'unknown option "resamples"; the allowed options are bootstrap_resamples and seed'],
  ['too few resamples', (m) => m.summarizeSample([1], { bootstrap_resamples: 5 }),
   'bootstrap_resamples must be between 100 and 1000000, got 5'],
  ['a negative seed', (m) => m.summarizeSample([1], { seed: -1 }),
   'options.seed must be an integer between 0 and 9007199254740991, got -1'],
  ['an array for options', (m) => m.summarizeSample([1], [1]),
   'options must be an object with optional fields bootstrap_resamples and seed, got [1]'],
  ['an empty b', (m) => m.compareSamples([1, 2], []), 'b is empty: a sample needs at least one value'],
  ['a negative value in a', (m) => m.compareSamples([1, -1], [1]), 'a[1] is -1: values must be finite and not negative'],
  ['b over the limit', (m) => m.compareSamples([1], new Float32Array(100001)),
   'b has 100001 values; at most 100000 are allowed in one sample: summarize a part of it, or split the run'],
  ['an alpha out of range', (m) => m.compareSamples([1], [2], { alpha: 0.9 }),
   'alpha must be between 0.0001 and 0.5, got 0.9'],
  ['a threshold that is not a number', (m) => m.compareSamples([1], [2], { threshold: 'x' }),
   'options.threshold must be a finite number, got "x"'],
  ['an unknown comparison option', (m) => m.compareSamples([1], [2], { mode: 'sequential' }),
   'unknown option "mode"; the allowed options are alpha, threshold, bootstrap_resamples, seed and min_samples'],
  ['sizes and times of different lengths', (m) => m.fitComplexity([1, 2, 3], [1, 2]),
   'sizes and times must have the same length, got 3 and 2'],
  ['a size of 0', (m) => m.fitComplexity([1, 0], [1, 2]), 'sizes[1] is 0: values must be finite and greater than 0'],
  ['a NaN time', (m) => m.fitComplexity([1, 2], [1, NaN]), 'times[1] is nan: values must be finite and greater than 0'],
  ['one size only', (m) => m.fitComplexity([8, 8, 8], [1, 2, 3]),
   'a complexity fit needs at least 2 different sizes, got 3 points at size 8'],
  ['times that are not an array', (m) => m.fitComplexity([1, 2], null),
   'times must be a Float32Array, a Float64Array or an array of numbers, got null'],
  ['an unknown op', (m) => m.runAB('conv', 'naive', 'packed', 8), 'op must be "matmul", "gelu" or "model", got "conv"'],
  ['a variant that is not a string', (m) => m.runAB('gelu', 'fused', 3, 8), 'variant_b must be a string, got 3'],
  ['a matmul N of 0', (m) => m.runAB('matmul', 'naive', 'packed', 0),
   'n must be between 1 and 512 for an A/B of matmul, got 0: one round calls both arms, and an A/B runs many rounds in at most 6000 ms'],
  // The bounds on the work (core's kMaxAbMatmulN, kMaxAbTotalMs, kMaxBenchRows,
  // kMaxSampleValues), refused before any kernel is called or any sample is compared.
  ['a matmul N over the A/B limit', (m) => m.runAB('matmul', 'naive', 'packed', 513),
   'n must be between 1 and 512 for an A/B of matmul, got 513: one round calls both arms, and an A/B runs many rounds in at most 6000 ms'],
  ['a GELU n over the A/B limit', (m) => m.runAB('gelu', 'fused', 'unfused', 2 ** 22 + 1),
   'n must be between 1 and 4194304 for an A/B of gelu, got 4194305: one round calls both arms, and an A/B runs many rounds in at most 6000 ms'],
  ['A/B rounds whose samples cannot fit the limit', (m) => m.runAB('gelu', 'fused', 'unfused', 8, { rounds: 3001 }),
   '3001 rounds of an A and a B sample of at least 1 ms each (min_sample_ms) take at least 6002 ms; one A/B may take at most 6000 ms: use at most 3000 rounds, or a shorter min_sample_ms'],
  ['a_first over the sample limit', (m) => m.analyzeAB([1], [1], new Array(100001).fill(true)),
   'a_first has 100001 values; at most 100000 are allowed in one sample: summarize a part of it, or split the run'],
  ['a run of more benchmarks than allowed', (m) => m.compareRuns(benchRows(65, 1), benchRows(1, 1)),
   'baseline: rows has 65 benchmarks; at most 64 are allowed in one run: compare the runs in parts'],
  ['a run of more samples than allowed', (m) => m.compareRuns(benchRows(1, 5), benchRows(2, 50001)),
   'this run: the rows hold 100002 samples in all; at most 100000 are allowed in one run: keep fewer samples per benchmark, or compare the runs in parts'],
  ['an unknown mode', (m) => m.runAB('gelu', 'fused', 'unfused', 8, { mode: 'parallel' }),
   'options.mode must be "interleaved" or "sequential", got "parallel"'],
  ['one round', (m) => m.runAB('gelu', 'fused', 'unfused', 8, { rounds: 1 }), 'rounds must be between 2 and 100000, got 1'],
  ['a fractional warmup', (m) => m.runAB('gelu', 'fused', 'unfused', 8, { warmup: 1.5 }),
   'options.warmup must be an integer, got 1.5'],
  ['an unknown mode of a round order', (m) => m.abRoundOrder('parallel', 4, 1),
   'mode must be "interleaved" or "sequential", got "parallel"'],
  ['no rounds to order', (m) => m.abRoundOrder('interleaved', 0, 1), 'rounds must be between 1 and 100000, got 0'],
  ['a fractional order seed', (m) => m.abRoundOrder('interleaved', 4, 1.5),
   'seed must be an integer between 0 and 9007199254740991, got 1.5'],
  ['rounds of different lengths', (m) => m.analyzeAB([1, 2], [1], [true, true]),
   'a_ms, b_ms and a_first must hold one value per round, got 2, 1 and 2 values'],
  ['a_first that is not a boolean', (m) => m.analyzeAB([1], [1], [1]), 'a_first[0] must be true or false, got 1'],
  ['a negative A sample to analyse', (m) => m.analyzeAB([1, -1], [1, 1], [true, true]),
   'a_ms[1] is -1: values must be finite and not negative'],
  ['B running first in a sequential analysis', (m) => m.analyzeAB([1, 1], [1, 1], [true, false], { mode: 'sequential' }),
   'a_first[1] is false, but in sequential mode all of A runs before B'],
  ['an unknown analysis option', (m) => m.analyzeAB([1], [1], [true], { rounds: 3 }),
   'unknown option "rounds"; the allowed options are mode, seed, alpha, threshold, bootstrap_resamples and min_samples'],
  ['an unknown op to sample', (m) => m.sampleKernel('conv', 'naive', 8), 'op must be "matmul", "gelu" or "model", got "conv"'],
  ['a GELU n of 0 to sample', (m) => m.sampleKernel('gelu', 'fused', 0), 'n must be between 1 and 67108864 for gelu, got 0'],
  ['a sampling budget over one call’s ceiling', (m) => m.sampleKernel('gelu', 'fused', 8, { max_total_ms: 30000 }),
    'max_total_ms must be at most 5000 ms for one sampling call, got 30000; take more samples over several calls'],
  ['naive matmul at N=1024 to sample (13.6 s a call)', (m) => m.sampleKernel('matmul', 'naive', 1024, { warmup: 0, samples: 1 }),
    'n must be at most 512 for matmul in one sampling call (one call of the slowest variant stays well under a second), got 1024'],
  ['an unknown sampling option', (m) => m.sampleKernel('gelu', 'fused', 8, { rounds: 3 }),
   'unknown option "rounds"; the allowed options are warmup, samples, min_sample_ms, max_total_ms, inner_iterations, clock_tick_ms and controls'],
  ['a reference too short for coverage', (m) => m.intervalCoverage([1, 2, 3], [5]),
   'reference must hold at least 20 values to stand for the population, got 3'],
  ['a fractional coverage size', (m) => m.intervalCoverage(new Array(30).fill(1), [2.5]),
   'sizes[0] must be a whole number, got 2.5'],
  ['an unknown coverage option', (m) => m.intervalCoverage(new Array(30).fill(1), [5], { rounds: 3 }),
   'unknown option "rounds"; the allowed options are trials, bootstrap_resamples and seed'],
  ['a batch of 0.5 calls', (m) => m.sampleKernel('gelu', 'fused', 8, { inner_iterations: 0.5 }),
   'options.inner_iterations must be an integer, got 0.5'],
  ['a clock tick of a second', (m) => m.sampleKernel('gelu', 'fused', 8, { clock_tick_ms: 1000 }),
   'clock_tick_ms must be 0 (the clock as it is) or a number of milliseconds above 0 and at most 100, got 1000'],
];

for (const [b, build] of BUILDS.entries()) {
  describe(`statistics in the ${build.flavour} Node build`, () => {
    const m = modules[b];

    it('summarizes [1, 2, 3, 4, 5] as core does: std 1.5811, z interval (1.614, 4.386)', () => {
      for (const values of [[1, 2, 3, 4, 5], new Float64Array([5, 4, 3, 2, 1])]) {
        const s = m.summarizeSample(values);
        assert.equal(s.n, 5);
        assert.equal(s.mean, 3);
        close(s.std, 1.5811388);
        assert.equal(s.median, 3);
        assert.equal(s.min, 1);
        assert.equal(s.max, 5);
        close(s.z_interval.low, 1.6140707);
        close(s.z_interval.high, 4.3859293);
        close(s.t_interval.low, 1.0367568);
        close(s.t_interval.high, 4.9632432);
        close(s.p5, 1.2);
        assert.equal(s.p25, 2);
        assert.equal(s.p75, 4);
        close(s.p95, 4.8);
        close(s.p99, 4.96);
        assert.equal(s.mad, 1);
        close(s.cv, 1.5811388 / 3);
        assert.deepEqual(s.outliers, []);
        assert.equal(s.warning, '');
        assert.equal(s.bootstrap_resamples, 10000);
        assert.equal(s.bootstrap_seed, 1);
      }
    });

    it('returns core’s summary fields by their names, each interval {low, high}', () => {
      const s = m.summarizeSample([1, 2, 3, 4, 5, 40], { bootstrap_resamples: 200, seed: 7 });
      assert.deepEqual(Object.keys(s).sort(), [
        'bootstrap_median_interval', 'bootstrap_resamples', 'bootstrap_resamples_requested', 'bootstrap_seed',
        'cv', 'lower_fence', 'mad', 'max', 'mean', 'median', 'min', 'n', 'outliers', 'p25', 'p5', 'p75', 'p95',
        'p99', 'std', 't_interval', 'upper_fence', 'warning', 'z_interval',
      ]);
      for (const key of ['z_interval', 't_interval', 'bootstrap_median_interval']) {
        assert.deepEqual(Object.keys(s[key]).sort(), ['high', 'low'], key);
        assert.ok(s[key].low <= s[key].high, key);
      }
      assert.deepEqual(s.outliers, [{ index: 5, value: 40 }]);
      assert.equal(s.bootstrap_seed, 7);
    });

    it('lists Tukey outliers by index and value, and keeps them in the mean', () => {
      const s = m.summarizeSample([10, 11, 12, 13, 100, 14, 15, 16, 17, 18]);
      close(s.mean, 22.6);
      close(s.lower_fence, 5.5);
      close(s.upper_fence, 23.5);
      assert.deepEqual(s.outliers, [{ index: 4, value: 100 }]);
      assert.equal(s.median, 14.5);
      assert.equal(s.mad, 2.5);
      assert.equal(s.warning, "1 of 10 values lie outside Tukey's fences (5.5 to 23.5): the median and " +
        'the MAD resist them, the mean and the std do not');
    });

    it('one value: a warning that does not name the sample after its own argument', () => {
      const s = m.summarizeSample([3]);
      assert.equal(s.warning, 'only one value: the spread and every interval are 0, which says nothing about the next run; take at least 5 samples');
    });

    it('reports the bootstrap seed and resamples it was given, and repeats with them', () => {
      const data = Array.from({ length: 100 }, (_, i) => i + 1);
      const s = m.summarizeSample(data, { seed: 42, bootstrap_resamples: 2000 });
      assert.equal(s.bootstrap_seed, 42);
      assert.equal(s.bootstrap_resamples, 2000);
      assert.deepEqual(m.summarizeSample(data, { seed: 42, bootstrap_resamples: 2000 }).bootstrap_median_interval,
        s.bootstrap_median_interval);
      const { low, high } = s.bootstrap_median_interval;
      assert.ok(low >= 38 && low <= 44 && high >= 57 && high <= 63, `${low}-${high}`);
    });

    it('compares B 1.25x faster than A: ratio, exact Mann-Whitney, verdict and sentence', () => {
      const c = m.compareSamples(tens, scaled(tens, 0.8));
      assert.equal(c.n_a, 10);
      assert.equal(c.n_b, 10);
      close(c.median_a, 10.45);
      close(c.median_b, 8.36);
      close(c.ratio, 1.25);
      close(c.change, -0.2);
      assert.deepEqual(c.mann_whitney, { ...c.mann_whitney, u: 100, exact: true });
      close(c.mann_whitney.p_value, 2 / 184756);
      assert.equal(c.cliffs_delta, -1);
      assert.ok(c.cohens_d < 0);
      assert.ok(c.ratio_interval.low >= 10 / 8.72 && c.ratio_interval.high <= 10.9 / 8);
      assert.equal(c.verdict.name, 'faster');
      assert.equal(c.verdict.sentence, `B is 1.25x faster than A (95% CI ${c.ratio_interval.low.toFixed(2)}-` +
        `${c.ratio_interval.high.toFixed(2)}x, p < 0.001)`);
      assert.equal(c.warning, '');
      assert.deepEqual([c.alpha, c.threshold, c.min_samples, c.bootstrap_resamples, c.seed], [0.05, 0.02, 5, 10000, 1]);
    });

    it('takes its options: a wide noise threshold, too few samples, overlapping samples', () => {
      const wide = m.compareSamples(tens, scaled(tens, 0.8), { threshold: 0.5, seed: 7, bootstrap_resamples: 1000 });
      assert.equal(wide.verdict.name, 'no_difference');
      assert.deepEqual([wide.threshold, wide.seed, wide.bootstrap_resamples], [0.5, 7, 1000]);
      // Four against four: the exact Mann-Whitney p is 2/70, below alpha, once four is enough.
      assert.equal(m.compareSamples([1, 2, 3, 4], [5, 6, 7, 8]).verdict.name, 'too_few_samples');
      assert.equal(m.compareSamples([1, 2, 3, 4], [5, 6, 7, 8], { min_samples: 4 }).verdict.name, 'slower');
      const overlap = m.compareSamples([1, 3, 5, 7, 9], [2, 4, 6, 8, 10]);
      close(overlap.mann_whitney.p_value, 174 / 252);
      assert.equal(overlap.verdict.name, 'no_difference');
    });

    it('fits two points by hand: coefficients, normalized RMS and the exponent', () => {
      const r = m.fitComplexity([1, 2], [1, 3]);
      assert.deepEqual(r.fits.map((f) => f.complexity).sort(),
        ['O(1)', 'O(log n)', 'O(n)', 'O(n log n)', 'O(n^2)', 'O(n^3)'].sort());
      const fit = (name) => r.fits.find((f) => f.complexity === name);
      close(fit('O(n)').coefficient, 1.4);
      close(fit('O(n)').normalized_rms, Math.sqrt(0.1) / 2);
      close(fit('O(1)').coefficient, 2);
      close(fit('O(1)').normalized_rms, 0.5);
      close(fit('O(log n)').normalized_rms, Math.sqrt(0.5) / 2);
      for (let i = 1; i < r.fits.length; ++i) assert.ok(r.fits[i - 1].normalized_rms <= r.fits[i].normalized_rms);
      close(r.power_law.exponent, Math.log(3) / Math.log(2));
      close(r.power_law.coefficient, 1);
      assert.equal(r.power_law.exponent_interval.high - r.power_law.exponent_interval.low, 0);
      close(r.power_law.r_squared, 1);
      assert.equal(r.warning, 'only 2 points: the exponent has no interval; measure at least 5 sizes; sizes span ' +
        'only a factor of 2: classes differ little over such a range; spread sizes over a factor of 10 or more');
    });

    it('ranks the right class first on exact n² data, with the exponent 2', () => {
      const sizes = [16, 32, 64, 128, 256, 512];
      const r = m.fitComplexity(sizes, sizes.map((n) => 3e-6 * n * n));
      assert.equal(r.fits[0].complexity, 'O(n^2)');
      close(r.fits[0].coefficient, 3e-6);
      close(r.power_law.exponent, 2, 1e-9);
      assert.ok(r.power_law.exponent_interval.low <= 2 + 1e-9 && r.power_law.exponent_interval.high >= 2 - 1e-9);
      assert.equal(r.warning, '');
      // Each class's own slope over the sizes; the class named when the fit and the slope agree.
      close(r.fits.find((f) => f.complexity === 'O(n^3)').expected_exponent, 3);
      assert.equal(r.named_class, 'O(n^2)');
      assert.match(r.conclusion, /^O\(n\^2\): the best fit by RMS is O\(n\^2\) .* holds its 2\.00 over these sizes and no other class's\.$/);
      // log₂ 1 = 0: O(log n) has no slope over sizes that include 1, sent as null.
      assert.equal(m.fitComplexity([1, 10, 100], [1, 2, 3]).fits.find((f) => f.complexity === 'O(log n)').expected_exponent, null);
    });

    it('samples a kernel: every per-call sample in order, none dropped, with the batch size', () => {
      const r = m.sampleKernel('matmul', 'packed', 16, { warmup: 1, samples: 25, min_sample_ms: 0.05 });
      assert.deepEqual(Object.keys(r).sort(), ['clock_tick_ms', 'inner_iterations', 'resolution_ms', 'samples_ms', 'warning']);
      assert.equal(r.clock_tick_ms, 0);
      assert.equal(r.samples_ms.length, 25);
      for (const t of r.samples_ms) assert.ok(Number.isFinite(t) && t > 0, `${t}`);
      assert.ok(Number.isInteger(r.inner_iterations) && r.inner_iterations >= 1);
      assert.ok(r.resolution_ms > 0);
    });

    it('checks interval coverage: on a reference without spread every interval is the point', () => {
      const r = m.intervalCoverage(new Array(30).fill(2), [5, 10], { trials: 20, bootstrap_resamples: 100, seed: 4 });
      assert.deepEqual(Object.keys(r).sort(), ['bootstrap_resamples', 'reference_median', 'reference_n', 'rows', 'seed', 'trials']);
      assert.deepEqual([r.reference_median, r.reference_n, r.trials, r.bootstrap_resamples, r.seed], [2, 30, 20, 100, 4]);
      assert.deepEqual(r.rows.map((row) => row.n), [5, 10]);
      for (const row of r.rows) {
        for (const method of ['z', 't', 'bootstrap']) {
          const { coverage_interval: ci, ...rest } = row[method];
          // 20 of 20 trials: Wilson's interval 0.8389 to 1 holds 95%, so within the noise.
          assert.deepEqual(rest, { mean_width: 0, coverage: 1, finding: 'within_noise' });
          close(ci.low, 0.838875, 1e-5);
        }
        assert.match(row.sentence, new RegExp(`^At n = ${row.n}: z 100\\.0% of 20 trials \\(95% Monte Carlo interval 83\\.9% to 100\\.0%\\).* All three are within the noise of 20 trials of 95%\\.$`));
      }
    });

    it('reads core’s bounds on the work, and reports the resamples a bootstrap used and was asked for', () => {
      assert.deepEqual(m.statsLimits(), {
        max_sample_values: 100000,
        max_bootstrap_draws: 2e8,
        max_bench_rows: 64,
        ab_max_total_ms: 6000,
        ab_max_n: { matmul: 512, gelu: 4194304, model: 16 },
        sample_kernel_max_total_ms: 5000,
        sample_kernel_max_n: { matmul: 512, gelu: 4194304, model: 16 },
      });
      const s = m.summarizeSample(tens, { bootstrap_resamples: 1000 });
      assert.deepEqual([s.bootstrap_resamples, s.bootstrap_resamples_requested, s.warning], [1000, 1000, '']);
      const c = m.compareSamples(tens, scaled(tens, 2), { bootstrap_resamples: 1000 });
      assert.deepEqual([c.bootstrap_resamples, c.bootstrap_resamples_requested], [1000, 1000]);
      const runs = m.compareRuns(benchRows(2, 10), benchRows(2, 10));
      assert.deepEqual([runs.bootstrap_resamples, runs.bootstrap_resamples_requested, runs.note], [10000, 10000, '']);
    });

    it('samples one call per sample on a coarsened clock: every reading a whole number of ticks', () => {
      const r = m.sampleKernel('gelu', 'fused', 64, { warmup: 0, samples: 40, inner_iterations: 1, clock_tick_ms: 0.5 });
      assert.equal(r.inner_iterations, 1);
      assert.equal(r.clock_tick_ms, 0.5);
      assert.equal(r.samples_ms.length, 40);
      for (const t of r.samples_ms) assert.ok(Math.abs(t / 0.5 - Math.round(t / 0.5)) < 1e-9, `${t} is not a multiple of 0.5`);
      assert.ok(r.resolution_ms >= 0.5 - 1e-9, `${r.resolution_ms}`);
    });

    it('runs an interleaved A/B of two GELU variants: raw samples and the comparison of exactly them', () => {
      const r = m.runAB('gelu', 'fused', 'unfused', 256, QUICK_AB);
      assert.deepEqual([r.op, r.n, r.variant_a, r.variant_b, r.mode, r.rounds], ['gelu', 256, 'fused', 'unfused', 'interleaved', 6]);
      for (const arm of [r.a_ms, r.b_ms]) {
        assert.equal(arm.length, 6);
        for (const t of arm) assert.ok(Number.isFinite(t) && t > 0, `${t}`);
      }
      assert.equal(r.a_first.length, 6);
      assert.ok(r.a_first.every((f) => typeof f === 'boolean'));
      assert.ok(r.inner_iterations_a >= 1 && r.inner_iterations_b >= 1);
      for (const d of [r.drift_a, r.drift_b]) {
        assert.deepEqual(Object.keys(d), ['alpha', 'change', 'critical_rho', 'detected', 'min_rounds', 'p_value', 'rho', 'rounds', 'sentence', 'threshold']);
        // Six rounds at alpha 0.01: the fewest at which the rule can fire (only a perfect order).
        assert.equal(d.rounds, 6);
        assert.equal(d.min_rounds, 6);
        assert.equal(d.critical_rho, 1);
        assert.match(d.sentence, /^(not )?detected: Spearman ρ -?\d\.\d{3} against the round/);
        // The drift rule's change threshold is the comparison's noise threshold.
        assert.equal(d.threshold, r.comparison.threshold);
        assert.ok(d.alpha > 0 && d.alpha < 1);
      }
      // The runner's comparison is compareSamples of its own samples with the same options.
      const again = m.compareSamples(r.a_ms, r.b_ms, { bootstrap_resamples: 200, seed: 3 });
      assert.equal(r.comparison.ratio, again.ratio);
      assert.deepEqual(r.comparison.ratio_interval, again.ratio_interval);
      assert.deepEqual(r.comparison.verdict, again.verdict);
      assert.equal(typeof r.comparison.warning, 'string');
      // The order inside each round comes from the seed alone.
      assert.deepEqual(m.runAB('gelu', 'fused', 'unfused', 256, QUICK_AB).a_first, r.a_first);
    });

    it('runs a sequential A/B of two matmul variants: all of A first', () => {
      const r = m.runAB('matmul', 'naive', 'packed', 16, { ...QUICK_AB, mode: 'sequential' });
      assert.equal(r.mode, 'sequential');
      assert.deepEqual(r.a_first, Array(6).fill(true));
      assert.equal(r.comparison.n_a, 6);
      assert.equal(r.comparison.n_b, 6);
    });

    it('gives runAB’s own order of the rounds for a seed, and A first throughout when sequential', () => {
      const r = m.runAB('gelu', 'fused', 'unfused', 256, { ...QUICK_AB, seed: 11 });
      assert.deepEqual(m.abRoundOrder('interleaved', 6, 11), r.a_first);
      assert.deepEqual(m.abRoundOrder('sequential', 3, 11), [true, true, true]);
    });

    it('analyses rounds timed elsewhere in runAB’s shape, with runAB’s verdict on the same samples', () => {
      const r = m.runAB('gelu', 'fused', 'unfused', 256, QUICK_AB);
      const again = m.analyzeAB(r.a_ms, r.b_ms, r.a_first, { mode: 'interleaved', bootstrap_resamples: 200, seed: 3 });
      assert.deepEqual(Object.keys(again).sort(), ['a_first', 'a_ms', 'b_ms', 'comparison', 'drift_a', 'drift_b', 'mode', 'rounds']);
      for (const key of Object.keys(again)) assert.deepEqual(again[key], r[key], key);
      // Hand-made rounds: A 2 ms, B 1 ms in each of five.
      const hand = m.analyzeAB([2, 2, 2, 2, 2], [1, 1, 1, 1, 1], m.abRoundOrder('interleaved', 5, 1), { bootstrap_resamples: 200 });
      assert.equal(hand.rounds, 5);
      assert.equal(hand.comparison.ratio, 2);
      assert.equal(hand.comparison.verdict.name, 'faster');
      assert.equal(hand.comparison.verdict.word, 'faster');
      assert.equal(hand.mode, 'interleaved');
      // Five rounds: core says the rule could not have fired, rather than "not detected".
      assert.equal(hand.drift_a.min_rounds, 6);
      assert.equal(hand.drift_a.critical_rho, null);
      assert.match(hand.drift_a.sentence, /^too few rounds to detect drift: .* can fire from 6 rounds on, and this run has 5 /);
    });

    for (const [what, call, message] of BAD_CALLS) {
      it(`refuses ${what}, naming it`, () => {
        assert.throws(() => call(m), (e) => {
          assert.ok(e instanceof Error, `not an Error: ${e}`);
          assert.equal(e.message, message);
          return true;
        });
      });
    }

    it('refuses an unknown variant with core’s list of them', () => {
      assert.throws(() => m.runAB('matmul', 'naive', 'fast', 8), { message: /^unknown matmul variant 'fast'/ });
      assert.throws(() => m.runAB('gelu', 'tanh', 'fused', 8), { message: /^unknown gelu variant 'tanh'/ });
    });

    it('stays usable and leaks nothing after 100 failing calls', () => {
      const good = () => m.summarizeSample([1, 2, 3, 4, 5]);
      good(); // let lazily created state exist before the baseline
      const handles = m.count_emval_handles();
      const stackPointer = m.stackSave();
      for (let i = 0; i < 100; ++i) {
        const [what, call, message] = BAD_CALLS[i % BAD_CALLS.length];
        assert.throws(() => call(m), { message }, `call ${i}: ${what}`);
      }
      close(good().std, 1.5811388);
      assert.equal(m.compareSamples(tens, scaled(tens, 0.8)).verdict.name, 'faster');
      assert.equal(m.count_emval_handles(), handles, 'live Embind handles after the errors');
      assert.equal(m.stackSave(), stackPointer, 'wasm stack pointer after the errors');
    });
  });
}
