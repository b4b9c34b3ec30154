// The instructor view (#/instructor): the teacher drops a folder or many submission files,
// the page re-grades them through the grading module (web/src/grading: core in the lab
// worker, code in a fresh sandbox worker per run, exactly as the student's page ran it),
// with progress and cancel, then shows the class: a table with each student's re-graded
// score and flags, what the class could not hand in (problems), each exercise's score
// distribution hardest first (not attempted apart from failed), the wrong values students
// gave, the class roofline (one point per student, from their own run), and the Olympics
// leaderboard, re-checked on demand (olympics-view.js). The downloads
// are the command line's files (grading/outputs.js), so both ways give the same gradebook,
// plus the feedback as one zip and the analytics (grading/analytics-files.js).
// Not for: grading logic (grading/), drawing (charts/), statistics (core: the mean that
// orders the exercises is summarizeSample's).

import { ScatterChart } from '../charts/scatter-chart.js';
import { ScoreDistributionChart } from '../charts/score-distribution-chart.js';
import { analyticsFiles, wrongValueCount, wrongValueText } from '../grading/analytics-files.js';
import { scoreAssignments } from '../grading/assignments.js';
import { GradingCancelledError, gradeClass } from '../grading/class.js';
import { workerGradingLab } from '../grading/lab.js';
import { chapterColumn, classOutputs, feedbackFileName, feedbackText, formatPoints, selfReportedPoints } from '../grading/outputs.js';
import { checkHiddenKey, gradingRunJson, newHiddenKey } from '../grading/hidden-key.js';
import { exclusiveScheduler } from '../grading/schedule.js';
import { MEAN_ONLY_OPTIONS, SCORE_BANDS, classAnalytics, distributionRows } from '../grading/summary.js';
import { zipTextFiles } from '../grading/zip.js';
import { fetchCourseJson } from '../identity/course.js';
import { labOf } from '../lab/client.js';
import { readJsonText } from '../lab/json-text.js';
import { runInSandbox } from '../lab/sandbox.js';
import { downloadBytes, downloadText } from '../ui/download.js';
import { h, setChildren } from '../ui/dom.js';
import { formatCount } from '../ui/format.js';
import { createTable } from '../ui/table.js';
import { MAX_ROOFS, machinesChart } from './class-roofline.js';
import { readDrop, readFileList } from './files.js';
import { mountOlympics } from './olympics-view.js';
import './instructor.css';

const WHERE = 'instructor';
// Submissions graded at once: one in core while another's code runs in a sandbox.
const CONCURRENCY = 2;
// The distribution chart's colours, one per SCORE_BANDS band.
const BAND_COLORS = Object.freeze(['#9e9e9e', '#c0392b', '#e5a50a', '#2e7d32']);

export { machinesChart };

/** The lab and code runner the grading module takes, over the page's worker and sandbox. */
export function pageGradingDeps(bridge, signal) {
  const schedule = exclusiveScheduler();
  return {
    lab: workerGradingLab(bridge, { where: WHERE }),
    runCode: ({ code, functionName, tests, timeLimitMs }) =>
      schedule(tests.some((t) => t?.benchmark !== undefined), async () => (await runInSandbox({ code, functionName, tests, timeLimitMs, signal })).results),
  };
}

// The course the page is deployed with, read by core: null when there is no course.json.
async function deployedCourse(lab) {
  const found = await fetchCourseJson(undefined, { jsonTextProblem: (text) => lab.jsonTextProblem(text, { where: WHERE }) });
  if (found.status === 'absent') return null;
  if (found.status === 'error') throw new Error(found.message);
  return lab.courseFromJson(found.course, { where: WHERE });
}

/**
 * Mounts the view into `section`.
 * @param {HTMLElement} section
 * @param {{bridge: object}} deps
 */
