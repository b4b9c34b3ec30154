// The KV cache experiment (optimization-kv-cache): greedy generation by core's small decoder
// with random weights, recomputing the whole prefix at every step against reading past keys
// and values from the cache, at each generated length of core's plan (measureKvCache: both
// generations verified identical, then timed interleaved, with their FLOPs counted). Not for:
// measuring, counting or judging (core), or drawing (the framework's charts).

import { declaredSweep } from '../../lab/client.js';
import { experimentPlans } from '../../experiments/plans.js';
import { formatList } from '../../ui/format.js';
import { CSV_COLUMNS, KV_ID, RATE_SERIES, SPEEDUP_SERIES, TABLE_COLUMNS, decoderText, kvPoints, kvSentences, rateRows, speedupRows } from './kv-cache-data.js';

export const kvCacheExperiment = {
  id: KV_ID,
  title: 'Experiment: generation with and without the cache',
  explanation: ({ info }) => [
    'Core builds a small decoder-only transformer' +
      (info?.plan ? ` (${decoderText(info.plan.decoder)})` : '') +
      ' with random weights, and generates greedily after a seeded random prompt' +
      (info?.plan ? ` of ${info.plan.prompt} tokens` : '') +
      '. The weights are random on purpose: the tokens are meaningless, and the point is what each step costs, ' +
      'which does not depend on what the weights say.',
    'At each length core first checks that both generations give the same tokens and the same last logits, then ' +
      'times whole generations, one recomputed and one cached per round, and counts the matmul FLOPs each ran.',
  ],
  quickNote: ({ info }) => info?.plan && `Quick mode (?quick=1): lengths ${formatList(info.plan.lengths.map(String))} only, small budgets.`,
  controls: [],
  init: ({ bridge, quick }) => experimentPlans(bridge, KV_ID, quick),
  plan: (values, ctx) => kvPoints(ctx.info),
  measure: declaredSweep('measureKvCache'),
  pointLabel: (p) => `${p.tokens} new tokens`,
  analyze: async (rows) => ({ sentences: kvSentences(rows) }),
  renderAnalysis: (a, { h }) => a.sentences.map((text) => h('p', { 'data-role': 'kv-sentence', text })),
  columns: TABLE_COLUMNS,
  tableCaption:
    'One row per length: both generations timed on the same prompt; speedup = recompute ÷ cached median, ' +
    'FLOP ratio = recompute FLOPs ÷ cached FLOPs over the whole generation.',
  csv: { filename: 'perflab-optimization-kv-cache.csv', columns: CSV_COLUMNS },
  charts: [
    {
      type: 'line',
      title: 'How much faster the cache makes a whole generation, beside how many fewer FLOPs it runs',
      data: (rows) => speedupRows(rows),
      options: {
        x: 'tokens',
        y: 'value',
        series: 'series',
        seriesDomain: [...SPEEDUP_SERIES],
        xType: 'log',
        yType: 'log',
        xLabel: 'New tokens generated (log scale) →',
        yLabel: '↑ recompute ÷ cached (log scale)',
        yReferences: [{ y: 1, label: 'no gain' }],
        ariaLabel: 'The measured speedup of the cached generation and the ratio of the FLOPs, against the tokens generated',
        emptyText: 'Press Run to measure.',
      },
    },
    {
      type: 'line',
      title: 'Tokens per second of each generation',
      data: (rows) => rateRows(rows),
      options: {
        x: 'tokens',
        y: 'value',
        series: 'series',
        seriesDomain: [...RATE_SERIES],
        xType: 'log',
        yType: 'log',
        xLabel: 'New tokens generated (log scale) →',
        yLabel: '↑ tokens per second (log scale)',
        ariaLabel: 'Tokens per second of the recomputed and the cached generation, against the tokens generated',
        emptyText: 'Press Run to measure.',
      },
    },
  ],
};
