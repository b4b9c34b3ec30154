// Shared by the chapters: turns a heading and a list of paragraphs into DOM nodes, so
// each chapter file holds only its words. Not for: any chapter logic.

import { h } from '../ui/dom.js';

/** @returns {HTMLElement[]} an h2 followed by one p per paragraph */
export function paragraphs(title, texts) {
  return [h('h2', { text: title }), ...texts.map((text) => h('p', { text }))];
}
