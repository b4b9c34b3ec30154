// Who is working, shown in the header: with a course.json the page asks once for the student
// id and name (a modal form), derives the seed from course and id with core's courseSeed,
// and keeps both in the progress; without one it is practice mode (the seed drawn at random
// on the first visit). A changed id draws other variants, so the work so far is downloaded
// and kept aside in this browser first. Not for: the seed's rule (core), the progress format
// (state/), or fetching course.json (course.js).

import { labOf } from '../lab/client.js';
import { submissionFileName } from '../state/submission.js';
import { showBanner } from '../ui/banner.js';
import { downloadText } from '../ui/download.js';
import { h, nextId, setChildren } from '../ui/dom.js';
import { fetchCourseJson, setCurrentCourse } from './course.js';
import { submissionExtras } from './export.js';
import { formatCount } from '../ui/format.js';

const workCount = (progress) => Object.values(progress.exercises).filter((e) => e.attempts > 0 || e.code).length;

/**
 * Reads course.json, settles who is working and fills the header's `slot`; problems with
 * course.json go to `banner`. Resolves with `ready()`, which resolves when the store's seed is
 * final for this visit: in course mode it asks the student for their id the first time it is
 * called (the exercises call it, so the instructor view asks nothing).
 * @returns {Promise<{mode: 'course'|'practice', ready: () => Promise<void>}>}
 */
export async function setupIdentity({ bridge, store, slot, banner, fetchImpl = globalThis.fetch }) {
  const lab = labOf(bridge);
  const where = 'course';
  const fetched = await fetchCourseJson(fetchImpl, { jsonTextProblem: (text) => lab.jsonTextProblem(text, { where }) });
  let course = null;
  if (fetched.status === 'found') {
    try {
      course = await lab.courseFromJson(fetched.course, { where });
    } catch (err) {
      showBanner(banner, `course.json is not usable: ${err.message}. The page runs in practice mode; your saved progress is kept.`);
    }
  } else if (fetched.status === 'error') {
    showBanner(banner, `${fetched.message}. The page runs in practice mode; your saved progress is kept.`);
  }
  setCurrentCourse(course);
  if (!course) {
    renderPractice(slot, store);
    store.subscribe(() => renderPractice(slot, store));
    return { mode: 'practice', ready: () => Promise.resolve() };
  }

  const ask = (options) => askStudent({ lab, store, course, bridge, banner, ...options });
  const saved = store.student && store.course?.id === course.id ? store.student : null;
  const signedIn = () => store.course?.id === course.id && store.student !== null;
  let asking = null;
  const ready = () => {
    if (signedIn()) return Promise.resolve();
    asking ??= ask({ changing: false }).finally(() => {
      asking = null;
    });
    return asking;
  };
  const render = () =>
    renderCourse(slot, signedIn() ? store.student : null, course, () => (signedIn() ? ask({ changing: true }) : ready()));
  render();
  if (saved) {
    // Same course and student: recompute the seed (a changed salt means other variants).
    const { seed } = await lab.courseSeed(course, saved.id, { where });
    const { asideKey } = store.setIdentity({ course: publicCourse(course), student: saved, seed });
    if (asideKey) {
      showBanner(banner, `This course's variants changed (its course.json has a new salt), so your earlier work was kept aside in this browser under "${asideKey}"; "Your progress" can restore or download it.`, 'warn');
    }
  }
  store.subscribe(render);
  return { mode: 'course', ready };
}

/** The course as a submission records it: no salt (docs/SUBMISSION.md). */
const publicCourse = (course) => ({ id: course.id, title: course.title, chapters: [...course.chapters] });

function renderPractice(slot, store) {
  const saved = store.student && store.course ? ` · saved work of ${store.student.id} in ${store.course.title}` : '';
  slot.dataset.mode = 'practice';
  setChildren(slot,
    h('span', { class: 'pl-identity-mode', dataset: { role: 'identity-mode' }, text: 'Practice mode' }),
    h('span', {
      class: 'pl-identity-detail',
      title: 'No course.json is deployed with this page: your variants come from a random seed kept in this browser.',
      text: `random variants (seed ${store.seed})${saved}`,
    }),
  );
}

function renderCourse(slot, student, course, change) {
  slot.dataset.mode = 'course';
  setChildren(slot,
    h('span', { class: 'pl-identity-course', dataset: { role: 'course-title' }, text: course.title }),
    h(
      'span',
      { class: 'pl-identity-student', dataset: { role: 'student' } },
      student ? `${student.name || 'Student'} (${student.id})` : 'no student id yet',
    ),
    h('button', { type: 'button', class: 'link', dataset: { role: 'change-student' }, text: student ? 'Change student' : 'Enter your id', onclick: change }),
  );
}

