// Mounts the suite experiment (suite-experiment.js) once core has listed the zoo and the
// metrics its checkboxes offer and given its plan; until then a frame with the title says it is loading (and why,
// with Try again, if the lab cannot answer). Registered in experiments.js as a mount function.
// Not for: the spec itself (suite-experiment.js) or measuring (core).

import { labOf } from '../../lab/client.js';
import { experimentPlans } from '../../experiments/plans.js';
import { isQuick } from '../../experiments/model.js';
import { h } from '../../ui/dom.js';
import { SUITE_ID, TITLE, suiteSpec } from './suite-experiment.js';

const WHERE = `${SUITE_ID}-run`;

/**
 * Mounts the suite experiment into `el` once core has listed the zoo and the metrics; until
 * then a frame with the title says so (and why, with Try again, if the lab cannot answer).
 * @returns {{destroy(): void, getRows(): object[], getResult(): object|null, ready: Promise<object>}}
 */
// mountExperiment comes from the chapter (index.js), so this module stays importable by node.
export function mountSuite(el, { bridge, mountExperiment }) {
  const note = h('p', { class: 'note', 'data-role': 'status', text: 'Loading the zoo and the metrics from the lab…' });
  const frame = h(
    'section',
    { class: 'experiment', 'data-experiment': SUITE_ID, 'data-state': 'loading', 'aria-labelledby': `${SUITE_ID}-title` },
    h('h3', { id: `${SUITE_ID}-title`, text: TITLE }),
    note,
  );
  el.append(frame);
  let handle = null;
  let destroyed = false;
  const load = () => {
    const lab = labOf(bridge);
    return Promise.all([
      lab.zooModels({ where: WHERE }),
      lab.modelMetrics({ where: WHERE }),
      experimentPlans(bridge, SUITE_ID, isQuick(location.search), WHERE),
    ]).then(
      ([models, metrics, plans]) => {
        if (destroyed) return null;
        frame.remove();
        handle = mountExperiment(el, suiteSpec({ models, metrics, ...plans }), { bridge });
        return handle;
      },
      (err) => {
        note.className = 'error';
        note.textContent = `The suite needs the zoo and the metrics from the lab, which did not answer: ${err.message}`;
        const retry = h('button', { type: 'button', 'data-action': 'retry-options', text: 'Try again' });
        retry.addEventListener('click', () => {
          retry.remove();
          note.className = 'note';
          note.textContent = 'Loading the zoo and the metrics from the lab…';
          load();
        });
        frame.append(retry);
        return null;
      },
    );
  };
  const ready = load();
  return {
    ready,
    getRows: () => handle?.getRows() ?? [],
    getResult: () => handle?.getResult() ?? null,
    destroy() {
      destroyed = true;
      handle?.destroy();
      frame.remove();
    },
  };
}
