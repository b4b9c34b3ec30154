// What an export adds to the kept progress (docs/SUBMISSION.md): core's exercise bank
// version, this page's version (built in by vite.config.js), the machine facts the header
// shows with the latest probe, and hints used capped by each exercise's hint count.
// Not for: the file's format (state/submission.js) or the download (progress-panel.js).

import { labOf } from '../lab/client.js';
import { machineFacts } from '../lab/machine-facts.js';

/* global __PERFLAB_PAGE_VERSION__ */
/** "0.1.0+abc1234", or null when the page was not built by vite (unit tests). */
export const PAGE_VERSION = typeof __PERFLAB_PAGE_VERSION__ === 'string' ? __PERFLAB_PAGE_VERSION__ : null;

/** The `extra` of store.exportText(extra) / exportSubmission(extra). */
export async function submissionExtras(bridge) {
  const lab = labOf(bridge);
  const where = 'progress-export';
  const [bankVersion, bank] = await Promise.all([lab.exerciseBankVersion({ where }), lab.exerciseBank({ where })]);
  const hintCounts = new Map(bank.map((ex) => [ex.id, ex.hints?.length ?? 0]));
  return {
    bankVersion,
    pageVersion: PAGE_VERSION,
    machine: machineFacts(),
    hintsUsed: (id, entry) => (hintCounts.has(id) ? Math.min(entry.hints_used, hintCounts.get(id)) : entry.hints_used),
  };
}
