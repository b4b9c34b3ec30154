// Text across the boundary, in both Node builds: every binding that reads JSON text answers
// malformed text with core's sentence (the place, never the JSON library's wording), each
// message is well-formed UTF-16 with no character cut into U+FFFD, and a JS string holding a
// lone surrogate reaches core with that one unit replaced, the character after it kept, in a
// string argument and inside an object alike.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { BUILDS, loadPerflab, loadPerflabGrade } from './perflab_module.mjs';

const modules = await Promise.all(BUILDS.map(loadPerflab));
const gradeModules = await Promise.all(BUILDS.map(loadPerflabGrade));

const LIBRARY_WORDING = /json\.exception|syntax error while parsing|last read|invalid literal|unexpected end of input|<U\+/;

// Malformed texts: truncations, stray words, multi-byte characters where the parser stops,
// control characters, bad escapes, trailing commas, text after the value.
const TEXTS = [
  '', '   ', '{', '{"name": "x", ', '{"a": tru}', '[1,]', '{"a": 1,}', '[1 2]', '{"a" 1}', '{a: 1}',
  '"abc', '"a\nb"', '-', '1.', '1e+', '"\\q"', '"\\u12"', '[1] 2', "'single'", 'hello',
  '["€€", tr€]', '{"€": €}', `"${'a'.repeat(30)}€€€" x`, '{"input": [2, 3], "layers": [ü',
  '"\\uD800x"', '["\u0001"]', '{"a":\n  [1,\n   2,]}', '[1e400]', '😀', '{"😀": 😀😀}',
];

const BINDERS = [
  ['profileModel', (m, text) => m.profileModel(text), /^model spec is not valid JSON: /],
  ['memoryBreakdown', (m, text) => m.memoryBreakdown(text, 1), /^model spec is not valid JSON: /],
  ['cliReport', (m, text) => m.cliReport(text), /^pasted text is not perflab JSON: /],
];

for (const [b, build] of BUILDS.entries()) {
  describe(`text in the ${build.flavour} Node build`, () => {
    const m = modules[b];

    for (const [name, call, subject] of BINDERS) {
      it(`${name} answers ${TEXTS.length} malformed texts with core's sentence and its place`, () => {
        for (const text of TEXTS) {
          assert.throws(() => call(m, text), (e) => {
            const what = `${name}(${JSON.stringify(text)}): ${e.message}`;
            assert.ok(e instanceof Error && !(e instanceof WebAssembly.RuntimeError), what);
            assert.match(e.message, subject, what);
            assert.doesNotMatch(e.message, LIBRARY_WORDING, what);
            assert.match(e.message, /at line \d+, column \d+/, what);
            assert.ok(e.message.isWellFormed(), `${what}: not well-formed UTF-16`);
            assert.ok(!e.message.includes('\uFFFD'), `${what}: a character cut into U+FFFD`);
            return true;
          });
        }
      });
    }

    it('quotes a multi-byte character whole where the parser stops inside it', () => {
      assert.throws(() => m.cliReport('["€€", tr€]'), {
        message: /^pasted text is not perflab JSON: parse error at line 1, column 8: "tr€]" is not a JSON value/,
      });
    });

    it('keeps the character after a lone surrogate in a string argument', () => {
      assert.throws(() => m.measureMatmul('\uD800naive', 8), {
        message: /^unknown matmul variant '\uFFFDnaive'; known variants: /,
      });
      assert.throws(() => m.measureMatmul('naive\uDC00x', 8), {
        message: /^unknown matmul variant 'naive\uFFFDx'/,
      });
      // A whole pair is one character.
      assert.throws(() => m.measureMatmul('😀x', 8), { message: /^unknown matmul variant '😀x'/ });
    });

    it('reads a lone surrogate inside an object argument as U+FFFD too, not as broken JSON', () => {
      assert.throws(() => gradeModules[b].gradeExercise('profiling.linear-params', 1, { value: '\uDC00' }), {
        message: /^answer\.value must be a finite number, got "\uFFFD"$/,
      });
      const spec = { name: 'a\uD800', input: [2, 3], layers: [{ type: 'ReLU' }] };
      assert.doesNotThrow(() => m.memoryBreakdown(spec, 1));
    });

    it('refuses a NUL character with its place instead of ignoring the text after it', () => {
      assert.throws(() => m.cliReport('{"tool": "perflab"}\u0000garbage'), {
        message: /^pasted text is not perflab JSON: parse error at line 1, column 20: the text holds a NUL character/,
      });
    });

    it('never cuts a surrogate pair when it quotes the start of a long string', () => {
      const long = 'a'.repeat(39) + '😀'.repeat(10);
      assert.throws(() => m.measureMatmul('naive', long), (e) => {
        assert.ok(e.message.isWellFormed() && !e.message.includes('\uFFFD'), e.message);
        assert.match(e.message, /got "a{39}\.\.\."$/);
        return true;
      });
    });
  });
}
