// The engine smoke suite's two drivers, each the same small interface the suite's steps use:
//   { name, version, open(url), evaluate(fn, ...args), errors(), close() }
// evaluate runs fn (a self-contained function: it is sent as source) in the page with
// JSON-able arguments and resolves with its (awaited) JSON-able result. errors() lists the
// console errors and uncaught errors seen so far, each a line.
// - Firefox ESR: Debian's firefox-esr through puppeteer-core over WebDriver BiDi, headless,
//   with a throw-away profile; errors from BiDi's log entries (console.error and uncaught).
// - WebKitGTK: Debian's WebKitWebDriver driving its MiniBrowser under xvfb-run (it needs an X
//   display even for automation), over W3C WebDriver's HTTP protocol, the five endpoints this
//   suite needs spoken with fetch. WebDriver classic has no log events, so open() installs a
//   collector in the page (window errors, unhandled rejections, console.error) right after
//   the load event: errors before it, and those inside workers that never reach the page, go
//   unseen (the suite's other checks, a lab that answers and experiments that finish, cover those).
// Not for: Chromium (tests/browser/harness.mjs drives it with playwright-core).

import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const FIREFOX_PATH = process.env.PERFLAB_FIREFOX || '/usr/bin/firefox-esr';
export const WEBKIT_DRIVER_PATH = process.env.PERFLAB_WEBKIT_DRIVER || '/usr/bin/WebKitWebDriver';
// Debian installs it under the multiarch triplet's folder (x86_64-linux-gnu, aarch64-linux-gnu, ...).
export const MINIBROWSER_PATH =
  process.env.PERFLAB_MINIBROWSER ||
  readdirSync('/usr/lib')
    .filter((d) => d.endsWith('-linux-gnu'))
    .map((d) => `/usr/lib/${d}/webkit2gtk-4.1/MiniBrowser`)
    .find((f) => existsSync(f)) ||
  '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

function requireFile(file, what, pkg) {
  if (!existsSync(file)) {
    throw new Error(`${what} is not at ${file}: install Debian's ${pkg} (tools/lab test does), or point ${what === 'Firefox ESR' ? 'PERFLAB_FIREFOX' : what === 'WebKitWebDriver' ? 'PERFLAB_WEBKIT_DRIVER' : 'PERFLAB_MINIBROWSER'} at it`);
  }
}

