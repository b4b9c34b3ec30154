// One thread of the command line's Olympics pool (olympics-pool.mjs): its own training module
// (node-lab.mjs) holding the baseline and both Fashion-MNIST splits, with core's checker open
// on them (web/src/grading/olympics.js, openChecker), checks the lineage groups the main thread
// sends, and, when asked, ranks the checked rows (core's leaderboard and its files).
// Not for: choosing which entries go where (olympics.js's lineageGroups, in the main thread).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';

import { leaderboardFiles, openChecker } from '../../web/src/grading/olympics.js';
import { SOURCE_FILES } from '../page-data.mjs';
import { loadNodeOlympicsLab } from './node-lab.mjs';

const { wasmDir, baseline, data, trainImages } = workerData;
let lab;
let checker;
try {
  ({ lab } = await loadNodeOlympicsLab({ wasmDir }));
  const read = (name) => new Uint8Array(gunzipSync(readFileSync(path.join(data, name))));
  const started = performance.now();
  checker = await openChecker(lab, {
    trainImages,
    baseline: new Uint8Array(readFileSync(baseline)),
    data: {
      trainImages: read(SOURCE_FILES.train.images),
      trainLabels: read(SOURCE_FILES.train.labels),
      testImages: read(SOURCE_FILES.test.images),
      testLabels: read(SOURCE_FILES.test.labels),
    },
  });
  parentPort.postMessage({ type: 'ready', open_s: (performance.now() - started) / 1000, baseline: checker.baseline });
} catch (e) {
  parentPort.postMessage({ type: 'failed', error: e?.message ?? String(e) });
}

parentPort.on('message', async (message) => {
  try {
    if (message.type === 'check') {
      const started = performance.now();
      const results = await checker.checkGroup(message.items);
      parentPort.postMessage({ type: 'done', id: message.id, result: { results, seconds: (performance.now() - started) / 1000 } });
    } else if (message.type === 'leaderboard') {
      parentPort.postMessage({ type: 'done', id: message.id, result: await leaderboardFiles(message.rows, lab) });
    }
  } catch (e) {
    parentPort.postMessage({ type: 'done', id: message.id, error: e?.message ?? String(e) });
  }
});