export function mountInstructor(section, { bridge }) {
  const lab = labOf(bridge);
  let pending = { files: [], problems: [] };
  let course = null;
  let courseSource = null;
  let controller = null;
  let charts = [];

  const courseLine = h('p', { class: 'course-line', 'data-role': 'course' }, 'Looking for the course.json this page is deployed with…');
  const courseInput = h('input', { type: 'file', accept: '.json,application/json', 'aria-label': 'course.json' });
  const courseError = h('p', { class: 'note error', 'data-role': 'course-error', role: 'alert', hidden: true });
  const filesInput = h('input', { type: 'file', multiple: true, accept: '.json,application/json,text/plain', 'data-role': 'files' });
  const folderInput = h('input', { type: 'file', multiple: true, webkitdirectory: true, 'data-role': 'folder' });
  const chosen = h('p', { class: 'chosen', 'data-role': 'chosen', 'aria-live': 'polite' }, 'No files chosen yet.');
  const drop = h(
    'div',
    { class: 'drop-zone', 'data-role': 'drop-zone', tabindex: '0' },
    h('p', {}, h('strong', {}, 'Drop submission files or a folder here'), ', or choose them:'),
    h('div', { class: 'pickers' },
      h('label', {}, 'Files ', filesInput),
      h('label', {}, 'A folder ', folderInput)),
    chosen,
  );
  const gradeButton = h('button', { type: 'button', class: 'primary', 'data-role': 'grade', disabled: true }, 'Grade');
  const cancelButton = h('button', { type: 'button', 'data-role': 'cancel', disabled: true }, 'Cancel');
  // The grading key of the hidden code tests (grading/hidden-key.js): empty, a new one per run.
  const keyInput = h('input', { type: 'text', 'data-role': 'hidden-key', 'aria-label': 'grading key', placeholder: 'a new random key per run', autocomplete: 'off', spellcheck: 'false', size: '22' });
  const keyUsed = h('p', { class: 'note', 'data-role': 'hidden-key-used', hidden: true });
  const progress = h('progress', { max: '1', value: '0', 'aria-label': 'grading progress', 'data-role': 'progress' });
  const status = h('p', { class: 'status', 'data-role': 'status', 'aria-live': 'polite' });
  const error = h('p', { class: 'note error', 'data-role': 'error', role: 'alert', hidden: true });
  const results = h('div', { class: 'results', 'data-role': 'results' });

  setChildren(
    section,
    h('h2', {}, 'Instructor: re-grade a class'),
    h('p', {}, 'Every answer in a submission is graded again here, by the same core the students’ pages used: numeric and choice answers for the seed each student id gives, code re-run in the sandbox with the exercise’s time limit, answers from a student’s own run checked against the rows they came with. The score a file claims is never used, only compared. Nothing leaves this browser. The same grading runs on the command line: ', h('code', {}, 'node tools/grade.mjs SUBMISSIONS… --out DIR'), '.'),
    h('div', { class: 'course' }, courseLine, h('label', {}, 'Another course.json ', courseInput), courseError),
    drop,
    h('div', { class: 'controls' }, h('label', { title: 'Code exercises are re-run on hidden tests drawn from this key; the same key gives the same gradebook. Keep it from students.' }, 'Grading key ', keyInput), gradeButton, cancelButton, progress, status),
    keyUsed,
    error,
    results,
  );

  const showError = (node, message) => {
    node.textContent = message ?? '';
    node.hidden = !message;
  };

  const describeCourse = () => {
    if (course) {
      courseLine.textContent = `Course: ${course.title} (${course.id}), from ${courseSource}. Each student's seed is derived from this course and their id; a file whose seed differs is flagged and graded with the id's seed.`;
    } else {
      courseLine.textContent = 'No course.json: each file is graded with its own seed, which cannot be checked against the student id. Choose the course.json the page was deployed with to check it.';
    }
  };

  deployedCourse(lab)
    .then((c) => {
      if (c && !course) {
        course = c;
        courseSource = 'this page’s course.json';
      }
      describeCourse();
    })
    .catch((e) => {
      describeCourse();
      showError(courseError, `This page's course.json could not be read: ${e.message}`);
    });

  courseInput.addEventListener('change', async () => {
    const file = courseInput.files?.[0];
    if (!file) return;
    try {
      const read = await readJsonText(await file.text(), (text) => lab.jsonTextProblem(text, { where: WHERE }));
      if ('reason' in read) throw new Error(`it is not valid JSON: ${read.reason}`);
      course = await lab.courseFromJson(read.value, { where: WHERE });
      courseSource = file.name;
      showError(courseError, null);
      describeCourse();
    } catch (e) {
      // The earlier course stays.
      showError(courseError, `${file.name} is not a usable course.json: ${e.message}`);
    }
  });

  const setPending = (read) => {
    pending = read;
    const n = read.files.length;
    chosen.textContent = n || read.problems.length
      ? `${formatCount(n, 'file')} chosen${read.problems.length ? `, ${read.problems.length} that could not be read` : ''}.`
      : 'No files chosen yet.';
    gradeButton.disabled = n + read.problems.length === 0 || controller !== null;
  };
  const fromInput = (input) => async () => setPending(await readFileList([...(input.files ?? [])]));
  filesInput.addEventListener('change', fromInput(filesInput));
  folderInput.addEventListener('change', fromInput(folderInput));
  drop.addEventListener('dragover', (event) => {
    event.preventDefault();
    drop.classList.add('over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', async (event) => {
    event.preventDefault();
    drop.classList.remove('over');
    setPending(await readDrop(event.dataTransfer));
  });

  cancelButton.addEventListener('click', () => controller?.abort());
  gradeButton.addEventListener('click', async () => {
    controller = new AbortController();
    const { signal } = controller;
    gradeButton.disabled = true;
    cancelButton.disabled = false;
    showError(error, null);
    progress.value = 0;
    status.textContent = 'Reading the exercise bank…';
    const total = pending.files.length;
    try {
      const deps = pageGradingDeps(bridge, signal);
      const hiddenKey = keyInput.value.trim() || newHiddenKey();
      await checkHiddenKey(deps.lab, hiddenKey); // core's sentence for a key it refuses
      keyUsed.hidden = true;
      const graded = await gradeClass(pending.files, { ...deps, course, hiddenKey }, {
        signal,
        concurrency: CONCURRENCY,
        onProgress: ({ done, file }) => {
          progress.value = total ? done / total : 1;
          status.textContent = `Graded ${done} of ${formatCount(total, 'file')}${file ? ` (last: ${file})` : ''}…`;
        },
      });
      graded.problems.unshift(...pending.problems);
      await scoreAssignments(graded, { lab: deps.lab, course }); // core's assignment columns, as tools/grade.mjs
      setChildren(keyUsed, `Hidden code tests were drawn with the grading key ${hiddenKey}; grade with it again (here, or tools/grade.mjs --hidden-key ${hiddenKey}) to reproduce this gradebook. `,
        h('button', { type: 'button', class: 'link', 'data-download': 'grading-run.json', onclick: () => downloadText('grading-run.json', gradingRunJson(graded, { course }), 'application/json') }, 'grading-run.json'));
      keyUsed.hidden = false;
      const kept = graded.students.length;
      await showResults(graded);
      // Said once the tables below show this run.
      status.textContent = graded.partial
        ? `Cancelled: ${formatCount(kept, 'file')} graded before the cancel are shown; the others are listed as not graded.`
        : `Graded ${formatCount(kept, 'file')}; ${graded.problems.filter((p) => !p.graded).length} not graded (see the problems below).`;
      progress.value = graded.partial ? progress.value : 1;
    } catch (e) {
      if (!(e instanceof GradingCancelledError)) showError(error, `Grading stopped: ${e.message}`);
      status.textContent = '';
    } finally {
      controller = null;
      cancelButton.disabled = true;
      gradeButton.disabled = pending.files.length + pending.problems.length === 0;
    }
  });

  async function showResults(graded) {
    for (const chart of charts) chart.destroy();
    charts = [];
    const meanOf = async (values) => (await lab.summarizeSample(values, { ...MEAN_ONLY_OPTIONS }, { where: WHERE })).mean;
    const core = workerGradingLab(bridge, { where: WHERE });
    const analytics = await classAnalytics(graded, { meanOf, bank: await core.exerciseBank(), variantOf: core.exerciseVariant });
    const { distributions, wrong, roofline } = analytics;
    const order = distributions.map((d) => d.id);
    const outputs = classOutputs(graded);
    const analysisFiles = analyticsFiles(analytics);
    const feedback = Object.fromEntries(Object.entries(outputs).filter(([k]) => k.startsWith('feedback/')));

    const button = (name, onclick, text = name) => h('button', { type: 'button', 'data-download': name, onclick }, text);
    const downloads = h('div', { class: 'actions downloads', 'data-role': 'downloads' },
      ...['gradebook-canvas.csv', 'gradebook-moodle.csv', 'assignments.csv', 'exercises.csv', 'problems.csv', 'flags.csv'].map((name) => button(name, () => downloadText(name, outputs[name], 'text/csv'))),
      button('feedback.zip', () => downloadBytes('feedback.zip', zipTextFiles(feedback), 'application/zip'), `feedback.zip (${formatCount(Object.keys(feedback).length, 'file')}, one per graded file)`),
      ...Object.entries(analysisFiles).map(([name, text]) => button(name, () => downloadText(name, text, name.endsWith('.md') ? 'text/markdown' : 'text/csv'))));

    const used = new Set();
    const classRows = graded.students.map((s) => ({ ...s, feedbackName: feedbackFileName(s.result.student, used) }));
    const classTable = createTable([
      { label: 'student id', key: 'result.student.id', format: 'text', rowHeader: true },
      { label: 'name', key: 'result.student.name', format: 'text' },
      { label: 'file', key: 'file', format: 'text' },
      { label: 'total', format: (r) => `${formatPoints(r.result.total.score)} / ${formatPoints(r.result.total.max_score)}` },
      // Of the total, the points that rest on the try numbers the file gives (choice exercises).
      { label: 'self-reported', format: (r) => formatPoints(selfReportedPoints(r.result)) },
      ...graded.chapters.map((c) => ({ label: chapterColumn(c).replace('perflab: ', ''), format: (r) => formatPoints(r.result.chapters[c]?.score ?? 0) })),
      { label: 'flags', align: 'left', cell: (r) => flagCell(r) },
      {
        label: 'feedback',
        align: 'left',
        cell: (r) => h('button', { type: 'button', class: 'link', onclick: () => downloadText(r.feedbackName, feedbackText(r, graded), 'text/markdown') }, r.feedbackName),
      },
    ], { rows: classRows, role: 'class-table', caption: 'The class, re-graded (points)', rowClass: (r) => (r.result.flags.length ? 'warn' : undefined) });

    const problemTable = createTable([
      { label: 'file', key: 'file', format: 'text', rowHeader: true },
      { label: 'student id', key: 'student_id', format: 'text' },
      { label: 'problem', key: 'kind', format: 'text' },
      { label: 'graded', format: (p) => (p.graded ? 'yes' : 'no'), align: 'left' },
      { label: 'why', key: 'reason', format: 'text' },
    ], { rows: graded.problems, role: 'problems-table', caption: 'Files not graded, or not graded as they claim' });

    const classFlags = graded.flags.length
      ? h('ul', { class: 'class-flags', 'data-role': 'class-flags' }, graded.flags.map((f) => h('li', {}, h('strong', {}, f.code), `: ${f.reason}`)))
      : h('p', { 'data-role': 'class-flags' }, 'No duplicate student ids and no identical code between students.');

    const distributionBox = h('div', { class: 'chart', 'data-role': 'chart', 'data-chart': 'distribution' });
    const byId = new Map(distributions.map((d) => [d.id, d]));
    const wrongTable = createTable([
      { label: 'exercise', key: 'id', format: 'text', rowHeader: true },
      { label: 'attempted', format: (w) => String(byId.get(w.id)?.attempted ?? '') },
      { label: 'failed', format: (w) => String(byId.get(w.id)?.failed ?? '') },
      { label: 'not attempted', format: (w) => String(byId.get(w.id)?.not_attempted ?? '') },
      { label: 'wrong values and how many gave each', align: 'left', cell: (w) => h('ul', {}, w.values.map((v) => h('li', {}, `${wrongValueText(v)} (${wrongValueCount(v)})`))) },
    ], { rows: wrong, role: 'wrong-answers', caption: 'Common wrong values, hardest exercise first' });

    const machineBox = h('div', { class: 'chart', 'data-role': 'chart', 'data-chart': 'machines' });
    const olympicsBox = h('div', { class: 'olympics', 'data-role': 'olympics' });
    const measured = roofline.filter((r) => r.kernel !== null).length;
    const students = analytics.students;

    setChildren(
      results,
      h('h3', {}, 'Downloads'),
      h('p', {}, 'The same files as ', h('code', {}, 'tools/grade.mjs --out'), ': the Canvas gradebook (one column per chapter, Canvas’s “Points Possible” row second; the student id in SIS User ID), one column per exercise, the problems and flags with their reasons, and each student’s feedback (one Markdown file per student in one zip: the exercises they attempted with their re-graded score, the re-grade’s feedback and the flags about each, and one line naming the rest). Then the analytics below as files.'),
      downloads,
      h('h3', {}, 'Class'),
      h('div', { class: 'table-wrap' }, classTable.element),
      classFlags,
      h('h3', {}, 'Problems'),
      graded.problems.length ? h('div', { class: 'table-wrap' }, problemTable.element) : h('p', { 'data-role': 'problems-table' }, 'Every file was read and graded as it claims.'),
      h('h3', {}, 'Score distribution per exercise, hardest first'),
      h('p', {}, `How many of the ${formatCount(students, 'student')} did not attempt each exercise (no answer in their file), got no points, part of the points or full points, ordered by core's mean fraction of points, lowest first (not attempted counts as 0).`),
      distributionBox,
      h('h3', {}, 'Common wrong values'),
      h('p', {}, 'The answers graded wrong, grouped within each exercise’s tolerance (a choice by the text the student saw, code by the test it failed), most common first. Each student draws their own numbers, so a value given for different questions is the same number, not the same mistake.'),
      wrong.length ? h('div', { class: 'table-wrap' }, wrongTable.element) : h('p', { 'data-role': 'wrong-answers' }, 'No wrong answers.'),
      h('h3', {}, 'The class roofline'),
      h('p', { 'data-role': 'roofline-note' }, roofline.length
        ? `One point per student with a roofline run in their file (${measured} of ${formatCount(students, 'student')}): the fastest kernel of that run, at its intensity and rate as their page measured it${roofline.length <= MAX_ROOFS ? ', with each student’s own roofs (from their run, or their machine probe without one)' : `; the roofs of more than ${MAX_ROOFS} students would hide the points, so only the points are drawn`}. The figures are the students’ own measurements, not re-measured.`
        : 'No submission carries a roofline run or a probe of its machine (the Acceleration chapter’s probe and roofline experiment).'),
      machineBox,
      h('h3', {}, 'Optimization Olympics'),
      olympicsBox,
    );
    charts.push(mountOlympics(olympicsBox, { bridge, graded }));

    const chart = new ScoreDistributionChart(distributionBox, {
      bands: [...SCORE_BANDS],
      colors: [...BAND_COLORS],
      ariaLabel: 'Students who did not attempt, got no, part or full points on each exercise, hardest exercise first',
      emptyText: 'No student was graded.',
    });
    chart.update({ rows: distributionRows(distributions), order });
    charts.push(chart);

    const { options, data } = machinesChart(roofline);
    const rooflineChart = new ScatterChart(machineBox, options);
    rooflineChart.update(data);
    charts.push(rooflineChart);
  }
}

function flagCell(row) {
  const flags = row.result.flags;
  if (!flags.length) return 'none';
  return h('details', {}, h('summary', {}, [...new Set(flags.map((f) => f.code))].join(', ')), h('ul', {}, flags.map((f) => h('li', {}, f.reason))));
}

