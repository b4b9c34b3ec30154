// The Acceleration chapter: the same arithmetic at different speeds. Puts each
// explanation (explanations.js) before the experiment that measures it: SIMD, the memory
// hierarchy, blocking, convolution by im2col, fusion, arithmetic intensity, the roofline, and the native CLI
// comparison; main.js mounts the exercises below. Not for: measuring (worker and core do).

import { mountExperiment } from '../../experiments/experiment.js';
import { h } from '../../ui/dom.js';
import { INTRO, SECTIONS } from './explanations.js';
import { vectorizationExperiment } from './vectorization-experiment.js';
import { buildsExperiment } from './builds-experiment.js';
import { cacheSweepExperiment } from './cache-sweep-experiment.js';
import { blockingExperiment } from './blocking-experiment.js';
import { linearLoopsExperiment } from './linear-loops-experiment.js';
import { convExperiment } from './conv-experiment.js';
import { geluFusionExperiment } from './gelu-fusion-experiment.js';
import { rooflineExperiment } from './roofline-experiment.js';
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

export default {
  id: 'acceleration',
  title: 'Acceleration',
  mount(container, { bridge }) {
    container.append(
      h('h2', { text: 'Acceleration: same arithmetic, different speed' }),
      ...INTRO.map((html) => h('p', { html })),
    );
    const handles = [];
    for (const section of SECTIONS) {
      const el = h(
        'section',
        { class: 'lesson', 'data-section': section.id, 'aria-labelledby': `acceleration-${section.id}` },
        h('h2', { id: `acceleration-${section.id}`, text: section.title }),
        ...section.paragraphs.map((html) => h('p', { html })),
      );
      container.append(el);
      for (const run of RUNS[section.id]) {
        handles.push(typeof run === 'function' ? run(el, { bridge }) : mountExperiment(el, run, { bridge }));
      }
    }
    return {
      handles,
      destroy() {
        for (const handle of handles) handle.destroy?.();
      },
    };
  },
};
