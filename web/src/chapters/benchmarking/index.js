// The Benchmarking chapter: how to time code honestly (clock resolution, warmup, batching,
// medians and confidence intervals). Holds the intro; main.js mounts exercises below it.
// Not for: computing statistics (core's timer does).

import { paragraphs } from '../intro.js';

export default {
  id: 'benchmarking',
  title: 'Benchmarking',
  mount(container) {
    container.append(
      ...paragraphs('Benchmarking: numbers you can trust', [
        'A browser clock is deliberately coarse: look at the timer resolution at the top of ' +
          'this page. A kernel that takes a few microseconds cannot be timed one call at a ' +
          'time, so the lab\'s timer measures the resolution first, then runs the code in ' +
          'batches long enough that one sample lasts at least a hundred clock ticks, and ' +
          'reports the time per call.',
        'One number is never the result. Every measurement here reports the median of ' +
          'several samples, a 95% confidence interval, the coefficient of variation and a ' +
          'plain-language warning when the spread is too large to trust.',
        'Still to come in this chapter: experiments on warmup, outliers and clock resolution, ' +
          'and exercises on reading benchmark statistics.',
      ]),
    );
  },
};
