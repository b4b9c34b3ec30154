// The Optimization chapter: accuracy against time, size and memory. Declares the chapter for
// the chapter shell (../shell.js): the explanations (explanations.js), whose {{name}}
// placeholders are the data manifest's and core's numbers (facts.js), and one slot
// (`#optimization-model-slot`) holding "A model worth optimizing" (model-section.js: the data,
// training in the lab worker, evaluation, the weights), and the sparsity sweep
// (`#optimization-sparsity-slot`, sparsity-experiment.js). main.js mounts the exercises below.
// Not for: training, evaluating or any statistic (worker and core).

import { defineChapter } from '../shell.js';
import { INTRO, SECTIONS } from './explanations.js';
import { askFacts, factTexts } from './facts.js';
import { mountModelSection } from './model-section.js';
import { sparsityExperiment } from './sparsity-experiment.js';
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
  slots: { model: mountModelSection, sparsity: sparsityExperiment },
  facts: (lab) => askFacts(lab, 'optimization-facts').then(factTexts),
});
