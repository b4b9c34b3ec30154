// The Olympics section's explanation (optimization-olympics): what an entry is, why a latency
// is scored as a ratio to the baseline timed in the same interleaved run and not in
// milliseconds, what the interval means (overlapping intervals tie), and what the grader
// recomputes and what it takes on the student's word. HTML strings (ours). No number: the
// events, their limits, the batch, the rounds and the all-around formula are core's, and the
// section shows them from olympicsEvents. Pure data. Not for: the events' table (olympics-view.js).

export const OLYMPICS_SECTION = Object.freeze({
  id: 'olympics',
  title: 'The Optimization Olympics',
  paragraphs: [
    'The chapter ends with a competition. Take one of the models you made above (the baseline counts too), enter it ' +
      'in one or more <b>events</b>, time it against the baseline on your machine, and hand the entry in with your ' +
      'progress. Each event ranks one quantity (latency, parameter bytes, accuracy, or the all-around score that ' +
      'combines them) and sets constraints an entry must meet to be ranked at all, such as an accuracy floor. ' +
      'Core defines the events: the table below is core’s, and an entry that breaks a constraint is refused for that ' +
      'event with a sentence naming the constraint and the value it measured.',
    '<b>Why not milliseconds?</b> The time of one forward pass depends on far more than the model: the processor and ' +
      'its clock speed at that moment, how hot it is, the browser’s WebAssembly engine, whether the SIMD build runs, ' +
      'the other tabs and programs. The same model can take twice as long on one laptop as on another, a larger gap ' +
      'than most optimizations make, so ranking the milliseconds of two students would rank their laptops. What ' +
      'carries from one machine to another is a <b>ratio</b>: your model’s time divided by the baseline’s, both measured on ' +
      'your machine. Benchmark suites such as SPEC CPU report ratios to a reference for the same reason.',
    'The two are timed in <b>one interleaved run</b>: every round runs the baseline and your model once each, in a ' +
      'seeded order, so a slow stretch (a background task, a throttled processor) slows both arms alike and cancels ' +
      'in the ratio. The entry’s latency is the median of your model’s samples over the median of the baseline’s: below 1 ' +
      'is faster than the baseline. It does not cancel everything: a processor whose vector units favour int8 gives an ' +
      'int8 model a better ratio than another processor would. The ratio removes the machine’s overall speed, not the ' +
      'shape of its strengths.',
    '<b>The interval.</b> A ratio from a few dozen rounds is uncertain, so core resamples the rounds (a bootstrap) ' +
      'and reports a 95% interval beside it. Two entries whose intervals overlap cannot be told apart by these ' +
      'measurements, and the leaderboard ranks them as a tie. Where an event limits the latency, its constraint says ' +
      'which end of the interval it reads. To count as much faster, the whole interval must lie below the limit (its ' +
      'upper end); to count as no slower than the baseline, the lower end at or below the limit is enough: an entry ' +
      'the measurement cannot show to be slower passes.',
    '<b>What the grader trusts.</b> Accuracy and size do not depend on the machine, so the grader does not take ' +
      'them from your file: it rebuilds your model from the entry’s <b>pipeline</b> (the transforms and their ' +
      'settings, applied to the baseline whose checksum the entry names, fine-tuned on the same training images), then ' +
      'measures its accuracy on the test split and counts its parameter bytes. The figures your page measured are ' +
      'only compared with the rebuild. Latency is the one figure only your machine can measure: the entry carries the ' +
      'raw samples of every round, core recomputes the ratio from them, the evidence checks look for samples your ' +
      'browser’s clock could not have produced, and the leaderboard marks the latency as self-reported.',
    'A model the grader cannot rebuild step by step cannot enter: core gives the pipeline of a pruned, fine-tuned or ' +
      'quantized model, and refuses a distilled one with a sentence beside the model’s name.',
  ],
  run: 'Enter your fastest model in the latency sprint and your smallest in the memory challenge: does either qualify for the extreme push, and which end of its interval decides?',
  slots: ['olympics'],
});
