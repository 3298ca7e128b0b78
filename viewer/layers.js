// The layered view: the scene exploded into depth-ordered planes, seen at an angle, so the view
// on top of a point is the one drawn highest and nearest. A view's layer is one above its
// superview and above every view drawn before it that it overlaps (Xcode's view debugger
// stacks the same way), so siblings side by side share a plane and a view covering another is
// always above it. Layers can be stepped through: those above the chosen one are left out.

import { s } from "./dom.js";
import { quadBox } from "./model.js";

/** The screen plane seen from the front left: x foreshortened and sloping, y upright. */
const PLANE = [0.78, 0.26, 0, 1];
/** Past this many views the overlap test (quadratic) gives way to depth in the tree. */
const OVERLAP_LIMIT = 3000;

export class LayeredView {
  constructor(group) {
    this.group = group;
    this.boxes = new Map();
    this.layerOf = new Map();
    this.top = 0;
    this.shown = 0;
  }

  /** Builds the planes for `model` (a SceneModel). */
  build(model) {
    this.model = model;
    this.layerOf = assignLayers(model);
    this.top = Math.max(0, ...this.layerOf.values());
    const [, , width, height] = model.geometry.screen ?? [0, 0, 100, 100];
    // Planes far enough apart to tell apart, close enough that a deep tree still fits.
    this.spacing = Math.max(5, Math.min(26, (Math.max(width, height) * 0.9) / Math.max(1, this.top)));
    this.boxes = new Map();
    const backToFront = model.frontToBack.slice().reverse().filter((v) => v.toScreen)
      .sort((a, b) => this.layerOf.get(a.id) - this.layerOf.get(b.id));
    const rects = backToFront.map((v) => {
      const z = this.layerOf.get(v.id);
      const [bx, by, bw, bh] = v.bounds;
      const rect = s("rect", {
        class: classesOf(v, model),
        x: bx, y: by, width: bw, height: bh,
        transform: `matrix(${compose(this.projection(z), v.toScreen).join(" ")})`,
        "data-id": v.id, "data-layer": z,
      });
      this.boxes.set(v.id, rect);
      return rect;
    });
    this.pointGroup = s("g", { class: "layer-point" });
    this.group.replaceChildren(...rects, this.pointGroup);
    this.show(this.top);
  }

  /**
   * The pinned point as a skewer through the planes: a line from the back plane to the front
   * one at `p`, and a dot where it pierces each view under it (`ids`); the hit-test view's dot
   * is the large red one.
   */
  showPoint(p, ids = [], hit = null, marker = null) {
    if (!this.pointGroup) return;
    if (!p) {
      this.pointGroup.replaceChildren();
      return;
    }
    const at = (z) => {
      const m = this.projection(z);
      return [m[0] * p[0] + m[2] * p[1] + m[4], m[1] * p[0] + m[3] * p[1] + m[5]];
    };
    const [x0, y0] = at(0);
    const [x1, y1] = at(this.top + 1);
    const dots = ids.filter((id) => this.layerOf.has(id)).map((id) => {
      const z = this.layerOf.get(id);
      const [x, y] = at(z);
      const dot = s("circle", { class: id === hit ? "pierce pierce-hit" : "pierce", cx: 0, cy: 0, r: id === hit ? 6 : 3.5 });
      const group = marker(x, y, dot);
      Object.assign(group.dataset, { id, layer: String(z) });
      group.classList.add("pierce-mark");
      return group;
    });
    // The hit-test view's dot last: on top of the others.
    dots.sort((a, b) => (a.dataset.id === hit) - (b.dataset.id === hit));
    this.pointGroup.replaceChildren(s("line", { class: "skewer", x1: x0, y1: y0, x2: x1, y2: y1 }), ...dots);
  }

  /** The affine map of layer `z`'s plane: [a, b, c, d, tx, ty] from screen points. */
  projection(z) {
    return [...PLANE, z * this.spacing, -z * this.spacing * 0.55];
  }

  /** Where the planes lie, [x, y, width, height], for fitting the camera to them. */
  bounds() {
    let box = null;
    for (const v of this.model?.views ?? []) {
      if (!v.quad) continue;
      const m = this.projection(this.layerOf.get(v.id) ?? 0);
      const b = quadBox(v.quad.map(([x, y]) => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]]));
      box = box ? [Math.min(box[0], b[0]), Math.min(box[1], b[1]), Math.max(box[2], b[2]), Math.max(box[3], b[3])] : b;
    }
    return box ? [box[0], box[1], box[2] - box[0], box[3] - box[1]] : [0, 0, 100, 100];
  }

  /** Shows layers 0…`n`; layer `n`'s views are outlined as the current plane. */
  show(n) {
    this.shown = Math.max(0, Math.min(this.top, n));
    for (const [id, rect] of this.boxes) {
      const z = this.layerOf.get(id);
      rect.classList.toggle("above", z > this.shown);
      rect.classList.toggle("current", z === this.shown && this.shown < this.top);
    }
    for (const dot of this.pointGroup?.querySelectorAll(".pierce-mark") ?? []) {
      dot.classList.toggle("above", Number(dot.dataset.layer) > this.shown);
    }
  }

  /** The ids on layer `n`, front to back. */
  viewsOn(n) {
    return this.model.frontToBack.filter((v) => this.layerOf.get(v.id) === n).map((v) => v.id);
  }
}

/** Layer per view id: above its superview and above every earlier-drawn view it overlaps. */
export function assignLayers(model) {
  const layers = new Map();
  const backToFront = model.frontToBack.slice().reverse();
  if (backToFront.length > OVERLAP_LIMIT) {
    let base = 0;
    for (const w of model.geometry.windows) {
      let deepest = base;
      for (const v of backToFront) {
        if (v.window !== w) continue;
        layers.set(v.id, base + v.depth);
        deepest = Math.max(deepest, base + v.depth);
      }
      base = deepest + 1;
    }
    return layers;
  }
  const placed = [];
  for (const v of backToFront) {
    let z = v.superview ? (layers.get(v.superview) ?? 0) + 1 : 0;
    const box = v.quad ? quadBox(v.quad) : null;
    if (box && box[2] > box[0] && box[3] > box[1]) {
      for (const other of placed) {
        const o = other.box;
        if (other.z >= z && box[0] < o[2] && o[0] < box[2] && box[1] < o[3] && o[1] < box[3]) z = other.z + 1;
      }
      placed.push({ box, z });
    }
    layers.set(v.id, z);
  }
  return layers;
}

/** m1 ∘ m2 for affine maps [a, b, c, d, tx, ty] (m2 applied first). */
export function compose(m1, m2) {
  const [a, b, c, d, e, f] = m1;
  const [A, B, C, D, E, F] = m2;
  return [a * A + c * B, b * A + d * B, a * C + c * D, b * C + d * D, a * E + c * F + e, b * E + d * F + f];
}

function classesOf(v, model) {
  const classes = ["layer-box"];
  if (!v.superview) classes.push("window");
  if (v.enabled !== undefined) classes.push("control");
  if (v.outOfPlay) classes.push("out-of-play");
  if (v.hidden) classes.push("is-hidden");
  if (model.extra(v.id).passThrough) classes.push("pass-through");
  return classes.join(" ");
}
