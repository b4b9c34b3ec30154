// The exercise engine: mounts a chapter's exercises from core's bank (numeric with one or
// several parts, multiple choice, JavaScript code, and experiment-backed ones answered from
// the student's own latest run): the heading with the chapter's score summary, one card per
// exercise (card.js) and the progress panel (progress-panel.js), and rebuilds the cards when
// an import replaces the progress. Not for: deciding correctness (core's grader does,
// identically to the native CLI), computing any expected answer, or a card's insides.

import { labOf } from '../lab/client.js';
import { getProgressStore } from '../state/progress-store.js';
import { h, nextId, setChildren } from '../ui/dom.js';
import { createCard } from './card.js';
import { chapterSummary, formatPoints } from './logic.js';
import { mountProgressPanel } from './progress-panel.js';
import './exercises.css';

export { mountProgressPanel };

// The bank is the same for every chapter: ask the worker once per bridge, but forget a
// failed request so that Retry asks again.
const banks = new WeakMap();
function loadBank(bridge) {
  if (!banks.has(bridge)) {
    const loading = labOf(bridge).exerciseBank({ where: 'exercises' });
    loading.catch(() => banks.delete(bridge));
    banks.set(bridge, loading);
  }
  return banks.get(bridge);
}

/**
 * Mounts the chapter's exercises into `container` (the shell's `<section class="exercises">`):
 * a heading with the chapter's score summary, one card per exercise, and the progress panel
 * (pass `progressPanel: false` when the shell places its own with mountProgressPanel).
 * Returns `{ready, destroy}`; `ready` settles when every card has loaded or shown its error.
 */
export function mountExercises(container, { bridge, chapter, store = getProgressStore(), progressPanel = true }) {
  container.classList.add('pl-exercises');
  container.dataset.chapter = chapter;
  const headingId = nextId('pl-ex-heading');
  container.setAttribute('aria-labelledby', headingId);

  const summary = h('div', { class: 'pl-ex-summary', dataset: { role: 'summary' }, role: 'status' });
  const status = h('p', { class: 'status', dataset: { role: 'exercises-status' }, text: 'Loading exercises…' });
  const list = h('div', { class: 'pl-ex-list' });
  const panelHost = h('div', { class: 'pl-ex-panel-host' });
  setChildren(container,
    h('div', { class: 'pl-ex-head' }, h('h2', { id: headingId, text: 'Exercises' }), summary),
    status,
    list,
    panelHost,
  );

  let exercises = [];
  let cards = [];
  let destroyed = false;
  let panel = null;

  let shownSummary = '';
  const renderSummary = () => {
    const s = chapterSummary(exercises, (id) => store.entry(id));
    // The summary is a live region: touch it only when a number changed, not on every
    // saved keystroke of a code draft.
    const key = JSON.stringify(s);
    if (key === shownSummary) return;
    shownSummary = key;
    summary.dataset.earned = String(s.earned);
    summary.dataset.possible = String(s.possible);
    setChildren(summary,
      h('span', { class: 'pl-ex-summary-points' }, h('strong', { text: formatPoints(s.earned) }), ` / ${s.possible} points`),
      h('span', { class: 'pl-ex-summary-solved', text: `${s.solved} of ${s.total} solved` }),
      h('progress', { max: String(s.possible || 1), value: String(s.earned), 'aria-label': `${formatPoints(s.earned)} of ${s.possible} points earned in this chapter` }),
    );
  };

  const renderCards = () => {
    // Only an import rebuilds cards, and a pending draft belongs to the progress it replaced.
    for (const card of cards) card.destroy({ saveDraft: false });
    cards = exercises.map((ex) => createCard(ex, { bridge, store }));
    setChildren(list, ...cards.map((c) => c.element));
    renderSummary();
    return Promise.all(cards.map((c) => c.ready));
  };

  const unsubscribe = store.subscribe((_progress, detail) => {
    if (destroyed) return;
    // An import may bring another seed and other answers: rebuild every card from the store.
    if (detail.reason === 'replace') renderCards();
    else renderSummary();
  });

  const load = async () => {
    status.hidden = false;
    status.className = 'status';
    status.textContent = 'Loading exercises…';
    let bank;
    try {
      bank = await loadBank(bridge);
    } catch (err) {
      if (destroyed) return;
      status.className = 'error';
      setChildren(status,
        `The exercises could not be loaded: ${err.message} `,
        h('button', { type: 'button', text: 'Try again', onclick: () => load() }),
      );
      return;
    }
    if (destroyed) return;
    exercises = bank.filter((ex) => ex.chapter === chapter);
    if (exercises.length === 0) {
      // Not every chapter has exercises yet; an empty block would only be noise.
      container.hidden = true;
      return;
    }
    status.hidden = true;
    if (progressPanel && !panel) panel = mountProgressPanel(panelHost, { store, bridge });
    await renderCards();
  };

  const ready = load();
  return {
    ready,
    destroy() {
      destroyed = true;
      unsubscribe();
      panel?.destroy();
      for (const card of cards) card.destroy();
      container.replaceChildren();
    },
  };
}
