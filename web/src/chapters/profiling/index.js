// The Profiling chapter: what a model costs (parameters, FLOPs, bytes) and what it takes on
// this machine (latency, peak memory, backward time), counted and measured by core. Declares
// the chapter for the chapter shell (../shell.js): the explanations (explanations.js), the
// model builder (builder-mount.js, loaded on first show: it brings CodeMirror) and the eight
// experiments; main.js mounts the exercises below it.
// Not for: counting or timing anything (core's profiler, through the lab worker).

import './profiling.css';
import { defineChapter } from '../shell.js';
import { formatInt } from '../../ui/format.js';
import { INTRO, SECTIONS } from './explanations.js';
import { architecturesExperiment } from './architectures-experiment.js';
import { attentionExperiment } from './attention-experiment.js';
import { backwardExperiment } from './backward-experiment.js';
import { batchExperiment } from './batch-experiment.js';
import { mountBuilderSlot } from './builder-mount.js';
import { operationsExperiment } from './operations-experiment.js';
import { overheadExperiment } from './overhead-experiment.js';
import { scalingExperiment } from './scaling-experiment.js';
import { trainingMemoryExperiment } from './training-memory-experiment.js';

// What ends each section: experiment specs, or the mount function of the model builder.
const RUNS = {
  counting: [mountBuilderSlot],
  latency: [overheadExperiment],
  scaling: [scalingExperiment, batchExperiment],
  roofline: [operationsExperiment],
  architectures: [architecturesExperiment, attentionExperiment],
  training: [backwardExperiment, trainingMemoryExperiment],
};

export default defineChapter({
  id: 'profiling',
  title: 'Profiling',
  heading: 'Profiling: what does a model cost?',
  intro: INTRO,
  toc: true,
  layout: { sectionClass: 'profiling-section', sectionId: (id) => `profiling-${id}` },
  sections: SECTIONS.map((section) => ({ ...section, mounts: RUNS[section.id] })),
  // The text's {{name}} numbers, core's: how many clock ticks the profiler's timer makes a sample last.
  facts: async (lab) => {
    const timer = await lab.profileTimerDefaults({ where: 'profiling-facts' });
    return { resolution_multiple: formatInt(timer.resolution_multiple) };
  },
});
