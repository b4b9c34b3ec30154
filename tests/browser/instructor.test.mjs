// The instructor view in Chromium: #/instructor takes a course.json and a folder's worth of
// submission files through its file inputs, re-grades them in the page (core in the lab
// worker, code in the sandbox), and shows the class with flags, the problems, the charts and
// the downloads; the Canvas gradebook it downloads is the command line's, the feedback is one
// zip of one Markdown file per graded file, and the class roofline has a point per student
// with a roofline run. The submissions are generated from the real bank in Node
// (tests/js/grading-generate.mjs).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { strFromU8, unzipSync } from 'fflate';

import { loadNodeLab } from '../../tools/grading/node-lab.mjs';
import { generateSubmission } from '../js/grading-generate.mjs';
import { openLab } from './harness.mjs';

const COURSE = { id: 'perf-browser', title: 'Instructor view test', salt: 'browser-salt', chapters: ['profiling', 'acceleration'] };
// A roofline run as the page records it (the probe's roofs on every row, the kernel's timing on a
// 0.1 ms clock, its rate from its median), under ada's and bob's answers to acceleration.my-ridge:
// the instructor view reads it for the class roofline. The file's probe is the one it was placed
// against, so the re-grade's forensic checks find nothing to flag.
const rooflineRun = (peak, bandwidth, gflops) => {
  const flops = 2 * 256 ** 3;
  const median_ms = flops / (gflops * 1e6);
  const stats = { median_ms, min_ms: Math.floor(median_ms * 10) / 10, max_ms: Math.ceil(median_ms * 10) / 10, inner_iterations: 1, resolution_ms: 0.1 };
  return [{ op: 'matmul', variant: 'packed', n: 256, flops, stats, intensity: 256 / 6, gflops_per_s: gflops, peak_gflops_per_s: peak, bandwidth_gb_per_s: bandwidth, fraction_of_attainable: gflops / peak }];
};
const withRun = (s, rows) => {
  s.exercises['acceleration.my-ridge'] = { attempts: 1, solved: false, best_score: 0, best_answer: { values: [0.5, 0.5], evidence: { experiment: 'acceleration-roofline', rows } }, best_code: null, last_answer: null, code: null, hints_used: 0 };
  // A probe taken last, before the export: the runs before it were placed against the earlier one.
  s.machine.probe = { peak_gflops_per_s: rows[0].peak_gflops_per_s, bandwidth_gb_per_s: rows[0].bandwidth_gb_per_s, measured_at: s.exported_at };
  return s;
};
const json = (name, obj) => ({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(obj, null, 2)) });
let lab;
let files;
let many;

before(async () => {
  const node = (await loadNodeLab()).lab;
  // timed: 0 leaves the timed matmul out (its re-grade takes a minute).
  const ada = await generateSubmission(node, COURSE, 'ada', { skill: 1, timed: 0 });
  const bob = await generateSubmission(node, COURSE, 'bob', { skill: 0.5, timed: 0 });
  const tampered = structuredClone(ada);
  tampered.student = { id: 'cy', name: 'Cy Tamper' };
  tampered.seed = (await node.courseSeed(COURSE, 'cy')).seed;
  tampered.exercises['profiling.linear-params'].best_answer = { value: 1 };
  tampered.exercises['profiling.linear-params'].best_score = 10;
  // cy's file carries the probe only.
  delete tampered.exercises['acceleration.my-ridge'];
  delete tampered.exercises['acceleration.my-roofline-classify'];
  withRun(ada, rooflineRun(90, 25, 40));
  withRun(bob, rooflineRun(30, 12, 12));
  files = [
    json('ada.json', ada),
    json('bob.json', bob),
    json('cy.json', tampered),
    { name: 'empty.json', mimeType: 'application/json', buffer: Buffer.from('') },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('my answers: 42') },
  ];
  many = [];
  for (let i = 0; i < 12; i++) many.push(json(`m${i}.json`, await generateSubmission(node, COURSE, `m${i}`, { skill: 0.7, fast: true, timed: 0 })));
  lab = await openLab({ hash: '#/instructor' });
});
after(() => lab?.close());

