// The shared skeleton of the page's charts: a container it owns, plain data in
// `update(data)`, option changes in `setOptions`, a redraw when the container changes
// width, and `destroy()`. Subclasses only say what to draw (`figure(width)`).
// Not for: computing anything shown (data arrives computed).

import * as Plot from '@observablehq/plot';

/** Page-wide look of every chart: inherit the page font, let tips overflow the frame. */
export const CHART_STYLE = Object.freeze({ fontSize: '12px', fontFamily: 'inherit', overflow: 'visible' });

/** The "no data yet" text drawn in the middle of an empty frame, or null when there is data. */
export function emptyMark(isEmpty, text) {
  return isEmpty ? Plot.text([text], { frameAnchor: 'middle', fill: 'currentColor', fillOpacity: 0.6 }) : null;
}

/**
 * The whole figure of a chart with nothing to show yet: a faint frame of the chart's size with
 * the hint in the middle. No scales, so no axis: an axis without data would print stray ticks
 * (a lone "0.000000" half outside the card).
 */
export function emptyPlot(width, { height, ariaLabel, emptyText }) {
  return Plot.plot({
    width,
    height,
    style: CHART_STYLE,
    ariaLabel,
    ariaDescription: emptyText,
    marks: [Plot.frame({ strokeOpacity: 0.15 }), emptyMark(true, emptyText)],
  });
}

export class PlotChart {
  /**
   * @param {HTMLElement} container the chart replaces this element's children
   * @param {object} options the subclass's options (see each chart)
   * @param {object} defaults the subclass's defaults, overridden by `options`
   */
  constructor(container, options, defaults = {}) {
    this.container = container;
    this.options = { height: 340, emptyText: 'No data yet.', ...defaults, ...options };
    this.data = [];
    this.lastWidth = 0;
    this.resizeObserver = new ResizeObserver(() => {
      if (this.container.clientWidth !== this.lastWidth) this.render();
    });
    this.resizeObserver.observe(container);
    this.render();
  }

  /** @param {any} data the rows (or the object) the subclass documents */
  update(data) {
    this.data = data;
    this.render();
  }

  /** Changes some constructor options (e.g. a series domain known only later) and redraws. */
  setOptions(partial) {
    Object.assign(this.options, partial);
    this.render();
  }

  destroy() {
    this.resizeObserver.disconnect();
    this.container.replaceChildren();
  }

  render() {
    this.lastWidth = this.container.clientWidth;
    const width = Math.max(320, this.lastWidth || 640);
    this.container.replaceChildren(this.figure(width));
  }

  /** @abstract @returns {Element} the SVG (or figure) for this width */
  figure(width) {
    throw new Error(`${this.constructor.name} must implement figure(width), asked for width ${width}`);
  }
}
