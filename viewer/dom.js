// Small DOM helpers: the viewer builds its HTML with these instead of innerHTML, so text from
// scenes and traces (ids, labels, notes) is never parsed as markup.

const SVG_NS = "http://www.w3.org/2000/svg";

/** h("button", {class: "x", onclick: f}, "text", child): an element with attributes and children. */
export function h(tag, attributes = {}, ...children) {
  return build(document.createElement(tag), attributes, children);
}

/** The same for SVG elements. */
export function s(tag, attributes = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attributes, children);
}

function build(element, attributes, children) {
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2), value);
    } else if (name === "dataset") {
      Object.assign(element.dataset, value);
    } else {
      element.setAttribute(name, value === true ? "" : String(value));
    }
  }
  append(element, children);
  return element;
}

/** Appends strings (as text), nodes and (nested) arrays of them; skips null and false. */
export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/** Replaces the children of `parent`. */
export function replace(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

export function byId(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`viewer: #${id} is missing from index.html`);
  return element;
}

/** Says `message` in the status line (a polite live region, read out by screen readers). */
export function announce(message) {
  const status = document.getElementById("status");
  if (status) status.textContent = message;
}
