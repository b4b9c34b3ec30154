// jsonTextProblem, in both Node builds: the one place the page and the tools get the sentence
// for a JSON text they could not parse themselves. It is null for JSON, and otherwise core's
// reason with the place in characters, never the engine's or the JSON library's wording, for
// every text JavaScript's own JSON.parse refuses.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { BUILDS, loadPerflab } from './perflab_module.mjs';

const modules = await Promise.all(BUILDS.map(loadPerflab));

const FOREIGN_WORDING = /Unexpected token|is not valid JSON|in JSON at position|Unexpected end of JSON|syntax error while parsing|last read|invalid literal/;
const REFUSED = ['{"a": }', '', '{', '[1,]', '{"a": tru}', '{a: 1}', '"abc', '[1] 2', "'x'", '{"€": €}', '😀', '{"a":\n  [1,\n   2,]}'];

for (const [b, build] of BUILDS.entries()) {
  describe(`jsonTextProblem in the ${build.flavour} Node build`, () => {
    const m = modules[b];

    it('is null for texts that are JSON', () => {
      for (const text of ['{}', '[1, 2.5, "x"]', '{"a": {"b": [null, true]}}', ' 3 ', '"€😀"']) {
        assert.equal(m.jsonTextProblem(text), null, text);
      }
    });

    it('names the place in characters for the text a page would show', () => {
      assert.match(m.jsonTextProblem('{"a": }'), /^parse error at line 1, column 7: /);
      assert.match(m.jsonTextProblem('{"€": €}'), /^parse error at line 1, column 7: /);
      assert.match(m.jsonTextProblem('{"a":\n  [1,\n   2,]}'), /^parse error at line 3, column 5: /);
    });

    it(`words each of ${REFUSED.length} texts JSON.parse refuses in core's sentence, in well-formed text`, () => {
      for (const text of REFUSED) {
        assert.throws(() => JSON.parse(text), SyntaxError, text);
        const reason = m.jsonTextProblem(text);
        assert.equal(typeof reason, 'string', text);
        assert.match(reason, /line \d+, column \d+/, `${JSON.stringify(text)}: ${reason}`);
        assert.doesNotMatch(reason, FOREIGN_WORDING, `${JSON.stringify(text)}: ${reason}`);
        assert.ok(reason.isWellFormed?.() ?? !/\uFFFD/.test(reason), reason);
      }
    });

    it('refuses what is not a string with a sentence', () => {
      assert.throws(() => m.jsonTextProblem(42), /text must be a string/);
    });
  });
}
