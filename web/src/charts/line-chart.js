// A small line chart (one line with points per series, a legend, labelled axes with units,
// an ARIA label) drawn with Observable Plot. `update(data)` redraws from plain rows; the
// chart redraws itself when its container changes width.
// Not for: computing anything shown (rows arrive computed) or animating.

import * as Plot from '@observablehq/plot';

export class LineChart {
  /**
   * @param {HTMLElement} container the chart replaces this element's children
   * @param {object} options
   * @param {string} options.x field for the x value
   * @param {string} options.y field for the y value
   * @param {string} options.series field naming each row's line
   * @param {string[]} [options.seriesDomain] fixes the series order and colours
   * @param {string} options.xLabel axis label with unit
   * @param {string} options.yLabel axis label with unit
   * @param {'linear'|'log'} [options.xType]
   * @param {number[]} [options.xTicks] tick values (useful on a log axis)
   * @param {number[]} [options.xDomain] fixed [min, max] so the frame does not jump as rows arrive
   * @param {string} options.ariaLabel what the chart shows, for screen readers
   * @param {string} [options.emptyText] shown while there is no data
   * @param {number} [options.height] in CSS pixels
   */
  constructor(container, options) {
    this.container = container;
    this.options = { xType: 'linear', height: 340, emptyText: 'No data yet.', ...options };
    this.data = [];
    this.lastWidth = 0;
    this.resizeObserver = new ResizeObserver(() => {
      if (this.container.clientWidth !== this.lastWidth) this.render();
    });
    this.resizeObserver.observe(container);
    this.render();
  }

  /** @param {object[]} data rows carrying the x, y and series fields */
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
    const o = this.options;
    this.lastWidth = this.container.clientWidth;
    const width = Math.max(320, this.lastWidth || 640);
    const figure = Plot.plot({
      width,
      height: o.height,
      marginLeft: 56,
      marginBottom: 44,
      style: { fontSize: '12px', fontFamily: 'inherit', overflow: 'visible' },
      ariaLabel: o.ariaLabel,
      ariaDescription: this.data.length ? undefined : o.emptyText,
      x: {
        type: o.xType,
        domain: o.xDomain,
        label: o.xLabel,
        labelAnchor: 'center',
        ticks: o.xTicks,
        tickFormat: o.xTicks ? String : undefined,
        grid: true,
      },
      y: { label: o.yLabel, zero: true, grid: true, nice: true },
      color: { legend: true, domain: o.seriesDomain, scheme: 'observable10' },
      marks: [
        Plot.ruleY([0]),
        Plot.line(this.data, { x: o.x, y: o.y, stroke: o.series, strokeWidth: 2 }),
        Plot.dot(this.data, { x: o.x, y: o.y, fill: o.series, r: 3.5, tip: true }),
        this.data.length
          ? null
          : Plot.text([o.emptyText], { frameAnchor: 'middle', fill: 'currentColor', fillOpacity: 0.6 }),
      ],
    });
    this.container.replaceChildren(figure);
  }
}
