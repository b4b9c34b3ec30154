// The page's entry: fills the header with this machine's facts and who is working (the
// course and student from course.json, or practice mode), routes between the four
// chapters by URL hash (#profiling, #acceleration, #benchmarking, #optimization), mounts each chapter on
// first visit (then keeps it, so a running experiment survives navigation) and the
// exercise engine below it, once the student's seed is settled; #/instructor mounts the
// instructor view (re-grading a class), which no chapter link points to. Not for: measuring
// or grading (the lab worker and core do).

import './style.css';
import './ui/card.css';
import { simd } from 'wasm-feature-detect';
import { createBridge } from './lab/bridge.js';
import { loadPlot } from './charts/plot-lib.js';
import { recordHeaderFacts } from './lab/machine-facts.js';
import { getProgressStore } from './state/progress-store.js';
import { h } from './ui/dom.js';

// Each chapter's code loads when the chapter is first shown (issue 14's load budget: the page
// fetches only the chapter it opens on). Ids and titles are here so the router and the
// document title need no chapter module.
const chapters = [
  { id: 'profiling', title: 'Profiling', load: () => import('./chapters/profiling/index.js') },
  { id: 'acceleration', title: 'Acceleration', load: () => import('./chapters/acceleration/index.js') },
  { id: 'benchmarking', title: 'Benchmarking', load: () => import('./chapters/benchmarking/index.js') },
  { id: 'optimization', title: 'Optimization', load: () => import('./chapters/optimization/index.js') },
];
const bridge = createBridge();
const main = document.querySelector('main');
const mounted = new Map(); // chapter id -> its <section>

// What first use does not need (the exercise engine with CodeMirror, the model builder's
// editor, Observable Plot for the charts, who is working) loads once the page is usable:
// after the lab worker has answered with the machine facts (or failed), at the browser's
// next idle moment. Fetched earlier, it would compete with the wasm module for the network
// and the main thread (issue 14's load budget, bench/load.mjs).
let markStarted;
const afterStart = new Promise((resolve) => {
  markStarted = () => (globalThis.requestIdleCallback ? requestIdleCallback(() => resolve(), { timeout: 300 }) : setTimeout(resolve, 0));
});

// The exercises draw their variants from the seed, so they wait for it (course mode asks
// the student's id first, when a chapter's exercises are first shown). A failure leaves the
// seed saved in this browser, with the reason in the header. Who is working (course.json,
// the student) is settled once the page is usable: nothing before the exercises needs it.
const identity = afterStart
  .then(() => import('./identity/identity.js'))
  .then(({ setupIdentity }) =>
    setupIdentity({
      bridge,
      store: progressStore,
      slot: document.querySelector('[data-role="identity"]'),
      banner: document.querySelector('[data-role="course-error"]'),
    }),
  )
  .catch((err) => {
    console.error(err);
    const banner = document.querySelector('[data-role="course-error"]');
    banner.textContent = `Who is working could not be settled (${err.message}); the exercises use the seed saved in this browser.`;
    banner.hidden = false;
    return { mode: 'practice', ready: () => Promise.resolve() };
  });

// Progress this browser could not read (or cannot save) is announced in the header, where the
// student looks on load, not in the panel below a chapter's exercises. The module is small
// (Restore loads the re-grading when clicked); it is fetched at once when there is something
// to say, else once the page is usable, for a save that fails later.
const progressStore = getProgressStore();
(progressStore.notice ? Promise.resolve() : afterStart)
  .then(() => import('./exercises/progress-notice.js'))
  .then(({ mountProgressNotice }) =>
    mountProgressNotice(document.querySelector('[data-role="progress-notice"]'), { store: progressStore, bridge }),
  )
  .catch((err) => console.error(err));

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
  recordHeaderFacts({ cores, cross_origin_isolated: isolated });
  setFact('isolated', isolated ? 'yes' : 'no (coarser timers)', isolated);
  document.querySelector('[data-role="isolation-note"]').hidden = isolated;

  const simdAvailable = await simd();
  const simdText = simdAvailable ? 'available' : 'not available';
  setFact('simd', simdText, simdAvailable);
  recordHeaderFacts({ simd: simdAvailable });

  try {
    const info = await bridge.call('machineInfo', {}, { where: 'machine-facts' });
    setFact('simd', `${simdText} · ${info.build} build`, simdAvailable);
    document.querySelector('[data-fact="simd"]').title = `The ${info.build} wasm build is in use`;
    showEngine(info.engine);
    setFact('timer', formatResolution(info.timer_resolution_ms), info.timer_resolution_ms);
    recordHeaderFacts({ build: info.build, timer_resolution_ms: info.timer_resolution_ms });
  } catch (err) {
    setFact('timer', 'unavailable');
    const box = document.querySelector('[data-role="lab-error"]');
    box.textContent = `The lab could not start, so nothing can be measured: ${err.message}`;
    box.hidden = false;
  }
}

