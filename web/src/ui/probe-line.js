// The machine probe where it is used: one line naming the page's probe (its time and core's
// figures, and the kernel engine's per-core FMA and all-core figures once a caller asked for
// them) with a Re-probe button, kept current by the probe store, and the short label a
// verdict names its probe by. Not for: probing or storing (state/machine-probe.js).

import { h } from './dom.js';
import { formatSig } from './format.js';
import { probeTime } from '../state/machine-probe.js';

/** "probe of 03:12:05: peak 49.3 GFLOP/s, bandwidth 19.5 GB/s" (every figure is core's). */
export function probeLabel(entry, now_ms = Date.now()) {
  const p = entry.probe;
  return (
    `probe of ${probeTime(entry.measured_at_ms, now_ms)}: peak ${formatSig(p.peak_gflops_per_s)} GFLOP/s, ` +
    `bandwidth ${formatSig(p.bandwidth_gb_per_s)} GB/s`
  );
}

/**
 * The kernel engine's part of the line, or '' for an entry no caller asked it of:
 * "Kernel engine: FMA 70.1 GFLOP/s on one core; all 2 cores 139 GFLOP/s, triad 24.0 GB/s."
 * (the FMA figure only where this browser runs relaxed SIMD), "Kernel engine: probing every
 * core…", or "Kernel engine: no figures (reason)."
 */
export function engineText(entry) {
  if (entry.engine_pending) return 'Kernel engine: probing every core…';
  if (entry.engine_error !== undefined) return `Kernel engine: no figures (${entry.engine_error}).`;
  const e = entry.engine;
  if (!e) return '';
  const fma = e.fma_gflops_per_s ? `FMA ${formatSig(e.fma_gflops_per_s)} GFLOP/s on one core; ` : '';
  const cores = e.threads === 1 ? `1 thread (${entry.engine_why ?? 'the engine runs one'})` : `all ${e.threads} cores`;
  return (
    `Kernel engine: ${fma}${cores} ${formatSig(e.all_core_gflops_per_s)} GFLOP/s, ` +
    `triad ${formatSig(e.all_core_triad_gb_per_s)} GB/s.`
  );
}

/**
 * A live line `Machine probe of 03:12:05: peak …, bandwidth …, ridge … [Re-probe]` for the
 * store's probe (`figures: false`: only its time, where a list of its figures follows);
 * `data-probe-at` holds the probe's time (ms) for tests. `where` names the button in errors.
 * Returns the element; `destroy()` on it stops listening.
 */
export function probeLine(store, { where = 'machine-probe', figures = true } = {}) {
  const text = h('span', { class: 'probe-text', 'data-role': 'probe-text', text: 'Probing this machine…' });
  const engine = h('span', { class: 'probe-engine', 'data-role': 'probe-engine' });
  const button = h('button', { type: 'button', 'data-action': 'reprobe', text: 'Re-probe' });
  const error = h('span', { class: 'field-error', role: 'alert', 'data-role': 'probe-error' });
  error.hidden = true;
  const line = h('p', { class: 'probe-line note', 'data-role': 'probe-line' }, text, ' ', engine, ' ', button, ' ', error);

  const show = (entry) => {
    if (!entry) return;
    const p = entry.probe;
    text.textContent = figures
      ? `Machine ${probeLabel(entry)}, ridge ${formatSig(p.ridge_flops_per_byte)} FLOP/byte (quick probe by core).`
      : `Machine probe of ${probeTime(entry.measured_at_ms)} (quick probe by core; its figures below):`;
    engine.textContent = engineText(entry);
    engine.dataset.state = entry.engine_pending ? 'probing' : entry.engine ? 'measured' : entry.engine_error !== undefined ? 'none' : 'not-asked';
    line.dataset.probeAt = String(entry.measured_at_ms);
  };
  const fail = (err) => {
    error.textContent = `Error: ${err?.message ?? err}`;
    error.hidden = false;
  };
  const run = (promise) => {
    button.disabled = true;
    error.hidden = true;
    line.dataset.state = 'probing';
    promise.catch(fail).finally(() => {
      button.disabled = false;
      line.dataset.state = 'idle';
    });
  };

  const unsubscribe = store.subscribe(show);
  show(store.latest());
  if (!store.latest()) run(store.current({ where }));
  button.addEventListener('click', () => {
    text.textContent = 'Probing this machine…';
    run(store.reprobe({ where }).catch((err) => {
      show(store.latest());
      throw err;
    }));
  });
  line.destroy = unsubscribe;
  return line;
}

/**
 * "Every kernel below was placed against the machine probe of 03:12:05." for rows measured
 * against `entry` (`what` is "kernel", or a function of the probe's time giving the whole
 * sentence); once the store holds a newer probe it adds that a Run uses that one. Stops
 * listening when taken off the page.
 */
export function placedAgainst(store, entry, what) {
  const sentence = typeof what === 'function' ? what : (time) => `Every ${what} below was placed against the machine probe of ${time}.`;
  const at = entry.measured_at_ms;
  const note = h('p', { class: 'note', 'data-role': 'placed-against', 'data-probe-at': String(at) });
  const show = (latest) => {
    const stale = latest && latest.measured_at_ms !== at;
    note.textContent =
      sentence(probeTime(at)) +
      (stale ? ` The probe in force is now the one of ${probeTime(latest.measured_at_ms)}: Run again to use it.` : '');
    note.classList.toggle('warn', Boolean(stale));
  };
  show(store.latest());
  const unsubscribe = store.subscribe((latest) => (note.isConnected ? show(latest) : unsubscribe()));
  return note;
}
