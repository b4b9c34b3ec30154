// The Optimization chapter's explanations, written for this lab: the chapter's aim (accuracy
// against time, size and memory) and its first section, a model worth optimizing: the data,
// training in the browser, evaluation on the test split and a look at the weights. HTML strings (ours, so <code> is
// safe). A {{name}} is a number from the data's manifest or from core (facts.js says which);
// the chapter shell fills it in. Every number about a run is written by the views from what
// core measured. Pure data. Not for: numbers of this machine (the views show them).

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
]);
