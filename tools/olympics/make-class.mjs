#!/usr/bin/env node
// Generates a class of submission files holding Olympics entries, for the leaderboard's test
// and bench: honest entries drawn from the page's menu of pipelines (core's plans for the
// structured pruning and quantization sections: their fractions, up to their fine-tuning
// epochs, their calibrations), entries that break an event's constraint, and tampered ones
// (claimed accuracy raised, timing samples made up off the clock grid, a step out of range,
// another base model's checksum). Each distinct pipeline is rebuilt once by core's checker
// (as the grader will) so that honest claims are the rebuilt figures; timings are simulated
// on each student's own browser clock (tests/js/grading-machines.mjs), in core's seeded
// order of rounds; events entered are those core's olympicsJudge qualifies (and one it
// refuses, for a constraint-breaking entry). Files carry no exercise answers.
//
//   node tools/olympics/make-class.mjs --out DIR [--entries 24] [--seed 1] [--menu page|small]
//        [--baseline FILE] [--data DIR] [--threads N] [--key FILE]
//
// --menu small: the test's quick class (600 training images, at most 1 fine-tuning epoch,
// minmax only); page: the page's (12,000 images, 0 to 3 epochs, both calibrations).
// --key FILE writes what each entry was made to be (kind, events entered, the event it
// breaks), for tests. Not for: grading (tools/grade.mjs --leaderboard).
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { checkOlympicsEntries } from '../../web/src/grading/olympics.js';
import { callsPerSample, clockSamples, simulatedMachine } from '../../tests/js/grading-machines.mjs';
import { seeded } from '../../tests/js/grading-generate.mjs';
import { createOlympicsPool } from '../grading/olympics-pool.mjs';
import { defaultWasmDir, instantiate } from '../grading/node-lab.mjs';
import { SUBSET_COUNT } from '../page-data.mjs';
import { DEFAULT_CACHE, DEFAULT_DATA, MODEL_FILE } from '../pretrained.mjs';

export const COURSE = { id: 'olympics-class', title: 'Optimization Olympics (generated)', chapters: ['optimization'] };
export const DEFAULT_BASELINE = path.join(DEFAULT_CACHE, MODEL_FILE);
const ROUNDS = 30;
// What each kind of entry is, in the order the first entries of a class take them (so even a
// small class has one of each), then drawn by weight.
export const KINDS = Object.freeze(['honest', 'breaks-constraint', 'claim-raised', 'honest', 'off-grid', 'step-out-of-range', 'honest', 'foreign-base', 'breaks-constraint', 'honest']);
const WEIGHTS = { honest: 0.72, 'breaks-constraint': 0.12, 'claim-raised': 0.04, 'off-grid': 0.04, 'step-out-of-range': 0.04, 'foreign-base': 0.04 };
// An int8 forward at batch 1 against float32 of the same shape, per machine (a simulated
// machine's own figure: browsers' int8 paths differ).
const INT8_SPEEDUP = [1.1, 1.8];

const pickWeighted = (random, weights) => {
  let r = random() * Object.values(weights).reduce((s, w) => s + w, 0);
  for (const [k, w] of Object.entries(weights)) if ((r -= w) < 0) return k;
  return Object.keys(weights)[0];
};
const pick = (random, list) => list[Math.floor(random() * list.length)];

