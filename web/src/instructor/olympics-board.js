// The Olympics leaderboard drawn into the instructor view from core's leaderboard JSON: the
// downloads (leaderboard.csv, .md, .json: core's texts, the command line's files), then per
// event its podium chart, the podium in words and the ranked table, then the refused entries
// with core's sentences, then the class's Pareto frontier. Not for: ranking or re-checking
// (core, through grading/olympics.js), the words and columns (olympics-data.js).

import { PodiumChart } from '../charts/podium-chart.js';
import { ScatterChart } from '../charts/scatter-chart.js';
import { downloadText } from '../ui/download.js';
import { h, setChildren } from '../ui/dom.js';
import { formatCount } from '../ui/format.js';
import { createTable } from '../ui/table.js';
import { REFUSED_COLUMNS, boardCounts, eventCaption, eventColumns, paretoChart, paretoSentence, podiumRows, podiumSentence } from './olympics-data.js';

const TYPES = Object.freeze({ csv: 'text/csv', md: 'text/markdown', json: 'application/json' });

/**
 * Fills `box` with the leaderboard; returns the charts it made (the caller destroys them).
 * @param {HTMLElement} box
 * @param {object} board core's olympics_leaderboard JSON
 * @param {Record<string, string>} files {'leaderboard.csv': text, 'leaderboard.md': text, 'leaderboard.json': text}
 */
export function showBoard(box, board, files) {
  const charts = [];
  const { students, valid, refused } = boardCounts(board);
  const downloads = h('div', { class: 'actions downloads', 'data-role': 'olympics-downloads' },
    Object.entries(files).map(([name, text]) => h('button', { type: 'button', 'data-download': name, onclick: () => downloadText(name, text, TYPES[name.split('.').at(-1)] ?? 'text/plain') }, name)));

  const events = board.events.map((event) => {
    const chartBox = h('div', { class: 'chart podium', 'data-role': 'chart', 'data-chart': `podium-${event.event}` });
    const table = createTable(eventColumns(event), {
      rows: event.rows,
      role: 'olympics-table',
      caption: eventCaption(event),
      rowClass: (r) => (r.flags?.length ? 'warn' : undefined),
    });
    table.element.dataset.event = event.event;
    if (event.rows.length) {
      const chart = new PodiumChart(chartBox, { ariaLabel: `${event.name}: the podium, first to third; entries that tie stand on one step` });
      chart.update(podiumRows(event).map((r) => ({ place: r.place, name: r.student, score_text: r.score_text })));
      charts.push(chart);
    }
    return h('section', { class: 'olympics-event', 'data-event': event.event },
      h('h4', {}, event.name),
      event.rows.length ? chartBox : null,
      h('p', { 'data-role': 'podium-sentence' }, podiumSentence(event)),
      event.rows.length ? h('div', { class: 'table-wrap' }, table.element) : null);
  });

  const refusedTable = createTable([
    ...REFUSED_COLUMNS,
    { label: 'why', align: 'left', cell: (r) => (r.reasons.length === 1 ? r.reasons[0] : h('ul', {}, r.reasons.map((reason) => h('li', {}, reason)))) },
  ], { rows: board.refused, role: 'olympics-refused', caption: 'Entries refused, with core’s reasons' });

  const paretoBox = h('div', { class: 'chart', 'data-role': 'chart', 'data-chart': 'olympics-pareto' });
  setChildren(
    box,
    h('p', { 'data-role': 'olympics-summary' }, `${formatCount(valid, 'valid entry', 'valid entries')} from ${formatCount(students, 'student')}; ${formatCount(refused, 'refusal')} (an entry refused by one event, or invalid). Per event, each student’s best qualified entry; two entries whose latency intervals overlap tie. Accuracy and size are the grader’s rebuild; latency ratios are self-reported (measured on the student’s machine against the baseline in one interleaved run).`),
    downloads,
    ...events,
    h('h4', {}, 'Refused'),
    board.refused.length ? h('div', { class: 'table-wrap' }, refusedTable.element) : h('p', { 'data-role': 'olympics-refused' }, 'No entry was refused.'),
    h('h4', {}, 'The class’s Pareto frontier'),
    paretoBox,
    h('p', { 'data-role': 'pareto-sentence' }, paretoSentence(board.pareto)),
  );
  const { options, points } = paretoChart(board.pareto);
  const pareto = new ScatterChart(paretoBox, options);
  pareto.update(points);
  paretoBox.dataset.points = String(points.length);
  charts.push(pareto);
  return charts;
}
