// The machine facts a submission carries: what the header shows (build, SIMD support, timer
// resolution, isolation, cores, the kernel engine's flavour and threads) and the page's latest probe of this CPU's peak and bandwidth.
// main.js records the header's facts, state/machine-probe.js the page's one probe; the export reads them.
// Not for: measuring (the lab worker and core do) or showing them (main.js fills the header).

let header = {};
let probe = null;

/** Records what the header shows (merged into what was recorded before). */
export function recordHeaderFacts(facts) {
  header = { ...header, ...facts };
}

/** Records a probe's roofs with the time it finished. */
export function recordProbe({ peak_gflops_per_s, bandwidth_gb_per_s }, when = new Date()) {
  if (Number.isFinite(peak_gflops_per_s) && Number.isFinite(bandwidth_gb_per_s) && peak_gflops_per_s > 0 && bandwidth_gb_per_s > 0) {
    probe = { peak_gflops_per_s, bandwidth_gb_per_s, measured_at: when.toISOString() };
  }
}

/** The submission's `machine` object (docs/SUBMISSION.md); null where a fact is unknown. */
export function machineFacts() {
  return {
    build: header.build ?? null,
    simd: header.simd ?? null,
    cores: Number.isInteger(header.cores) && header.cores > 0 ? header.cores : null,
    timer_resolution_ms: Number.isFinite(header.timer_resolution_ms) ? header.timer_resolution_ms : null,
    cross_origin_isolated: typeof header.cross_origin_isolated === 'boolean' ? header.cross_origin_isolated : null,
    user_agent: typeof navigator === 'undefined' ? null : String(navigator.userAgent).slice(0, 1000),
    probe,
    // The kernel engine's choice as the header shows it: its flavour and how many threads.
    engine: ['fma', 'simd'].includes(header.engine?.flavour) && Number.isInteger(header.engine?.max_threads) && header.engine.max_threads >= 1
      ? { flavour: header.engine.flavour, max_threads: header.engine.max_threads }
      : null,
  };
}
