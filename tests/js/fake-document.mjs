// A minimal stand-in for the browser's document, enough for web/src/ui's builders in
// node:test: elements with attributes, className, dataset, text, children, listeners and
// click. Not a DOM: no parsing, no selectors, no layout. Install with installFakeDocument().

class FakeText {
  constructor(text) {
    this.textContent = text;
  }
}

export class FakeElement {
  constructor(tag) {
    this.tagName = tag.toUpperCase();
    this.attributes = new Map();
    this.childNodes = [];
    this.dataset = {};
    this.className = '';
    this.innerHTML = undefined;
    this.listeners = {};
    this.parent = null;
  }
  setAttribute(name, value) {
    this.attributes.set(name, String(value));
  }
  getAttribute(name) {
    return this.attributes.has(name) ? this.attributes.get(name) : null;
  }
  addEventListener(type, fn) {
    (this.listeners[type] ??= []).push(fn);
  }
  click() {
    for (const fn of this.listeners.click ?? []) fn({ type: 'click', target: this });
  }
  append(...nodes) {
    for (const node of nodes) {
      const child = typeof node === 'string' ? new FakeText(node) : node;
      child.parent = this;
      this.childNodes.push(child);
    }
  }
  replaceChildren(...nodes) {
    this.childNodes = [];
    this.append(...nodes);
  }
  remove() {
    if (!this.parent) return;
    this.parent.childNodes = this.parent.childNodes.filter((c) => c !== this);
    this.parent = null;
  }
  /** Element children only, like the DOM's `children`. */
  get children() {
    return this.childNodes.filter((c) => c instanceof FakeElement);
  }
  get textContent() {
    return this.childNodes.map((c) => c.textContent).join('');
  }
  set textContent(text) {
    this.childNodes = text === '' ? [] : [new FakeText(String(text))];
  }
}

/** Puts a fresh fake `document` on globalThis and returns it. */
export function installFakeDocument() {
  const document = { createElement: (tag) => new FakeElement(tag), body: new FakeElement('body') };
  globalThis.document = document;
  return document;
}