// The kernel engine's choice (lab/engine/engine-loader.js detectEngine): FMA or multiply-add,
// and how many threads, with the reason as the fact's title and in data-why for tests.
function showEngine(engine) {
  if (!engine) {
    setFact('engine', 'not available (no SIMD)', 'none');
    return;
  }
  const flavour = engine.relaxed ? 'FMA (relaxed SIMD)' : 'multiply-add (no relaxed SIMD)';
  const threads = `${engine.max_threads} thread${engine.max_threads === 1 ? '' : 's'}`;
  setFact('engine', `${flavour} · ${threads}`, `${engine.relaxed ? 'fma' : 'simd'}:${engine.max_threads}`);
  const fact = document.querySelector('[data-fact="engine"]');
  fact.title = engine.why;
  fact.dataset.why = engine.why;
  recordHeaderFacts({ engine: { flavour: engine.relaxed ? 'fma' : 'simd', max_threads: engine.max_threads, why: engine.why } });
}

function mountChapter(chapter) {
  const section = h('section', { class: 'chapter', id: `chapter-${chapter.id}`, dataset: { chapter: chapter.id } });
  main.append(section);
  // The engine (and CodeMirror with it) loads only when a chapter is first shown, and only
  // once the page is usable; its section follows the chapter's.
  const exercises = h('section', { class: 'exercises', dataset: { role: 'exercises' } });
  const mountedChapter = chapter
    .load()
    .then(({ default: module }) => {
      module.mount(section, { bridge, afterStart });
      section.append(exercises);
    })
    .catch((err) => {
      console.error(err);
      section.append(h('p', { class: 'error', role: 'alert', text: `The ${chapter.title} chapter could not load: ${err.message}` }));
      throw err;
    });
  Promise.all([
    mountedChapter,
    afterStart.then(() => Promise.all([import('./exercises/engine.js'), loadPlot()])).then(([m]) => m),
    identity.then((i) => i.ready()),
  ])
    .then(([, { mountExercises }]) => mountExercises(exercises, { bridge, chapter: chapter.id }))
    .catch((err) => {
      console.error(err);
      exercises.textContent = `The exercises could not load: ${err.message}`;
      exercises.classList.add('error');
    });
  return section;
}

const INSTRUCTOR = { id: '/instructor', title: 'Instructor' };

// The instructor view loads only when asked for (its charts and the grading module with it).
function mountInstructorView() {
  const section = h('section', { class: 'chapter instructor', id: 'instructor', dataset: { chapter: 'instructor' } });
  main.append(section);
  Promise.all([import('./instructor/instructor.js'), loadPlot()])
    .then(([m]) => m)
    .then(({ mountInstructor }) => mountInstructor(section, { bridge }))
    .catch((err) => {
      console.error(err);
      section.textContent = `The instructor view could not load: ${err.message}`;
      section.classList.add('error');
    });
  return section;
}

function route() {
  const id = location.hash.slice(1);
  const chapter = id === INSTRUCTOR.id ? INSTRUCTOR : (chapters.find((c) => c.id === id) ?? chapters[0]);
  if (chapter === INSTRUCTOR && !mounted.has(INSTRUCTOR.id)) mounted.set(INSTRUCTOR.id, mountInstructorView());
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
showMachineFacts().finally(markStarted);
// A worker that never answers must not keep the exercises and the builder away.
setTimeout(markStarted, 5000);
afterStart.then(loadPlot);
