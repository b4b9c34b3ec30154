// The Profiling chapter's explanations, written for this lab: counting parameters, FLOPs and
// bytes, timing honestly, size and batch, the roofline in one line, architectures and
// attention, and training's backward pass and memory, each with its formula and what the
// student runs at its end. HTML strings (ours, so <code> is safe).
// Pure data: the chapter shell (../shell.js) writes it and mounts each section's experiments (index.js) after its text.
// Not for: numbers of this machine (core's profiler measures them).

export const INTRO = [
  'This chapter counts and measures models on your CPU: parameters and FLOPs from the layer sizes, then ' +
    'latency, peak memory and the backward pass by running them. Where the original course used a rule of ' +
    'thumb (activations ≈ input × 2, backward ≈ 2 × forward, efficiency against an assumed 100 GFLOP/s), ' +
    'the lab measures, and shows the rule beside the measurement so you can judge it.',
];

// Each section: a heading, paragraphs (HTML written for this lab), an optional formula
// block and the line saying what to run; index.js says what each section mounts.
export const SECTIONS = Object.freeze([
  {
    id: 'counting',
    title: 'Count first: parameters, FLOPs and bytes',
    paragraphs: [
      'Before anything is timed, a model’s cost can be counted exactly from its layer sizes. A Linear layer ' +
        'with <i>in</i> inputs and <i>out</i> outputs stores a weight for every input–output pair plus one bias per ' +
        'output, and for each sample it does one multiply and one add per weight. That is a multiply-accumulate; ' +
        'this lab counts it as 2 FLOPs and leaves bias adds and element-wise work in a separate breakdown.',
      'Every number is a float32, so memory is 4 bytes per number: parameters, gradients, and every layer output ' +
        '(the activations, which grow with the batch).',
    ],
    formula:
      'Linear(in, out):   parameters = in·out + out        FLOPs per sample = 2·in·out\n' +
      'Conv2d(Cin, Cout, k): parameters = k²·Cin·Cout + Cout   FLOPs per sample = 2·k²·Cin·Cout·Hout·Wout\n' +
      'FLOPs per batch = FLOPs per sample × batch            memory = 4 bytes × count',
    run:
      'Try it: load linear_128_64 from the zoo and press Profile. Check 128·64 + 64 = 8,256 parameters and ' +
      '2·128·64 = 16,384 FLOPs per sample, then change "out" in the editor and predict the new numbers first.',
  },
  {
    id: 'latency',
    title: 'Timing honestly: latency statistics',
    paragraphs: [
      'One timing is an anecdote. The timer first runs the model a few times untimed (warm-up: caches, lazily ' +
        'allocated buffers), then repeats it until each sample lasts at least {{resolution_multiple}} ticks of the clock, and reports ' +
        'the time per call over many samples. Browsers blur their clocks to between 5 µs and 1 ms, so a short call ' +
        'timed once would read as 0.',
      'Report the <b>median</b>: one slow sample (another tab, a garbage collection) moves the mean but not the ' +
        'median. Its <b>95% confidence interval</b> says how far the median could move if you measured again; ' +
        '<b>p95</b> describes the slow tail a user would feel; the coefficient of variation ' +
        '<code>CV = stddev / mean</code> above about 10% means small differences are noise.',
    ],
    formula: 'median = middle sample   CV = stddev / mean   GFLOP/s = FLOPs per batch / (median ms × 10⁶)',
    run:
      'Try it: profile the same model twice and compare the medians against their intervals. Then measure what ' +
      'the profiler itself costs:',
  },
  {
    id: 'scaling',
    title: 'Size and batch',
    paragraphs: [
      'Widening the hidden layers of an MLP from h to 2h multiplies the middle layers’ parameters and FLOPs by ' +
        'four. If the CPU kept the same GFLOP/s, time would grow by four too; in practice small layers run below ' +
        'the machine’s speed and large ones closer to it.',
      'The batch does not change the FLOPs per sample, but it changes how well they run: the weights are read ' +
        'once per batch, so a bigger batch spreads that traffic over more samples. Latency per batch rises, ' +
        'throughput <code>= batch / latency</code> rises until the CPU is saturated, and activation memory grows ' +
        'in proportion to the batch.',
    ],
    formula: 'MLP with d hidden layers of width h: parameters ≈ d·h² (h large)   throughput = batch / median latency',
    run: 'Run both and compare: where does doubling the work stop doubling the time?',
  },
  {
    id: 'roofline',
    title: 'Compute-bound or memory-bound: the roofline in one line',
    paragraphs: [
      'A kernel needs FLOPs and bytes. Its arithmetic intensity is FLOPs per byte moved. This machine can do at ' +
        'most its peak GFLOP/s, and can move at most its bandwidth in GB/s, so the best it can reach is the ' +
        'lower of the two roofs below. An element-wise add does 1 FLOP per 12 bytes (two reads, one write): ' +
        'memory-bound on any CPU. A large matmul reuses every number it loads N times: compute-bound. The ' +
        'profiler’s "bottleneck" row judges a whole model this way against roofs it measured on your CPU.',
    ],
    formula: 'attainable GFLOP/s = min(peak GFLOP/s, intensity FLOP/byte × bandwidth GB/s)   ridge = peak / bandwidth',
    run: 'Run it: element-wise, reductions and matmul on one chart, each placed against your roofs.',
  },
  {
    id: 'architectures',
    title: 'Architectures and attention',
    paragraphs: [
      'The same number of parameters can cost very different amounts of compute: what matters is how often each ' +
        'weight is used per sample. Attention adds a cost that depends on no weight at all: every token looks at ' +
        'every other one, so its scores grow with the square of the sequence length.',
    ],
    formula: 'attention: projections 8·T·D²   scores and P·V 4·T²·D   score matrix 4 bytes × heads·T²',
    run: 'Run both: first compare the architectures, then find the sequence length where attention’s quadratic term takes over.',
  },
  {
    id: 'training',
    title: 'Training: the backward pass and its memory',
    paragraphs: [
      'Training adds a backward pass, which computes gradients for the weights and for the inputs of every layer ' +
        'but the first (nothing reads the first layer’s input gradient): between once and twice the forward’s ' +
        'matmul work, which the original course estimates as twice. It also needs memory the forward pass did not: a gradient for every parameter, ' +
        'the optimizer’s state, and the activations each layer kept for its backward.',
    ],
    formula:
      'backward FLOPs = every dW + dx of every layer but the first   (estimate: ≈ 2 × forward, FLOPs and roughly time)\n' +
      'training memory ≈ parameters + gradients + optimizer state + kept activations\n' +
      'SGD: 0 extra copies   momentum: 1   Adam / AdamW: 2   →  with Adam ≈ 4 × parameter bytes + activations',
    run: 'Run both: test the 2× estimate on your CPU, then see which part of a training step’s memory dominates.',
  },
]);
