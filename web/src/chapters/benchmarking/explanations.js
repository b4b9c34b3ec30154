// The Benchmarking chapter's explanations, written for this lab: why one number is not a
// result, warmup, clock resolution and batching, distributions, intervals, significance and
// effect size, interleaving, complexity fits, regression checks and honest reports, each with
// its formulas and what the student runs at its end. HTML strings (ours, so <code> is safe).
// A {{name}} in a paragraph, formula or run line is a number core owns (a default, an
// experiment's plan, or the worked example computed by core): facts.js says where each comes
// from, the chapter shell fills it in.
// Pure data: the chapter shell (../shell.js) mounts each section with a slot per experiment (`slots`).
// Not for: numbers of this machine (the experiments measure them) or any statistic (core).

export const INTRO = [
  'The other two chapters report medians, intervals and speed-ups. This one teaches how to trust them: how a ' +
    'browser times a few microseconds of work, why every measurement is a sample with a spread, how to put an ' +
    'interval on it, how to decide whether two variants really differ, how time grows with size, and how to ' +
    'write a report that says what was and was not measured.',
  'The statistics are computed by the lab’s C++ core, the same code the native command line runs, on the raw ' +
    'samples your browser measures. Where the original course estimated or simulated a number, this chapter ' +
    'measures it or says that it cannot.',
];

