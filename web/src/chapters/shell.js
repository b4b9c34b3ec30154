// The one shell every chapter mounts through. A chapter is data (its heading, intro and
// sections) plus what each section mounts (experiment specs, or mount functions for custom
// blocks); `defineChapter` turns that into the {id, title, mount} main.js loads, and main.js
// mounts the chapter's exercises below it. The shell writes the heading, the intro, the
// optional table of contents, each section (title, paragraphs, formula, the line saying what
// to run) and mounts each section's experiments after its text; it fills the {{name}}
// placeholders of the text with the numbers the chapter asks core for.
// Not for: a chapter's text or experiments (its folder), measuring (worker and core).

import { mountExperiment } from '../experiments/experiment.js';
import { labOf } from '../lab/client.js';
import { h, present } from '../ui/dom.js';
import { checkChapter, slotId } from './chapter-model.js';

// A {{name}} placeholder becomes a span that shows "…" until core's number arrives.
const FACT = /\{\{([a-z0-9_]+)\}\}/g;
const factHtml = (html) => html.replace(FACT, '<span data-fact="$1">…</span>');
function factNodes(text) {
  return text.split(/(\{\{[a-z0-9_]+\}\})/).map((part) => {
    const m = /^\{\{([a-z0-9_]+)\}\}$/.exec(part);
    return m ? h('span', { 'data-fact': m[1], text: '…' }) : part;
  });
}

/** Fills every placeholder span; a name the chapter's facts do not give is an error, not a blank. */
export function fillFacts(container, texts) {
  for (const span of container.querySelectorAll('[data-fact]')) {
    const text = texts[span.dataset.fact];
    if (text === undefined) throw new Error(`the chapter quotes {{${span.dataset.fact}}}, which its facts do not give`);
    span.textContent = text;
  }
}

const isMount = (run) => typeof run === 'function';

/**
 * Checks a chapter's declaration (chapter-model.js) and returns the module main.js mounts.
 * @param {object} chapter
 * @param {string} chapter.id the URL hash and the prefix of every id the chapter writes
 * @param {string} chapter.title the navigation's and the document's title
 * @param {string} chapter.heading the chapter's h2
 * @param {string[]} chapter.intro paragraphs (HTML written for this lab)
 * @param {boolean} [chapter.toc] a table of contents linking each section
 * @param {object} chapter.layout how sections are written: `sectionClass`, and functions of the
 *   section id giving `sectionId` and `headingId` (undefined: no id; a heading id also labels the section)
 * @param {object[]} chapter.sections {id, title, paragraphs, formula?, run?, mounts}: `mounts` lists
 *   experiment specs (docs/EXPERIMENTS.md) or mount functions `(el, {bridge, afterStart, mountExperiment}) => handle`
 * @param {object} [chapter.slots] `{[name]: spec or mount function}`: a section's `slots` names are
 *   mounted each into its own `<div id="<chapter>-<name>-slot">`, before any `mounts`
 * @param {(lab: object) => Promise<Record<string, string>>} [chapter.facts] the texts of the
 *   {{name}} placeholders, asked of core once the lab answers
 */
export function defineChapter(chapter) {
  checkChapter(chapter);
  return { id: chapter.id, title: chapter.title, mount: (container, context) => mountChapter(container, chapter, context) };
}

function mountChapter(container, chapter, { bridge, afterStart } = {}) {
  const { id, layout = {} } = chapter;
  const toc = chapter.toc
    ? h(
        'nav',
        { class: 'chapter-toc', 'aria-label': 'Sections of this chapter' },
        h('ol', {}, ...chapter.sections.map((s) => h('li', {}, h('a', { href: `#${id}`, 'data-section': s.id, text: s.title })))),
      )
    : null;
  container.append(...present([h('h2', { text: chapter.heading }), ...chapter.intro.map((html) => h('p', { html })), toc]));
  // Where a failure to read the quoted numbers is said: under the intro and the contents.
  const factsAnchor = container.lastElementChild;

  const context = { bridge, afterStart, mountExperiment };
  const handles = [];
  const mount = (el, run) => handles.push(isMount(run) ? run(el, context) : mountExperiment(el, run, { bridge }));
  for (const s of chapter.sections) {
    const headingId = layout.headingId?.(s.id);
    const section = h(
      'section',
      { class: layout.sectionClass, id: layout.sectionId?.(s.id), 'data-section': s.id, 'aria-labelledby': headingId },
      h('h2', { id: headingId, text: s.title }),
      ...s.paragraphs.map((html) => h('p', { html: factHtml(html) })),
      s.formula && h('pre', { class: 'formula' }, ...factNodes(s.formula)),
      s.run && h('p', { class: 'try' }, ...factNodes(s.run)),
    );
    container.append(section);
    for (const name of s.slots ?? []) {
      const slot = section.appendChild(h('div', { id: slotId(id, name), 'data-slot': name }));
      mount(slot, chapter.slots[name]);
    }
    for (const run of s.mounts ?? []) mount(section, run);
  }

  // The table of contents scrolls within the page without changing the chapter hash.
  const onTocClick = (event) => {
    const target = event.target.closest('a')?.dataset.section;
    if (!target) return;
    event.preventDefault();
    container.querySelector(`[data-section="${target}"]:not(a)`)?.scrollIntoView({ behavior: 'smooth' });
  };
  toc?.addEventListener('click', onTocClick);

  // The numbers the text quotes come from core once the lab worker answers.
  if (chapter.facts) {
    const problem = h('p', { class: 'error', role: 'alert', hidden: true });
    factsAnchor.after(problem);
    if (bridge) {
      chapter
        .facts(labOf(bridge))
        .then((texts) => fillFacts(container, texts))
        .catch((err) => {
          problem.textContent = `The numbers this chapter quotes could not be read from the lab: ${err.message}`;
          problem.hidden = false;
        });
    }
  }
  return {
    handles,
    destroy() {
      toc?.removeEventListener('click', onTocClick);
      for (const handle of handles) handle?.destroy?.();
    },
  };
}