test('the instructor view re-grades dropped files and shows the class', async () => {
  const { page } = lab;
  await page.locator('[data-role="course"]').filter({ hasText: 'No course.json' }).waitFor();
  // A course.json that is not JSON: core's reason with the place, not the browser's wording.
  await page.locator('input[aria-label="course.json"]').setInputFiles([{ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"id": }') }]);
  const courseError = page.locator('[data-role="course-error"]').filter({ hasText: 'broken.json' });
  await courseError.waitFor();
  assert.match(await courseError.textContent(), /^broken\.json is not a usable course\.json: it is not valid JSON: parse error at line 1, column 8: /);
  assert.doesNotMatch(await courseError.textContent(), /Unexpected token|in JSON at position|\(.*is not valid JSON/);
  await page.locator('input[aria-label="course.json"]').setInputFiles([json('course.json', COURSE)]);
  await page.locator('[data-role="course"]').filter({ hasText: 'Instructor view test (perf-browser)' }).waitFor();

  await page.locator('[data-role="files"]').setInputFiles(files);
  await page.locator('[data-role="chosen"]').filter({ hasText: '5 files chosen' }).waitFor();
  await page.locator('[data-role="grade"]').click();
  await page.locator('[data-role="class-table"]').waitFor({ timeout: 120_000 });

  const rows = await page.locator('[data-role="class-table"] tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.children].map((td) => td.textContent.trim())));
  assert.deepEqual(rows.map((r) => r[0]), ['ada', 'bob', 'cy']);
  const flagsOf = (id) => rows.find((r) => r[0] === id).at(-2); // the flags column, before the feedback
  // cy's file is ada's with another id and a forged answer: flagged twice, and ada with cy.
  assert.equal(flagsOf('bob'), 'none');
  assert.match(flagsOf('ada'), /^identical-code/);
  assert.match(flagsOf('cy'), /^score-differs, identical-code/);
  // Beside each total, the points that rest on self-reported try numbers (choice exercises),
  // as exercises.csv's self_reported_points says them.
  const header = await page.locator('[data-role="class-table"] thead th').allTextContents();
  const selfReported = header.map((t) => t.trim()).indexOf('self-reported');
  assert.equal(selfReported, header.map((t) => t.trim()).indexOf('total') + 1);
  const cells = rows.map((r) => r[selfReported]);
  assert.ok(cells.every((c) => /^\d+(\.\d+)?$/.test(c)) && cells.some((c) => Number(c) > 0), cells.join());
  assert.match(await page.locator('[data-role="class-flags"]').textContent(), /profiling\.median: the same code .* from 2 students: ada, cy/);

  const problems = await page.locator('[data-role="problems-table"] tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.children].map((td) => td.textContent.trim())));
  const kinds = Object.fromEntries(problems.map((p) => [p[0], p[2]]));
  assert.deepEqual(kinds, { 'empty.json': 'empty', 'notes.txt': 'non-json', 'cy.json': 'tampered' });

  // Both charts drew something, and the wrong answers name the tampered exercise.
  assert.equal(await page.locator('[data-chart="distribution"] svg').count() > 0, true);
  assert.equal(await page.locator('[data-chart="machines"] svg').count() > 0, true);
  assert.match(await page.locator('[data-role="wrong-answers"]').textContent(), /profiling\.linear-params/);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('[data-download="gradebook-canvas.csv"]').click(),
  ]);
  const text = await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
  const lines = text.trimEnd().split('\r\n');
  assert.equal(lines[0], 'Student,ID,SIS User ID,SIS Login ID,Section,perflab: Profiling,perflab: Acceleration');
  assert.match(lines[1], /^ {4}Points Possible,,,,,\d+,\d+$/);
  assert.equal(lines.length, 5);

  // The feedback: one zip, one Markdown file per graded file, each naming only its file.
  const [zip] = await Promise.all([page.waitForEvent('download'), page.locator('[data-download="feedback.zip"]').click()]);
  assert.equal(zip.suggestedFilename(), 'feedback.zip');
  const bytes = await (await zip.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks));
  const entries = Object.fromEntries(Object.entries(unzipSync(new Uint8Array(bytes))).map(([name, b]) => [name, strFromU8(b)]));
  assert.deepEqual(Object.keys(entries).sort(), ['feedback/ada.md', 'feedback/bob.md', 'feedback/cy.md']);
  assert.match(entries['feedback/cy.md'], /^# Cy Tamper \(cy\)\n\nRe-graded from cy\.json/);
  assert.match(entries['feedback/cy.md'], /### .*\(profiling\.linear-params\)\n\nScore: 0 of 10 \(the page showed 10\)[\s\S]*- score-differs: profiling\.linear-params:/);
  // cy did not attempt acceleration.my-ridge: named on the one line for the rest only.
  assert.doesNotMatch(entries['feedback/cy.md'], /\(acceleration\.my-ridge\)/);
  assert.match(entries['feedback/cy.md'], /\nNot attempted: \d+ exercises? \(0 points each\): [^\n]*acceleration\.my-ridge/);
  assert.match(entries['feedback/ada.md'], /### .*\(acceleration\.my-ridge\)/);

  // The class roofline: a point per student with a run (ada, bob), each student's roofs; cy's
  // file carries only the probe.
  assert.match(await page.locator('[data-role="roofline-note"]').textContent(), /^One point per student with a roofline run in their file \(2 of 3 students\)/);
  const labels = await page.locator('[data-chart="machines"] svg text').evaluateAll((ts) => ts.map((t) => t.textContent));
  for (const id of ['ada', 'bob']) assert.ok(labels.includes(id), `${id} is not labelled on the roofline: ${labels.join(', ')}`);
  assert.ok(!labels.includes('cy'));
  assert.ok(await page.locator('[data-role="wrong-answers"] th', { hasText: 'not attempted' }).count() > 0);
  if (process.env.PERFLAB_SCREENSHOT) await page.locator('[data-role="results"]').screenshot({ path: process.env.PERFLAB_SCREENSHOT });
  assert.deepEqual(lab.errors, []);
});

test('Cancel keeps the files graded so far and lists the others as not graded', async () => {
  const { page } = lab;
  await page.locator('[data-role="files"]').setInputFiles(many);
  await page.locator('[data-role="chosen"]').filter({ hasText: '12 files chosen' }).waitFor();
  await page.locator('[data-role="grade"]').click();
  await page.locator('[data-role="status"]').filter({ hasText: /Graded [1-9]\d* of 12/ }).waitFor({ timeout: 60_000 });
  await page.locator('[data-role="cancel"]').click();
  await page.locator('[data-role="status"]').filter({ hasText: 'Cancelled' }).waitFor({ timeout: 60_000 });
  const graded = await page.locator('[data-role="class-table"] tbody tr').count();
  const notGraded = await page.locator('[data-role="problems-table"] tbody tr').evaluateAll((trs) =>
    trs.filter((tr) => tr.children[2].textContent.trim() === 'not-graded').length);
  assert.ok(graded >= 1 && graded < 12, `${graded} graded`);
  assert.equal(graded + notGraded, 12);
  assert.equal(await page.locator('[data-role="grade"]').isDisabled(), false);
  assert.deepEqual(lab.errors, []);
});

test('the deployed course.json is read by core and used', async () => {
  process.env.PERFLAB_COURSE = '';
  const { writeFileSync, mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const file = `${mkdtempSync(`${tmpdir()}/perflab-course-`)}/course.json`;
  writeFileSync(file, JSON.stringify({ ...COURSE, title: 'Deployed course' }));
  process.env.PERFLAB_COURSE = file;
  const deployed = await openLab({ hash: '#/instructor' });
  try {
    await deployed.page.locator('[data-role="course"]').filter({ hasText: 'Deployed course (perf-browser), from this page’s course.json' }).waitFor();
    assert.deepEqual(deployed.errors, []);
  } finally {
    delete process.env.PERFLAB_COURSE;
    await deployed.close();
  }
});

test('with the same grading key, the page and tools/grade.mjs write the same gradebook', async () => {
  const { page } = lab;
  const { mkdtempSync, readFileSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { spawnSync } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  const gradeScript = fileURLToPath(new URL('../../tools/grade.mjs', import.meta.url));
  const dir = mkdtempSync(`${tmpdir()}/perflab-key-`);
  const two = files.slice(0, 2); // ada and bob
  for (const f of two) writeFileSync(`${dir}/${f.name}`, f.buffer);
  writeFileSync(`${dir}/course.json`, JSON.stringify(COURSE));

  await page.locator('[data-role="hidden-key"]').fill('same-key-1');
  await page.locator('[data-role="files"]').setInputFiles(two);
  await page.locator('[data-role="chosen"]').filter({ hasText: '2 files chosen' }).waitFor();
  await page.locator('[data-role="grade"]').click();
  await page.locator('[data-role="status"]').filter({ hasText: /^Graded 2 files/ }).waitFor({ timeout: 120_000 });
  assert.match(await page.locator('[data-role="hidden-key-used"]').textContent(), /drawn with the grading key same-key-1; .*--hidden-key same-key-1/);
  const downloaded = async (name) => {
    const [d] = await Promise.all([page.waitForEvent('download'), page.locator(`[data-download="${name}"]`).click()]);
    return (await d.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
  };
  const book = await downloaded('gradebook-canvas.csv');
  const perExercise = await downloaded('exercises.csv');
  assert.equal(JSON.parse(await downloaded('grading-run.json')).hidden_key, 'same-key-1');

  const r = spawnSync(process.execPath, [gradeScript, 'ada.json', 'bob.json', '--out', 'out', '--course', 'course.json', '--hidden-key', 'same-key-1', '--workers', '1', '--quiet'], { cwd: dir, encoding: 'utf8', timeout: 300_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(`${dir}/out/gradebook-canvas.csv`, 'utf8'), book);
  assert.equal(readFileSync(`${dir}/out/exercises.csv`, 'utf8'), perExercise);
  assert.deepEqual(lab.errors, []);
});

test('the Olympics: the page re-checks a class’s entries and ranks them as tools/grade.mjs --leaderboard does', async () => {
  const { page } = lab;
  const { mkdtempSync, readdirSync, readFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { spawnSync } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  const { makeClass } = await import('../../tools/olympics/make-class.mjs');
  // A small class from the generator (600 training images, at most one fine-tuning epoch):
  // honest entries, one that enters an event it breaks, a raised claim, made-up samples, a
  // step out of range and another base.
  const dir = mkdtempSync(`${tmpdir()}/perflab-olympics-`);
  const key = await makeClass({ out: dir, entries: 8, menu: 'small', threads: 1 });
  const names = readdirSync(dir).filter((n) => n.endsWith('.json')).sort();
  await page.locator('[data-role="files"]').setInputFiles(names.map((n) => ({ name: n, mimeType: 'application/json', buffer: readFileSync(`${dir}/${n}`) })));
  await page.locator('[data-role="chosen"]').filter({ hasText: `${names.length} files chosen` }).waitFor();
  await page.locator('[data-role="grade"]').click();
  await page.locator('[data-role="olympics-count"]').waitFor({ timeout: 60_000 });
  assert.match(await page.locator('[data-role="olympics-count"]').textContent(), new RegExp(`^8 entries from ${key.students} students\\.`));
  // Cancel at once: nothing is ranked, and the re-check can start again.
  await page.locator('[data-role="olympics-run"]').click();
  await page.locator('[data-role="olympics-cancel"]').click();
  await page.locator('[data-role="olympics-status"]').filter({ hasText: 'Cancelled; nothing ranked.' }).waitFor({ timeout: 60_000 });
  assert.equal(await page.locator('[data-role="olympics-summary"]').count(), 0);
  await page.locator('[data-role="olympics-run"]').click();
  await page.locator('[data-role="olympics-summary"]').waitFor({ timeout: 120_000 });
  assert.match(await page.locator('[data-role="olympics-status"]').textContent(), new RegExp(`^Re-checked and ranked 8 entries from ${key.students} students\\.$`));

  const [d] = await Promise.all([page.waitForEvent('download'), page.locator('[data-download="leaderboard.json"]').click()]);
  const json = await (await d.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString('utf8'));
  const board = JSON.parse(json);
  // What the generator made each entry to be, refused as core says.
  const refusal = (student, entry, event) => board.refused.find((r) => r.student === student && r.entry === entry && r.event === event);
  for (const e of key.entries) {
    if (e.kind === 'breaks-constraint') assert.ok(refusal(e.student, e.entry, e.breaks), `${e.student} ${e.entry} is not refused from ${e.breaks}`);
    if (e.kind === 'step-out-of-range' || e.kind === 'foreign-base') assert.ok(refusal(e.student, e.entry, null), `${e.student} ${e.entry} (${e.kind}) is not refused as invalid`);
  }
  // The page shows the board it offers: each event's ranks and students, its podium's names,
  // every refusal with its sentence, a point per valid entry with the frontier ringed.
  for (const event of board.events) {
    const cells = await page.locator(`table[data-event="${event.event}"] tbody tr`).evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent.trim())));
    assert.deepEqual(cells.map((c) => [Number(c[0]), c[1] === 'tied', c[2]]), event.rows.map((r) => [r.rank, r.tied, r.student]));
    const podium = (await page.locator(`[data-chart="podium-${event.event}"] svg text`).allTextContents()).join('\n');
    for (const r of event.rows.filter((x) => x.rank <= 3)) assert.match(podium, new RegExp(`${r.student} `));
  }
  const refusedRows = await page.locator('[data-role="olympics-refused"] tbody tr').evaluateAll((trs) => trs.map((tr) => tr.lastElementChild.textContent));
  assert.deepEqual(refusedRows, board.refused.map((r) => r.reasons.join('')));
  assert.equal(await page.locator('[data-chart="olympics-pareto"]').getAttribute('data-points'), String(board.pareto.length));
  assert.equal(await page.locator('[data-chart="olympics-pareto"] .frontier-point circle').count(), board.pareto.filter((p) => p.on_front).length);

  // The command line re-checks the same files to the same leaderboard, byte for byte.
  const gradeScript = fileURLToPath(new URL('../../tools/grade.mjs', import.meta.url));
  const r = spawnSync(process.execPath, [gradeScript, ...names, '--out', 'out', '--leaderboard', '--grading-threads', '1', '--quiet'], { cwd: dir, encoding: 'utf8', timeout: 300_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(readFileSync(`${dir}/out/leaderboard.json`, 'utf8'), json);
  if (process.env.PERFLAB_SCREENSHOT_OLYMPICS) await page.locator('[data-role="olympics"]').screenshot({ path: process.env.PERFLAB_SCREENSHOT_OLYMPICS });
  assert.deepEqual(lab.errors, []);
});
