// The result table every experiment, the Profiling model builder and the CLI comparison
// show: a header from the columns (label and unit), one row per result, text columns
// aligned left and numbers right, optional row groups, row headers and warned rows.
// Columns are the experiment spec's (docs/EXPERIMENTS.md): {label, unit?, key?, format?,
// align?}, plus, for tables that need them, `rowHeader` (the cell is the row's <th>),
// `className` (added to the cell) and `cell(row)` (the cell's nodes instead of its text).
// Not for: formatting numbers (ui/format.js) or choosing columns (the specs do).

import { cellText, headerText, isTextColumn } from './columns.js';
import { h } from './dom.js';

const cellClass = (column) => [isTextColumn(column) ? 'text' : null, column.className].filter(Boolean).join(' ') || undefined;

function cellNode(column, row) {
  const attrs = column.rowHeader ? { scope: 'row', class: cellClass(column) } : { class: cellClass(column) };
  const tag = column.rowHeader ? 'th' : 'td';
  if (column.cell) return h(tag, attrs, column.cell(row));
  return h(tag, { ...attrs, text: cellText(column, row) });
}

/**
 * @param {object[]} columns see above; at least one
 * @param {object} [options]
 * @param {object[]} [options.rows] the rows to show at once
 * @param {string} [options.caption] the table's <caption>
 * @param {string} [options.className] the table's class ('numbers' unless given)
 * @param {string} [options.role] its data-role, for tests and screenshots
 * @param {(row: object) => string|undefined} [options.rowClass] a row's class, e.g. 'warn'
 * @returns {{element: HTMLTableElement, setRows: (rows: object[]) => void,
 *            appendRow: (row: object) => void, setGroups: (groups: {group: string, rows: object[]}[]) => void}}
 */
export function createTable(columns, { rows = [], caption, className = 'numbers', role, rowClass } = {}) {
  if (!Array.isArray(columns) || columns.length === 0) throw new TypeError('createTable: columns must be a non-empty array');
  const tbody = h('tbody');
  const element = h(
    'table',
    { class: className, 'data-role': role },
    caption ? h('caption', { text: caption }) : null,
    h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col', class: isTextColumn(c) ? 'text' : undefined, text: headerText(c) })))),
    tbody,
  );
  const rowNode = (row) => h('tr', { class: rowClass?.(row) }, columns.map((c) => cellNode(c, row)));
  const groupNode = (group) => h('tr', { class: 'group' }, h('th', { scope: 'colgroup', colspan: String(columns.length), text: group }));
  tbody.append(...rows.map(rowNode));
  return {
    element,
    setRows: (rows) => tbody.replaceChildren(...rows.map(rowNode)),
    appendRow: (row) => tbody.append(rowNode(row)),
    setGroups: (groups) => tbody.replaceChildren(...groups.flatMap(({ group, rows }) => [groupNode(group), ...rows.map(rowNode)])),
  };
}
