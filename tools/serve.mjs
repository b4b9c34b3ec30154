// Serves the built page (web/dist) on localhost with the COOP/COEP headers from
// vite.config.js, so the page is cross-origin isolated (finer timers), and each response's
// Content-Security-Policy (tools/csp.mjs, sent by vite.config.js's plugin), and prints the URL.
// With --course FILE (or PERFLAB_COURSE=FILE) it also serves FILE as the page's course.json,
// which puts the page in course mode (README "Deploying"); without it, a course.json in
// web/dist is served if there is one, else the page runs in practice mode.
// Usage: node tools/serve.mjs [--port N] [--host H] [--course FILE] (USAGE below).
import { existsSync } from 'node:fs';
import path from 'node:path';

const USAGE = `usage: node tools/serve.mjs [--port N] [--host H] [--course FILE]

Serves the built page (web/dist, from tools/lab build) with the headers that make it
cross-origin isolated, and prints its URL; Ctrl+C stops it.

  --port N        the port to try first (default: $PORT, else 8080; the next free one is used)
  --host H        the address to listen on (default 127.0.0.1)
  --course FILE   serve FILE as the page's course.json (course mode); also PERFLAB_COURSE=FILE
  --help, -h      this text`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
// Every argument is an option and its value: anything else is a mistake, not a reason to serve.
const VALUED = ['--port', '--host', '--course'];
for (let i = 0; i < args.length; i += 2) {
  const problem = !VALUED.includes(args[i])
    ? `unknown argument ${args[i]}`
    : args[i + 1] === undefined || args[i + 1].startsWith('--')
      ? `${args[i]} needs a value`
      : null;
  if (problem) {
    console.error(`tools/serve.mjs: ${problem}\n\n${USAGE}`);
    process.exit(2);
  }
}
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const port = Number(option('port', process.env.PORT || 8080));
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`tools/serve.mjs: --port must be an integer from 0 to 65535, got ${option('port')}`);
  process.exit(2);
}

const course = option('course', null);
if (course !== null) {
  if (!existsSync(course)) {
    console.error(`tools/serve.mjs: --course names ${course}, which does not exist`);
    process.exit(2);
  }
  process.env.PERFLAB_COURSE = path.resolve(course);
}

// Loaded only to serve: --help and bad usage need no npm packages.
const { preview } = await import('vite');
const server = await preview({
  preview: { host: option('host', '127.0.0.1'), port, strictPort: false, open: false },
  logLevel: 'warn',
});
const url = server.resolvedUrls?.local?.[0] ?? `http://127.0.0.1:${server.httpServer.address().port}/`;
const mode = process.env.PERFLAB_COURSE ? `course mode (course.json from ${process.env.PERFLAB_COURSE})` : 'practice mode unless web/dist holds a course.json';
console.log(`\nperflab is served at ${url}\n${mode}\n(Ctrl+C stops the server)`);
