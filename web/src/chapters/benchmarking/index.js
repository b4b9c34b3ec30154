// The Benchmarking chapter: how to trust a measurement. Declares the chapter for the chapter
// shell (../shell.js): the explanations (explanations.js) with their formulas, whose {{name}}
// placeholders are core's numbers (facts.js), the line saying what to run, and one slot per
// experiment (`#benchmarking-<experiment>-slot`) holding the experiment experiments.js names;
// main.js mounts the exercises below. Not for: measuring or any statistic (worker and core).

import { defineChapter } from '../shell.js';
import { INTRO, SECTIONS } from './explanations.js';
import { askCore, factTexts } from './facts.js';
import { EXPERIMENTS } from './experiments.js';
import './benchmarking.css';
// The comparison experiments' verdict cards and report (experiments.js stays importable by node).
import './compare.css';

export default defineChapter({
  id: 'benchmarking',
  title: 'Benchmarking',
  heading: 'Benchmarking: numbers you can defend',
  intro: INTRO,
  toc: true,
  layout: {
    sectionClass: 'benchmarking-section',
    sectionId: (id) => `benchmarking-${id}`,
    headingId: (id) => `benchmarking-${id}-title`,
  },
  sections: SECTIONS,
  slots: EXPERIMENTS,
  facts: (lab) => askCore(lab, 'benchmarking-facts').then(factTexts),
});
