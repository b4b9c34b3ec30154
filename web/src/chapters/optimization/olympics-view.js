// The Olympics (optimization-olympics): core's events in a table (olympicsEvents), and an
// entry built from one of the made models (made-models.js, the baseline included): core gives
// its pipeline (olympicsPipelineOf on the held model; a refusal shows beside the control),
// then "Run the measurement" times the baseline against it in one interleaved forward A/B at
// core's batch (forwardAB in the lab worker: progress between steps, Cancel), core computes
// the latency ratio from the raw samples (olympicsLatency) and judges the figures against
// every event (olympicsJudge); the entry is kept with the student's progress
// (progress-store.js, olympics.entries: it survives a reload and goes into the export), listed
// beside the earlier ones, each removable. A mount function for the chapter shell.
// Not for: any number or verdict (core), the rows and sentences (olympics-data.js).

import { experimentPlans } from '../../experiments/plans.js';
import { isQuick } from '../../experiments/model.js';
import { labOf } from '../../lab/client.js';
import { getProgressStore } from '../../state/progress-store.js';
import { h } from '../../ui/dom.js';
import { formatCount, formatInt } from '../../ui/format.js';
import { createTable } from '../../ui/table.js';
import { baselineModel, madeModels, subscribeMadeModels } from './made-models.js';
import { block, createRunFrame, needBaselineText, showError, showSentences } from './section-ui.js';
import {
  EVENT_COLUMNS,
  KEPT_COLUMNS,
  OLYMPICS_ID,
  STANDING_COLUMNS,
  entryOf,
  eventRows,
  figuresOf,
  keptRows,
  nextEntryId,
  standingRows,
  standingSentence,
  timingOf,
  withEntry,
  withoutEntry,
} from './olympics-data.js';

const where = `${OLYMPICS_ID}-run`;
const pipelineWhere = `${OLYMPICS_ID}-model`;

