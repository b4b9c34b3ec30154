// The text two students' code is compared by: comments and whitespace removed, strings and
// template literals kept as written (a "//" inside a string is not a comment). Identical
// normalized text is reported to the teacher, never judged: it is a simple match, which a
// renamed variable defeats and a short exercise can produce honestly.
// Pure. Not for: running or grading code (the sandbox runs it, core grades its results).

/** `code` without comments and whitespace outside string and template literals. */
export function normalizeCode(code) {
  if (typeof code !== 'string') return '';
  let out = '';
  let i = 0;
  const n = code.length;
  while (i < n) {
    const c = code[i];
    const next = code[i + 1];
    if (c === '/' && next === '/') {
      while (i < n && code[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && next === '*') {
      const end = code.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < n && code[j] !== c) {
        if (code[j] === '\\') j++;
        j++;
      }
      out += code.slice(i, Math.min(j + 1, n));
      i = j + 1;
      continue;
    }
    if (!/\s/.test(c)) out += c;
    i++;
  }
  return out;
}