/**
 * The student id form, in a modal dialog. The first time it must be answered (the exercises
 * wait for the seed); when `changing`, it warns that another id draws other variants and can
 * be cancelled. Resolves once the store holds the identity (or the change was cancelled).
 */
function askStudent({ lab, store, course, bridge, banner, changing }) {
  const ids = { title: nextId('pl-identity-title'), intro: nextId('pl-identity-intro'), id: nextId('pl-identity-id'), name: nextId('pl-identity-name'), error: nextId('pl-identity-error') };
  const idInput = h('input', { id: ids.id, name: 'student_id', type: 'text', required: true, autocomplete: 'username', spellcheck: 'false', 'aria-describedby': ids.error, dataset: { role: 'student-id' } });
  const nameInput = h('input', { id: ids.name, name: 'student_name', type: 'text', required: true, autocomplete: 'name', 'aria-describedby': ids.error, dataset: { role: 'student-name' } });
  const error = h('p', { class: 'error', id: ids.error, role: 'alert', dataset: { role: 'identity-error' }, hidden: true });
  const submit = h('button', { type: 'submit', class: 'primary', text: changing ? 'Change student' : 'Start', dataset: { role: 'identity-submit' } });
  const cancel = changing ? h('button', { type: 'button', text: 'Cancel', dataset: { role: 'identity-cancel' } }) : null;
  const work = workCount(store.progress);
  const warning = changing
    ? h('p', {
        class: 'note warn',
        dataset: { role: 'identity-warning' },
        text: `Another student id draws other variants, so your work under ${store.student?.id ?? 'this id'} (${formatCount(work, 'exercise')}) is downloaded as a file and kept aside in this browser, and you start afresh. The same id (another spelling of its case or spaces included) keeps everything.`,
      })
    : null;
  if (changing && store.student) {
    idInput.value = store.student.id;
    nameInput.value = store.student.name;
  }
  const form = h(
    'form',
    { class: 'pl-identity-form', novalidate: true },
    h('h2', { id: ids.title, text: changing ? 'Change student' : `Welcome to ${course.title}` }),
    h('p', {
      id: ids.intro,
      text: 'Your student id picks your exercise variants: the same id gives the same variants on any computer, even after this browser forgets your work. Your work is saved in this browser; hand in the file that "Export progress" saves.',
    }),
    warning,
    h('label', { for: ids.id, text: 'Student id' }),
    idInput,
    h('label', { for: ids.name, text: 'Your name' }),
    nameInput,
    error,
    h('div', { class: 'pl-ex-row' }, submit, cancel),
  );
  const dialog = h('dialog', { class: 'pl-identity-dialog', 'aria-labelledby': ids.title, 'aria-describedby': ids.intro, dataset: { role: 'identity-dialog' } }, form);
  document.body.append(dialog);

  return new Promise((resolve) => {
    const close = () => {
      dialog.close();
      dialog.remove();
      resolve();
    };
    const fail = (input, text) => {
      error.textContent = text;
      error.hidden = false;
      input.setAttribute('aria-invalid', 'true');
      input.focus();
    };
    for (const input of [idInput, nameInput]) input.addEventListener('input', () => input.removeAttribute('aria-invalid'));
    // Escape closes a modal dialog; the first time the exercises need an id, so it stays.
    dialog.addEventListener('cancel', (event) => {
      if (!changing) event.preventDefault();
      else close();
    });
    cancel?.addEventListener('click', close);
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      error.hidden = true;
      const id = idInput.value.trim();
      const name = nameInput.value.trim();
      if (id === '') return fail(idInput, 'Type your student id (as your course gave it to you).');
      if (name === '') return fail(nameInput, 'Type your name: your teacher sees it beside your grade.');
      submit.disabled = true;
      try {
        const { seed } = await lab.courseSeed(course, id, { where: 'course' });
        const student = { id, name };
        if (changing && seed !== store.seed && workCount(store.progress) > 0) {
          // Hand the student a copy of what is about to be set aside.
          const extras = await submissionExtras(bridge);
          const old = store.exportSubmission(extras);
          downloadText(submissionFileName(old), `${JSON.stringify(old, null, 2)}\n`, 'application/json');
        }
        const { asideKey, aside } = store.setIdentity({ course: publicCourse(course), student, seed });
        if (asideKey) {
          const n = workCount(aside);
          showBanner(banner, `Your earlier work (${formatCount(n, 'exercise')}, seed ${aside.seed}) was kept aside in this browser under "${asideKey}"${changing ? ' and downloaded' : ''}; "Your progress" can restore or download it.`, 'warn');
        }
        close();
      } catch (err) {
        fail(idInput, `This id cannot be used: ${err.message}`);
      } finally {
        submit.disabled = false;
      }
    });
    dialog.showModal();
    idInput.focus();
  });
}
