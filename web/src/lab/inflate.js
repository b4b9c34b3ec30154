// Gzip for the lab worker: the page's Fashion-MNIST files are the gzip'd IDX files Debian
// ships (web/dist/data), and core's wasm build has no zlib, so the worker inflates the
// arguments a declaration names (api.js `inflates`) with the browser's DecompressionStream
// before core reads the IDX bytes. Bytes that are not gzip pass through unchanged.
// Pure (no Worker, no DOM): Node has DecompressionStream too, so tests/js check it against zlib.
// Not for: reading IDX (core's parse_idx) or fetching (the chapter's loader).

/** True when `bytes` is a Uint8Array starting with gzip's magic, 1f 8b. */
export const isGzip = (bytes) =>
  bytes instanceof Uint8Array && bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

/** The inflated bytes of gzip `bytes`, else `bytes` itself; an Error naming `name` when the gzip is corrupt. */
export async function inflateIfGzip(bytes, name) {
  if (!isGzip(bytes)) return bytes;
  const chunks = [];
  let total = 0;
  try {
    const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip')).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      total += value.length;
    }
  } catch (err) {
    throw new Error(`${name} starts like gzip but does not inflate (${err?.message ?? err}); fetch the file again`, {
      cause: err,
    });
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** `named` with each argument listed in `names` inflated (inflateIfGzip); the others unchanged. */
export async function inflateArguments(named, names = []) {
  if (names.length === 0) return named;
  const out = { ...named };
  for (const name of names) out[name] = await inflateIfGzip(named[name], name);
  return out;
}
