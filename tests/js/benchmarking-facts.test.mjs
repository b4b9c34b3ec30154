// The Benchmarking chapter quotes core's numbers (facts.js): this checks the formatting of
// core's answers on the worked example [1, 2, 3, 4, 5], whose values are computed by hand:
// mean 3, s = √2.5 = 1.5811, s/√5 = 0.7071; z = 3 ± 1.96·0.7071 = (1.614, 4.386);
// t = 3 ± 2.7764·0.7071 = (1.037, 4.963) (t(0.975, 4) = 2.7764 from tables).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EXAMPLE, factTexts } from '../../web/src/chapters/benchmarking/facts.js';
import { SECTIONS } from '../../web/src/chapters/benchmarking/explanations.js';

const se = Math.sqrt(2.5) / Math.sqrt(5);
const answers = {
  timer: { resolution_multiple: 100 },
  example: {
    mean: 3,
    std: Math.sqrt(2.5),
    z_interval: { low: 3 - 1.96 * se, high: 3 + 1.96 * se },
    t_interval: { low: 3 - 2.776445 * se, high: 3 + 2.776445 * se },
    bootstrap_resamples: 10000,
  },
  comparison: { threshold: 0.02 },
  // experimentPlan('benchmarking-distribution', false), with another count than core's.
  distribution: { options: { warmup: 20, samples: 1500, min_sample_ms: 0, max_total_ms: 30000 } },
};

test('the worked example and the defaults read as the hand-computed values', () => {
  assert.deepEqual(EXAMPLE, [1, 2, 3, 4, 5]);
  const t = factTexts(answers);
  assert.equal(t.example_std, '1.5811');
  assert.equal(t.example_z, '(1.614, 4.386)');
  assert.equal(t.example_t, '(1.037, 4.963)');
  assert.equal(t.t_quantile_4, '2.776');
  assert.equal(t.t_over_z, '1.42');
  assert.equal(t.resolution_multiple, '100');
  assert.equal(t.sample_error_percent, '2%');
  assert.equal(t.bootstrap_resamples, '10,000');
  assert.equal(t.threshold_percent, '2%');
  assert.equal(t.distribution_samples, '1,500');
});

test('every placeholder the chapter quotes is one factTexts gives', () => {
  const given = new Set(Object.keys(factTexts(answers)));
  const quoted = SECTIONS.flatMap((s) => [...s.paragraphs, s.formula ?? '', s.run ?? ''])
    .flatMap((text) => [...text.matchAll(/\{\{([a-z0-9_]+)\}\}/g)].map((m) => m[1]));
  assert.ok(quoted.length >= 10, `the chapter quotes ${quoted.length} numbers from core`);
  for (const name of quoted) assert.ok(given.has(name), `{{${name}}} has a text`);
  assert.ok(quoted.includes('distribution_samples'), 'the distribution’s run line quotes core’s plan');
});
