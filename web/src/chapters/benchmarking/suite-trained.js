// The suite's trained model: the pretrained fashion_mlp baseline the page build ships (the
// Optimization chapter's data, data/fashion-mnist/), loaded into the lab's training module
// with the test split its accuracy is measured on. Held once per lab bridge and checked at each
// run (a restarted worker has lost what core held: then it is loaded again).
// Not for: reading model files or measuring (core), fetching and checking files (optimization/data.js).

import { labOf } from '../../lab/client.js';
import { formatSig } from '../../ui/format.js';
import { DATA_DIR, createDataStore } from '../optimization/data.js';

const held = new WeakMap(); // bridge -> {store, report, pending: Promise<{model, dataset, file}>|null}

const megabytes = (bytes) => formatSig(bytes / 1e6);

/**
 * The pretrained model and the test split, held in the training module: {file (the model
 * file's name in the manifest, the suite entry's model_file), models: {[file]: model id},
 * test_dataset, data: DATA_DIR}, for measureSuitePoint and suiteReport. `status(text)` hears
 * the fetch's progress.
 */
export async function holdPretrained(bridge, { where, status = () => {} }) {
  const lab = labOf(bridge);
  let entry = held.get(bridge);
  if (!entry) {
    entry = { report: () => {}, pending: null };
    entry.store = createDataStore(bridge, {
      progress: (p) => p && entry.report(`Fetching ${p.what} for the suite: ${megabytes(p.received)} of ${megabytes(p.total)} MB`),
    });
    held.set(bridge, entry);
  }
  entry.report = status;
  if (entry.pending) {
    const ids = await entry.pending.catch(() => null);
    // Still held? A worker restarted since (another chapter's cancel) has forgotten both.
    const alive = ids && (await Promise.all([lab.modelInfo(ids.model, { where }), lab.datasetInfo(ids.dataset, { where })]).then(() => true, () => false));
    if (!alive) {
      entry.pending = null;
      entry.store.forget();
    }
  }
  entry.pending ??= (async () => {
    const [test, pretrained] = await Promise.all([entry.store.testSplit(), entry.store.pretrained()]);
    if (!pretrained) throw new Error('this page was built without the pretrained model (tools/lab build trains it); untick it, or build the page again');
    status('Loading the pretrained model into the lab’s core…');
    const info = await lab.loadModelFile(pretrained.bytes, { where });
    return { model: info.model, dataset: test.dataset, file: pretrained.facts.model };
  })();
  const pending = entry.pending;
  pending.catch(() => entry.pending === pending && (entry.pending = null));
  const { model, dataset, file } = await pending;
  return { file, models: { [file]: model }, test_dataset: dataset, data: DATA_DIR };
}
