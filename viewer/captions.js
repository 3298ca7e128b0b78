// Captions of the views, drawn at screen size whatever the zoom: each view's label (or
// accessibility identifier, or the last part of its id) in its top-left corner, cut to the
// view's width, and left out where it would overlap a caption already placed. Placed in
// order of importance: the selected view, windows, labelled controls, labelled views, the rest
// front to back; so of seven stacked full-screen views one caption shows, not seven. Views
// that cannot be seen (hidden, transparent) have none unless selected.

import { s } from "./dom.js";
import { shortName } from "./model.js";

const FONT_SIZE = 11;
/** The font the captions are measured in; viewer.css draws `.caption` in the same. */
const FONT = `${FONT_SIZE}px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif`;
const LINE = 13;
const INSET = 3;
/** Below this width (pixels) a caption would be a few letters: it is left out. */
const MIN_WIDTH = 26;
const CELL = 64;

export class Captions {
  /** `group` is an SVG group in pixel space (outside the camera). */
  constructor(group) {
    this.group = group;
    this.widths = new Map();
    this.context = document.createElement("canvas").getContext("2d");
    this.context.font = FONT;
    this.items = [];
    this.pool = [];
  }

  /** The views to caption (a SceneModel) and which one is selected. */
  setModel(model) {
    this.model = model;
    this.items = model.views.map((v) => {
      const extra = model.extra(v.id);
      let text = v.label || extra.accessibilityIdentifier || shortName(v.id);
      if (!v.superview && extra.passThrough) text += " · pass-through";
      // Windows, then labelled controls, labelled views, other views. A view that cannot be
      // seen (hidden or transparent, or inside such a view) has a caption only when selected.
      const rank = !v.superview ? 0 : v.label && v.enabled !== undefined ? 1 : v.label ? 2 : 3;
      return { v, text, rank, order: model.order.get(v.id), kind: v.label ? "label" : "id", box: model.visibleBox(v), unseen: model.unseen(v) };
    }).filter((item) => item.box);
    this.items.sort((a, b) => a.rank - b.rank || a.order - b.order);
  }

  width(text) {
    let w = this.widths.get(text);
    if (w === undefined) {
      w = this.context.measureText(text).width;
      this.widths.set(text, w);
    }
    return w;
  }

  /** Lays the captions out for the camera's current scale and offset in a `width` × `height` view. */
  update(camera, width, height, { selected = null, hidden = false } = {}) {
    let used = 0;
    if (!hidden && this.model) {
      const grid = new Map();
      const items = selected ? [this.items.find((i) => i.v.id === selected), ...this.items.filter((i) => i.v.id !== selected)] : this.items;
      for (const item of items) {
        if (!item || (item.unseen && item.v.id !== selected)) continue;
        const placed = this.place(item, camera, width, height, grid);
        if (!placed) continue;
        this.draw(used++, item, placed, item.v.id === selected);
      }
    }
    for (let i = used; i < this.pool.length; i++) this.pool[i].setAttribute("display", "none");
    this.shown = used;
  }

  /** Where `item`'s caption goes in pixels ({x, y, text}), or null when it does not fit or would overlap. */
  place(item, camera, width, height, grid) {
    const [x0, y0] = camera.toPixels([item.box[0], item.box[1]]);
    const [x1, y1] = camera.toPixels([item.box[2], item.box[3]]);
    const box = [x0, y0, x1, y1];
    // The part of the view inside the canvas: a view scrolled half out of sight keeps its
    // caption in its visible corner.
    const left = Math.max(box[0], 0), top = Math.max(box[1], 0);
    const right = Math.min(box[2], width), bottom = Math.min(box[3], height);
    const room = right - left - 2 * INSET;
    if (room < MIN_WIDTH || bottom - top < LINE - 1) return null;
    let text = item.text;
    let w = this.width(text);
    if (w > room) {
      // Cut to the room there is, by the share of the width that fits, then to the letter.
      let n = Math.max(1, Math.floor(text.length * (room / w)));
      while (n > 1 && this.width(text.slice(0, n) + "…") > room) n--;
      if (n < 3) return null;
      text = text.slice(0, n) + "…";
      w = this.width(text);
    }
    const rect = [left + INSET, top + 1, left + INSET + w, top + 1 + LINE];
    const cells = [];
    for (let cx = Math.floor(rect[0] / CELL); cx <= Math.floor(rect[2] / CELL); cx++) {
      for (let cy = Math.floor(rect[1] / CELL); cy <= Math.floor(rect[3] / CELL); cy++) {
        const key = `${cx},${cy}`;
        for (const other of grid.get(key) ?? []) {
          if (rect[0] < other[2] && other[0] < rect[2] && rect[1] < other[3] && other[1] < rect[3]) return null;
        }
        cells.push(key);
      }
    }
    for (const key of cells) {
      if (!grid.has(key)) grid.set(key, []);
      grid.get(key).push(rect);
    }
    return { x: rect[0], y: rect[1] + LINE - 3, text };
  }

  draw(index, item, placed, selected) {
    let text = this.pool[index];
    if (!text) {
      text = s("text", { class: "caption" });
      this.pool.push(text);
      this.group.append(text);
    }
    text.removeAttribute("display");
    text.setAttribute("x", placed.x.toFixed(1));
    text.setAttribute("y", placed.y.toFixed(1));
    text.setAttribute("class", `caption caption-${item.kind}${selected ? " caption-selected" : ""}`);
    text.dataset.id = item.v.id;
    if (text.textContent !== placed.text) text.textContent = placed.text;
  }
}

