// The Optimization chapter: accuracy against time, size and memory. Declares the chapter for
// the chapter shell (../shell.js): the explanations (explanations.js), whose {{name}}
// placeholders are the data manifest's and core's numbers (facts.js), and one slot
// (`#optimization-model-slot`) holding "A model worth optimizing" (model-section.js: the data,
// training in the lab worker, evaluation, the weights), the sparsity sweep
// (`#optimization-sparsity-slot`, sparsity-experiment.js), structured pruning with its
// fine-tuning curve (structured-view.js), distillation (distill-view.js), the KV cache
// (kv-cache-experiment.js), int8 quantization of the baseline (quantize-view.js), int8 on
// the roofline (int8-roofline-experiment.js), the made models' Pareto frontier (pareto-view.js)
// and the Olympics (olympics-view.js). main.js mounts the exercises below.
// Not for: training, evaluating or any statistic (worker and core).

import { defineChapter } from '../shell.js';
import { INTRO, SECTIONS } from './explanations.js';
import { askFacts, factTexts } from './facts.js';
import { mountModelSection } from './model-section.js';
import { sparsityExperiment } from './sparsity-experiment.js';
import { mountStructuredSection } from './structured-view.js';
import { mountDistillSection } from './distill-view.js';
import { kvCacheExperiment } from './kv-cache-experiment.js';
import { int8RooflineExperiment } from './int8-roofline-experiment.js';
import { mountQuantizeSection } from './quantize-view.js';
import { mountParetoSection } from './pareto-view.js';
import { mountOlympicsSection } from './olympics-view.js';
import './optimization.css';

export default defineChapter({
  id: 'optimization',
  title: 'Optimization',
  heading: 'Optimization: faster, smaller, and still right',
  intro: INTRO,
  toc: true,
  layout: {
    sectionClass: 'optimization-section',
    sectionId: (id) => `optimization-${id}`,
    headingId: (id) => `optimization-${id}-title`,
  },
  sections: SECTIONS,
  slots: { model: mountModelSection, sparsity: sparsityExperiment, structured: mountStructuredSection, distillation: mountDistillSection, kvCache: kvCacheExperiment, int8Roofline: int8RooflineExperiment, quantization: mountQuantizeSection, pareto: mountParetoSection, olympics: mountOlympicsSection },
  facts: (lab) => askFacts(lab, 'optimization-facts').then(factTexts),
});
