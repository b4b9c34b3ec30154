// The Optimization chapter's data, fetched when the chapter first needs it (never at page
// load): the manifest tools/page-data.mjs writes beside the page (data/fashion-mnist/), then
// the files one action needs, each checked against the manifest's byte count and sha256, with
// the bytes received reported as they arrive. The test split is inflated here (the page draws
// its images); the training files go to the worker as fetched, and it inflates them
// (api.js `inflates`). Every split is handed to core (loadFashionMnist), which reads and checks
// the IDX bytes; sizes and counts come from the manifest and from core's answers.
// Not for: reading IDX (core), drawing (images.js), training (train-view.js).

import { inflateIfGzip } from '../../lab/inflate.js';
import { labOf } from '../../lab/client.js';

/** Where the page build puts the data, relative to the page (docs/DATA.md, "The page"). */
export const DATA_DIR = 'data/fashion-mnist/';

const urlOf = (file) => new URL(`${DATA_DIR}${file}`, document.baseURI).href;

let manifestPromise = null;
/** The manifest (fetched once; a failure is forgotten so a later call tries again). */
export function loadManifest() {
  manifestPromise ??= fetch(urlOf('manifest.json'))
    .then((r) => {
      if (!r.ok) throw new Error(`the data's manifest could not be fetched (${urlOf('manifest.json')}: HTTP ${r.status}); build the page with tools/lab build`);
      return r.json();
    })
    .catch((err) => {
      manifestPromise = null;
      throw err;
    });
  return manifestPromise;
}

/** The manifest's entry for a split's images or labels ('test', 'train_subset', 'train'). */
export function fileOf(manifest, split, kind) {
  const f = manifest.files.find((x) => x.split === split && x.kind === kind);
  if (!f) throw new Error(`the data's manifest lists no ${split} ${kind}; rebuild the page`);
  return f;
}

const hex = (buffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, '0')).join('');

/**
 * Fetches one manifest file, calling onBytes(received) as chunks arrive; checks its length
 * and (where the browser offers SubtleCrypto) its sha256 against the manifest.
 */
export async function fetchFile(entry, { onBytes, signal } = {}) {
  const url = urlOf(entry.file);
  const response = await fetch(url, { signal });
  if (!response.ok) throw new Error(`${entry.file} could not be fetched (HTTP ${response.status})`);
  const out = new Uint8Array(entry.bytes);
  let received = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (received + value.length > out.length) throw new Error(`${entry.file} is longer than the manifest's ${entry.bytes} bytes; rebuild the page`);
    out.set(value, received);
    received += value.length;
    onBytes?.(received);
  }
  if (received !== entry.bytes) throw new Error(`${entry.file} holds ${received} bytes, the manifest says ${entry.bytes}; fetch it again`);
  if (globalThis.crypto?.subtle) {
    const digest = hex(await crypto.subtle.digest('SHA-256', out));
    if (digest !== entry.sha256) throw new Error(`${entry.file}'s sha256 is not the manifest's; the file on the server is not the one built`);
  }
  return out;
}

// The test split in core, one per lab bridge: every store of the page shares it (each section
// of the chapter has its own store, and the lab holds at most 8 data sets). Promise of
// {dataset, info, images, labels}, or null.
const sharedTest = new WeakMap();

/**
 * The chapter's data and what core holds of it. `progress(state)` hears every byte count:
 * {what, received, total} while fetching, null when idle. The test split is shared by every
 * store of the bridge; the training split is this store's. Each is checked to be still in core
 * before it is handed out (a worker restarted by a cancel elsewhere has lost it) and loaded
 * again if not.
 */
export function createDataStore(bridge, { progress = () => {} } = {}) {
  const lab = labOf(bridge);
  const where = 'optimization-data';
  let train = null; // {count, promise of {dataset, info}}
  let fetchedBytes = 0;
  const held = async (promise) => {
    const split = await promise.catch(() => null);
    return split !== null && (await lab.datasetInfo(split.dataset, { where }).then(() => true, () => false));
  };

  // Fetches the listed entries one after another under one progress bar.
  async function fetchAll(what, entries) {
    const total = entries.reduce((s, e) => s + e.bytes, 0);
    let before = 0;
    const out = [];
    progress({ what, received: 0, total });
    for (const e of entries) {
      out.push(await fetchFile(e, { onBytes: (n) => progress({ what, received: before + n, total }) }));
      before += e.bytes;
      fetchedBytes += e.bytes;
    }
    progress(null);
    return out;
  }

  const forgetOnFailure = (promise, clear) =>
    promise.catch((err) => {
      clear();
      progress(null);
      throw err;
    });

  /** The test split, once: core's data set id and facts, and its inflated bytes for drawing. */
  async function testSplit() {
    const cached = sharedTest.get(bridge);
    if (cached && (await held(cached))) return cached;
    if (sharedTest.get(bridge) !== cached) return testSplit(); // another caller is loading it
    const test = forgetOnFailure(
      (async () => {
        const m = await loadManifest();
        const [gzImages, gzLabels] = await fetchAll('the test split', [fileOf(m, 'test', 'images'), fileOf(m, 'test', 'labels')]);
        const images = await inflateIfGzip(gzImages, 'the test images');
        const labels = await inflateIfGzip(gzLabels, 'the test labels');
        const info = await lab.loadFashionMnist(images, labels, 'test', undefined, { where });
        return { dataset: info.dataset, info, images, labels };
      })(),
      () => sharedTest.get(bridge) === test && sharedTest.delete(bridge),
    );
    sharedTest.set(bridge, test);
    return test;
  }

  /**
   * The first `count` training images in core: from the subset file when it holds them, else
   * from the full training split (fetched only then). Loaded again only when count changes.
   */
  async function trainSplit(count) {
    if (train?.count === count && (await held(train.promise))) return train.promise;
    const previous = train;
    const promise = forgetOnFailure(
      (async () => {
        const m = await loadManifest();
        const old = await previous?.promise.catch(() => null);
        if (old) await lab.dropDataset(old.dataset, { where }).catch(() => {}); // gone already after a restart
        const subset = fileOf(m, 'train_subset', 'images');
        const split = count <= subset.count ? 'train_subset' : 'train';
        const files = [fileOf(m, split, 'images'), fileOf(m, split, 'labels')];
        const [images, labels] = await fetchAll(split === 'train' ? 'the full training split' : 'the training subset', files);
        const first = count === files[0].count ? undefined : count;
        const info = await lab.loadFashionMnist(images, labels, 'train', first, { where });
        return { dataset: info.dataset, info };
      })(),
      () => (train = null),
    );
    train = { count, promise };
    return promise;
  }

  /** The pretrained baseline's model file bytes and the manifest's facts about it, or null. */
  async function pretrained() {
    const m = await loadManifest();
    if (!m.pretrained) return null;
    const entry = m.files.find((f) => f.file === m.pretrained.model);
    const [bytes] = await fetchAll('the pretrained model', [entry]);
    return { bytes, facts: m.pretrained };
  }

  /**
   * Forgets what core held: after the lab worker restarted (the bridge ends a worker stuck in
   * another chapter's cancelled step), core's ids are gone. Fetched again on the next use.
   */
  function forget() {
    sharedTest.delete(bridge);
    train = null;
  }

  return { testSplit, trainSplit, pretrained, forget, fetchedBytes: () => fetchedBytes };
}
