// The "matmul: loops vs SIMD" experiment: sweeps N × variant through the lab worker,
// drawing GFLOP/s against N (log axis) and filling a table as points arrive; Run, Cancel
// (stops within a second) and Download CSV. `?quick=1` selects fewer sizes and smaller
// budgets (see matmul-data.js). Not for: timing or statistics (core does both).

import { LineChart } from '../../charts/line-chart.js';
import { TABLE_COLUMNS, sweepPlan, tableCells, toCsv } from './matmul-data.js';

const h = (tag, attrs = {}, ...children) => {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v);
  }
  el.append(...children);
  return el;
};

/**
 * @param {HTMLElement} container
 * @param {{bridge: {call: Function}, search?: string}} ctx
 * @returns {{destroy: () => void}}
 */
export function mountMatmulExperiment(container, { bridge, search = location.search }) {
  const plan = sweepPlan(search);

  const buildSelect = h(
    'select',
    { id: 'matmul-build', 'aria-describedby': 'matmul-build-note' },
    h('option', { value: 'auto', text: 'automatic (SIMD if available)' }),
    h('option', { value: 'simd', text: 'SIMD build (-msimd128)' }),
    h('option', { value: 'scalar', text: 'scalar build (no -msimd128)' }),
  );
  const runButton = h('button', { type: 'button', class: 'primary', 'data-action': 'run', text: 'Run' });
  const cancelButton = h('button', { type: 'button', 'data-action': 'cancel', text: 'Cancel' });
  cancelButton.disabled = true;
  const errorBox = h('p', { class: 'error', role: 'alert', 'data-role': 'error' });
  errorBox.hidden = true;
  const progress = h('progress', { max: '1', value: '0', 'aria-label': 'sweep progress' });
  const status = h('span', {
    class: 'status',
    'aria-live': 'polite',
    'data-role': 'status',
    text: 'Not run yet.',
  });
  const chartBox = h('div', { class: 'chart', 'data-role': 'chart' });
  const tbody = h('tbody');
  const table = h(
    'table',
    { class: 'numbers', 'data-role': 'table' },
    h('caption', {
      text:
        'Every measured point. Times are per call: the timer batches calls so that each sample ' +
        'outlasts the clock resolution. "samples" counts the samples kept after outliers were dropped.',
    }),
    h('thead', {}, h('tr', {}, ...TABLE_COLUMNS.map((c) => h('th', { scope: 'col', text: c })))),
    tbody,
  );
  const csvButton = h('button', { type: 'button', 'data-action': 'csv', text: 'Download CSV' });
  csvButton.disabled = true;
  const variantList = h('ul', { class: 'variants' });

  container.append(
    h(
      'section',
      { class: 'experiment', 'aria-labelledby': 'matmul-title' },
      h('h3', { id: 'matmul-title', text: 'Experiment: matmul, loops vs SIMD' }),
      h('p', {
        text:
          'The same N×N matrix product, 2·N³ floating-point operations, computed three ways ' +
          'by the C++ core compiled to WebAssembly. Each point is the median of several timed ' +
          'samples on this machine; GFLOP/s = 2·N³ / median time. Watch where the curves ' +
          'separate, and where they bend as the matrices stop fitting in cache.',
      }),
      variantList,
      plan.quick
        ? h('p', {
            class: 'note',
            text:
              `Quick mode (?quick=1 in the address): ${plan.sizes.length} sizes and small ` +
              'time budgets, so the numbers are noisier. Remove it for the full sweep.',
          })
        : '',
      h(
        'div',
        { class: 'controls' },
        h('label', { for: 'matmul-build', text: 'Build ' }),
        buildSelect,
        runButton,
        cancelButton,
        progress,
        status,
      ),
      h('p', {
        class: 'hint',
        id: 'matmul-build-note',
        text:
          'The scalar build is the same C++ compiled without -msimd128: ' +
          'its "simd" variant falls back to scalar code.',
      }),
      errorBox,
      chartBox,
      h('div', { class: 'table-wrap' }, table),
      h('div', { class: 'actions' }, csvButton),
    ),
  );

  const chart = new LineChart(chartBox, {
    x: 'n',
    y: 'gflops_per_s',
    series: 'variant',
    xType: 'log',
    xTicks: plan.sizes,
    xDomain: [plan.sizes[0], plan.sizes[plan.sizes.length - 1]],
    xLabel: 'Matrix size N (N×N @ N×N, log scale) →',
    yLabel: '↑ Throughput (GFLOP/s)',
    ariaLabel: 'Matrix multiply throughput in GFLOP/s against matrix size N, one line per variant',
    emptyText: 'Press Run to measure.',
  });

  let rows = [];
  let controller = null;
  let total = null; // points in the running sweep, as the worker counts them

  // Variant names and descriptions come from core, so the page lists what it will run.
  bridge
    .call('machineInfo', {}, { where: 'matmul-variants' })
    .then((info) => {
      chart.setOptions({ seriesDomain: info.matmul_variants.map((v) => v.name) });
      variantList.replaceChildren(
        ...info.matmul_variants.map((v) => h('li', {}, h('code', { text: v.name }), ` ${v.description}`)),
      );
    })
    .catch((err) => showError(err));

  function showError(err) {
    errorBox.textContent = err ? `Error: ${err.message}` : '';
    errorBox.hidden = !err;
  }

  function addRow(row) {
    rows.push(row);
    tbody.append(h('tr', {}, ...tableCells(row).map((text) => h('td', { text }))));
    chart.update(rows);
  }

  function setRunning(running) {
    runButton.disabled = running;
    buildSelect.disabled = running;
    cancelButton.disabled = !running;
    csvButton.disabled = running || rows.length === 0;
    container.querySelector('.experiment').dataset.state = running ? 'running' : 'idle';
  }

  async function run() {
    showError(null);
    rows = [];
    tbody.replaceChildren();
    chart.update(rows);
    progress.value = 0;
    total = null;
    status.textContent = 'Starting the lab worker…';
    controller = new AbortController();
    setRunning(true);
    const started = performance.now();
    try {
      const result = await bridge.call(
        'matmulSweep',
        { sizes: plan.sizes, options: plan.options, build: buildSelect.value },
        {
          signal: controller.signal,
          where: 'matmul-run',
          onProgress: (fraction, detail) => {
            progress.value = fraction;
            total = detail?.total ?? total;
            if (detail?.row) {
              addRow(detail.row);
              const { variant, n } = detail.row;
              status.textContent = `${detail.done} of ${detail.total} points (last: ${variant} at N=${n})`;
            } else {
              status.textContent = `Measuring 0 of ${total} points…`;
            }
          },
        },
      );
      // The result is authoritative: redraw from it rather than trusting the progress stream.
      rows = [];
      tbody.replaceChildren();
      result.rows.forEach(addRow);
      progress.value = 1;
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      status.textContent = `Done: ${result.rows.length} points in ${seconds} s (${result.build} build).`;
    } catch (err) {
      if (err.cancelled) {
        status.textContent = `Cancelled after ${rows.length} of ${total ?? '?'} points.`;
      } else {
        status.textContent = 'Stopped by an error.';
        showError(err);
      }
    } finally {
      controller = null;
      setRunning(false);
    }
  }

  function cancel() {
    if (!controller) return;
    status.textContent = 'Cancelling…';
    cancelButton.disabled = true;
    controller.abort();
  }

  function downloadCsv() {
    const blob = new Blob([toCsv(rows)], { type: 'text/csv' });
    const url = URL.createObjectURL(blob);
    const link = h('a', { href: url, download: 'perflab-matmul.csv' });
    document.body.append(link);
    link.click();
    link.remove();
    // Revoke after the click has been handled; revoking at once can cancel the download.
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  runButton.addEventListener('click', run);
  cancelButton.addEventListener('click', cancel);
  csvButton.addEventListener('click', downloadCsv);

  return {
    destroy() {
      controller?.abort();
      chart.destroy();
      container.replaceChildren();
    },
  };
}
