// Which experiment mounts into which slot of the Benchmarking chapter: slot name (explanations.js
// `slots`) → an experiment spec (mounted by mountExperiment) or a mount function
// `(el, {bridge}) => handle`. A slot not listed here says its experiment is not in the lab yet.
// Not for: the specs themselves (each lives in its own <name>-experiment.js).

import { aaExperiment } from './aa-experiment.js';
import { abExperiment } from './ab-experiment.js';
import { clockExperiment } from './clock-experiment.js';
import { complexityExperiment } from './complexity-experiment.js';
import { distributionExperiment } from './distribution-experiment.js';
import { intervalsExperiment } from './intervals-experiment.js';
import { mountRegression } from './regression-mount.js';
import { mountSuite } from './suite-mount.js';
import { warmupExperiment } from './warmup-experiment.js';

export const EXPERIMENTS = {
  aa: aaExperiment,
  ab: abExperiment,
  clock: clockExperiment,
  complexity: complexityExperiment,
  distribution: distributionExperiment,
  intervals: intervalsExperiment,
  regression: mountRegression,
  suite: mountSuite,
  warmup: warmupExperiment,
};