export function mountOlympicsSection(section, { bridge }) {
  const lab = labOf(bridge);
  const store = getProgressStore();
  const quick = isQuick(globalThis.location?.search ?? '');
  let events = null; // core's olympicsEvents answer
  const latencies = new Map(); // kept entry id -> core's olympicsLatency answer, or {error}
  let refreshing = 0; // the latest refresh of the kept entries' table
  const kept = () => store.progress.olympics?.entries ?? [];

  // ---- the events, from core
  const eventsTable = createTable(EVENT_COLUMNS, { caption: 'The events, as core defines and enforces them', role: 'olympics-events', className: 'numbers olympics-events' });
  const eventsNote = h('div', { 'data-role': 'olympics-events-note' });
  const eventsError = h('p', { class: 'error', role: 'alert', 'data-role': 'olympics-events-error', hidden: true });

  // ---- the entry: a model, its pipeline (core's), the events to enter
  const modelSelect = h('select', { id: `${OLYMPICS_ID}-model`, 'data-control': 'model' });
  const pipelineNote = h('p', { class: 'note', 'data-role': 'olympics-pipeline' });
  const pipelineError = h('p', { class: 'error', role: 'alert', 'data-role': 'olympics-pipeline-error', hidden: true });
  const eventBoxes = h('fieldset', { class: 'olympics-event-boxes', 'data-control': 'events' }, h('legend', { text: 'Enter it in' }));
  const roundsInput = h('input', { id: `${OLYMPICS_ID}-rounds`, type: 'number', step: '1', 'data-control': 'rounds' });
  const pipelines = new Map(); // made model key -> {bytes, answer} or {bytes, error}

  const chosen = () => {
    const list = madeModels().filter((m) => m.evaluation && m.info);
    return list.find((m) => m.key === modelSelect.value) ?? list[0] ?? null;
  };
  const ticked = () => [...eventBoxes.querySelectorAll('input:checked')].map((b) => b.value);
  const known = () => {
    const m = chosen();
    const p = m && pipelines.get(m.key);
    return p && p.bytes === m.bytes ? p : null;
  };

  const frame = createRunFrame(bridge, {
    prefix: 'olympics',
    where,
    runText: 'Run the measurement',
    progressLabel: 'measurement progress',
    abortOnCancel: true,
    cancellingText: 'Cancelling…',
    cancelledText: 'Cancelled; nothing entered.',
    dropAfterRun: true,
    ready: () => events !== null && baselineModel() !== null && chosen() !== null && ticked().length > 0 && !known()?.error,
    run: (ctx) => run(ctx),
  });
  const { progress, status, errorBox } = frame;

  // ---- the result: the standing, and the kept entries
  const standingTable = createTable(STANDING_COLUMNS, { caption: 'This entry against every event: core’s verdict on the figures measured here', role: 'olympics-standing' });
  const latencyText = h('div', { 'data-role': 'olympics-latency-sentences' });
  const standingText = h('div', { 'data-role': 'olympics-standing-sentences' });
  const keptNote = h('p', { class: 'note', 'data-role': 'olympics-kept-note' });
  const keptError = h('p', { class: 'error', role: 'alert', 'data-role': 'olympics-kept-error', hidden: true });
  const removeCell = (r) =>
    h('button', { type: 'button', 'data-action': 'remove-entry', 'data-entry': r.id, text: 'Remove', onclick: () => removeEntry(r.id) });
  const keptTable = createTable([...KEPT_COLUMNS, { label: '', cell: removeCell }], { caption: 'Your entries, kept with your progress and handed in with its export', role: 'olympics-kept' });

  // What core says of the chosen model's pipeline, asked once per model file.
  async function showPipeline() {
    const m = chosen();
    pipelineError.hidden = true;
    frame.enable();
    if (!m) {
      pipelineNote.textContent = needBaselineText('an entry is one of the models made from it, or the baseline itself');
      return;
    }
    let p = known();
    if (!p) {
      pipelineNote.textContent = `Asking core for the pipeline of ${m.name}…`;
      let id = null;
      try {
        id = (await lab.loadModelFile(m.bytes, { where: pipelineWhere })).model;
        p = { bytes: m.bytes, answer: await lab.olympicsPipelineOf(id, { where: pipelineWhere }) };
      } catch (err) {
        p = { bytes: m.bytes, error: err };
      } finally {
        if (id !== null) lab.dropModel(id, { where: pipelineWhere }).catch(() => {});
      }
      pipelines.set(m.key, p);
      if (chosen() !== m) return; // another model was chosen meanwhile
    }
    if (p.error) {
      pipelineNote.textContent = `${m.name} cannot enter:`;
      showError(pipelineError, p.error);
    } else {
      pipelineNote.textContent = `The pipeline the grader replays to rebuild ${m.name}: ${p.answer.lineage_text}.`;
    }
    frame.enable();
  }

  const unsubscribe = subscribeMadeModels((models) => {
    const was = modelSelect.value;
    const list = models.filter((m) => m.evaluation && m.info);
    modelSelect.replaceChildren(...list.map((m) => h('option', { value: m.key, text: m.baseline ? `${m.name} (the baseline)` : m.name })));
    if (list.some((m) => m.key === was)) modelSelect.value = was;
    modelSelect.disabled = list.length === 0;
    showPipeline();
    refreshKept();
  });
  modelSelect.addEventListener('change', showPipeline);
  eventBoxes.addEventListener('change', () => frame.enable());

  Promise.all([lab.olympicsEvents({ where: `${OLYMPICS_ID}-events` }), experimentPlans(bridge, 'optimization-quantization', quick, where)])
    .then(([answer, plans]) => {
      events = answer;
      eventsTable.setRows(eventRows(events));
      showSentences(eventsNote, [
        `Each entry is timed against the baseline at batch ${formatInt(events.batch)} (one image at a time: single-stream latency), over at least ${formatInt(events.min_rounds)} interleaved rounds.`,
        `The all-around event’s formula: ${events.all_around_formula}.`,
        `A submission holds at most ${formatCount(events.max_entries, 'entry', 'entries')}.`,
      ]);
      for (const e of events.events) {
        const id = `${OLYMPICS_ID}-event-${e.id}`;
        eventBoxes.append(h('label', { class: 'field inline', for: id }, h('input', { type: 'checkbox', id, value: e.id, checked: true }), h('span', { text: e.name })));
      }
      roundsInput.min = String(events.min_rounds);
      roundsInput.value = String(Math.max(events.min_rounds, plans.plan.ab.rounds));
      frame.showPlan(
        (quick ? 'Quick mode (?quick=1): the' : 'The') +
          ` baseline and the entry’s model timed in one interleaved run at batch ${formatInt(events.batch)}; rounds at least ${formatInt(events.min_rounds)} (core’s minimum for an entry).`,
      );
      refreshKept();
    })
    .catch((err) => showError(eventsError, err));

  async function run(ctx) {
    const model = chosen();
    const baseline = baselineModel();
    const entered = ticked();
    if (!model || !baseline || entered.length === 0) return;
    const rounds = Number(roundsInput.value);
    if (!(Number.isInteger(rounds) && rounds >= events.min_rounds)) {
      throw new Error(`Rounds must be a whole number of at least ${formatInt(events.min_rounds)} (core’s minimum for an entry), got ${roundsInput.value || 'nothing'}.`);
    }
    withEntry(kept(), null, events.max_entries); // refuses before timing when the list is full
    const opts = { where, signal: ctx.signal };
    const steps = 5;
    const step = (done, text) => {
      progress.value = done / steps;
      status.textContent = text;
    };
    standingTable.setRows([]);
    latencyText.replaceChildren();
    standingText.replaceChildren();
    step(0, 'Core is loading the baseline and the model…');
    const a = ctx.hold((await lab.loadModelFile(baseline.bytes, opts)).model);
    const b = ctx.hold((await lab.loadModelFile(model.bytes, opts)).model);
    step(1, 'Core is reading the model’s pipeline…');
    const pipeline = await lab.olympicsPipelineOf(b, opts);
    ctx.stopIfCancelled();
    step(2, `Timing the baseline and ${model.name} interleaved at batch ${formatInt(events.batch)}, ${formatInt(rounds)} rounds…`);
    const ab = await lab.forwardAB(a, b, events.batch, { rounds }, opts);
    ctx.stopIfCancelled();
    step(3, 'Core is computing the latency ratio from the samples…');
    const timing = timingOf(ab);
    const latency = await lab.olympicsLatency(timing, opts);
    step(4, 'Core is judging the entry against every event…');
    const claimed = { accuracy: model.evaluation.accuracy, parameter_bytes: model.info.parameter_bytes };
    const judgements = await lab.olympicsJudge(figuresOf(claimed, baseline, latency), opts);
    const rows = standingRows(events, judgements, entered);
    standingTable.setRows(rows);
    showSentences(latencyText, [latency.sentence, latency.warning].filter(Boolean));
    showSentences(standingText, [standingSentence(rows)]);
    const base = await baseOf(baseline, opts);
    const entry = entryOf({ id: nextEntryId(kept()), model, events: entered, base, pipeline: pipeline.pipeline, timing, finishedAt: new Date().toISOString() });
    store.setOlympicsEntries(withEntry(kept(), entry, events.max_entries));
    latencies.set(entry.id, latency);
    refreshKept();
    progress.value = 1;
    status.textContent = `Done: entered as ${entry.id}, ${entry.name} in ${formatCount(entered.length, 'event')}, kept with your progress.`;
    section.dataset.done = 'true';
  }

  // The base of every entry: the baseline's model name and the checksum core reads off its file.
  async function baseOf(baseline, opts) {
    const { checksum } = await lab.modelFileChecksum(baseline.bytes, opts);
    return { model: baseline.info.spec.name, checksum };
  }

  // ---- the kept entries: core's latency from each one's samples, its standing when the
  // baseline's figures are known (judged again on each change, as they may be another run's)
  async function refreshKept() {
    const entries = kept();
    const token = ++refreshing;
    keptNote.textContent = entries.length
      ? `${formatCount(entries.length, 'entry', 'entries')} kept${events ? ` (at most ${formatInt(events.max_entries)})` : ''}. The standing below judges each with the baseline’s figures measured in this page.`
      : 'No entry yet: run the measurement above to enter a model.';
    const standings = new Map();
    const show = () => token === refreshing && keptTable.setRows(keptRows(entries, latencies, standings));
    show();
    if (entries.length === 0 || !events) return;
    keptError.hidden = true;
    try {
      for (const e of entries) {
        if (!latencies.has(e.id)) latencies.set(e.id, await lab.olympicsLatency(e.timing, { where: `${OLYMPICS_ID}-kept` }).catch((err) => ({ error: err.message })));
      }
      const baseline = baselineModel();
      if (baseline) {
        for (const e of entries) {
          const l = latencies.get(e.id);
          if (l.error) continue;
          const judged = await lab.olympicsJudge(figuresOf(e.claimed, baseline, l), { where: `${OLYMPICS_ID}-kept` });
          standings.set(e.id, standingRows(events, judged, e.events));
        }
      }
      show();
    } catch (err) {
      if (token === refreshing) showError(keptError, err);
    }
  }

  function removeEntry(id) {
    keptError.hidden = true;
    try {
      store.setOlympicsEntries(withoutEntry(kept(), id));
      latencies.delete(id);
      refreshKept();
    } catch (err) {
      showError(keptError, err);
    }
  }

  section.append(
    block('olympics-events-block', 'The events', eventsError, h('div', { class: 'table-wrap' }, eventsTable.element), eventsNote),
    block(
      'olympics-entry-block',
      'Experiment: enter a model',
      frame.controls(
        h('label', { class: 'field', for: modelSelect.id }, h('span', { text: 'Model' }), modelSelect),
        h('label', { class: 'field', for: roundsInput.id }, h('span', { text: 'Rounds' }), roundsInput),
      ),
      pipelineNote,
      pipelineError,
      eventBoxes,
      frame.planNote,
      errorBox,
      h('div', { class: 'table-wrap' }, standingTable.element),
      latencyText,
      standingText,
    ),
    block('olympics-kept-block', 'Your entries', keptNote, keptError, h('div', { class: 'table-wrap' }, keptTable.element)),
  );

  return {
    destroy() {
      frame.destroy();
      unsubscribe();
    },
  };
}
