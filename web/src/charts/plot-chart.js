// The shared skeleton of the page's charts: a container it owns, plain data in
// `update(data)`, option changes in `setOptions`, a redraw when the container changes
// width, and `destroy()`. Subclasses only say what to draw (`figure(width)`).
// Not for: computing anything shown (data arrives computed).

import { Plot, loadPlot, plotLoaded } from './plot-lib.js';
import { logExtentOf, logTicks, niceLogDomain, tickFormatter, tickedLogDomain } from './ticks.js';

/** Page-wide look of every chart: inherit the page font, let tips overflow the frame. */
export const CHART_STYLE = Object.freeze({ fontSize: '12px', fontFamily: 'inherit', overflow: 'visible' });

const SVG = 'http://www.w3.org/2000/svg';
const svgElement = (name, attrs, ...children) => {
  const el = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
};

/**
 * The whole figure of a chart with nothing to show yet: a faint frame of the chart's size with
 * the hint in the middle. No scales, so no axis: an axis without data would print stray ticks
 * (a lone "0.000000" half outside the card). Drawn without Observable Plot (which loads after
 * the page is usable), in the structure Plot gives its marks (a group labelled "frame" and one
 * labelled "text"), so an empty chart reads the same before and after Plot has loaded.
 */
export function emptyPlot(width, { height, ariaLabel, emptyText }) {
  const style = `font-size: ${CHART_STYLE.fontSize}; font-family: ${CHART_STYLE.fontFamily}; overflow: ${CHART_STYLE.overflow}`;
  return svgElement(
    'svg',
    {
      class: 'plot-empty',
      fill: 'currentColor',
      'text-anchor': 'middle',
      width,
      height,
      viewBox: `0 0 ${width} ${height}`,
      'aria-label': ariaLabel,
      'aria-description': emptyText,
      style,
    },
    svgElement(
      'g',
      { 'aria-label': 'frame', fill: 'none', stroke: 'currentColor', 'stroke-opacity': 0.15 },
      svgElement('rect', { x: 20.5, y: 20.5, width: Math.max(0, width - 40), height: Math.max(0, height - 50) }),
    ),
    svgElement(
      'g',
      { 'aria-label': 'text', 'fill-opacity': 0.6 },
      svgElement('text', { x: width / 2, y: (height - 10) / 2 + 10, dy: '0.32em' }, emptyText ?? ''),
    ),
  );
}

/**
 * One positional axis (x or y) in the table's units: `{scale, marks}`, the scale's options and
 * the marks to add. A linear axis formats Plot's ticks. A log axis marks `ticks` (or
 * ticks.js's choice over its domain) and labels every one: Plot hands a log axis's tick
 * format to d3, which blanks the labels it finds crowded (8 and 64 on a batch axis), so the
 * axis is drawn as an explicit mark with its texts.
 * @param {'x'|'y'} dim
 * @param {object} o
 * @param {'linear'|'log'} [o.type]
 * @param {number[]} [o.domain] fixed [min, max]; a log axis without one spans `values`
 * @param {boolean|'ticks'} [o.nice] a log axis from `values` runs from power to power of its
 *        base (true), or to the nearest marked value beyond each end ('ticks'), so its labels
 *        reach past the points; otherwise it spans the values exactly
 * @param {number[]} [o.values] the data's values on this axis (for a log domain)
 * @param {number[]} [o.ticks] the values to mark
 * @param {'bytes'|'count'|Function} [o.format] tick text (default 'count': 200k, 1M)
 * @param {number} [o.base] a log axis's base (default 10; 2 for bytes)
 * @param {string|null} [o.label] @param {string} [o.labelAnchor]
 * @param {object} [o.scale] more scale options (zero, nice, ...)
 */
export function positionalAxis(dim, { type = 'linear', domain, values = [], ticks, format, base, label, labelAnchor, nice = false, scale = {} }) {
  const text = tickFormatter(format);
  if (type !== 'log') {
    return {
      scale: { type, domain, label, labelAnchor, grid: true, ticks, tickFormat: text, ...scale },
      marks: [],
    };
  }
  const logBase = base ?? (format === 'bytes' ? 2 : 10);
  const fromValues = () =>
    nice === 'ticks'
      ? tickedLogDomain(values, { base: logBase === 2 ? 2 : 10 })
      : nice
        ? niceLogDomain(values, logBase === 2 ? 2 : 10)
        : logExtentOf(values);
  const extent = domain ?? fromValues() ?? [1, 100];
  const marked = ticks ?? logTicks(extent, { base: logBase === 2 ? 2 : 10 });
  const axis = dim === 'x' ? Plot.axisX : Plot.axisY;
  return {
    scale: { type: 'log', domain: extent, base: logBase, grid: marked, label, ...scale },
    marks: [axis(marked, { text: (v) => text(v), label, labelAnchor })],
  };
}

/** Whether chart data holds anything to draw: a non-empty array, at any depth of an object. */
function hasRows(data) {
  if (Array.isArray(data)) return data.length > 0;
  return data !== null && typeof data === 'object' && Object.values(data).some(hasRows);
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
    // Rows to draw need Plot now; an empty update (a chart reset at mount) does not.
    if (hasRows(data)) loadPlot();
    this.render();
  }

  /** Changes some constructor options (e.g. a series domain known only later) and redraws. */
  setOptions(partial) {
    Object.assign(this.options, partial);
    this.render();
  }

  destroy() {
    this.destroyed = true;
    this.resizeObserver.disconnect();
    this.container.replaceChildren();
  }

  render() {
    this.lastWidth = this.container.clientWidth;
    const width = Math.max(320, this.lastWidth || 640);
    if (!Plot) {
      // Before Observable Plot has loaded (plot-lib.js): the empty frame and hint, then the
      // real figure once it is here.
      this.container.replaceChildren(emptyPlot(width, this.options));
      if (!this.waitingForPlot) {
        this.waitingForPlot = true;
        plotLoaded.then(() => {
          this.waitingForPlot = false;
          if (!this.destroyed) this.render();
        });
      }
      return;
    }
    this.container.replaceChildren(this.figure(width));
  }

  /** @abstract @returns {Element} the SVG (or figure) for this width */
  figure(width) {
    throw new Error(`${this.constructor.name} must implement figure(width), asked for width ${width}`);
  }
}
