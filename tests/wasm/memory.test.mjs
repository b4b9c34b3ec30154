// The module never aborts on memory: arguments that would fill the wasm heap outside the
// tensor cap (long lists, long text, answers with millions of entries) are refused up front
// by a stated limit, as a JS Error with a sentence, and the module stays usable after each.
// These calls ended in `RuntimeError: Aborted()` (or a bare std::bad_alloc) before the limits.
// The text limit is also the page's file limit (jsonTextLimits, lab/json-text-limit.js), checked here.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { BUILDS, loadPerflab, loadPerflabGrade } from './perflab_module.mjs';

const modules = await Promise.all(BUILDS.map(loadPerflab));
const gradeModules = await Promise.all(BUILDS.map(loadPerflabGrade));

const MiB = 1024 * 1024;
const hugeText = 'x'.repeat(200e6);
const hugeReport = `{"a": "${'x'.repeat(200e6)}"}`;
const manyResults = { results: Array.from({ length: 5e6 }, () => ({ value: 1 })) };

// [what, call(m), message]
const CASES = [
  ['attention over a million sequence lengths',
    (m) => m.attentionScaling(64, 4, Array.from({ length: 1e6 }, (_, i) => 1 + (i % 64)), 1),
    /^seqLengths has 1000000 values; at most 10000 are allowed$/],
  ['an MLP of three million widths', (m) => m.mlpSpec(new Array(3e6).fill(4), 1),
    /^widths has 3000000 values; at most 10000 are allowed$/],
  ['200 MB of pasted text', (m) => m.cliReport(hugeText),
    /^text is 200000000 characters long; at most 16777216 \(16 MiB\) are allowed$/],
  ['a 200 MB pasted report', (m) => m.cliReport(hugeReport),
    /^text is 200000009 characters long; at most 16777216 \(16 MiB\) are allowed$/],
  ['a 200 MB spec text', (m) => m.profileModel(hugeText),
    /^spec is 200000000 characters long; at most 16777216 \(16 MiB\) are allowed$/],
  ['a 200 MB string where a number is expected', (m) => m.measureMatmul('naive', hugeText),
    /^n must be a non-negative integer, got "x{40}\.\.\."$/],
  ['a 200 MB variant name', (m) => m.matmul([1], [1, 1], [1], [1, 1], hugeText),
    /^variant is 200000000 characters long; at most 16777216 \(16 MiB\) are allowed$/],
];

for (const [b, build] of BUILDS.entries()) {
  describe(`memory limits in the ${build.flavour} Node build`, () => {
    const m = modules[b];
    const good = () => Array.from(m.matmul([1, 2, 3, 4], [2, 2], [1, 0, 0, 1], [2, 2]).data);
    for (const [what, call, message] of CASES) {
      it(`refuses ${what} with a sentence and stays usable`, () => {
        assert.throws(call.bind(null, m), (e) => {
          assert.ok(e instanceof Error && !(e instanceof WebAssembly.RuntimeError), `not an Error: ${e}`);
          assert.match(e.message, message);
          return true;
        });
        assert.deepEqual(good(), [1, 2, 3, 4]);
      });
    }

    it('refuses a grader answer with five million results with a sentence, and the grading module stays usable', () => {
      const g = gradeModules[b];
      assert.throws(() => g.gradeExercise('profiling.median', 1, manyResults), (e) => {
        assert.ok(e instanceof Error && !(e instanceof WebAssembly.RuntimeError), `not an Error: ${e}`);
        assert.match(e.message, /^answer is 60000013 characters as JSON; at most 16777216 \(16 MiB\) are allowed$/);
        return true;
      });
      assert.equal(g.exerciseVariant('profiling.median', 1).id, 'profiling.median');
    });

    it('reads text just under the limit (a long but valid report is parsed, not refused)', () => {
      // 15 MiB of padding inside a valid JSON string: refused by what it says, not its size.
      const text = `{"padding": "${' '.repeat(15 * MiB)}"}`;
      assert.throws(() => m.cliReport(text), (e) => {
        assert.doesNotMatch(e.message, /16 MiB/);
        assert.match(e.message, /^pasted text /);
        return true;
      });
      assert.deepEqual(good(), [1, 2, 3, 4]);
    });

    it('jsonTextLimits gives the limit core reads by, to the character (the page refuses files by it)', () => {
      // A file core would read must never be refused by the page, nor one it would refuse be read in full.
      const { max_bytes: MAX_JSON_TEXT_BYTES, max_depth } = m.jsonTextLimits();
      assert.equal(max_depth, 64);
      assert.throws(() => m.cliReport('['.repeat(max_depth + 1) + ']'.repeat(max_depth + 1)), /nested 65 levels deep; at most 64 are allowed/);
      assert.throws(() => m.cliReport('x'.repeat(MAX_JSON_TEXT_BYTES + 1)), (e) => {
        assert.equal(e.message, `text is ${MAX_JSON_TEXT_BYTES + 1} characters long; at most ${MAX_JSON_TEXT_BYTES} (16 MiB) are allowed`);
        return true;
      });
      assert.throws(() => m.cliReport('x'.repeat(MAX_JSON_TEXT_BYTES)), (e) => {
        assert.match(e.message, /^pasted text is not perflab JSON/);
        return true;
      });
    });
  });
}
