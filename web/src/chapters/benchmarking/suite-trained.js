// The suite's trained models: the pretrained fashion_mlp baseline the page build ships (the
// Optimization chapter's data, data/fashion-mnist/) and the models the student made in the
// Optimization chapter (optimization/made-models.js: each with its model file's bytes), loaded
// into the lab's training module with the test split their accuracy is measured on. Each is
// held once per lab bridge and checked at each run (a restarted worker has lost what core
// held: then it is loaded again); a made model that changed or is gone is dropped.
// Not for: reading model files or measuring (core), fetching and checking files (optimization/data.js).

import { labOf } from '../../lab/client.js';
import { formatSig } from '../../ui/format.js';
import { DATA_DIR, createDataStore } from '../optimization/data.js';
import { madeName } from './suite-data.js';

// bridge -> {store, report, pretrained: Promise<{model, file}>|null, made: Map(key -> {bytes, id, info})}
const held = new WeakMap();

const megabytes = (bytes) => formatSig(bytes / 1e6);

function entryOf(bridge) {
  let entry = held.get(bridge);
  if (!entry) {
    entry = { report: () => {}, pretrained: null, made: new Map() };
    entry.store = createDataStore(bridge, {
      progress: (p) => p && entry.report(`Fetching ${p.what} for the suite: ${megabytes(p.received)} of ${megabytes(p.total)} MB`),
    });
    held.set(bridge, entry);
  }
  return entry;
}

// Whether core still holds model `id` as the one loaded: after a worker restart ids start
// again, so another model may have the id; its counts tell them apart.
const stillHeld = (lab, where, id, info) =>
  lab.modelInfo(id, { where }).then(
    (now) => now.parameters === info.parameters && now.parameter_bytes === info.parameter_bytes,
    () => false,
  );

async function holdPretrained(lab, entry, where, status) {
  if (entry.pretrained) {
    const ids = await entry.pretrained.catch(() => null);
    if (!ids || !(await stillHeld(lab, where, ids.model, ids.info))) {
      entry.pretrained = null;
      entry.store.forget();
    }
  }
  entry.pretrained ??= (async () => {
    const pretrained = await entry.store.pretrained();
    if (!pretrained) throw new Error('this page was built without the pretrained model (tools/lab build trains it); untick it, or build the page again');
    status('Loading the pretrained model into the lab’s core…');
    const info = await lab.loadModelFile(pretrained.bytes, { where });
    return { model: info.model, info, file: pretrained.facts.model };
  })();
  const pending = entry.pretrained;
  pending.catch(() => entry.pretrained === pending && (entry.pretrained = null));
  return pending;
}

async function holdMade(lab, entry, where, status, models) {
  for (const [key, h] of entry.made) {
    if (!models.some((m) => m.key === key && m.bytes === h.bytes)) {
      entry.made.delete(key);
      await lab.dropModel(h.id, { where }).catch(() => {}); // gone already after a restart
    }
  }
  const out = [];
  for (const m of models) {
    let h = entry.made.get(m.key);
    if (h && !(await stillHeld(lab, where, h.id, h.info))) h = null;
    if (!h) {
      status(`Loading ${m.name} into the lab’s core…`);
      const info = await lab.loadModelFile(m.bytes, { where });
      h = { bytes: m.bytes, id: info.model, info };
      entry.made.set(m.key, h);
    }
    out.push({ file: `made/${m.key}.perflab`, name: madeName(m.name), baseline: Boolean(m.baseline), id: h.id });
  }
  return out;
}

/**
 * The model files a suite run names, held in the training module, and the test split: {file
 * (the pretrained model's name in the manifest, its entry's model_file; null unless asked),
 * made: [{file, name, baseline}] (one per made model asked for, in their order), models:
 * {[file]: model id}, test_dataset, data: DATA_DIR}, for measureSuitePoint and suiteReport.
 * `status(text)` hears the fetches and loads.
 * @param {{where: string, status?: (text: string) => void, pretrained?: boolean, made?: object[]}} options
 *   made: the made models (made-models.js madeModels()) to hold
 */
export async function holdSuiteModels(bridge, { where, status = () => {}, pretrained = false, made = [] }) {
  const lab = labOf(bridge);
  const entry = entryOf(bridge);
  entry.report = status;
  const models = {};
  let file = null;
  if (pretrained) {
    const p = await holdPretrained(lab, entry, where, status);
    models[p.file] = p.model;
    file = p.file;
  }
  const madeHeld = await holdMade(lab, entry, where, status, made);
  for (const m of madeHeld) models[m.file] = m.id;
  const test = await entry.store.testSplit();
  return { file, made: madeHeld.map(({ file: f, name, baseline }) => ({ file: f, name, baseline })), models, test_dataset: test.dataset, data: DATA_DIR };
}
