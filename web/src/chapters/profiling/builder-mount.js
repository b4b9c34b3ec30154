// Mounts the model builder into its slot at the end of the counting section. The builder
// brings CodeMirror, so it loads once the page is usable (main.js's afterStart); until then
// the slot says it is loading, and a failure to load says so in the slot. A mount function
// for the chapter shell (../shell.js). Not for: the builder itself (builder.js).

import { loadPlot } from '../../charts/plot-lib.js';
import { isQuick } from '../../experiments/model.js';
import { h } from '../../ui/dom.js';

export function mountBuilderSlot(section, { bridge, afterStart }) {
  const quick = isQuick(location.search);
  const slot = section.appendChild(h('div', { 'data-role': 'builder-slot' }));
  slot.append(h('p', { class: 'loading', 'data-role': 'builder-loading', text: 'Loading the model builder…' }));
  let builder;
  let destroyed = false;
  (afterStart ?? Promise.resolve())
    .then(() => Promise.all([import('./builder.js'), loadPlot()]))
    .then(([{ mountBuilder }]) => {
      if (destroyed) return;
      slot.querySelector('[data-role="builder-loading"]')?.remove();
      builder = mountBuilder(slot, { bridge, quick });
    })
    .catch((err) => {
      console.error(err);
      slot.append(h('p', { class: 'error', role: 'alert', text: `The model builder could not load: ${err.message}` }));
    });
  return {
    destroy() {
      destroyed = true;
      builder?.destroy?.();
    },
  };
}
