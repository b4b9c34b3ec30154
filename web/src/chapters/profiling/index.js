// The Profiling chapter: what a model costs before anything is timed (parameters, FLOPs,
// activation memory). This file holds the chapter's intro; its exercises are mounted
// below it by main.js. Not for: counting anything (core's profiler and grader do).

import { paragraphs } from '../intro.js';

export default {
  id: 'profiling',
  title: 'Profiling',
  mount(container) {
    container.append(
      ...paragraphs('Profiling: what does a model cost?', [
        'Before timing anything, count. A Linear layer with 784 inputs and 256 outputs holds ' +
          '784·256 weights plus 256 biases; each sample costs 2 FLOPs per multiply-accumulate; ' +
          'every layer output is memory that a forward pass has to hold. These counts predict ' +
          'where time and memory will go, and they are exact, so they are the place to start.',
        'The exercises below give you your own numbers (each student gets a seeded variant). ' +
          'Answers are graded on this page by the same C++ core that the command-line grader ' +
          'uses, so a submission exported from here re-grades identically.',
        'Still to come in this chapter: the model profiler, which breaks a model down layer by ' +
          'layer and measures peak memory with a tracking allocator.',
      ]),
    );
  },
};
