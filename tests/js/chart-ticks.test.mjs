// Protects the charts' tick text and log ticks (web/src/charts/ticks.js): bytes in the binary
// units the tables print, other numbers with k and M instead of "200000" or "1e+6", and log
// axes whose every mark gets a label (none left blank, none outside the domain).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatBytesTick, formatCountTick, logExtentOf, logTicks, niceLogDomain, tickFormatter, tickedLogDomain } from '../../web/src/charts/ticks.js';
import { formatBytes } from '../../web/src/ui/format.js';

const KiB = 1024;
const MiB = 1024 * KiB;

test('byte ticks in binary units, as the tables print the same values', () => {
  assert.deepEqual([0, 512, 1023, KiB, 1.5 * KiB, 4 * KiB, 256 * KiB, MiB, 16 * MiB, 3 * 1024 * MiB].map(formatBytesTick), [
    '0 B',
    '512 B',
    '1023 B',
    '1 KiB',
    '1.5 KiB',
    '4 KiB',
    '256 KiB',
    '1 MiB',
    '16 MiB',
    '3 GiB',
  ]);
  // The same unit and number as the table's cell, only without the table's trailing zeros.
  for (const bytes of [4 * KiB, 1.5 * MiB, 97.3 * KiB]) {
    const [number, unit] = formatBytes(bytes).split(' ');
    assert.equal(formatBytesTick(bytes), `${Number(number)} ${unit}`);
  }
  assert.equal(formatBytesTick(-2048), '−2 KiB');
  // A category on a point axis is its own text.
  assert.equal(formatBytesTick('cnn_28'), 'cnn_28');
});

test('count ticks with k, M and G, never an exponent or a raw six-digit number', () => {
  assert.deepEqual([0, 0.05, 0.25, 8, 64, 1024, 9999, 10000, 200000, 1e6, 2.5e7, 1e9, 1e12].map(formatCountTick), [
    '0',
    '0.05',
    '0.25',
    '8',
    '64',
    '1024',
    '9999',
    '10k',
    '200k',
    '1M',
    '25M',
    '1G',
    '1T',
  ]);
  assert.equal(formatCountTick(-80), '−80');
  assert.equal(formatCountTick(123456), '123k');
  assert.equal(formatCountTick('round 3'), 'round 3');
  for (let e = -3; e <= 12; e += 1) assert.doesNotMatch(formatCountTick(3 * 10 ** e), /e[+-]/, `3e${e}`);
});

test('an axis format is bytes, count or a function, and anything else is named', () => {
  assert.equal(tickFormatter('bytes')(MiB), '1 MiB');
  assert.equal(tickFormatter(undefined)(1e6), '1M');
  assert.equal(tickFormatter((v) => `${v}×`)(2), '2×');
  assert.throws(() => tickFormatter('KiB'), { message: `an axis format is 'bytes', 'count' or a function, got "KiB"` });
});

test('a log domain from the data runs from power to power of its base', () => {
  assert.deepEqual(niceLogDomain([0.013, 0.9, -1, NaN]), [0.01, 1]);
  assert.deepEqual(niceLogDomain([1000]), [1000, 10000]);
  assert.deepEqual(niceLogDomain([1000, 1e6]), [1000, 1e6]);
  assert.deepEqual(niceLogDomain([5000, 300 * KiB], 2), [4 * KiB, 512 * KiB]);
  assert.equal(niceLogDomain([0, -3]), null);
  // Fitted to the data instead (a scatter of ratios near 1 is not squeezed into [0.1, 10]).
  assert.deepEqual(logExtentOf([0.97, 1.04, 0, NaN]), [0.97, 1.04]);
  assert.deepEqual(logExtentOf([3]), [1.5, 6]);
});

