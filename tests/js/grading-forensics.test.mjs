// Forensic checks on measured evidence, through the real grading module (core's
// evidenceForensics, called by regrade.js) and the class-level checks of class.js: honest
// submissions from 20 simulated machines (tests/js/grading-machines.mjs: their own clocks,
// roofs and probes, rows made by the timer's rules, comparisons by core) raise no flag, and
// each tamper the course saw raises its flag with a reason naming the numbers. A flag never
// changes a score. Also: which of one student's files the gradebook keeps does not depend on
// the order the files come in.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';

import { FLAGS, gradeClass, regradeSubmission } from '../../web/src/grading/index.js';
import { defaultWasmDir, instantiate, loadNodeLab } from '../../tools/grading/node-lab.mjs';
import { COURSE, fakeLab, fakeRunCode, fakeSubmission } from './grading-fake-lab.mjs';
import { generateSubmission, seeded } from './grading-generate.mjs';

const COURSE_JSON = { id: 'perf-forensics', title: 'Forensics test', salt: 'forensics-salt', chapters: ['profiling', 'acceleration', 'benchmarking'] };
const HONEST = 20;
let lab;
let course;
let core; // the main module: abRoundOrder and analyzeAB for the simulated A/B runs
const honest = [];

// The main module, loaded as node-lab.mjs loads the grading one.
const loadMainModule = () => instantiate(defaultWasmDir(), 'perflab_simd');

// These tests look at measured evidence only: code exercises are re-graded as code that threw
// (no runner starts), which keeps 20 students' re-grades to a second.
const noCode = async ({ tests }) => tests.map(() => ({ error: 'not run in this test' }));

before(async () => {
  ({ lab } = await loadNodeLab());
  core = await loadMainModule();
  course = await lab.courseFromJson(COURSE_JSON);
  for (let i = 1; i <= HONEST; i++) {
    const id = `m${String(i).padStart(2, '0')}`;
    honest.push(await generateSubmission(lab, { ...COURSE_JSON }, id, { skill: 0.5, fast: true, timed: 0, core, random: seeded(i * 2654435761) }));
  }
});

const copy = (x) => structuredClone(x);
const evidenceOf = (s, id) => s.exercises[id].best_answer.evidence;
const flagsOf = async (s) => lab.evidenceForensics(s);
const codes = (flags) => [...new Set(flags.map((f) => f.code))].sort();
const files = (subs) => subs.map((s) => ({ name: `${s.student.id}.json`, text: JSON.stringify(s) }));

describe('honest submissions from 20 machines', () => {
  it('carry timed evidence of every kind the checks read, from different clocks', () => {
    const clocks = new Set(honest.map((s) => s.machine.timer_resolution_ms));
    assert.ok(clocks.size >= 3, `clocks ${[...clocks]}`);
    for (const s of honest) {
      for (const id of ['profiling.batch-throughput', 'profiling.backward-ratio', 'acceleration.my-ridge', 'benchmarking.aa-false-positives', 'benchmarking.complexity-slope', 'benchmarking.ab-capstone']) {
        assert.ok(evidenceOf(s, id).rows.length > 0, `${s.student.id} ${id}`);
      }
    }
  });

  it('raise no forensic flag, one by one or as a class', async () => {
    for (const s of honest) assert.deepEqual(await flagsOf(s), [], s.student.id);
    const graded = await gradeClass(files(honest), { lab, runCode: noCode, course });
    const forensic = graded.flags.filter((f) => /^(evidence|copied)-/.test(f.code));
    assert.deepEqual(forensic, []);
    for (const s of graded.students) assert.deepEqual(s.result.flags.filter((f) => /^(evidence|copied)-/.test(f.code)), [], s.file);
  });
});

