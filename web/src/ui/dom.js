// The page's one element builder and its two companions: `h` builds an element with its
// attributes and children in one expression, `setChildren` replaces a node's children, and
// `nextId` hands out ids unique on the page. Every chapter, experiment and exercise builds
// its DOM with these. Not for: styling or layout (style.css and the modules' own CSS).

const skipped = (value) => value === undefined || value === null || value === false;

/** Children as given, arrays flattened, with null, undefined and false left out. */
export const present = (children) => children.flat(Infinity).filter((c) => !skipped(c));

/**
 * Builds an element: `h('p', {class: 'x', dataset: {role: 'y'}, onclick: fn}, 'text', child)`.
 * Attributes: `class`, `text` (textContent), `html` (innerHTML, for markup written by this
 * project only), `dataset` (an object), `on<event>` (a listener); any other key is an
 * attribute, `true` giving an empty one. An attribute whose value is undefined, null or
 * false is left out, and so is such a child, so conditional parts can be written inline.
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (skipped(value)) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else if (key === 'html') node.innerHTML = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  node.append(...present(children));
  return node;
}

/** replaceChildren that leaves out null, undefined and false, like `h`. */
export function setChildren(node, ...children) {
  node.replaceChildren(...present(children));
  return node;
}

let lastId = 0;
/** `${prefix}-${n}`, n counting up over the page's life, for labels and aria-describedby. */
export function nextId(prefix) {
  lastId += 1;
  return `${prefix}-${lastId}`;
}
