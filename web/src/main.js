// The page's entry: fills the header with this machine's facts, routes between the three
// chapters by URL hash (#profiling, #acceleration, #benchmarking), mounts each chapter on
// first visit (then keeps it, so a running experiment survives navigation) and the
// exercise engine below it. Not for: measuring or grading (the lab worker and core do).

import './style.css';
import { simd } from 'wasm-feature-detect';
import { createBridge } from './lab/bridge.js';
import { h } from './ui/dom.js';
import profiling from './chapters/profiling/index.js';
import acceleration from './chapters/acceleration/index.js';
import benchmarking from './chapters/benchmarking/index.js';

const chapters = [profiling, acceleration, benchmarking];
const bridge = createBridge();
const main = document.querySelector('main');
const mounted = new Map(); // chapter id -> its <section>

function setFact(name, text, value) {
  const dd = document.querySelector(`[data-fact="${name}"] dd`);
  dd.textContent = text;
  if (value !== undefined) dd.dataset.value = String(value);
}

function formatResolution(ms) {
  const us = ms * 1000;
  return us >= 1000 ? `${(us / 1000).toPrecision(3)} ms` : `${Number(us.toPrecision(3))} µs`;
}

async function showMachineFacts() {
  const cores = navigator.hardwareConcurrency;
  setFact('cores', cores ? String(cores) : 'unknown', cores ?? '');

  const isolated = Boolean(globalThis.crossOriginIsolated);
  setFact('isolated', isolated ? 'yes' : 'no (coarser timers)', isolated);
  document.querySelector('[data-role="isolation-note"]').hidden = isolated;

  const simdAvailable = await simd();
  const simdText = simdAvailable ? 'available' : 'not available';
  setFact('simd', simdText, simdAvailable);

  try {
    const info = await bridge.call('machineInfo', {}, { where: 'machine-facts' });
    setFact('simd', `${simdText} · ${info.build} build`, simdAvailable);
    document.querySelector('[data-fact="simd"]').title = `The ${info.build} wasm build is in use`;
    setFact('timer', formatResolution(info.timer_resolution_ms), info.timer_resolution_ms);
  } catch (err) {
    setFact('timer', 'unavailable');
    const box = document.querySelector('[data-role="lab-error"]');
    box.textContent = `The lab could not start, so nothing can be measured: ${err.message}`;
    box.hidden = false;
  }
}

function mountChapter(chapter) {
  const section = h('section', { class: 'chapter', id: `chapter-${chapter.id}`, dataset: { chapter: chapter.id } });
  main.append(section);
  chapter.mount(section, { bridge });

  // The engine (and CodeMirror with it) loads only when a chapter is first shown.
  const exercises = h('section', { class: 'exercises', dataset: { role: 'exercises' } });
  section.append(exercises);
  import('./exercises/engine.js')
    .then(({ mountExercises }) => mountExercises(exercises, { bridge, chapter: chapter.id }))
    .catch((err) => {
      console.error(err);
      exercises.textContent = `The exercises could not load: ${err.message}`;
      exercises.classList.add('error');
    });
  return section;
}

function route() {
  const id = location.hash.slice(1);
  const chapter = chapters.find((c) => c.id === id) ?? chapters[0];
  if (!mounted.has(chapter.id)) mounted.set(chapter.id, mountChapter(chapter));
  for (const [cid, section] of mounted) section.hidden = cid !== chapter.id;
  for (const link of document.querySelectorAll('.chapters-nav a')) {
    if (link.dataset.chapter === chapter.id) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  document.title = `${chapter.title} · perflab`;
}

window.addEventListener('hashchange', () => {
  route();
  main.focus({ preventScroll: true });
});
route();
showMachineFacts();