/** The page's menu of pipelines from core's plans, or the test's small one. */
export async function pipelineMenu(main, menu = 'page') {
  const structured = await main.experimentPlan('optimization-structured', false);
  const quantization = await main.experimentPlan('optimization-quantization', false);
  const small = menu === 'small';
  const trainImages = small ? 600 : SUBSET_COUNT;
  const epochs = Array.from({ length: (small ? 1 : structured.finetune_epochs) + 1 }, (_, e) => e);
  const calibrations = small ? quantization.calibrations.slice(0, 1) : quantization.calibrations;
  const calibrationImages = Math.min(small ? 100 : quantization.calibration_images, trainImages);
  const prunes = [null];
  for (const fraction of structured.fractions) {
    for (const e of epochs) prunes.push({ transform: 'prune', method: 'structured', fraction, finetune_epochs: e, train_images: trainImages });
  }
  const quantizes = [null, ...calibrations.map((calibration) => ({ transform: 'quantize', scheme: 'int8', calibration, calibration_images: calibrationImages, train_images: trainImages }))];
  const pipelines = [];
  for (const p of prunes) for (const q of quantizes) pipelines.push([p, q].filter(Boolean));
  // A student's draw: the page's defaults (the first fraction, the plan's epochs, no or the
  // first calibration) most often, anything on the menu otherwise.
  const defaults = pipelines.filter((pl) => pl[0]?.transform === 'prune' && pl[0].fraction === structured.fractions[0] && pl[0].finetune_epochs === epochs.at(-1) && (pl.length === 1 || pl[1].calibration === calibrations[0]));
  return { pipelines, defaults, trainImages };
}

const keyOf = (pipeline) => JSON.stringify(pipeline);

// A timing on the student's machine `m`: the baseline's forward (A) and the entry's (B) at
// batch 1, interleaved in core's seeded order, each sample whole ticks of m's clock.
function simulatedTiming(m, main, { ratio, seed }) {
  const a_call = 0.04 + m.random() * 0.3;
  const b_call = a_call * ratio;
  const [calls_a, calls_b] = [callsPerSample(m, a_call), callsPerSample(m, b_call)];
  const a_first = main.abRoundOrder('interleaved', ROUNDS, seed);
  const a_ms = [];
  const b_ms = [];
  for (let r = 0; r < ROUNDS; r++) {
    a_ms.push(clockSamples(m, a_call, 1, calls_a)[0]);
    b_ms.push(clockSamples(m, b_call, 1, calls_b)[0]);
  }
  return { batch: 1, mode: 'interleaved', rounds: ROUNDS, a_ms, b_ms, a_first, inner_iterations_a: calls_a, inner_iterations_b: calls_b, resolution_ms: m.resolution_ms };
}

// A simulated timing and core's latency of it (the ratio always lies in its interval).
async function judgedTiming(m, main, train, { ratio, random }) {
  const timing = simulatedTiming(m, main, { ratio, seed: 1 + Math.floor(random() * 1e6) });
  return { timing, latency: await train.olympicsLatency(timing) };
}

// The latency ratio a pipeline's model has on a machine: the float model's parameter-bytes
// ratio (its FLOPs scale with its weights), divided by the machine's int8 speedup when quantized.
function trueRatio(pipeline, figures, m) {
  const prune = pipeline.find((s) => s.transform === 'prune');
  const floatRatio = prune ? figures.get(keyOf([prune])).bytes_ratio : 1;
  const int8 = pipeline.some((s) => s.transform === 'quantize');
  return int8 ? floatRatio / (INT8_SPEEDUP[0] + m.random() * (INT8_SPEEDUP[1] - INT8_SPEEDUP[0])) : floatRatio;
}

/**
 * Writes the class into `out` (one file per student, <id>.json, with 1 to perStudent entries)
 * and resolves its key:
 * {students, entries: [{student, entry, kind, events, breaks}], pipelines (distinct, honest
 * ones), seconds (the probe rebuilds)}.
 */
