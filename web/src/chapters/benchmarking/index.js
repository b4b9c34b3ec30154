// The Benchmarking chapter: how to trust a measurement. Puts each explanation
// (explanations.js) on the page with its formulas, the line saying what to run, and one empty
// slot per experiment (`#benchmarking-<experiment>-slot`) that the experiments mount into
// (it says so while its experiment is not in the lab yet);
// main.js mounts the exercises below. Not for: measuring or any statistic (worker and core).

import { h } from '../../ui/dom.js';
import { INTRO, SECTIONS } from './explanations.js';
import './benchmarking.css';

/** The id of the element an experiment of this chapter mounts into. */
export const slotId = (experiment) => `benchmarking-${experiment}-slot`;

/** What a slot says until its experiment mounts (the mount replaces the slot's children). */
export const PENDING_TEXT = 'This experiment is not in the lab yet: it arrives with the next part of this chapter.';

export default {
  id: 'benchmarking',
  title: 'Benchmarking',
  mount(container) {
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
          ...s.paragraphs.map((html) => h('p', { html })),
          s.formula && h('pre', { class: 'formula', text: s.formula }),
          h('p', { class: 'try', text: s.run }),
          ...s.slots.map((experiment) =>
            h('div', { id: slotId(experiment), 'data-slot': experiment }, h('p', { class: 'slot-pending', text: PENDING_TEXT })),
          ),
        ),
      );
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
    return { destroy: () => toc.removeEventListener('click', onTocClick) };
  },
};
