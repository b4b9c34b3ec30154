// Small pieces the three blocks of "A model worth optimizing" share (model-section.js,
// train-view.js, evaluation-view.js): a block's frame, a byte count in megabytes, an error
// shown in its box. Not for: anything a block computes.

import { h } from '../../ui/dom.js';
import { formatSig } from '../../ui/format.js';

/** Bytes as "1.23 MB". */
export const mbText = (bytes) => `${formatSig(bytes / 1e6)} MB`;

/** One block of the section: a titled experiment box. */
export const block = (role, title, ...children) =>
  h('div', { class: 'experiment optimization-block', 'data-role': role }, h('h3', { text: title }), ...children);

/** Shows an error's message in its box (and in the console). */
export function showError(box, err) {
  console.warn(err);
  box.textContent = err?.message ?? String(err);
  box.hidden = false;
}