export async function makeClass({ out, entries = 24, perStudent = 3, seed = 1, menu = 'page', baseline = DEFAULT_BASELINE, data = DEFAULT_DATA, threads = Math.min(2, os.availableParallelism?.() ?? 2), wasmDir = defaultWasmDir(), log = () => {} }) {
  const random = seeded(seed * 2654435761);
  const main = await instantiate(wasmDir, 'perflab_simd');
  const train = await instantiate(wasmDir, 'perflab_train_simd');
  const { pipelines, defaults, trainImages } = await pipelineMenu(main, menu);

  // Every menu pipeline (and the float prefix of each) rebuilt once by core's checker.
  const started = performance.now();
  const pool = await createOlympicsPool({ threads, baseline, data, trainImages, wasmDir });
  const figures = new Map();
  let checksum;
  try {
    checksum = pool.baseline.checksum;
    const { timing } = await judgedTiming(simulatedMachine(random), main, train, { ratio: 0.9, random });
    const items = pipelines.map((pipeline, i) => ({
      student: 'probe',
      entry: { id: `probe-${i}`, name: 'probe', events: [], base: { model: 'fashion_mlp', checksum }, pipeline, claimed: { accuracy: 0.5, parameter_bytes: 1 }, timing, finished_at: '2026-12-01T10:00:00.000Z' },
      exported_at: null,
    }));
    const { rows, problems } = await checkOlympicsEntries(items, { checkers: pool.checkers });
    if (problems.length) throw new Error(`core could not check the menu's pipelines: ${problems[0].reason}`);
    for (const [i, row] of rows.entries()) {
      if (!row.check.valid) throw new Error(`core refuses the menu's pipeline ${keyOf(pipelines[i])}: ${row.check.error}`);
      figures.set(keyOf(pipelines[i]), row.check);
    }
  } finally {
    await pool.close();
  }
  const seconds = (performance.now() - started) / 1000;
  log(`rebuilt ${pipelines.length} menu pipelines in ${seconds.toFixed(1)} s`);

  mkdirSync(out, { recursive: true });
  const key = { students: 0, entries: [], pipelines: new Set(), seconds, train_images: trainImages };
  const events = (await train.olympicsEvents()).events.map((e) => e.id);
  let made = 0;
  let studentIndex = 0;
  const start = Date.UTC(2026, 11, 1, 9, 0);
  while (made < entries) {
    studentIndex += 1;
    const id = `s${String(studentIndex).padStart(4, '0')}`;
    const m = simulatedMachine(random, { start_ms: start + studentIndex * 60_000 });
    const count = Math.min(entries - made, 1 + Math.floor(random() * perStudent));
    const list = [];
    let clock = m.probe_ms;
    for (let k = 0; k < count; k++) {
      const kind = made < KINDS.length ? KINDS[made] : pickWeighted(random, WEIGHTS);
      made += 1;
      clock += 60_000 + Math.floor(random() * 600_000);
      list.push(await makeEntry({ kind, index: k + 1, m, main, train, random, pipelines, defaults, figures, checksum, events, finished_at: new Date(clock).toISOString(), studentId: id, key }));
    }
    const submission = {
      format: 'perflab-submission',
      version: 2,
      course: COURSE,
      student: { id, name: `Student ${studentIndex}` },
      seed: studentIndex,
      bank_version: null,
      page_version: null,
      machine: null,
      exported_at: new Date(clock + 120_000).toISOString(),
      exercises: {},
      olympics: { entries: list },
    };
    writeFileSync(path.join(out, `${id}.json`), `${JSON.stringify(submission)}\n`);
  }
  key.students = studentIndex;
  key.pipelines = key.pipelines.size;
  return key;
}