/** Firefox ESR over WebDriver BiDi (puppeteer-core), headless, with a fresh profile. */
export async function launchFirefox() {
  requireFile(FIREFOX_PATH, 'Firefox ESR', 'firefox-esr');
  const { default: puppeteer } = await import('puppeteer-core');
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), 'perflab-firefox-'));
  let browser;
  try {
    browser = await puppeteer.launch({
      browser: 'firefox',
      protocol: 'webDriverBiDi',
      executablePath: FIREFOX_PATH,
      headless: true,
      userDataDir,
    });
    const page = (await browser.pages())[0] ?? (await browser.newPage());
    const errors = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
    });
    page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}${err.stack ? `\n${err.stack.split('\n').slice(0, 5).join('\n')}` : ''}`));
    return {
      name: 'Firefox ESR',
      version: await browser.version(),
      async open(url) {
        await page.goto(url, { waitUntil: 'load' });
      },
      evaluate: (fn, ...args) => page.evaluate(fn, ...args),
      errors: async () => [...errors],
      async close() {
        await browser.close();
        await rm(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await browser?.close();
    await rm(userDataDir, { recursive: true, force: true });
    throw err;
  }
}

/** A port nothing listens on now (the driver takes it a moment later). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** A W3C WebDriver command: resolves with the reply's value, throws the driver's error sentence. */
async function command(base, method, route, body) {
  const reply = await fetch(`${base}${route}`, {
    method,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await reply.json().catch(() => ({ value: { error: 'not JSON', message: `HTTP ${reply.status}` } }));
  if (!reply.ok || json.value?.error) {
    throw new Error(`WebDriver ${method} ${route}: ${json.value?.error}: ${json.value?.message}`);
  }
  return json.value;
}

// Installed in the page after each load (see the file's comment); idempotent.
function installErrorCollector() {
  if (window.__perflabErrors) return;
  const errors = (window.__perflabErrors = []);
  // Not the ResizeObserver loop report: the spec fires it as an error event when an observer's
  // notifications move to the next frame (a chart resizing itself once), no error of the page's;
  // Chromium's and Firefox's drivers do not report it either.
  window.addEventListener('error', (e) => {
    if (!e.error && /^ResizeObserver loop/.test(e.message)) return;
    errors.push(`pageerror: ${e.message} (${e.filename}:${e.lineno})`);
  });
  window.addEventListener('unhandledrejection', (e) => errors.push(`unhandledrejection: ${e.reason?.message ?? String(e.reason)}`));
  const original = console.error;
  console.error = (...args) => {
    errors.push(`console: ${args.map((a) => (a instanceof Error ? a.message : String(a))).join(' ')}`);
    original.apply(console, args);
  };
}

/** WebKitGTK's MiniBrowser through WebKitWebDriver under xvfb-run, over W3C WebDriver HTTP. */
export async function launchWebKit() {
  requireFile(WEBKIT_DRIVER_PATH, 'WebKitWebDriver', 'webkit2gtk-driver');
  requireFile(MINIBROWSER_PATH, 'MiniBrowser', 'libwebkit2gtk-4.1-0 (webkit2gtk-driver depends on it)');
  requireFile('/usr/bin/xvfb-run', 'xvfb-run', 'xvfb');
  const port = await freePort();
  // Its own process group: close() stops the driver, which lets xvfb-run stop Xvfb and remove
  // its temporary folder; the group is killed only when that does not end it within 5 s.
  const driver = spawn('/usr/bin/xvfb-run', ['-a', WEBKIT_DRIVER_PATH, `--port=${port}`], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let driverLog = '';
  driver.stderr.on('data', (chunk) => (driverLog = (driverLog + chunk).slice(-2000)));
  const exited = new Promise((resolve) => driver.once('exit', resolve));
  const stopDriver = async () => {
    if (driver.exitCode !== null || driver.signalCode !== null) return;
    // xvfb-run runs the driver in the foreground, so it is one of xvfb-run's children.
    const children = await readFile(`/proc/${driver.pid}/task/${driver.pid}/children`, 'utf8').catch(() => '');
    for (const pid of children.split(' ').filter(Boolean).map(Number)) {
      const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
      if (cmdline.startsWith(WEBKIT_DRIVER_PATH)) process.kill(pid, 'SIGTERM');
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-driver.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 5000);
    await exited;
    clearTimeout(timer);
  };
  const base = `http://127.0.0.1:${port}`;
  try {
    const deadline = Date.now() + 20000;
    for (;;) {
      if (driver.exitCode !== null) throw new Error(`WebKitWebDriver exited (${driver.exitCode}): ${driverLog}`);
      const ready = await command(base, 'GET', '/status').then((s) => s.ready, () => false);
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`WebKitWebDriver did not answer on port ${port} within 20 s: ${driverLog}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // MiniBrowser's --automation gives each session a fresh, ephemeral profile.
    const session = await command(base, 'POST', '/session', {
      capabilities: {
        alwaysMatch: {
          'webkitgtk:browserOptions': { binary: MINIBROWSER_PATH, args: ['--automation'] },
          timeouts: { script: 120000 },
        },
      },
    });
    const route = `/session/${session.sessionId}`;
    const evaluate = (fn, ...args) =>
      command(base, 'POST', `${route}/execute/sync`, { script: `return (${fn}).apply(null, arguments);`, args });
    return {
      name: 'WebKitGTK',
      version: `${session.capabilities.browserName} ${session.capabilities.browserVersion}`,
      async open(url) {
        await command(base, 'POST', `${route}/url`, { url });
        await evaluate(installErrorCollector);
      },
      evaluate,
      errors: () => evaluate(() => [...(window.__perflabErrors ?? ['the error collector is missing: the page was reloaded'])]),
      async close() {
        await command(base, 'DELETE', route).catch(() => {});
        await stopDriver();
      },
    };
  } catch (err) {
    await stopDriver();
    throw err;
  }
}
