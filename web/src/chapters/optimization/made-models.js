// The models the student made in this chapter, page-side: the trained or pretrained baseline
// and every transform's result (quantized, pruned, distilled, ...), each with its model file's
// bytes (so a model survives a restart of the lab worker, which loses core's ids), its lineage
// and what core measured of it. The sections that make models add them here; the Pareto
// frontier and the experiments that need "a model" read them. A small store with subscribers,
// no DOM. Not for: any number (core measures; an entry only carries core's answers).

/**
 * @typedef {object} MadeModel
 * @property {string} key        unique in the page: "baseline", "int8-minmax-1", ...
 * @property {string} name       as the page shows it: "fashion_mlp (pretrained)", "int8, min/max calibration"
 * @property {string[]} lineage  the transforms from the baseline, in order ([] for the baseline)
 * @property {Uint8Array} bytes  the model file (core's modelFileBytes), to load it again
 * @property {boolean} baseline  the model every other is compared with
 * @property {object} [evaluation] core's evaluateModel answer on the test split (accuracy, ...)
 * @property {object} [info]       core's modelInfo answer (parameter_bytes, parameters, ...)
 */

const models = new Map(); // key -> MadeModel, in the order added
const listeners = new Set();

function notify() {
  const list = madeModels();
  for (const fn of listeners) fn(list);
}

/** Every made model, in the order made. */
export function madeModels() {
  return [...models.values()];
}

/** The model marked as the baseline, or null. */
export function baselineModel() {
  return madeModels().find((m) => m.baseline) ?? null;
}

/**
 * Adds or replaces a model (by key). A new baseline replaces the old one's mark: the chapter
 * compares everything with one model. Throws on an entry without a key, name or file bytes.
 * @param {MadeModel} model
 */
export function addMadeModel(model) {
  if (!model || typeof model.key !== 'string' || model.key === '') throw new Error('a made model needs a key');
  if (typeof model.name !== 'string' || model.name === '') throw new Error(`made model ${model.key} needs a name`);
  if (!(model.bytes instanceof Uint8Array) || model.bytes.length === 0) throw new Error(`made model ${model.key} needs its model file's bytes`);
  const entry = { lineage: [], baseline: false, ...model };
  if (entry.baseline) for (const m of models.values()) m.baseline = false;
  models.set(entry.key, entry);
  notify();
  return entry;
}

/** Merges core's later answers (an evaluation, info) into a made model; unknown keys throw. */
export function updateMadeModel(key, fields) {
  const m = models.get(key);
  if (!m) throw new Error(`no made model ${key}`);
  Object.assign(m, fields);
  notify();
  return m;
}

/** Calls fn(list) now and after every change; returns the unsubscribe function. */
export function subscribeMadeModels(fn) {
  listeners.add(fn);
  fn(madeModels());
  return () => listeners.delete(fn);
}

/** Forgets every model (tests; a new page state). */
export function clearMadeModels() {
  models.clear();
  notify();
}
