// The numbers the Optimization chapter's text quotes: the data's sizes and counts from the
// manifest the page build writes (tools/page-data.mjs), the baseline recipe from core
// (baselineRecipe), the model's layer widths from core's zoo (zooModels) and distillation's
// default temperature and α (core's distillation plan). `factTexts` only
// formats them. Not for: any count of a run (the views show core's answers).

import { formatInt, formatSig } from '../../ui/format.js';
import { fileOf, loadManifest } from './data.js';

/** The zoo model this section trains. */
export const MODEL = 'fashion_mlp';

const mb = (bytes) => `${formatSig(bytes / 1e6)} MB`;

/** Widths of a spec's Linear layers, "784-256-128-10". */
export function linearWidths(spec) {
  const linear = spec.layers.filter((l) => l.type === 'Linear');
  return linear.length ? [linear[0].in, ...linear.map((l) => l.out)].join('-') : spec.name;
}

/** Placeholder name -> text. `distill`: core's distillation plan (its defaults T and α). */
export function factTexts({ manifest, recipe, spec, distill }) {
  const images = (split) => fileOf(manifest, split, 'images');
  const pair = (split) => images(split).bytes + fileOf(manifest, split, 'labels').bytes;
  return {
    rows: String(images('test').rows),
    cols: String(images('test').cols),
    train_count: formatInt(images('train').count),
    test_count: formatInt(images('test').count),
    subset_count: formatInt(images('train_subset').count),
    first_use_mb: mb(manifest.first_use_bytes),
    full_train_mb: mb(pair('train')),
    model_widths: linearWidths(spec),
    optimizer: recipe.optimizer.name === 'adam' ? 'Adam' : recipe.optimizer.name,
    learning_rate: String(recipe.learning_rate),
    schedule: recipe.schedule,
    batch: formatInt(recipe.batch),
    epochs: formatInt(recipe.epochs),
    // The most any training set keeps for validation by default (core's
    // default_validation_samples caps a tenth of the rows at the recipe's number).
    validation_samples: formatInt(recipe.validation_samples),
    distill_temperature: String(distill.temperature),
    distill_alpha: String(distill.alpha),
  };
}

/** Asks the manifest and core for what factTexts formats. */
export async function askFacts(lab, where) {
  const [manifest, recipe, zoo, distill] = await Promise.all([
    loadManifest(),
    lab.baselineRecipe(MODEL, { where }),
    lab.zooModels({ where }),
    lab.experimentPlan('optimization-distillation', false, { where }),
  ]);
  const entry = zoo.find((z) => z.name === MODEL);
  if (!entry) throw new Error(`core's zoo has no ${MODEL}`);
  return { manifest, recipe, spec: entry.spec, distill };
}
