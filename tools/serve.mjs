// Serves the built page (web/dist) on localhost with the COOP/COEP headers from
// vite.config.js, so the page is cross-origin isolated (finer timers), and prints the URL.
// Usage: node tools/serve.mjs [--port N] [--host H]
import { preview } from 'vite';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const port = Number(option('port', process.env.PORT || 8080));
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`tools/serve.mjs: --port must be an integer from 0 to 65535, got ${option('port')}`);
  process.exit(2);
}

const server = await preview({
  preview: { host: option('host', '127.0.0.1'), port, strictPort: false, open: false },
  logLevel: 'warn',
});
const url = server.resolvedUrls?.local?.[0] ?? `http://127.0.0.1:${server.httpServer.address().port}/`;
console.log(`\nperflab is served at ${url}\n(Ctrl+C stops the server)`);
