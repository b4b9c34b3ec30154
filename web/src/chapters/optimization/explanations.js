// The Optimization chapter's explanations, written for this lab: the chapter's aim (accuracy
// against time, size and memory) and its first section, a model worth optimizing: the data,
// training in the browser, and evaluation on the test split. HTML strings (ours, so <code> is
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
    ],
    formula:
      'loss = mean over the batch of −log softmax(logits)[true class]     accuracy = correct / images\n' +
      'samples/s = training images of an epoch / time of its steps     ratio = backward (with the loss) / forward',
    run: 'Train the model (or load the pretrained baseline), then read its confusion matrix: which classes does it confuse, and why?',
    slots: ['model'],
  },
]);
