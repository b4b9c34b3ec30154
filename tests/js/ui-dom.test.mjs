// Protects the page's one element builder (web/src/ui/dom.js) and its one download helper
// (web/src/ui/download.js): which attributes are set and which left out, children flattened
// with the absent ones dropped, listeners attached, unique ids, and a download that hands the
// exact text to a hidden link with the file's name and refuses what is not a file.

import assert from 'node:assert/strict';
import { resolveObjectURL } from 'node:buffer';
import { mock, test } from 'node:test';
import { installFakeDocument } from './fake-document.mjs';
import { h, nextId, present, setChildren } from '../../web/src/ui/dom.js';
import { downloadText } from '../../web/src/ui/download.js';

installFakeDocument();

test('h sets class, text, dataset and attributes, and leaves out undefined, null and false', () => {
  const node = h('input', {
    class: 'pl-ex-number',
    dataset: { role: 'answer', part: '0' },
    type: 'text',
    size: 22,
    novalidate: true,
    hidden: false,
    min: 0,
    max: undefined,
    step: null,
  });
  assert.equal(node.tagName, 'INPUT');
  assert.equal(node.className, 'pl-ex-number');
  assert.deepEqual(node.dataset, { role: 'answer', part: '0' });
  assert.deepEqual(Object.fromEntries(node.attributes), { type: 'text', size: '22', novalidate: '', min: '0' });
});

test('h writes text as text and html as markup', () => {
  assert.equal(h('p', { text: '<b>1 < 2</b>' }).textContent, '<b>1 < 2</b>');
  assert.equal(h('p', { html: 'a <code>b</code>' }).innerHTML, 'a <code>b</code>');
});

test('h attaches on<event> functions as listeners, not as attributes', () => {
  let clicks = 0;
  const button = h('button', { onclick: () => (clicks += 1) });
  button.click();
  button.click();
  assert.equal(clicks, 2);
  assert.equal(button.getAttribute('onclick'), null);
});

test('h flattens child arrays and drops null, undefined and false but keeps 0 and empty text', () => {
  const list = h('ol', {}, [h('li', { text: 'a' }), [null, h('li', { text: 'b' })]], false, undefined, 'x', '');
  assert.deepEqual(
    list.children.map((c) => c.textContent),
    ['a', 'b'],
  );
  assert.equal(list.textContent, 'abx');
  assert.equal(list.childNodes.length, 4);
  assert.deepEqual(present([0, null, [false, 'y']]), [0, 'y']);
});

test('setChildren replaces the children and drops the absent ones', () => {
  const node = h('div', {}, 'old');
  assert.equal(setChildren(node, null, h('span', { text: 'new' }), false), node);
  assert.equal(node.textContent, 'new');
  assert.equal(node.childNodes.length, 1);
});

test('nextId never repeats an id, whatever the prefix', () => {
  const ids = [nextId('a'), nextId('a'), nextId('b'), nextId('a')];
  assert.equal(new Set(ids).size, 4);
  assert.match(ids[0], /^a-\d+$/);
  assert.match(ids[2], /^b-\d+$/);
});

test('downloadText hands the exact text to a hidden link named after the file, then removes it', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const clicked = [];
  const create = mock.method(URL, 'createObjectURL');
  const revoke = mock.method(URL, 'revokeObjectURL');
  const { body } = globalThis.document;
  const append = body.append.bind(body);
  body.append = (link) => {
    link.addEventListener('click', () => clicked.push({ href: link.getAttribute('href'), name: link.getAttribute('download'), hidden: link.getAttribute('hidden') }));
    append(link);
  };
  try {
    downloadText('runs.csv', 'a,b\r\n1,"x, y"\r\n', 'text/csv');
    assert.equal(clicked.length, 1);
    assert.equal(clicked[0].name, 'runs.csv');
    assert.equal(clicked[0].hidden, '');
    assert.equal(body.childNodes.length, 0, 'the link is removed after the click');
    const blob = resolveObjectURL(clicked[0].href);
    assert.equal(blob.type, 'text/csv');
    assert.equal(await blob.text(), 'a,b\r\n1,"x, y"\r\n');
    assert.equal(create.mock.callCount(), 1);
    assert.equal(revoke.mock.callCount(), 0, 'revoking at once could cancel the download');
    t.mock.timers.tick(10_000);
    assert.equal(revoke.mock.callCount(), 1);
    assert.equal(revoke.mock.calls[0].arguments[0], clicked[0].href);
  } finally {
    body.append = append;
    create.mock.restore();
    revoke.mock.restore();
  }
});

test('downloadText refuses a missing file name or contents that are not text', () => {
  assert.throws(() => downloadText('', 'x', 'text/plain'), /fileName must be a non-empty string/);
  assert.throws(() => downloadText('a.json', { a: 1 }, 'application/json'), /text must be a string, got object/);
});
