// The Benchmarking chapter: how to trust a measurement. Puts each explanation
// (explanations.js) on the page with its formulas, the line saying what to run, and one slot
// per experiment (`#benchmarking-<experiment>-slot`) into which index.js mounts the experiment
// experiments.js names (a slot without one says its experiment is not in the lab yet);
// main.js mounts the exercises below. Not for: measuring or any statistic (worker and core).

import { mountExperiment } from '../../experiments/experiment.js';
import { labOf } from '../../lab/client.js';
import { h } from '../../ui/dom.js';
import { INTRO, SECTIONS } from './explanations.js';
import { askCore, factTexts } from './facts.js';
import { EXPERIMENTS } from './experiments.js';
import './benchmarking.css';
// The comparison experiments' verdict cards and report (experiments.js stays importable by node).
import './compare.css';

/** The id of the element an experiment of this chapter mounts into. */
export const slotId = (experiment) => `benchmarking-${experiment}-slot`;

/** What a slot says until its experiment mounts (the mount replaces the slot's children). */
export const PENDING_TEXT = 'This experiment is not in the lab yet: it arrives with the next part of this chapter.';

// A {{name}} placeholder becomes a span that shows "…" until core's number arrives.
const FACT = /\{\{([a-z0-9_]+)\}\}/g;
const factHtml = (html) => html.replace(FACT, '<span data-fact="$1">…</span>');
function factNodes(text) {
  return text.split(/(\{\{[a-z0-9_]+\}\})/).map((part) => {
    const m = /^\{\{([a-z0-9_]+)\}\}$/.exec(part);
    return m ? h('span', { 'data-fact': m[1], text: '…' }) : part;
  });
}

/** Fills every placeholder span; a name factTexts does not give is an error, not a blank. */
export function fillFacts(container, texts) {
  for (const span of container.querySelectorAll('[data-fact]')) {
    const text = texts[span.dataset.fact];
    if (text === undefined) throw new Error(`the chapter quotes {{${span.dataset.fact}}}, which facts.js does not give`);
    span.textContent = text;
  }
}

export default {
  id: 'benchmarking',
  title: 'Benchmarking',
  mount(container, { bridge } = {}) {
    container.append(
      h('h2', { text: 'Benchmarking: numbers you can defend' }),
      ...INTRO.map((html) => h('p', { html })),
      h(
        'nav',
        { class: 'chapter-toc', 'aria-label': 'Sections of this chapter' },
        h(
          'ol',
          {},
          ...SECTIONS.map((s) => h('li', {}, h('a', { href: '#benchmarking', 'data-section': s.id, text: s.title }))),
        ),
      ),
    );
    for (const s of SECTIONS) {
      container.append(
        h(
          'section',
          {
            class: 'benchmarking-section',
            id: `benchmarking-${s.id}`,
            'data-section': s.id,
            'aria-labelledby': `benchmarking-${s.id}-title`,
          },
          h('h2', { id: `benchmarking-${s.id}-title`, text: s.title }),
          ...s.paragraphs.map((html) => h('p', { html: factHtml(html) })),
          s.formula && h('pre', { class: 'formula' }, ...factNodes(s.formula)),
          h('p', { class: 'try', text: s.run }),
          ...s.slots.map((experiment) =>
            h('div', { id: slotId(experiment), 'data-slot': experiment }, h('p', { class: 'slot-pending', text: PENDING_TEXT })),
          ),
        ),
      );
    }
    // Each slot gets its experiment, if the lab has it yet.
    const handles = [];
    for (const slot of container.querySelectorAll('[data-slot]')) {
      const run = EXPERIMENTS[slot.dataset.slot];
      if (!run) continue;
      slot.replaceChildren();
      handles.push(typeof run === 'function' ? run(slot, { bridge, mountExperiment }) : mountExperiment(slot, run, { bridge }));
    }
    // The table of contents scrolls within the page without changing the chapter hash.
    const toc = container.querySelector('.chapter-toc');
    const onTocClick = (event) => {
      const id = event.target.closest('a')?.dataset.section;
      if (!id) return;
      event.preventDefault();
      container.querySelector(`#benchmarking-${id}`)?.scrollIntoView({ behavior: 'smooth' });
    };
    toc.addEventListener('click', onTocClick);
    // The numbers the text quotes come from core once the lab worker answers.
    const facts = h('p', { class: 'error', role: 'alert', hidden: true });
    container.querySelector('.chapter-toc').after(facts);
    if (bridge) {
      askCore(labOf(bridge), 'benchmarking-facts')
        .then((answers) => fillFacts(container, factTexts(answers)))
        .catch((err) => {
          facts.textContent = `The numbers this chapter quotes could not be read from the lab: ${err.message}`;
          facts.hidden = false;
        });
    }
    return {
      handles,
      destroy() {
        toc.removeEventListener('click', onTocClick);
        for (const handle of handles) handle.destroy?.();
      },
    };
  },
};
