// A small reader for the Markdown core writes in its reports (suite_report_markdown): headings,
// paragraphs, bullet lists, pipe tables, **bold** and `code`. It turns the text into blocks and
// the blocks into DOM nodes through ui/dom.js's `h` with text only (never innerHTML), so a
// model's name cannot inject markup. Not for: Markdown in general (links, nesting, emphasis
// with underscores) or changing what core wrote.

const isTableLine = (line) => line.startsWith('|') && line.endsWith('|');
const cells = (line) => line.slice(1, -1).split('|').map((c) => c.trim());
const isSeparator = (line) => /^\|(\s*:?-{3,}:?\s*\|)+$/.test(line);

/**
 * The blocks of a Markdown text: {type: 'heading', level, text}, {type: 'paragraph', text},
 * {type: 'list', items}, {type: 'table', head, rows}.
 */
export function markdownBlocks(text) {
  const lines = String(text).split(/\r?\n/);
  const blocks = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i].trimEnd();
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (line.trim() === '') {
      i += 1;
    } else if (heading) {
      blocks.push({ type: 'heading', level: heading[1].length, text: heading[2] });
      i += 1;
    } else if (isTableLine(line)) {
      const table = [];
      while (i < lines.length && isTableLine(lines[i].trimEnd())) table.push(lines[i++].trimEnd());
      const hasHead = table.length > 1 && isSeparator(table[1]);
      blocks.push({
        type: 'table',
        head: hasHead ? cells(table[0]) : null,
        rows: (hasHead ? table.slice(2) : table).filter((l) => !isSeparator(l)).map(cells),
      });
    } else if (/^[-*]\s+/.test(line)) {
      const items = [];
      while (i < lines.length && /^[-*]\s+/.test(lines[i])) items.push(lines[i++].replace(/^[-*]\s+/, '').trimEnd());
      blocks.push({ type: 'list', items });
    } else {
      const para = [];
      while (i < lines.length && lines[i].trim() !== '' && !/^(#{1,6}\s|[-*]\s)/.test(lines[i]) && !isTableLine(lines[i].trimEnd())) {
        para.push(lines[i++].trim());
      }
      blocks.push({ type: 'paragraph', text: para.join(' ') });
    }
  }
  return blocks;
}

/** Inline text as [{text, bold?, code?}]: **bold** and `code` spans, the rest plain. */
export function inlineSpans(text) {
  const spans = [];
  const pattern = /\*\*(.+?)\*\*|`([^`]+)`/g;
  let last = 0;
  for (const m of String(text).matchAll(pattern)) {
    if (m.index > last) spans.push({ text: text.slice(last, m.index) });
    spans.push(m[1] !== undefined ? { text: m[1], bold: true } : { text: m[2], code: true });
    last = m.index + m[0].length;
  }
  if (last < text.length) spans.push({ text: text.slice(last) });
  return spans;
}

/** DOM nodes for the blocks, built with `h` (text only). Headings start at `h4` and below. */
export function renderMarkdown(h, text) {
  const inline = (t) => inlineSpans(t).map((s) => (s.bold ? h('strong', { text: s.text }) : s.code ? h('code', { text: s.text }) : s.text));
  return markdownBlocks(text).map((b) => {
    if (b.type === 'heading') return h(`h${Math.min(6, b.level + 3)}`, {}, ...inline(b.text));
    if (b.type === 'list') return h('ul', {}, ...b.items.map((item) => h('li', {}, ...inline(item))));
    if (b.type === 'table') {
      return h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { class: 'report-table' },
          b.head ? h('thead', {}, h('tr', {}, ...b.head.map((c) => h('th', {}, ...inline(c))))) : null,
          h('tbody', {}, ...b.rows.map((r) => h('tr', {}, ...r.map((c) => h('td', {}, ...inline(c)))))),
        ),
      );
    }
    return h('p', {}, ...inline(b.text));
  });
}