// One entry of `kind` (KINDS); records what it was made to be in key.entries.
async function makeEntry({ kind, index, m, main, train, random, pipelines, defaults, figures, checksum, events, finished_at, studentId, key }) {
  const draw = () => (random() < 0.5 ? pick(random, defaults) : pick(random, pipelines));
  const entryOf = (pipeline, timing, check, claimed = { accuracy: check.accuracy, parameter_bytes: check.parameter_bytes }) => ({
    id: `entry-${index}`,
    name: check.lineage_text,
    events: [],
    base: { model: 'fashion_mlp', checksum },
    pipeline: structuredClone(pipeline),
    claimed,
    timing,
    finished_at,
  });
  // core's judgement of an entry's own figures: what the page shows the student.
  const judge = async (check, latency) => {
    const b = check.baseline;
    return train.olympicsJudge({ accuracy: check.accuracy, parameter_bytes: check.parameter_bytes, baseline_accuracy: b.accuracy, baseline_parameter_bytes: b.parameter_bytes, latency_ratio: latency.ratio, latency_ratio_low: latency.interval[0], latency_ratio_high: latency.interval[1] });
  };
  for (let attempt = 0; ; attempt++) {
    const pipeline = draw();
    const check = figures.get(keyOf(pipeline));
    const { timing, latency } = await judgedTiming(m, main, train, { ratio: trueRatio(pipeline, figures, m), random });
    const verdicts = await judge(check, latency);
    const qualified = verdicts.filter((v) => v.qualified).map((v) => v.event);
    const refused = verdicts.filter((v) => !v.qualified).map((v) => v.event);
    // An honest student enters what the page says the entry qualifies for; a drawn model
    // that qualifies for nothing (or, for a breaking entry, for everything) is drawn again.
    if (kind === 'breaks-constraint' ? !refused.length : !qualified.length) {
      if (attempt < 50) continue;
      throw new Error(`no menu pipeline fits a ${kind} entry`);
    }
    const entry = entryOf(pipeline, timing, check);
    // Some of the events it qualifies for (at least one), in core's order.
    const some = qualified.filter(() => random() < 0.6);
    entry.events = some.length || !qualified.length ? some : [pick(random, qualified)];
    let breaks = null;
    if (kind === 'breaks-constraint') {
      breaks = pick(random, refused);
      entry.events = [...entry.events, breaks].sort((x, y) => events.indexOf(x) - events.indexOf(y));
    } else if (kind === 'claim-raised') {
      entry.claimed.accuracy = Math.min(0.999, Number((check.accuracy + 0.05).toFixed(4)));
    } else if (kind === 'off-grid') {
      // Made-up samples: the entry's own times scaled to look 40% faster, no longer whole ticks.
      entry.timing.b_ms = entry.timing.b_ms.map((v) => v * 0.6);
    } else if (kind === 'step-out-of-range') {
      entry.pipeline = [{ transform: 'prune', method: 'structured', fraction: 0.5, finetune_epochs: 12, train_images: key.train_images }];
    } else if (kind === 'foreign-base') {
      entry.base.checksum = Array.from({ length: 16 }, () => '0123456789abcdef'[Math.floor(random() * 16)]).join('');
    }
    if (kind === 'honest' || kind === 'breaks-constraint') key.pipelines.add(keyOf(pipeline));
    key.entries.push({ student: studentId, entry: entry.id, kind, events: entry.events, breaks, pipeline: check.lineage_text });
    return entry;
  }
}

const USAGE = 'usage: node tools/olympics/make-class.mjs --out DIR [--entries 24] [--seed 1] [--menu page|small] [--baseline FILE] [--data DIR] [--threads N] [--key FILE]';

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const argv = process.argv.slice(2);
  const option = (name, fallback) => {
    const i = argv.indexOf(name);
    return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
  };
  const whole = (name, fallback) => {
    const n = Number(option(name, fallback));
    if (!Number.isInteger(n) || n < 1) {
      console.error(`make-class: ${name} takes a whole number from 1, got ${option(name, fallback)}\n${USAGE}`);
      process.exit(2);
    }
    return n;
  };
  const out = option('--out', null);
  const menu = option('--menu', 'page');
  if (!out || !['page', 'small'].includes(menu)) {
    console.error(USAGE);
    process.exit(2);
  }
  try {
    const key = await makeClass({ out, entries: whole('--entries', 24), seed: whole('--seed', 1), menu, baseline: option('--baseline', DEFAULT_BASELINE), data: option('--data', DEFAULT_DATA), threads: whole('--threads', 2), log: (line) => console.error(line) });
    const keyFile = option('--key', null);
    if (keyFile) writeFileSync(keyFile, `${JSON.stringify(key, null, 2)}\n`);
    const kinds = {};
    for (const e of key.entries) kinds[e.kind] = (kinds[e.kind] ?? 0) + 1;
    console.log(`${key.entries.length} entries of ${key.students} students in ${out} (${key.pipelines} distinct honest pipelines; ${Object.entries(kinds).map(([k, n]) => `${n} ${k}`).join(', ')})`);
  } catch (e) {
    console.error(`make-class: ${e.message}`);
    process.exit(1);
  }
}
