// The profiling-overhead experiment (profiling-overhead): what the act of profiling costs.
// Not for: planning or columns (overhead-data.js) or measuring (core, via the lab worker).

import { declaredSweep } from '../../lab/client.js';
import { countWord } from '../../ui/format.js';
import { planInit } from './common.js';
import { OVERHEAD_COLUMNS, OVERHEAD_CSV, modelsCaption, overheadPoints } from './overhead-data.js';

export const overheadExperiment = {
  id: 'profiling-overhead',
  title: 'Experiment: profiling overhead',
  explanation: [
    'A profiler is itself code that runs. The ProfilerContext reads the clock twice per layer call, so a ' +
      'model with many small layers pays more, in proportion, than one big matmul. Each model below is timed ' +
      'plainly and with a context recording it; overhead = with context − plain. When the overhead is smaller ' +
      'than the noise it can come out negative: read it next to the confidence intervals.',
  ],
  quickNote: ({ info }) => info?.plan && `Quick mode (?quick=1): ${countWord(info.plan.models.length)} small models with small time budgets.`,
  controls: [],
  init: planInit('profiling-overhead', { zoo: true }),
  plan: overheadPoints,
  measure: declaredSweep('profilingOverhead'),
  columns: OVERHEAD_COLUMNS,
  tableCaption: ({ info }) => modelsCaption(info),
  csv: { filename: 'perflab-profiling-overhead.csv', columns: OVERHEAD_CSV },
  charts: [
    {
      type: 'bar',
      title: 'Overhead of a ProfilerContext, in % of the plain forward time',
      options: {
        x: 'name',
        y: 'overhead_percent',
        xLabel: 'Model',
        yLabel: '↑ Overhead (% of plain median)',
        ariaLabel: 'Profiling overhead per model in percent of the plain forward median',
        emptyText: 'Press Run to measure.',
        height: 260,
      },
    },
  ],
};