// Each section: `id`, `title`, `paragraphs` (HTML), an optional `formula` block (plain text),
// `run` (what the student runs at the end), and `slots`: the experiments mounted after it, each
// into an element with id `benchmarking-<slot>-slot`.
export const SECTIONS = Object.freeze([
  {
    id: 'result',
    title: 'One number is not a result',
    paragraphs: [
      'Run the same code twice and the two times differ: the operating system interrupts, another tab wakes up, ' +
        'the processor changes its clock speed, the memory allocator hands out a different address. A single ' +
        'time is one draw from a distribution, and a second draw can land elsewhere.',
      'A result is therefore a <b>sample</b> of repeated measurements and a summary of it: how many, where the ' +
        'middle is (median, mean), how wide the spread is (standard deviation, percentiles) and how precisely ' +
        'the middle is known (an interval). Every experiment in this chapter keeps what it measured, shows it in ' +
        'a chart and a table, and lets you download the table as CSV.',
    ],
    formula:
      'sample x₁ … xₙ     mean x̄ = Σxᵢ / n     sample std s = √( Σ(xᵢ − x̄)² / (n − 1) )\n' +
      'median = middle of the sorted sample     CV = s / x̄',
    run: 'The first experiment is in the next section: it times calls one by one, so you can see the spread.',
    slots: [],
  },
  {
    id: 'warmup',
    title: 'Warmup and tier-up',
    paragraphs: [
      'The first calls of a WebAssembly function are not representative. Chromium’s engine, V8, first compiles a ' +
        'module with <b>Liftoff</b>, its baseline compiler, which produces code quickly but does little to ' +
        'optimize it. Functions that turn out to be hot are compiled again by <b>TurboFan</b>, the optimizing ' +
        'compiler, in the background; once that code is ready, later calls run it. Firefox and Safari also have ' +
        'a baseline tier and an optimizing tier. On top of the compiler, the first calls also fill the caches ' +
        'and touch freshly allocated memory for the first time.',
      'So a benchmark runs the code a few times untimed first (warmup) and only then takes samples. How many ' +
        'calls it takes for the time to settle depends on the engine, the function and the machine: measure it ' +
        'rather than assume it.',
    ],
    run:
      'Run it: time each of the first few hundred calls of one kernel, one call per point, and find where the ' +
      'time drops to its steady level.',
    slots: ['warmup'],
  },
  {
    id: 'clock',
    title: 'Clock resolution and batching',
    paragraphs: [
      'A browser’s clock is deliberately coarse, to make timing attacks such as Spectre harder. Chromium rounds ' +
        '<code>performance.now()</code> to 100 µs on a page that is not cross-origin isolated and to 5 µs on one ' +
        'that is, and adds jitter. The resolution this page measured is at its top. A kernel that takes 2 µs, ' +
        'timed one call at a time on a 100 µs clock, reads as 0 most of the time and as about 100 µs when a ' +
        'tick happens to fall inside the call: every single reading is wrong.',
      'The lab’s timer measures the clock’s resolution first, then runs the code in batches of k calls, with k ' +
        'chosen so that one sample lasts at least {{resolution_multiple}} ticks of that clock (and at least a minimum sample time), ' +
        'and reports the sample’s time divided by k. Each reading of the clock is off by less than one tick, so a ' +
        'duration, the difference of two readings, is off by less than two, and a sample that lasts {{resolution_multiple}} ticks by ' +
        'less than {{sample_error_percent}}.',
    ],
    formula:
      'calls per sample  k ≥ {{resolution_multiple}} × resolution / time per call\n' +
      'time per call = sample time / k        error of one sample < 2 ticks / {{resolution_multiple}} ticks = {{sample_error_percent}}',
    run:
      'Run it: time a kernel of a few microseconds one call per sample and batched, at this page’s resolution and ' +
      'at a coarser one, and plot the error against the batch size.',
    slots: ['clock'],
  },
  {
    id: 'distribution',
    title: 'Distributions, tails and outliers',
    paragraphs: [
      'Timings are usually skewed: there is a floor, the fastest the code can run, and a tail of slower samples ' +
        'from interrupts and from other threads and processes competing for the core. The <b>mean</b> is pulled ' +
        'into the tail by a few slow samples; the <b>median</b> is not, which is why the lab reports the median.',
      '<b>Tukey’s fences</b> mark a sample as an outlier when it lies more than 1.5 interquartile ranges beyond ' +
        'the quartiles. Here outliers are listed, never silently dropped: a slow tail is part of what a user ' +
        'feels, and a report should say how many there were. The <b>median absolute deviation</b> (MAD) measures ' +
        'spread the way the median measures the middle, without being moved by the tail.',
    ],
    formula:
      'Q1 = 25th percentile, Q3 = 75th (linear rule)     IQR = Q3 − Q1\n' +
      'outlier: x < Q1 − 1.5·IQR  or  x > Q3 + 1.5·IQR\n' +
      'MAD = median(|xᵢ − median|)     (1.4826 × MAD estimates σ when the data are normal)',
    run:
      'Run it: take {{distribution_samples}} samples of one kernel and look at the histogram and the box plot: where the mean and ' +
      'the median fall, and which samples lie beyond the fences.',
    slots: ['distribution'],
  },
  {
    id: 'intervals',
    title: 'Intervals: z, t and the bootstrap',
    paragraphs: [
      'A 95% interval comes from a method that, over many repeats of the experiment, contains the true value 95% ' +
        'of the time; its width says how precisely one sample pins that value down. The original course used ' +
        '<code>mean ± 1.96·s/√n</code>, the <b>z interval</b>. The 1.96 is the normal distribution’s 97.5th ' +
        'percentile, and using it treats s as if it were the true standard deviation; with few samples s is ' +
        'itself uncertain, and ' +
        'Student’s <b>t</b> distribution accounts for that with a larger factor. At n = 5 it is t(0.975, 4) = ' +
        '{{t_quantile_4}}, so the t interval is {{t_over_z}} times as wide. For normally distributed data the z interval at n = 5 ' +
        'contains the true mean only about 88% of the time instead of 95%; the two factors converge as n grows.',
      'Both are intervals of the mean and assume its sampling distribution is close to normal. The ' +
        '<b>bootstrap</b> assumes neither: resample the sample with replacement many times ({{bootstrap_resamples}} by default, ' +
        'with a reported seed so the result can be reproduced), take the median of each resample, and read the ' +
        '2.5th and 97.5th percentiles of those medians. At n = 5 every resampled median is one of the five ' +
        'values, so the interval’s ends can only fall on, or between neighbouring, values of the sample: a coarse ' +
        'interval. And because z and t are intervals of the mean, on skewed timings they can miss the median for ' +
        'that reason too, however many samples there are.',
      'Worked example, the sample 1, 2, 3, 4, 5, computed by the lab’s core: mean {{example_mean}}, s = {{example_std}}; ' +
        'z gives {{example_z}}, t gives {{example_t}}.',
    ],
    formula:
      'z:         x̄ ± 1.96 · s/√n\n' +
      't:         x̄ ± t(0.975, n − 1) · s/√n        t(0.975, 4) = {{t_quantile_4}}\n' +
      'bootstrap: 2.5th to 97.5th percentile of the medians of resamples drawn with replacement',
    run:
      'Run it: compute the three interval widths for n from 5 to 100 on your own samples, then check coverage: ' +
      'how often each 95% interval from a small sample contains the median of a large reference run.',
    slots: ['intervals'],
  },
  {
    id: 'significance',
    title: 'Significance against effect size',
    paragraphs: [
      'A <b>p-value</b> is the probability of seeing a difference at least as large as the one measured if the ' +
        'two variants were in fact equally fast. It says nothing about how large the difference is. The standard ' +
        'error of a mean is s/√n, so it keeps shrinking as samples are added, and with enough samples a real ' +
        'difference far too small to matter becomes significant. With few samples the opposite happens: with ' +
        'three samples each, the Mann-Whitney test below cannot reach p < 0.05 however large the difference: ' +
        'of the 20 ways to split six values into two groups of three, 2 separate them completely, so its ' +
        'smallest two-sided p-value is 2/20 = 0.1.',
      'So the lab reports an <b>effect size</b> beside every p-value: the ratio of the medians with its bootstrap ' +
        'interval, <b>Cohen’s d</b> (the difference of the means in pooled standard deviations) and <b>Cliff’s ' +
        'delta</b> (over all pairs of one value from each sample, the share in which B’s is larger minus the ' +
        'share in which it is smaller: from −1 to 1, using only the order). Its verdict uses the Mann-Whitney ' +
        'U test, which also uses only the order of the values, because timings are skewed and have outliers; ' +
        'Welch’s t-test is shown beside it. B is called faster or slower only ' +
        'when the test is significant, the ratio’s interval excludes 1 and the ratio differs from 1 by more than a ' +
        'noise threshold ({{threshold_percent}} by default).',
      'Why more than p < α? A p-value says only that the two samples’ orders differ, not by how much. With ' +
        'enough rounds a steady difference of a fraction of a percent becomes significant even between two runs ' +
        'of the same code: each arm has its own buffers and its own batch size, and either can cost a little. ' +
        'The interval asks that the ratio be pinned down away from 1, and the threshold that it be larger than ' +
        'differences of that kind. So the verdict calls a difference only in runs with p < α, never in more runs than p alone.',
    ],
    formula:
      'Cohen’s d = (x̄_B − x̄_A) / s_pooled\n' +
      's_pooled = √( ((n_A − 1)·s_A² + (n_B − 1)·s_B²) / (n_A + n_B − 2) )\n' +
      'Cliff’s δ = P(b > a) − P(b < a)   over all pairs (a from A, b from B)\n' +
      'ratio = median A / median B   (> 1: B is faster)',
    run:
      'Run it: an A/A comparison, the same kernel against itself, repeated many times. There is no true ' +
      'difference, so when the test is sound and nothing drifts about 1 run in 20 still has p < 0.05; core’s ' +
      'verdict, which also asks for the interval and the threshold, calls a difference in no more, usually fewer. ' +
      'Count the runs whose verdict calls one.',
    slots: ['aa'],
  },
  {
    id: 'interleave',
    title: 'Why interleave',
    paragraphs: [
      'A machine drifts while it is measured: the processor heats up and lowers its clock, the power manager ' +
        'raises or lowers it, other tabs and processes come and go. If all of A is measured first and all of B ' +
        'after, any drift over that time is added to the difference between A and B, and nothing in the two ' +
        'samples can tell them apart.',
      'Interleaving measures A and B in alternating rounds, in an order shuffled within each round by a seeded ' +
        'generator, with the same warmup and batching for both. Drift then affects both samples alike, and a ' +
        'trend across the rounds can be detected and reported as a warning instead of being mistaken for a ' +
        'difference.',
    ],
    formula:
      'sequential:  A A A … A  B B B … B\n' +
      'interleaved: [A B] [B A] [A B] [A B] [B A] …   (order within each round shuffled)',
    run:
      'Run it: choose two variants of a matmul or GELU kernel, or two models from the zoo, and compare them ' +
      'interleaved and sequentially; ' +
      'read both verdicts and any drift warning.',
    slots: ['ab'],
  },
  {
    id: 'complexity',
    title: 'Complexity: how time grows with size',
    paragraphs: [
      'Timing a kernel at several sizes and fitting curves tells how its cost grows. As Google Benchmark does, ' +
        'the lab fits time(n) ≈ c·g(n) for each class g by least squares and ranks the classes by the ' +
        '<b>normalized RMS</b> of the residuals: the root mean square of the misfit, divided by the mean time. A ' +
        'separate straight-line fit of ln time against ln n gives the <b>log-log slope</b> b, the exponent of a ' +
        'power law, with an interval.',
      'Real kernels bend these lines. At small sizes fixed costs such as the call and the loop setup flatten the ' +
        'curve; when the working set outgrows a cache level, each operation can get slower and the curve steepens. ' +
        'Fit over the range of sizes you care about, and read the ranking together with the chart.',
      'O(n) and O(n log n) are the hardest pair to tell apart. Over one decade of sizes, n = 1,000 to 10,000, ' +
        'log₂ n grows only from 10 to 13.3, so n log n is n times a factor that changes by a third while the time ' +
        'grows tenfold: its log-log slope over that decade is 1.12 against 1. Fixed costs at the small sizes lower ' +
        'a measured slope by about as much, cache effects at the large sizes raise it, and the slope’s interval ' +
        'from a handful of sizes is often wider than 0.12, so it holds both. Over three decades the slopes still ' +
        'differ by only 0.10, but the interval is about three times narrower. So the lab names a class only when ' +
        'the RMS ranking and the slope’s interval agree on one; otherwise it says that they disagree, or that the ' +
        'data are too close to tell.',
    ],
    formula:
      'classes g(n): 1, log₂ n, n, n log₂ n, n², n³       c = Σ tᵢ·g(nᵢ) / Σ g(nᵢ)²\n' +
      'normalized RMS = √( mean (tᵢ − c·g(nᵢ))² ) / mean tᵢ\n' +
      'log-log: ln t = ln a + b·ln n\n' +
      '  operation counts predict b = 3 for an N×N naive matmul, b = 1 for GELU over n elements\n' +
      '  n log₂ n has slope 1.12 over n = 10³ … 10⁴ and 1.10 over 10³ … 10⁶; n has slope 1',
    run:
      'Run it: sweep the size of several kernels, see the fitted curves on log-log axes and the ranked fits, ' +
      'and compare the slope with the class you expect.',
    slots: ['complexity'],
  },
  {
    id: 'regression',
    title: 'Regressions: baseline against new',
    paragraphs: [
      'A regression check compares a new run with a saved baseline, benchmark by benchmark, with the same ' +
        'statistics as an A/B comparison: old and new median, the change, a p-value and a verdict. A benchmark ' +
        'counts as a regression only when it is significantly slower and slower by more than a threshold you ' +
        'choose, so noise does not fail a build.',
      'On the command line <code>perflab compare BASE.json NEW.json --threshold PCT</code> prints the same ' +
        'table and exits with 1 when any benchmark regressed, 0 otherwise and 2 when a file is malformed, so a ' +
        'continuous-integration job can fail on it. Benchmarks present in only one file are listed, not treated ' +
        'as errors.',
    ],
    formula: 'change = median_new / median_base − 1\nregression: p < α  and  change > threshold',
    run:
      'Run it: save a baseline run in the browser (or load a perflab bench --json file), run again, and read ' +
      'the comparison table and its verdicts.',
    slots: ['regression'],
  },
  {
    id: 'report',
    title: 'Honest reports',
    paragraphs: [
      'An honest report says where it was measured (browser, WebAssembly SIMD or not, clock resolution, ' +
        'cross-origin isolation, logical cores), reports each result as a median with its spread and interval ' +
        'rather than one number, and says what was <b>not</b> measured.',
      'Accuracy is measured only where a model has trained weights and test data: <code>perflab suite</code> ' +
        'evaluates each model file a suite names on Fashion-MNIST’s test split, and this page’s suite evaluates the ' +
        'pretrained fashion_mlp on the same test split (the report says how many images). The zoo models get random weights from their specs’ seeds ' +
        'and no training, so their reports say “not measured: random weights” instead of inventing a figure as the ' +
        'original course’s simulation did. Energy is not measured ' +
        'either, because a web page cannot measure it. The original course computed an energy figure from a ' +
        'formula; it appears in the report only labelled as the original’s estimate. Note what the formula ' +
        'weighs: at 10 ms and 50 MB its memory term is 0.5 J and its latency term 0.02 J.',
    ],
    formula:
      'report: system information · per model and metric: median ± spread, interval, n · what was not measured\n' +
      'the original course’s energy estimate (a formula, not a measurement):\n' +
      '  energy ≈ 0.1 + 2.0·latency_s + 0.01·memory_MB   joules',
    run:
      'Run it: a suite of models by metrics, its report rendered here and downloadable as Markdown, JSON and CSV.',
    slots: ['suite'],
  },
]);
