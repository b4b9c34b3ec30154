// The pure half of the cache-plateau sweep (acceleration-cache-sweep): read bandwidth at
// core's working sets (experimentPlan: doubling sizes, so each cache level shows as a
// plateau), capped by what the lab may still allocate (core's memoryStats: cap_bytes −
// current_bytes). Points, the compact size names the axis and table print, and the columns. No DOM.

import { planOf } from '../../experiments/plans.js';
import { formatCount } from '../../ui/format.js';

const KiB = 1024;
const MiB = 1024 * KiB;

/** Core's working sets and Timer options for this run (`info.plan`), or an Error. */
const sweepOf = (info) => planOf(info, 'working-set sizes', ['sizes', 'options']);

/**
 * The largest working set the lab may allocate now, from core's memoryStats
 * (`{cap_bytes, current_bytes}`; cap 0 means no cap): Infinity without a cap or without stats.
 */
export function allowedBytes(memory) {
  const cap = memory?.cap_bytes;
  if (!(cap > 0)) return Infinity;
  return Math.max(0, cap - (memory.current_bytes ?? 0));
}

/**
 * One point per working-set size of core's plan (`info.plan`) that fits what the lab may
 * allocate (`info.memory`, core's memoryStats at mount), smallest first: `{bytes, options}`.
 * A point that still fails to allocate when it runs ends the sweep there (sweep.js), so this
 * cap only avoids trying.
 */
export function cacheSweepPoints(values, { info }) {
  const { sizes, options } = sweepOf(info);
  const allowed = allowedBytes(info?.memory);
  const fitting = sizes.filter((bytes) => bytes <= allowed);
  if (fitting.length === 0) {
    throw new Error(
      `the lab's memory cap leaves ${allowed} bytes, less than the smallest working set of ${sizes[0]} bytes; reload the page to free memory`,
    );
  }
  return fitting.map((bytes) => ({ bytes, options: { ...options } }));
}

/** The sentence under the explanation: how far this run's plan (`info.plan`) can go, and why. */
export function capNote(info) {
  const { sizes } = sweepOf(info);
  const allowed = allowedBytes(info?.memory);
  const largest = sizes.filter((bytes) => bytes <= allowed).at(-1);
  if (allowed === Infinity) return `No memory cap reported: the sweep goes to ${sizeName(sizes.at(-1))}.`;
  const capText = `The lab may allocate ${sizeName(Math.floor(allowed / MiB) * MiB || allowed)} more (its cap is ${sizeName(info.memory.cap_bytes)})`;
  return largest === sizes.at(-1)
    ? `${capText}: enough for the whole sweep to ${sizeName(largest)}.`
    : `${capText}: the sweep stops at ${largest ? sizeName(largest) : 'nothing'}.`;
}

/** "4 KiB", "256 MiB": whole binary units for the powers of two on the axis. */
export function sizeName(bytes) {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= KiB && bytes % KiB === 0) return `${bytes / KiB} KiB`;
  return `${bytes} B`;
}

/** The axis ticks of a plan's sizes: all of quick mode's few, else every fourth (4 KiB, 64 KiB, 1 MiB, ...). */
export function axisTicks(sizes, quick) {
  return quick ? [...sizes] : sizes.filter((_, i) => i % 4 === 0);
}

/** "4 KiB – 256 MiB": a plan's range of working sets. */
export const rangeName = (sizes) => `${sizeName(sizes[0])} – ${sizeName(sizes.at(-1))}`;

// Core reads the working set several times per timed call (so that a call is long enough to
// time) and reports the bytes one call reads: every time below is one such call, and the
// bandwidth is bytes per call ÷ the fastest call (core takes the rate over the fastest
// sample), so a reader can redo the division from the row itself.
export const TABLE_COLUMNS = Object.freeze([
  { label: 'working set', format: (row) => sizeName(row.bytes), align: 'right' },
  { key: 'bytes_per_call', label: 'bytes per call', format: (row) => bytesPerCallText(row), align: 'right' },
  { key: 'stats.min_ms', label: 'fastest call', unit: 'ms', format: 'sig' },
  { key: 'gb_per_s', label: 'read bandwidth', unit: 'GB/s', format: 'sig' },
  { key: 'stats.median_ms', label: 'median call', unit: 'ms', format: 'sig' },
  { key: 'stats.cv', label: 'CV', format: 'percent' },
  { key: 'stats.warning', label: 'warning', format: 'text' },
]);

/** "256 KiB (64 passes)": what one timed call reads, and how many passes over the working set that is. */
export function bytesPerCallText(row) {
  const perCall = row.bytes_per_call;
  if (!(perCall > 0)) return '—';
  const passes = perCall / row.bytes;
  const name = Number.isInteger(perCall) ? sizeName(perCall) : `${perCall} B`;
  return Number.isInteger(passes) ? `${name} (${formatCount(passes, 'pass', 'passes')})` : name;
}

export const CSV_COLUMNS = Object.freeze([
  'build',
  'bytes',
  'bytes_per_call',
  'min_ms',
  'gb_per_s',
  'median_ms',
  'cv',
  'samples',
  'warning',
]);
