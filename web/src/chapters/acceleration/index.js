// The Acceleration chapter: the same arithmetic at different speeds. Puts each
// explanation (explanations.js) before the experiment that measures it: SIMD, the memory
// hierarchy, blocking, convolution by im2col, fusion, arithmetic intensity, the roofline, the
// native CLI comparison, and parallelism (threads and FMA in the kernel engine); main.js mounts
// the exercises below. Mounted by the chapter shell (../shell.js).
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
import { threadScalingExperiment } from './thread-scaling-experiment.js';
import { fmaExperiment } from './fma-experiment.js';
import { elementsName } from './gelu-fusion-data.js';
import { formatInt } from '../../ui/format.js';
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
  // After the roofline: the section explains GELU's stop in scaling by the memory roof and FMA
  // as a higher compute roof, both named there.
  parallelism: [threadScalingExperiment, fmaExperiment],
};

export default defineChapter({
  id: 'acceleration',
  title: 'Acceleration',
  heading: 'Acceleration: same arithmetic, different speed',
  intro: INTRO,
  layout: { sectionClass: 'lesson', headingId: (id) => `acceleration-${id}` },
  sections: SECTIONS.map((section) => ({ ...section, mounts: RUNS[section.id] })),
  // The text's {{name}} numbers, core's: the range of the cache sweep's full plan and the
  // sizes of the thread scaling's.
  facts: async (lab) => {
    const where = { where: 'acceleration-facts' };
    const [{ sizes }, scaling] = await Promise.all([
      lab.experimentPlan('acceleration-cache-sweep', false, where),
      lab.experimentPlan('acceleration-thread-scaling', false, where),
    ]);
    return {
      cache_sweep_from: sizeName(sizes[0]),
      cache_sweep_to: sizeName(sizes.at(-1)),
      scaling_matmul_n: formatInt(scaling.matmul_n),
      scaling_gelu_elements: elementsName(scaling.gelu_elements),
      // GELU reads and writes 4 bytes per element.
      scaling_gelu_bytes: sizeName(8 * scaling.gelu_elements),
    };
  },
});
