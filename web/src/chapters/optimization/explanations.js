// The Optimization chapter's explanations, written for this lab: the chapter's aim (accuracy
// against time, size and memory) and its sections: a model worth optimizing (the data,
// training in the browser, evaluation on the test split and a look at the weights), pruning,
// structured pruning and distillation. HTML strings (ours, so <code> is
// safe). A {{name}} is a number from the data's manifest or from core (facts.js says which);
// the chapter shell fills it in. Every number about a run is written by the views from what
// core measured. The Olympics' explanation is olympics-text.js's, the last section.
// Pure data. Not for: numbers of this machine (the views show them).

import { OLYMPICS_SECTION } from './olympics-text.js';

export const INTRO = [
  'The other chapters made models faster without asking whether they still work. This one puts the missing ' +
    'number back: <b>accuracy</b>. Every optimization of a model trades something (time, size, memory) and may ' +
    'cost accuracy, so a speed-up is only a result if the accuracy is measured beside it, on data the model ' +
    'never trained on.',
  'For that the lab needs a model that has learned something real. This chapter starts by training one, in ' +
    'your browser, with the lab’s C++ core: the same trainer the native command line ' +
    '<code>perflab train</code> runs.',
];

export const SECTIONS = Object.freeze([
  {
    id: 'model',
    title: 'A model worth optimizing',
    paragraphs: [
      '<b>The data.</b> Fashion-MNIST (Zalando Research, 2017) is a set of grey photographs of clothing, ' +
        '{{rows}}×{{cols}} pixels each: {{train_count}} training images and {{test_count}} test images, ' +
        'each labelled with its class. The lab reads it from Debian’s <code>dataset-fashion-mnist</code> package (MIT licence); the page ' +
        'build puts the package’s files beside the page, and nothing is fetched from anywhere else.',
      'Nothing is fetched when the page opens. Before the first training or evaluation the chapter fetches at ' +
        'most {{first_use_mb}}: the test split, a training subset (the first {{subset_count}} training images) ' +
        'and the pretrained model. The full training split ({{full_train_mb}}) is fetched only if you ask for ' +
        'more training images than the subset holds. Core reads the files and checks every header, count and label.',
      '<b>Training.</b> The model is <code>fashion_mlp</code> from the lab’s zoo, a multilayer perceptron ' +
        '{{model_widths}} with ReLU between its layers and one logit per class. Core’s baseline recipe trains it ' +
        'with {{optimizer}} at a learning rate of {{learning_rate}} ({{schedule}} schedule), batches of {{batch}}, for {{epochs}} epochs, and keeps ' +
        'a tenth of the training images aside for validation, at most {{validation_samples}} (core’s default; the ' +
        'Validation images box shows the number when training starts): the curves show loss and accuracy on both ' +
        'after every epoch. Training runs in the lab worker a few steps at a time, so the page stays ' +
        'responsive and Cancel stops between chunks, keeping the epochs already finished.',
      'Core times every step in four parts: the forward pass, the backward pass with the loss, the optimizer ' +
        'step, and building the batch. The Profiling chapter estimated the backward as about twice the forward; ' +
        'here you see what it costs on your machine.',
      '<b>Evaluation.</b> Accuracy is measured on the test images, which training never sees. The confusion ' +
        'matrix shows which classes the model mixes up, and the misclassified images show why some are hard. ' +
        'The pretrained baseline (the same model and recipe, trained by the page’s build on the full training ' +
        'split less the validation images it holds out) lets you start optimizing without waiting for training.',
      '<b>Look at the weights.</b> Before pruning a model, look at what pruning would remove. After each ' +
        'evaluation core describes the evaluated model’s weight tensors (biases left out): count, mean, standard ' +
        'deviation, extremes, the magnitude below which 10, 50 and 90 percent of the weights lie, and how many are ' +
        'nearly zero. Magnitude pruning removes the smallest weights first, so the median magnitude is the cut of ' +
        '50% sparsity; the histogram marks it.',
    ],
    formula:
      'loss = mean over the batch of −log softmax(logits)[true class]     accuracy = correct / images\n' +
      'samples/s = training images of an epoch / time of its steps     ratio = backward (with the loss) / forward',
    run: 'Train the model (or load the pretrained baseline), then read its confusion matrix: which classes does it confuse, and why?',
    slots: ['model'],
  },
  {
    id: 'sparsity',
    title: 'Pruning: when do zeros pay?',
    paragraphs: [
      '<b>Magnitude pruning</b> sets the smallest weights to zero: per weight tensor (each loses the same fraction) or ' +
        'globally (one threshold over all of them, so a layer full of small weights loses more). ' +
        '<code>perflab prune MODEL --sparsity 0.5 --out pruned.plm</code> does it to a model file and measures the ' +
        'test accuracy before and after; <code>--finetune 2</code> trains two more epochs with the zeros held at zero.',
      'A zero only saves time if the kernel skips it. A dense matmul multiplies every zero like any other weight. A ' +
        '<b>sparse</b> kernel stores only the kept weights: CSR (compressed sparse row) keeps, for each output, the ' +
        'value and the input index of every kept weight, plus where each output’s list starts. That is 8 bytes per ' +
        'kept weight against 4 per dense weight, so at 50% density CSR reads as many weight bytes as the dense matrix. ' +
        'Each multiply also follows an index, and the inputs one output reads are scattered, so the kernel cannot load ' +
        'four neighbouring inputs at once as the dense kernel does; the batched variant takes its SIMD lanes from ' +
        'sixteen images instead.',
      'Where the line crosses 1× depends on what limits the dense kernel. For a batch of images it keeps each weight it ' +
        'loads in a register and uses it for many rows with SIMD, so its multiplies are cheap; each sparse multiply ' +
        'costs more, and 50% sparse can be slower than dense: the sparse kernel has to skip about half the weights or ' +
        'more to break even. For one image the dense product reads every weight for a single multiply-add: it waits on ' +
        'weight bytes (and the lab’s packed kernel also copies the weights into its own layout at every call, which one ' +
        'image cannot pay back), so reading fewer bytes pays up to a higher density. The naive CSR loop, one batch row ' +
        'and one sum at a time, shows what the batched one gains.',
    ],
    formula:
      'density d = kept weights / all weights     sparsity = 1 − d\n' +
      'dense bytes = 4·K·N     CSR bytes = 8·d·K·N + 4·(N + 1)     dense FLOPs = 2·B·K·N     sparse FLOPs = 2·B·d·K·N',
    run: 'Sweep the density at batch 64, then at batch 1, with both kernels: where does each cross 1×, and why does the batch move the crossover?',
    slots: ['sparsity'],
  },
  {
    id: 'structured',
    title: 'Structured pruning: remove whole units',
    paragraphs: [
      '<b>Structured pruning</b> removes whole hidden units instead of single weights. A unit of a Linear layer is one ' +
        'of its outputs: a row of the layer’s weight matrix (its incoming weights) with its bias, and the column of the ' +
        'next layer’s weights that reads it. Core ranks each hidden layer’s units by the L2 norm of their incoming ' +
        'weights, √(Σ w²), and removes the same fraction of every hidden layer, smallest norm first: a unit whose ' +
        'incoming weights are all small gives a small output whatever the image. The last layer keeps one output per class.',
      'Nothing here needs a sparse format: the layers really shrink. The pruned model is a smaller dense MLP, so the same ' +
        'dense kernel does less work and reads fewer bytes, with none of CSR’s index overhead. Each removed unit takes ' +
        'a row out of its own layer and a column out of the next, so a matrix between two pruned layers keeps k² of its ' +
        'weights when each keeps a fraction k of its units, and the first and last layers keep k. The table under the ' +
        'experiment gives core’s count of parameters, bytes and FLOPs before and after.',
      '<b>Why fine-tune.</b> The units that stay were trained together with the removed ones: the next layer now ' +
        'receives fewer inputs than it learned to combine, and the accuracy drops. A few epochs of training from the ' +
        'pruned weights let the rest adapt. Core fine-tunes with the baseline’s own recipe at its full learning rate ' +
        '(after magnitude pruning it uses a tenth, with the zeros held). The curve shows the test accuracy after each ' +
        'epoch against the baseline’s, the line to reach. <code>perflab prune MODEL --sparsity 0.5 --structured ' +
        '--finetune 2</code> does the same natively, on the whole training split.',
      '<b>Is it faster?</b> Fewer FLOPs predict a speedup only when the multiplies dominate a forward pass. Core times ' +
        'the baseline’s forward and the pruned one in interleaved rounds on the same input (the Benchmarking chapter’s ' +
        'A/B), at one image and at a batch, and compares the speedup with the FLOP ratio.',
    ],
    formula:
      'Linear K→N: FLOPs per image = 2·K·N     parameters = K·N + N     bytes = 4 × parameters\n' +
      'keep a fraction k of each hidden layer’s units: hidden→hidden K·N → k²·K·N     input→hidden, hidden→output ×k\n' +
      'unit j’s score = ‖W[j, :]‖₂ = √(Σᵢ W[j, i]²)     removed: the round(f · N) lowest scores (f = fraction removed)',
    run: 'Remove half the hidden units and fine-tune: how many epochs until the pruned model is within a point of the baseline? Does the measured speedup reach the FLOP ratio at batch 1, and at batch 64?',
    slots: ['structured'],
  },
  {
    id: 'distillation',
    title: 'Distillation: a small student taught by the baseline',
    paragraphs: [
      '<b>Knowledge distillation</b> trains a small model, the student, to imitate a larger trained one, the teacher. ' +
        'A label says only which class is right. The teacher’s outputs also say how it ranks the wrong ones (this shirt ' +
        'looks a little like a T-shirt and nothing like a sneaker), which the labels never tell. Hinton, Vinyals and Dean ' +
        '(2015) soften both models’ outputs with a temperature T and train the student to match the teacher’s softened ' +
        'distribution, mixed with the usual cross-entropy on the labels.',
      'The temperature divides the logits before the softmax: at T = 1 each model gives its own probabilities, a larger T ' +
        'flattens them so that the small probabilities of the wrong classes weigh more. The soft term is multiplied by ' +
        'T², which keeps its gradient the same size whatever T. α weighs the two terms: α = 0 is training on the labels ' +
        'alone. Core’s defaults are T = {{distill_temperature}} and α = {{distill_alpha}}, chosen by measuring with this ' +
        'teacher and student rather than taken from the literature’s usual T of 2 to 8: with the command line ' +
        '(<code>perflab distill … --temperature T</code>, three seeds each) T = 2 and T = 3 ended behind the labels alone ' +
        'and T = 1 ahead; the lab’s docs/PERFORMANCE.md lists each run. Try it: the command takes as teacher the model file ' +
        'the first section’s “Download the model file” button writes.',
      'The experiment trains core’s default student twice, with the same seed, recipe and images: once on the ' +
        'baseline’s outputs with the labels, once on the labels alone. Only the loss differs, so the difference of their ' +
        'test accuracies is the teacher’s doing, plus what chance puts into one run. The teacher’s logits of the training ' +
        'images are computed once, before the first step. <code>perflab distill TEACHER --student SPEC.json --out ' +
        'FILE</code> does the same natively.',
    ],
    formula:
      'L = α · T² · KL(softmax(t/T) ‖ softmax(s/T)) + (1 − α) · CE(softmax(s), y)     (mean over the batch)\n' +
      'KL(p ‖ q) = Σ_c p_c · log(p_c / q_c)     s: the student’s logits, t: the teacher’s, y: the label\n' +
      'dL/ds = α · T · (softmax(s/T) − softmax(t/T)) + (1 − α) · (softmax(s) − one_hot(y))     (per image, ÷ batch)',
    run: 'Train both students and compare their curves: is the distilled one ahead at every epoch, or only at the end? How large is the difference against what one seed can decide?',
    slots: ['distillation'],
  },
  {
    id: 'kv-cache',
    title: 'Memoization: the KV cache',
    paragraphs: [
      'A language model writes one token at a time: each new token is chosen from the logits of the last position, ' +
        'appended, and the model runs again. Run naively, every step pushes the <b>whole prefix</b> through the model ' +
        'again, although nothing about the earlier positions has changed. Attention is causal: a position attends ' +
        'only to itself and the positions before it, so its key and value, once computed, never change. Keeping them ' +
        'is memoization, and the stored keys and values are the <b>KV cache</b>: a step then runs only the newest ' +
        'token through the projections and the MLP, and its query reads every cached key and value.',
      'Count over a whole generation of n tokens. Without the cache, step s runs about s positions through every ' +
        'projection, so the projections cost 1 + 2 + … + n, which grows as n²; its attention compares each of the s ' +
        'positions with the ones before it, about s²/2 pairs, and summed over the steps that grows as n³. With the ' +
        'cache each step runs one position: the projections grow as n and the attention (one query against s keys) ' +
        'as n². The ratio of the FLOPs therefore grows with n, and the experiment puts the measured speedup beside it.',
      'The price is memory. Every layer keeps a key and a value of d_model floats for every position, so the cache ' +
        'grows linearly with the sequence while the weights stay fixed. For a long context, or many sequences served ' +
        'at once, the cache and not the weights fills memory: a 7B model in float16 (32 layers, d_model 4096) keeps ' +
        '2·32·4096·2 bytes = 512 KiB per position, so 32,768 positions need 16 GiB, more than its weights (7 billion × 2 bytes = 14 GB, 13 GiB). That is ' +
        'why servers cap the context, share or quantize the cache, and page it. The table gives the cache’s bytes at ' +
        'each length of your run.',
      'The measured speedup falls short of the FLOP ratio, and the sentence under Run says by how much. Recompute ' +
        'multiplies many rows by each weight matrix, which keeps the SIMD units busy; a cached step multiplies a single ' +
        'row, which waits on each multiply-add and on the weights’ bytes, so it runs fewer FLOPs per second.',
    ],
    formula:
      'FLOPs over a generation of n tokens after a prompt of p, L layers, d_model D, d_ff F, vocabulary V:\n' +
      '  recompute  step s runs T_s = p + s − 1 positions:  projections L·(8D² + 4DF)·Σ_s T_s + n·2DV ~ n²\n' +
      '                                                     attention 4DL·Σ_s T_s(T_s + 1)/2 ~ n³\n' +
      '  cached     N = p + n − 1 positions, each once:     projections L·(8D² + 4DF)·N + n·2DV ~ n\n' +
      '                                                     attention 4DL·N(N + 1)/2 ~ n²\n' +
      'cache bytes = 2 (key, value) · L · positions · D · 4 bytes (float32)',
    run: 'Run it: where does the speedup pass 10×, and how far below the FLOP ratio does it stay at the longest length? From the table, how much memory would the cache need at the context’s end?',
    slots: ['kvCache'],
  },
  {
    id: 'quantization',
    title: 'Quantization: int8 after training',
    paragraphs: [
      '<b>Post-training quantization</b> stores a trained model’s weights as 8-bit integers and runs its Linear ' +
        'layers in integer arithmetic, without training again. <code>perflab quantize MODEL --int8 --out MODEL</code> ' +
        'does it to a model file; the experiment below does it to your baseline, or to a model made from it.',
      '<b>Weights: symmetric, one scale per output channel.</b> Each output n of a Linear gets its own scale, the ' +
        'largest magnitude of its weights divided by 127, and each weight becomes the integer nearest to w / scale, ' +
        'from −127 to 127. Zero stays exactly zero, and rounding moves a weight by at most half a scale. Why per ' +
        'channel: one scale for the whole matrix is set by its single largest weight, so a channel of small weights ' +
        'would land on a handful of codes; with its own scale every channel uses the whole range.',
      '<b>Activations: unsigned, with a zero point.</b> A Linear’s input is quantized at every call to codes 0 to 255 ' +
        'over a range [lo, hi] fixed in advance by <b>calibration</b>: core runs the float model on the first training ' +
        'images and records each Linear’s input range. The range is widened to include 0, the scale is (hi − lo) / 255, ' +
        'and the zero point is the code of 0. Inside the range a value moves by at most half a scale; outside it is ' +
        'clipped to lo or hi. The products are summed exactly in 32-bit integers and converted back to float once per ' +
        'output, with the bias added in float.',
      '<b>Min/max against percentile calibration.</b> Min/max takes the smallest and largest input seen, so one rare ' +
        'outlier stretches the range and coarsens the scale for every ordinary value. Percentile calibration takes a ' +
        'high percentile of the inputs instead: the scale is finer for the bulk, at the price of clipping the few ' +
        'values beyond it. Which wins depends on how heavy the tails are: the per-layer table shows each calibrated ' +
        'range, and the accuracy row says what it cost.',
      'The parameter bytes are counted as stored: one byte per weight code, plus a float32 scale and a float32 bias per ' +
        'output. The layers between the Linears (ReLU here) stay float32, so each Linear quantizes its input again.',
    ],
    formula:
      'weights, per output n:  scale_n = max_k |W[n,k]| / 127     q = round(W[n,k] / scale_n) ∈ [−127, 127]\n' +
      '                        |W[n,k] − q·scale_n| ≤ scale_n / 2\n' +
      'activations:  lo ≤ 0 ≤ hi     s = (hi − lo) / 255     z = round(−lo / s)\n' +
      '              code = clamp(round(x / s) + z, 0, 255)     |x − (code − z)·s| ≤ s / 2 inside [lo, hi]\n' +
      'y[b,n] = s · scale_n · Σ_k (code[b,k] − z) · q[n,k] + bias[n]     (the sum in int32)\n' +
      'int8 parameter bytes = Σ over Linears (K·N codes + 4·N scale + 4·N bias)     float32 = 4 · parameters',
    run: 'Quantize the baseline with both calibrations: how many accuracy points does each cost, which layer moves most, and is the int8 forward faster at batch 1, at batch 64? Then pick a pruned model as the Model and quantize it too: transforms compose (prune → fine-tune → quantize, the order of the original course’s milestone), and each result carries its lineage to the frontier below.',
    slots: ['quantization'],
  },
  {
    id: 'int8-roofline',
    title: 'Int8 on the roofline',
    paragraphs: [
      'An int8 Linear stores each weight as a 1-byte code with one float scale per output, turns the input into 8-bit ' +
        'codes with a scale and a zero point, sums the code products exactly in 32-bit integers, and converts each sum ' +
        'back to float once. Two things can make it faster than float32: the weights are a quarter of the bytes, and ' +
        'SIMD integer instructions multiply more pairs per instruction (SSE2’s <code>pmaddwd</code> and wasm’s ' +
        '<code>i32x4.dot_i16x8_s</code> multiply eight 16-bit pairs and add neighbours, where a float32 vector ' +
        'multiplies four). Two things cost: quantizing the input at every call, and the conversions.',
      'Which of them matters is what the roofline says. Fewer bytes for the same operations move a kernel to the right, ' +
        'to a higher arithmetic intensity. That pays when the float kernel sat under the slanted roof, waiting on ' +
        'memory. With a large batch each weight is reused by every row, which puts the float matmul far to the right; ' +
        'where that is right of the ridge, saving bytes buys nothing, and any gain must come from doing the arithmetic ' +
        'faster. A layer with few outputs moves mostly activations, which int8 does not shrink here.',
      'Each kernel has its own flat roof. The lab’s machine probe measures two compute peaks: float32 multiply-adds ' +
        '(multiply, then add, in registers) and the int8 kernel’s own instruction pair (the 16-bit multiply-add of ' +
        'eight pairs, then the add, in registers). Their ratio is how much faster int8 would be if both kernels ran at ' +
        'their roofs; it depends on the CPU (how many float adders and integer multipliers it has) and on the engine ' +
        'that compiled the wasm. A measured speedup above that ratio means the float kernel ran further below its ' +
        'roof than int8 below its own.',
    ],
    formula:
      'y = x·W:  x (B, K), W (K, N)     operations = 2·B·K·N for both kernels\n' +
      'bytes float32 = 4·B·K + 4·K·N + 4·B·N     bytes int8 = 4·B·K + (K rounded up to 16)·N + 8·N + 4·B·N\n' +
      'intensity = operations / bytes     attainable = min(peak of the kernel’s type, intensity × bandwidth)\n' +
      'speedup = int8 rate / float32 rate = (integer peak / float peak) × (int8 fraction of its roof / float32 fraction of its own)',
    run: 'Run it: which layer gains most from int8, and does its point move right, up, or both?',
    slots: ['int8Roofline'],
  },
  {
    id: 'pareto',
    title: 'The Pareto frontier of your models',
    paragraphs: [
      'Every optimization in this chapter made a model that is smaller, faster or more accurate than another, rarely ' +
        'all three. To choose, put them side by side: a model is <b>dominated</b> when another is at least as cheap ' +
        'and at least as accurate, and better in one of the two. The models no other dominates form the <b>Pareto ' +
        'frontier</b>; every model off it is a bad choice whatever you weigh more, and choosing among those on it is ' +
        'a trade-off only your constraints can settle (a latency budget, a memory limit, an accuracy floor).',
      'Latencies of different models are only comparable when measured together, so core times every model you made ' +
        'in one interleaved run: each round runs every model once, on the same test images, and each model’s latency ' +
        'is the median of its samples. Core marks which points are on each frontier; the baseline is drawn apart.',
    ],
    formula: 'A dominates B  ⇔  cost(A) ≤ cost(B) and accuracy(A) ≥ accuracy(B), one of them strictly\nfrontier = the models no other model dominates',
    run: 'Make models in the sections above (quantize, prune, distil), then time them all: which are on both frontiers, and is the baseline one of them?',
    slots: ['pareto'],
  },
  OLYMPICS_SECTION,
]);