test('log ticks: inside the domain, at most maxTicks, denser when the axis spans few decades', () => {
  const cases = [
    [[16, 1024], '20 50 100 200 500 1000'],
    [[0.01, 1], '0.01 0.02 0.05 0.1 0.2 0.5 1'],
    [[3000, 1e6], '5000 10k 20k 50k 100k 200k 500k 1M'],
    [[1e5, 1e9], '100k 300k 1M 3M 10M 30M 100M 300M 1G'],
    [[1, 1e12], '1 100 10k 1M 100M 10G 1T'],
    // Narrower than a decade: round steps, so a ratio axis around 1 marks 1.
    [[0.95, 1.08], '0.95 1 1.05'],
    [[3.1, 3.9], '3.2 3.4 3.6 3.8'],
  ];
  for (const [domain, expected] of cases) {
    const ticks = logTicks(domain);
    assert.equal(ticks.map(formatCountTick).join(' '), expected, JSON.stringify(domain));
    assert.ok(ticks.length <= 10 && ticks.every((t) => t >= domain[0] && t <= domain[1]));
  }
  // Bytes on base 2: powers of two, every other one over a wide sweep, so they read 4 KiB, 16 KiB, ...
  assert.equal(
    logTicks([4 * KiB, 256 * MiB], { base: 2 }).map(formatBytesTick).join(' '),
    '4 KiB 16 KiB 64 KiB 256 KiB 1 MiB 4 MiB 16 MiB 64 MiB 256 MiB',
  );
  assert.equal(logTicks([1, 64], { base: 2 }).join(' '), '1 2 4 8 16 32 64');
  assert.deepEqual(logTicks([0, 10]), []);
});

test('a log domain to the ticks over values equal to rounding stays an axis with a few marks', () => {
  // CI: twice "Invalid array length" from the Benchmarking chapter's quick run. Two values a
  // ten-billionth apart made the even marks' step 2e-11, and the widening asked for every
  // mark of a decade either side (billions of them) before V8 refused the array.
  for (const values of [[1, 1 + 1e-10], [0.05, 0.0500001], [1, 1.00001], [0.7, 0.70002], [3.3, 3.31]]) {
    const domain = tickedLogDomain(values);
    assert.ok(domain[0] <= values[0] && domain[1] >= values[1], `${values}: ${domain}`);
    const ticks = logTicks(domain);
    assert.ok(ticks.length >= 2 && ticks.length <= 12, `${values}: ${ticks}`);
    assert.deepEqual([ticks[0], ticks.at(-1)], domain, `${values}: ${ticks}`);
  }
  // Equal to a millionth: an octave either side, as for equal values.
  assert.deepEqual(logExtentOf([1, 1 + 1e-10]), [0.5, 2 + 2e-10]);
});

test('a log domain to the ticks reaches the nearest marked value beyond each end', () => {
  // The class's machines chart stopped its axis at 20 under a 46.2 GFLOP/s point, and the A/A
  // intervals ended on the frame's edge, as if cut.
  assert.deepEqual(tickedLogDomain([0.28, 1, 3.6]), [0.2, 5]);
  assert.deepEqual(tickedLogDomain([9.8, 46.2]), [5, 50]);
  assert.deepEqual(tickedLogDomain([0.45, 46.2]), [0.2, 50]);
  assert.deepEqual(tickedLogDomain([0.013, 0.9]), [0.01, 1]);
  assert.deepEqual(tickedLogDomain([4096, 300 * KiB], { base: 2 }), [4 * KiB, 512 * KiB]);
  assert.equal(tickedLogDomain([0, -1, NaN, Infinity]), null);
  // The ends are marks, so the axis labels both.
  for (const values of [[0.28, 3.6], [9.8, 46.2], [0.0016, 1.1], [0.7, 1.4]]) {
    const domain = tickedLogDomain(values);
    const ticks = logTicks(domain);
    assert.equal(ticks[0], domain[0], `${values}: ${ticks}`);
    assert.equal(ticks.at(-1), domain[1], `${values}: ${ticks}`);
  }
});
