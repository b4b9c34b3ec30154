// Protects the result table (web/src/ui/table.js) that experiments, the Profiling model
// builder and the CLI comparison share: header text with units, text columns marked to align
// left, rows appended or replaced, row headers, extra cell classes, cells made of nodes,
// warned rows and row groups spanning every column, and a refusal of a table without columns.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { installFakeDocument } from './fake-document.mjs';
import { h } from '../../web/src/ui/dom.js';
import { createTable } from '../../web/src/ui/table.js';

installFakeDocument();

const COLUMNS = [
  { label: 'n', key: 'n', format: 'int' },
  { label: 'kernel', key: 'kernel', format: 'text' },
  { label: 'median', unit: 'ms', key: 'stats.median_ms' },
  { label: 'note', align: 'left', format: (r) => (r.n > 100 ? 'large' : '') },
];

const sections = (table) => {
  const [first, ...rest] = table.element.children;
  return first.tagName === 'CAPTION' ? { caption: first, thead: rest[0], tbody: rest[1] } : { thead: first, tbody: rest[0] };
};
const cells = (tr) => tr.children.map((c) => ({ tag: c.tagName, text: c.textContent, class: c.getAttribute('class') ?? (c.className || null) }));

test('the header names each column with its unit, scoped to the column, text columns marked', () => {
  const table = createTable(COLUMNS, { caption: 'Each point', role: 'table' });
  assert.equal(table.element.className, 'numbers');
  assert.equal(table.element.getAttribute('data-role'), 'table');
  const { caption, thead, tbody } = sections(table);
  assert.equal(caption.textContent, 'Each point');
  const ths = thead.children[0].children;
  assert.deepEqual(
    ths.map((th) => [th.textContent, th.getAttribute('scope'), th.className || null]),
    [
      ['n', 'col', null],
      ['kernel', 'col', 'text'],
      ['median (ms)', 'col', null],
      ['note', 'col', 'text'],
    ],
  );
  assert.equal(tbody.children.length, 0);
});

test('rows are formatted per column; appendRow adds one, setRows replaces them all', () => {
  const table = createTable(COLUMNS, { rows: [{ n: 2048, kernel: 'naive', stats: { median_ms: 1.23456 } }] });
  const { tbody } = sections(table);
  assert.deepEqual(cells(tbody.children[0]), [
    { tag: 'TD', text: '2,048', class: null },
    { tag: 'TD', text: 'naive', class: 'text' },
    { tag: 'TD', text: '1.23', class: null },
    { tag: 'TD', text: 'large', class: 'text' },
  ]);
  table.appendRow({ n: 64, kernel: 'blocked', stats: {} });
  assert.deepEqual(
    tbody.children.map((tr) => tr.textContent),
    ['2,048naive1.23large', '64blocked'],
  );
  table.setRows([{ n: 1, kernel: 'simd', stats: { median_ms: 0.5 } }]);
  assert.deepEqual(
    tbody.children.map((tr) => tr.textContent),
    ['1simd0.500'],
  );
  table.setRows([]);
  assert.equal(tbody.children.length, 0);
});

test('row headers, extra cell classes, node cells, warned rows and groups spanning the columns', () => {
  const columns = [
    { label: '', rowHeader: true, format: (r) => r.label },
    { label: 'value', cell: (r) => [h('span', { text: r.value }), r.note ? h('span', { class: 'cell-note', text: r.note }) : null] },
    { label: 'estimate', className: 'estimate', format: (r) => r.estimate ?? '' },
  ];
  const table = createTable(columns, { className: 'totals', role: 'totals', rowClass: (r) => (r.warn ? 'warn' : undefined) });
  table.setGroups([
    { group: 'Counts', rows: [{ label: 'parameters', value: '101,770', estimate: '~100k' }] },
    { group: 'Memory', rows: [{ label: 'peak', value: '3 MiB', note: 'above the estimate', warn: true }] },
  ]);
  assert.equal(table.element.className, 'totals');
  const rows = sections(table).tbody.children;
  assert.deepEqual(
    rows.map((tr) => tr.className || null),
    ['group', null, 'group', 'warn'],
  );
  const group = rows[0].children[0];
  assert.deepEqual([group.tagName, group.getAttribute('scope'), group.getAttribute('colspan'), group.textContent], ['TH', 'colgroup', '3', 'Counts']);
  assert.deepEqual(cells(rows[1]), [
    { tag: 'TH', text: 'parameters', class: null },
    { tag: 'TD', text: '101,770', class: null },
    { tag: 'TD', text: '~100k', class: 'estimate' },
  ]);
  assert.equal(rows[1].children[0].getAttribute('scope'), 'row');
  const value = rows[3].children[1];
  assert.deepEqual(
    value.children.map((c) => [c.textContent, c.className || null]),
    [
      ['3 MiB', null],
      ['above the estimate', 'cell-note'],
    ],
  );
  assert.equal(rows[3].children[2].textContent, '');
});

test('a table needs columns', () => {
  assert.throws(() => createTable([]), /columns must be a non-empty array/);
  assert.throws(() => createTable(undefined), /columns must be a non-empty array/);
});
