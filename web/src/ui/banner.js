// The page's banners: the notes in the header that the student sees on load, whatever the
// chapter and however far down its exercises go (course.json problems, a changed student
// id's work kept aside, progress this browser could not read). One look and one way to show
// and hide them. Not for: messages that belong beside a control (those sit next to it).

import { setChildren } from './dom.js';

const KINDS = ['error', 'warn', 'ok'];

/**
 * Shows `banner` (a header element with role="alert") holding `content`: a sentence, or
 * nodes and sentences (an array, as setChildren takes them) when it carries buttons.
 * `kind` is 'error', 'warn' or 'ok'.
 */
export function showBanner(banner, content, kind = 'error') {
  if (!banner) return;
  if (!KINDS.includes(kind)) throw new TypeError(`showBanner: kind must be one of ${KINDS.join(', ')}, got ${JSON.stringify(kind)}`);
  banner.classList.remove('note', ...KINDS);
  banner.classList.add('note', kind);
  setChildren(banner, ...[content].flat());
  banner.hidden = false;
}

/** Hides `banner` and empties it, so a screen reader does not find a stale sentence. */
export function hideBanner(banner) {
  if (!banner) return;
  banner.hidden = true;
  banner.replaceChildren();
}
