// Observable Plot, loaded on demand: about 90 KB gzipped that the page does not need before
// it is usable (issue 14's load budget, bench/load.mjs). `Plot` is a live binding, null until
// loadPlot() resolves. The page loads it once it is usable (main.js) and before a run draws
// (experiment.js); a chart drawn before then shows its empty frame and hint, and redraws
// when Plot arrives (plot-chart.js). Not for: drawing (the chart classes do).

/** Observable Plot's namespace once loaded, else null. */
export let Plot = null;

let resolveLoaded;
/** Resolves when Plot has loaded, whoever asked for it. */
export const plotLoaded = new Promise((resolve) => {
  resolveLoaded = resolve;
});

let loading = null;

/** Loads Observable Plot once; resolves with its namespace. */
export function loadPlot() {
  loading ??= import('@observablehq/plot').then((m) => {
    Plot = m;
    resolveLoaded(m);
    return m;
  });
  return loading;
}
