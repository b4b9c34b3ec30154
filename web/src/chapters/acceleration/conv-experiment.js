// The direct-vs-im2col convolution experiment (acceleration-conv): core's convolution sizes,
// each computed by the direct loops and by im2col + matmul, verified then timed by core's
// timer, with the bytes the unfolded matrix costs; and, above it, core's im2col and col2im
// run on a 3×3 image so the layout can be read before it is timed.
// Not for: running, drawing or timing (the framework, the charts and core do).

import { declaredSweep, labOf } from '../../lab/client.js';
import { buildControl } from '../../experiments/model.js';
import { countWord } from '../../ui/format.js';
import { variantList } from './machine.js';
import { CSV_COLUMNS, TABLE_COLUMNS, convComparison, convPoints, shapeName, withSpeedup } from './conv-data.js';

const WHERE = 'acceleration-conv-run';
// The worked example: the original course's 3×3 image unfolded with a 2×2 kernel.
const EXAMPLE = Object.freeze({ x: [1, 2, 3, 4, 5, 6, 7, 8, 9], shape: [1, 3, 3], kernel: 2, stride: 1, padding: 0 });

/** A small table of a (rows, cols) matrix as core returned it ({shape, data}). */
function matrixTable(h, { shape, data }, caption) {
  const [rows, cols] = shape.length === 3 ? [shape[1], shape[2]] : shape;
  return h(
    'table',
    { class: 'matrix' },
    h('caption', { text: caption }),
    h(
      'tbody',
      {},
      ...Array.from({ length: rows }, (_, r) =>
        h('tr', {}, ...Array.from({ length: cols }, (_, c) => h('td', { text: String(data[r * cols + c]) }))),
      ),
    ),
  );
}

/** Core's im2col of the example and col2im of a matrix of ones, side by side. */
async function workedExample(bridge, h) {
  const lab = labOf(bridge);
  const { x, shape, kernel, stride, padding } = EXAMPLE;
  const col = await lab.im2col(Float32Array.from(x), shape, kernel, stride, padding, { where: WHERE });
  const ones = Float32Array.from({ length: col.data.length }, () => 1);
  const covered = await lab.col2im(ones, col.shape, shape, kernel, stride, padding, { where: WHERE });
  return h(
    'div',
    { class: 'im2col-example', 'data-role': 'im2col-example' },
    matrixTable(h, { shape, data: x }, 'The image (3×3)'),
    matrixTable(h, col, `im2col, 2×2 kernel: (${col.shape.join(' × ')}), one column per output`),
    matrixTable(h, covered, 'col2im of ones: how many patches read each pixel'),
  );
}

export const convExperiment = {
  id: 'acceleration-conv',
  title: 'Experiment: direct convolution vs im2col + matmul',
  explanation: [
    'Each size is computed twice on the same random image and weights: by the direct loops, and by ' +
      'im2col followed by one matrix product. Both are checked against a double-precision reference ' +
      'before they are timed. The table shows what each took, im2col’s speedup over the loops, and the ' +
      'memory: the unfolded matrix core counted, and the peak the tracking allocator saw during one call.',
    'Above the run, core’s own im2col unfolds a 3×3 image with a 2×2 kernel: every column is one ' +
      'output’s patch, so pixel 5, which four patches read, is copied four times. col2im, the backward ' +
      'pass’s step, adds the columns back and counts those copies.',
  ],
  quickNote: ({ info }) => info?.quickPlan && `Quick mode (?quick=1): ${countWord(info.quickPlan.length)} sizes only, small budgets.`,
  controls: [buildControl()],

  async init({ bridge, slot, h }) {
    const lab = labOf(bridge);
    const methods = await lab.convMethods({ where: WHERE });
    // Core's one plan of this experiment: the sizes and each point's Timer options.
    const { sizes: plan, options } = await lab.experimentPlan('acceleration-conv', false, { where: WHERE });
    const { sizes: quickPlan, options: quickOptions } = await lab.experimentPlan('acceleration-conv', true, { where: WHERE });
    slot.replaceChildren(variantList(h, methods), await workedExample(bridge, h));
    return { methods: methods.map((m) => m.name), plan, quickPlan, options, quickOptions };
  },

  plan: convPoints,
  measure: declaredSweep('measureConv'),
  pointLabel: (p) => `${p.method} on ${shapeName(p.shape)}`,
  derive: withSpeedup,
  // Not core's verdict: a comparison of the complete rows, after the run.
  analyze: async (rows) => convComparison(rows),
  renderAnalysis: (analysis, { h }) => analysis.sentences.map((text) => h('p', { 'data-role': 'conv-comparison', text })),

  columns: TABLE_COLUMNS,
  tableCaption:
    'Every measured point; times are per convolution (one image). Speedup = the direct loops’ median ÷ this ' +
    'method’s, at the same size. Peak memory is what the method allocated during one call, its output included.',
  csv: { filename: 'perflab-acceleration-conv.csv', columns: CSV_COLUMNS },

  charts: [
    {
      type: 'bar',
      title: 'Rate of each method (FLOPs per second)',
      options: ({ info }) => ({
        x: 'label',
        y: 'gflops_per_s',
        series: 'method',
        seriesDomain: info?.methods,
        mode: 'grouped',
        xLabel: 'Convolution (channels in→out, kernel, image)',
        yLabel: '↑ GFLOP/s (2·F·Ho·Wo·C·k² ÷ median)',
        ariaLabel: 'GFLOP/s of one convolution by each method, grouped by size',
        emptyText: 'Press Run to measure.',
      }),
      data: (rows) => rows.map((r) => ({ label: r.label, method: r.method, gflops_per_s: r.gflops_per_s })),
    },
    {
      type: 'bar',
      title: 'What im2col’s unfolded matrix costs: times the image’s bytes',
      name: 'memory',
      options: () => ({
        x: 'label',
        y: 'col_to_input',
        xLabel: 'Convolution (channels in→out, kernel, image)',
        yLabel: '↑ Unfolded matrix’s bytes ÷ the image’s (×)',
        ariaLabel: 'Bytes of im2col’s unfolded matrix as a multiple of the input image’s, per size',
        emptyText: 'Press Run to measure.',
        height: 240,
      }),
      data: (rows) => rows.filter((r) => r.method === 'im2col').map((r) => ({ label: r.label, col_to_input: r.col_to_input })),
    },
  ],
};
