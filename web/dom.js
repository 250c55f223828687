// Tiny DOM helpers. Server data only ever becomes text nodes (never parsed as HTML).
const SVG_NS = 'http://www.w3.org/2000/svg';

function build(node, attrs, children) {
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

/** `el('li', {class: 'x'}, 'text', child)`: an HTML element; strings become text nodes. */
export const el = (tag, attrs, ...children) => build(document.createElement(tag), attrs, children);

/** The same for SVG elements. */
export const svgEl = (tag, attrs, ...children) => build(document.createElementNS(SVG_NS, tag), attrs, children);

export const $ = (id) => document.getElementById(id);

/** Replace an element's children. */
export function fill(node, ...children) {
  node.replaceChildren();
  build(node, {}, children);
  return node;
}

export const pct = (x) => `${(100 * x).toFixed(1)}%`;

/** Shorten a label for a drawing; the full text stays available in a <title>. */
export const short = (s, n = 32) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
