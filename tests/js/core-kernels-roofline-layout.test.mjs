// Protects the layout of core's kernels/ and roofline/ folders (docs/ARCHITECTURE.md):
// roofline/ may include kernels/, never the reverse (a kernel's counts are its own; placing
// them needs the machine's roofs); each public header x.hpp declares what src/<folder>/x.cpp
// defines (a header with no free function, only structs, has no source); each type's
// to_json is declared in the header that defines the type; and perflab.hpp includes every
// header of the two folders. A failure names the file and the line or function. The C++ is
// read as text: top-level declarations start in column 0.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FOLDERS = ['kernels', 'roofline'];
const includeDir = (folder) => join(ROOT, 'core/include/perflab', folder);
const sourceDir = (folder) => join(ROOT, 'core/src', folder);

function files(dir, ending) {
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(ending)).sort() : [];
}

/** The text without comments (line and block), so prose naming a function does not count. */
export function stripComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
}

/** Names of the free functions a header declares: top-level lines (column 0) that are not
 *  inline definitions, types, aliases or preprocessor lines, up to the first '('. */
export function declaredFunctions(header) {
  const names = new Set();
  for (const line of stripComments(header).split('\n')) {
    if (!/^[A-Za-z_]/.test(line)) continue;
    if (/^(inline|using|struct|class|enum|namespace|template|typedef|static|extern)\b/.test(line)) {
      continue;
    }
    const m = /^[^=;{}()]*?\b([A-Za-z_]\w*)\s*\(/.exec(line);
    if (m) names.add(m[1]);
  }
  return [...names];
}

/** Types T of the `to_json(const T&` declarations in a header. */
export function toJsonTypes(header) {
  return [...stripComments(header).matchAll(/\bto_json\(\s*const\s+(\w+)\s*&/g)].map((m) => m[1]);
}

/** Whether a source defines `name` at top level: a column-0 line naming it before '('. */
function defines(source, name) {
  return new RegExp(`^[A-Za-z_][^;(]*\\b${name}\\s*\\(`, 'm').test(stripComments(source));
}

test('the parsers find declarations, types and definitions, and skip comments', () => {
  const header = [
    '// cost_matmul(M, K, N) in prose',
    'struct Roofs {',
    '  void validate() const;',
    '};',
    'inline double twice(double x) { return 2 * x; }',
    'Tensor matmul(const Tensor& a, const Tensor& b,',
    '              std::string_view variant = kDefaultMatmulVariant);',
    'nlohmann::json to_json(const SweepRow& row);',
    'nlohmann::json to_json(const RooflinePoint& point, const Roofs& roofs);',
  ].join('\n');
  assert.deepEqual(declaredFunctions(header), ['matmul', 'to_json']);
  assert.deepEqual(toJsonTypes(header), ['SweepRow', 'RooflinePoint']);
  assert.equal(defines('Tensor matmul(const Tensor& a, const Tensor& b, std::string_view v) {', 'matmul'), true);
  assert.equal(defines('  return matmul(a, b);', 'matmul'), false);
  assert.equal(defines('// Tensor matmul(a, b)', 'matmul'), false);
});

test('nothing under kernels/ includes a roofline/ header', () => {
  const found = [];
  for (const dir of [includeDir('kernels'), sourceDir('kernels')]) {
    for (const f of [...files(dir, '.hpp'), ...files(dir, '.cpp')]) {
      const lines = readFileSync(join(dir, f), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (/^\s*#\s*include\s+"perflab\/roofline\//.test(line)) {
          found.push(`${dir.slice(ROOT.length)}/${f}:${i + 1}: ${line.trim()}`);
        }
      });
    }
  }
  assert.deepEqual(found, [], `kernels/ must not include roofline/:\n${found.join('\n')}`);
});

test('each source includes its own header, and each header declares what its source defines', () => {
  const problems = [];
  for (const folder of FOLDERS) {
    for (const cpp of files(sourceDir(folder), '.cpp')) {
      const stem = cpp.slice(0, -4);
      const text = readFileSync(join(sourceDir(folder), cpp), 'utf8');
      const own = [`"perflab/${folder}/${stem}.hpp"`, `"${stem}.hpp"`];
      if (!own.some((h) => text.includes(`#include ${h}`))) {
        problems.push(`core/src/${folder}/${cpp} does not include ${stem}.hpp`);
      }
    }
    for (const hpp of files(includeDir(folder), '.hpp')) {
      const stem = hpp.slice(0, -4);
      const header = readFileSync(join(includeDir(folder), hpp), 'utf8');
      const names = declaredFunctions(header);
      const cppPath = join(sourceDir(folder), `${stem}.cpp`);
      if (!existsSync(cppPath)) {
        if (names.length > 0) {
          problems.push(
            `perflab/${folder}/${hpp} declares ${names.join(', ')} but ` +
              `core/src/${folder}/${stem}.cpp does not exist`,
          );
        }
        continue;
      }
      const source = readFileSync(cppPath, 'utf8');
      for (const name of names) {
        if (!defines(source, name)) {
          problems.push(
            `perflab/${folder}/${hpp} declares ${name}, which core/src/${folder}/${stem}.cpp does not define`,
          );
        }
      }
    }
  }
  assert.deepEqual(problems, [], problems.join('\n'));
});

test('the umbrella header perflab.hpp includes every kernels/ and roofline/ header', () => {
  const umbrella = readFileSync(join(ROOT, 'core/include/perflab/perflab.hpp'), 'utf8');
  const missing = FOLDERS.flatMap((folder) =>
    files(includeDir(folder), '.hpp')
      .map((hpp) => `perflab/${folder}/${hpp}`)
      .filter((path) => !umbrella.includes(`#include "${path}"`)),
  );
  assert.deepEqual(missing, [], `perflab.hpp does not include: ${missing.join(', ')}`);
});

test('each to_json is declared in the header that defines its type', () => {
  const problems = [];
  for (const folder of FOLDERS) {
    for (const hpp of files(includeDir(folder), '.hpp')) {
      const header = stripComments(readFileSync(join(includeDir(folder), hpp), 'utf8'));
      for (const type of toJsonTypes(header)) {
        if (!new RegExp(`\\b(struct|class|enum class)\\s+${type}\\b[^;]*\\{`).test(header)) {
          problems.push(`perflab/${folder}/${hpp} declares to_json(const ${type}&) but ${type} is defined elsewhere`);
        }
      }
    }
  }
  assert.deepEqual(problems, [], problems.join('\n'));
});
