// The outline: windows, view controllers and views as a tree (a view controller is the parent
// of its root view), with a search by id, class, label, accessibility identifier and address.
// Views that hit-testing skips say why (the geometry's `outOfPlay`: rule and pruned view);
// pass-through views (a hitTest override returning nil for themselves) say so.
//
// It is a WAI-ARIA tree drawn as a virtualized list (only the rows in view are in the DOM):
// Up/Down/Home/End/Page keys move, Right opens or goes to the first child, Left closes or
// goes to the parent, Enter selects. Selecting a row selects its view on the canvas.

import { h, replace } from "./dom.js";
import { VirtualList } from "./virtual-list.js";
import { shortName } from "./model.js";

const ROW = 24;
/** Indentation stops growing here: deeper rows say their level instead. */
const MAX_INDENT = 28;

export class Outline {
  /**
   * @param {HTMLElement} container  where the search field and the tree go
   * @param {object} callbacks  onSelect(viewId), onMatches(viewIds)
   */
  constructor(container, { onSelect, onMatches }) {
    this.onSelect = onSelect;
    this.onMatches = onMatches;
    this.model = null;
    this.collapsed = new Set();
    this.query = "";
    this.matches = new Set();
    this.matchOrder = [];

    this.search = h("input", {
      type: "search", id: "outline-search", autocomplete: "off", spellcheck: "false",
      placeholder: "id, class, label, accessibility id, address",
      "aria-describedby": "outline-count", "aria-controls": "outline-tree",
    });
    this.count = h("p", { class: "outline-count", id: "outline-count", "aria-live": "polite" });
    this.list = new VirtualList({
      label: "Windows, view controllers and views",
      rowHeight: ROW,
      role: "tree",
      className: "outline-tree",
      renderRow: (node, _, row) => this.renderRow(node, row),
      onSelect: (node) => this.onSelect(node.viewId),
      onActivate: (node) => this.onSelect(node.viewId),
    });
    this.list.element.id = "outline-tree";
    this.list.element.addEventListener("keydown", (event) => this.keydown(event), { capture: true });
    this.list.element.addEventListener("click", (event) => {
      if (event.target.closest?.(".twisty")) {
        const row = event.target.closest(".vrow");
        this.toggle(this.list.items[Number(row.dataset.index)]);
      }
    });

    let timer = null;
    this.search.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.setQuery(this.search.value), 120);
    });
    this.search.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        clearTimeout(timer);
        if (this.search.value !== this.query) this.setQuery(this.search.value);
        this.nextMatch(event.shiftKey ? -1 : 1);
      } else if (event.key === "ArrowDown" && this.list.items.length) {
        event.preventDefault();
        this.list.element.focus();
        if (this.list.selected < 0) this.list.select(0);
      }
    });

    replace(container,
      h("label", { for: "outline-search", class: "outline-search-label" }, "Search views"),
      this.search, this.count, this.list.element);
  }

  /** The tree of `model` (a SceneModel): windows back to front, as the geometry lists them. */
  setModel(model) {
    this.model = model;
    this.collapsed = new Set();
    this.roots = [];
    const nodes = new Map();
    for (const v of model.views) {
      const node = { key: v.id, kind: v.superview ? "view" : "window", viewId: v.id, view: v, children: [], parent: null };
      let attach = node;
      if (v.viewController) {
        attach = { key: `vc:${v.viewController.id}`, kind: "controller", viewId: v.id, controller: v.viewController, view: v, children: [node], parent: null };
        node.parent = attach;
      }
      const parent = v.superview ? nodes.get(v.superview) : null;
      attach.parent = parent ?? null;
      if (parent) parent.children.push(attach);
      else this.roots.push(attach);
      nodes.set(v.id, node);
    }
    this.nodes = nodes;
    this.setQuery(this.search.value, { keepSelection: false });
  }

  /** No scene: an empty tree. */
  clear() {
    this.model = null;
    this.roots = [];
    this.nodes = new Map();
    this.visible = null;
    this.matches = new Set();
    this.matchOrder = [];
    this.list.setItems([]);
    this.count.textContent = "";
  }

  /** Selects the row of view `id` (opening its ancestors) without calling back. */
  select(id) {
    if (!this.model) return;
    const node = this.nodes.get(id);
    if (!node) {
      this.list.setItems(this.list.items, { keepScroll: true, selected: -1 });
      return;
    }
    if (this.query && !this.visible.has(node)) {
      // A view the search hides: show everything rather than lose the selection.
      this.search.value = "";
      this.setQuery("");
    }
    for (let n = node.parent; n; n = n.parent) this.collapsed.delete(n.key);
    this.refresh();
    const index = this.list.items.indexOf(node);
    if (index >= 0) this.list.select(index, { notify: false });
  }

  get selectedViewId() {
    return this.list.items[this.list.selected]?.viewId ?? null;
  }

  setQuery(query, { keepSelection = true } = {}) {
    this.query = query.trim().toLowerCase();
    const matches = new Set();
    const order = [];
    if (this.query && this.model) {
      for (const v of this.model.views) {
        if (this.model.searchText(v).includes(this.query)) {
          matches.add(v.id);
          order.push(v.id);
        }
      }
    }
    this.matches = matches;
    this.matchOrder = order;
    this.matchCursor = -1;
    // With a search, the rows shown are the matches and their ancestors, all open.
    this.visible = null;
    if (this.query) {
      this.visible = new Set();
      for (const id of order) {
        for (let n = this.nodes.get(id); n && !this.visible.has(n); n = n.parent) this.visible.add(n);
      }
    }
    const selected = keepSelection ? this.selectedViewId : null;
    this.refresh();
    if (selected) {
      const index = this.list.items.findIndex((n) => n.viewId === selected && n.kind !== "controller");
      if (index >= 0) this.list.setItems(this.list.items, { keepScroll: true, selected: index });
    }
    const total = this.model?.views.length ?? 0;
    this.count.textContent = !this.model ? "" : this.query
      ? `${matches.size} of ${total} view${total === 1 ? "" : "s"} match${matches.size === 1 ? "es" : ""} “${query.trim()}”${matches.size ? " — Enter for the next" : ""}`
      : `${total} view${total === 1 ? "" : "s"}`;
    this.onMatches([...matches]);
  }

  /** Selects the next (or previous) match and its view. */
  nextMatch(step) {
    if (!this.matchOrder.length) return;
    this.matchCursor = (this.matchCursor + step + this.matchOrder.length) % this.matchOrder.length;
    const id = this.matchOrder[this.matchCursor];
    this.select(id);
    this.onSelect(id);
  }

  /** The rows in order: open nodes' children, or with a search the matching branches. */
  refresh() {
    const rows = [];
    const walk = (node, level) => {
      if (this.visible && !this.visible.has(node)) return;
      node.level = level;
      rows.push(node);
      if (this.visible || !this.collapsed.has(node.key)) for (const child of node.children) walk(child, level + 1);
    };
    for (const root of this.roots ?? []) walk(root, 1);
    const selectedNode = this.list.items[this.list.selected];
    const index = selectedNode ? rows.indexOf(selectedNode) : -1;
    this.list.setItems(rows, { keepScroll: true, selected: index });
  }

  toggle(node) {
    if (!node?.children.length || this.visible) return;
    if (this.collapsed.has(node.key)) this.collapsed.delete(node.key);
    else this.collapsed.add(node.key);
    this.refresh();
  }

  keydown(event) {
    if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
    const node = this.list.items[this.list.selected];
    if (!node) return;
    event.preventDefault();
    event.stopPropagation();
    const open = node.children.length && (this.visible || !this.collapsed.has(node.key));
    if (event.key === "ArrowRight") {
      if (node.children.length && !open) this.toggle(node);
      else if (open) this.list.select(this.list.selected + 1);
    } else if (open && !this.visible) {
      this.toggle(node);
    } else if (node.parent) {
      this.list.select(this.list.items.indexOf(node.parent));
    }
  }

  renderRow(node, row) {
    const v = node.view;
    const open = node.children.length ? (this.visible || !this.collapsed.has(node.key)) : null;
    row.setAttribute("aria-level", String(node.level));
    if (open !== null) row.setAttribute("aria-expanded", String(Boolean(open)));
    const siblings = node.parent ? node.parent.children : this.roots;
    row.setAttribute("aria-setsize", String(siblings.length));
    row.setAttribute("aria-posinset", String(siblings.indexOf(node) + 1));
    row.dataset.id = node.viewId;
    row.dataset.kind = node.kind;
    row.classList.add(`outline-${node.kind}`);
    if (node.kind !== "controller" && this.matches.has(v.id)) row.classList.add("match");

    const indent = Math.min(node.level - 1, MAX_INDENT);
    const twisty = h("span", { class: "twisty", "aria-hidden": "true" }, open === null ? "" : open ? "▾" : "▸");
    twisty.style.marginLeft = `${indent * 10}px`;
    const parts = [twisty];
    if (node.level - 1 > MAX_INDENT) parts.push(h("span", { class: "deep" }, `${node.level} `));
    if (node.kind === "controller") {
      parts.push(h("span", { class: "badge badge-vc" }, "VC"), " ", h("span", { class: "name" }, node.controller.id),
        h("span", { class: "class" }, ` ${node.controller.class}`));
      row.title = `View controller ${node.controller.id} (${node.controller.class}), its view ${v.id}`;
    } else {
      const name = shortName(v.id);
      parts.push(h("span", { class: "name" }, name));
      // Badges first: why a view is out of play matters more than the rest of the row.
      for (const badge of badges(v, this.model)) parts.push(" ", badge);
      const cls = v.class.replace(/^XCUIElementType/, "");
      if (!name.startsWith(cls)) parts.push(h("span", { class: "class" }, ` ${cls}`));
      if (v.label && !name.includes(v.label)) parts.push(h("span", { class: "label" }, ` “${v.label}”`));
      const why = this.model.whyOutOfPlay(v);
      row.title = [v.id, v.class, v.label && `label “${v.label}”`, why && `out of play: ${why}`,
        this.model.extra(v.id).passThrough && "pass-through: hitTest returns nil for the view itself (H8)"]
        .filter(Boolean).join("\n");
    }
    row.append(h("span", { class: "outline-text" }, parts));
  }
}

/** Short marks for why hit-testing skips a view, each with its rule id. */
function badges(v, model) {
  const out = [];
  if (v.outOfPlay) {
    const rule = v.outOfPlay.rule;
    if (v.outOfPlay.view !== v.id) out.push(h("span", { class: "badge badge-pruned" }, `pruned · ${rule}`));
    else if (v.hidden) out.push(h("span", { class: "badge badge-hidden" }, `hidden · ${rule}`));
    else if (v.alpha < 0.01) out.push(h("span", { class: "badge badge-hidden" }, `alpha < 0.01 · ${rule}`));
    else if (!v.userInteractionEnabled) out.push(h("span", { class: "badge badge-inert" }, `no interaction · ${rule}`));
    else out.push(h("span", { class: "badge badge-inert" }, `out of play · ${rule}`));
  }
  if (model.extra(v.id).passThrough) out.push(h("span", { class: "badge badge-pass" }, "pass-through"));
  return out;
}
