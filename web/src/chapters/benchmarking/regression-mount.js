// Mounts the regression experiment (regression-experiment.js) with its baseline kept in this
// browser's localStorage, and hands it each complete run so "Save this run as baseline" has
// rows to save. Registered in experiments.js as a mount function.
// Not for: the spec itself or comparing (core).

import { mountExperiment } from '../../experiments/experiment.js';
import { safeLocalStorage } from '../../state/progress-store.js';
import { regressionSpec, regressionState } from './regression-experiment.js';

export function mountRegression(el, { bridge }) {
  const state = regressionState(safeLocalStorage());
  return mountExperiment(el, regressionSpec(state), {
    bridge,
    onResult: (rows, result) => state.setLastRun(rows, result.build),
  });
}
