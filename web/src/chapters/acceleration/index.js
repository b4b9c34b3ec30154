// The Acceleration chapter: the same arithmetic at different speeds. Puts each
// explanation (explanations.js) before the experiment that measures it: SIMD, the memory
// hierarchy, blocking, convolution by im2col, fusion, arithmetic intensity, the roofline, and the native CLI
// comparison; main.js mounts the exercises below. Mounted by the chapter shell (../shell.js).
// Not for: measuring (worker and core do).

import { defineChapter } from '../shell.js';
import { INTRO, SECTIONS } from './explanations.js';
import { vectorizationExperiment } from './vectorization-experiment.js';
import { buildsExperiment } from './builds-experiment.js';
import { cacheSweepExperiment } from './cache-sweep-experiment.js';
import { blockingExperiment } from './blocking-experiment.js';
import { linearLoopsExperiment } from './linear-loops-experiment.js';
import { convExperiment } from './conv-experiment.js';
import { geluFusionExperiment } from './gelu-fusion-experiment.js';
import { rooflineExperiment } from './roofline-experiment.js';
import { sizeName } from './cache-sweep-data.js';
import { mountIntensityCalculator } from './intensity-calculator.js';
import { mountCliComparison } from './cli-comparison.js';
import './acceleration.css';

// What ends each section: experiment specs, or mount functions for the two custom blocks.
const RUNS = {
  simd: [vectorizationExperiment, buildsExperiment],
  memory: [cacheSweepExperiment],
  blocking: [blockingExperiment, linearLoopsExperiment],
  convolution: [convExperiment],
  fusion: [geluFusionExperiment],
  intensity: [mountIntensityCalculator],
  roofline: [rooflineExperiment, mountCliComparison],
};

export default defineChapter({
  id: 'acceleration',
  title: 'Acceleration',
  heading: 'Acceleration: same arithmetic, different speed',
  intro: INTRO,
  layout: { sectionClass: 'lesson', headingId: (id) => `acceleration-${id}` },
  sections: SECTIONS.map((section) => ({ ...section, mounts: RUNS[section.id] })),
  // The text's {{name}} numbers, core's: the range of the cache sweep's full plan.
  facts: async (lab) => {
    const { sizes } = await lab.experimentPlan('acceleration-cache-sweep', false, { where: 'acceleration-facts' });
    return { cache_sweep_from: sizeName(sizes[0]), cache_sweep_to: sizeName(sizes.at(-1)) };
  },
});