describe('each tamper is flagged with its reason', () => {
  it('invented rows: samples and rates with no timer behind them', async () => {
    const s = copy(honest[0]);
    evidenceOf(s, 'benchmarking.ab-capstone').rows = [{ mode: 'interleaved', a_ms: [10, 11, 12, 13, 14], b_ms: [20, 21, 22, 23, 24], comparison: { seed: 1 } }];
    evidenceOf(s, 'profiling.batch-throughput').rows = [{ batch_size: 1, samples_per_s: 400 }, { batch_size: 32, samples_per_s: 6400 }];
    const result = await regradeSubmission(s, { lab, runCode: noCode, course });
    const untimed = result.flags.filter((f) => f.code === FLAGS.EVIDENCE_UNTIMED);
    assert.deepEqual(untimed.map((f) => f.exercise).sort(), ['benchmarking.ab-capstone', 'profiling.batch-throughput']);
    assert.match(untimed.find((f) => f.exercise === 'benchmarking.ab-capstone').reason, /rows\[0\] has a_ms and b_ms but not the timer facts/);
    assert.match(untimed.find((f) => f.exercise === 'profiling.batch-throughput').reason, /rows\[0\] has a rate \(samples_per_s\) but not the timing/);
  });

  it('bisected samples: a sample moved to fit the answer is off the clock grid', async () => {
    const s = copy(honest[1]);
    const row = evidenceOf(s, 'benchmarking.complexity-slope').rows[3];
    row.samples_ms = row.samples_ms.map((v) => v * 1.0371);
    const flags = await flagsOf(s);
    assert.deepEqual(codes(flags), [FLAGS.EVIDENCE_OFF_GRID]);
    assert.match(flags[0].reason, /^benchmarking\.complexity-slope: rows\[3\]\.samples_ms: \d+ of 7 samples are not whole ticks of the clock the row records \([\d.]+ ms a tick, \d+ calls per sample\)/);
  });

  it('a stored comparison that does not follow from its own samples', async () => {
    const s = copy(honest[2]);
    const row = evidenceOf(s, 'benchmarking.aa-false-positives').rows[4];
    row.comparison.verdict.name = row.comparison.verdict.name === 'faster' ? 'no_difference' : 'faster';
    row.comparison.ratio *= 1.2;
    const flags = await flagsOf(s);
    assert.deepEqual(codes(flags), [FLAGS.EVIDENCE_INCONSISTENT]);
    assert.match(flags[0].reason, /rows\[4\]\.comparison\.ratio is [\d.]+ but its own a_ms and b_ms give [\d.]+ \(core's compare_samples, seed \d+\)/);
    assert.match(flags[0].reason, /and 1 more finding of this kind/);
  });

  it('throughput that contradicts its latency', async () => {
    const s = copy(honest[3]);
    evidenceOf(s, 'profiling.batch-throughput').rows[1].samples_per_s *= 2;
    const flags = await flagsOf(s);
    assert.deepEqual(codes(flags), [FLAGS.EVIDENCE_INCONSISTENT]);
    assert.match(flags[0].reason, /rows\[1\]\.samples_per_s is [\d.]+ but batch 32 in a median of [\d.]+ ms is [\d.]+ samples\/s: the throughput contradicts the latency/);
  });

  it('a median copied beside its timing that is not that timing\'s median', async () => {
    const s = copy(honest[9]);
    evidenceOf(s, 'profiling.backward-ratio').rows[2].measured_ms *= 0.8;
    const flags = await flagsOf(s);
    assert.deepEqual(codes(flags), [FLAGS.EVIDENCE_INCONSISTENT]);
    assert.match(flags[0].reason, /^profiling\.backward-ratio: rows\[2\]\.measured_ms is [\d.]+ ms but its latency\.median_ms is [\d.]+ ms$/);
  });

  it('rates above the student\'s own probed roofs', async () => {
    const s = copy(honest[4]);
    // A probe a hundredth as fast as the machine that ran the kernels (the roofline run's roofs
    // then differ from it too, which is flagged as well).
    s.machine.probe.peak_gflops_per_s /= 100;
    const flags = await flagsOf(s);
    assert.ok(codes(flags).includes(FLAGS.EVIDENCE_ABOVE_ROOF), JSON.stringify(flags));
    assert.match(flags.find((f) => f.code === FLAGS.EVIDENCE_ABOVE_ROOF).reason, /runs at [\d.]+ GFLOP\/s, [\d.]+× the peak of [\d.]+ GFLOP\/s this student's probe measured \(flagged above 2×\)/);
  });

  it('broken chronology: runs after the export, a probe after the export, a run before its probe', async () => {
    const s = copy(honest[5]);
    const run = evidenceOf(s, 'benchmarking.ab-capstone');
    s.exported_at = new Date(Date.parse(run.finished_at) - 3_600_000).toISOString();
    let flags = await flagsOf(s);
    assert.ok(flags.every((f) => f.code === FLAGS.EVIDENCE_CHRONOLOGY), JSON.stringify(flags));
    assert.ok(flags.some((f) => /probe\.measured_at is [\d.]+ minutes after the file's exported_at/.test(f.reason) || /finished [\d.]+ minutes after the file was exported/.test(f.reason)));

    const t = copy(honest[5]);
    const before = new Date(Date.parse(t.machine.probe.measured_at) - 600_000).toISOString();
    for (const id of ['acceleration.my-ridge', 'acceleration.my-roofline-classify']) evidenceOf(t, id).finished_at = before;
    flags = await flagsOf(t);
    assert.deepEqual(codes(flags), [FLAGS.EVIDENCE_CHRONOLOGY]);
    assert.match(flags[0].reason, /^acceleration\.my-ridge, acceleration\.my-roofline-classify: rows\[0\] was placed against the probe of machine\.probe\.measured_at, yet its run finished 10 minutes before that probe was measured/);
  });

  it('copied samples and probe between two students, and samples copied after a scale', async () => {
    const [ada, bob, cy] = [copy(honest[6]), copy(honest[7]), copy(honest[8])];
    bob.machine.probe = { ...ada.machine.probe };
    for (const id of ['benchmarking.aa-false-positives']) bob.exercises[id].best_answer.evidence = copy(evidenceOf(ada, id));
    // cy's complexity run is ada's, every sample 1.25× (on another clock it would be off the grid).
    evidenceOf(cy, 'benchmarking.complexity-slope').rows = evidenceOf(ada, 'benchmarking.complexity-slope').rows.map((r) => ({ ...r, samples_ms: r.samples_ms.map((v) => v * 1.25) }));
    const graded = await gradeClass(files([ada, bob, cy, ...honest.slice(9, 12)]), { lab, runCode: noCode, course });
    const byCode = (code) => graded.flags.filter((f) => f.code === code);
    const [probe] = byCode(FLAGS.COPIED_PROBE);
    assert.match(probe.reason, new RegExp(`^the same machine probe \\(measured_at ${ada.machine.probe.measured_at}, peak [\\d.]+ GFLOP/s, bandwidth [\\d.]+ GB/s\\) in the files of 2 students: ${ada.student.id}, ${bob.student.id}; reported, not judged$`));
    const samples = byCode(FLAGS.COPIED_SAMPLES);
    assert.deepEqual(samples.map((f) => f.reason.match(/of (benchmarking-\w+)/)[1]).sort(), ['benchmarking-aa', 'benchmarking-complexity']);
    assert.match(samples.find((f) => /complexity/.test(f.reason)).reason, new RegExp(`students: ${ada.student.id}, ${cy.student.id};`));
    // Flagged, not scored: bob's grade is what his answers earn.
    const bobRow = graded.students.find((s) => s.result.student.id === bob.student.id);
    assert.ok(bobRow.result.flags.some((f) => f.code === FLAGS.COPIED_SAMPLES));
    assert.equal(graded.students.length, 6);
  });
});

describe('which of one student\'s files counts', () => {
  it('is the same whatever order the files come in: latest exported_at, then the shorter name, then content', async () => {
    const flab = fakeLab();
    const base = await fakeSubmission('ada', { lab: flab });
    const at = (exported_at, extra = {}) => ({ ...copy(base), exported_at, ...extra });
    const texts = [
      { name: 'b.json', text: JSON.stringify(at('2026-11-21T09:00:00.000Z')) },
      { name: 'a.json', text: JSON.stringify(at('2026-11-21T09:00:00.000Z')) },
      { name: 'c.json', text: JSON.stringify(at('2026-11-20T09:00:00.000Z')) },
      { name: 'b.json', text: JSON.stringify(at('2026-11-21T09:00:00.000Z', { page_version: 'other' })) },
      { name: 'undated.json', text: JSON.stringify(at(null)) },
    ];
    const orders = [[0, 1, 2, 3, 4], [4, 3, 2, 1, 0], [2, 0, 4, 1, 3], [3, 1, 0, 4, 2]];
    const chosen = [];
    for (const order of orders) {
      const graded = await gradeClass(order.map((i) => texts[i]), { lab: flab, runCode: fakeRunCode, course: COURSE });
      const kept = graded.students.filter((s) => s.in_gradebook);
      assert.equal(kept.length, 1);
      chosen.push({ file: kept[0].file, page_version: kept[0].submission.page_version });
      const flag = graded.flags.find((f) => f.code === FLAGS.DUPLICATE_STUDENT);
      assert.match(flag.reason, /the gradebook takes a\.json \(the file with the latest exported_at, ties broken by the shorter file name, then code-point order, then content\)/);
    }
    // b.json and a.json hold the same text, graded once as a.json; the other b.json ties on the
    // date and loses on the name.
    assert.ok(chosen.every((c) => c.file === 'a.json' && c.page_version === '0.1.0+test'), JSON.stringify(chosen));
  });
});
