// The scene drawn to scale as SVG: each view at its rectangle on screen (the engine's geometry,
// GET /v1/scenes/{id}/geometry), windows by level, subviews clipped where clipsToBounds says.
// Views that hit-testing skips (hidden, alpha < 0.01, userInteractionEnabled = NO, inside
// such a view) are drawn dashed or hatched so they read as out of play.

import { h, s, replace } from "./dom.js";
import { GestureRecorder } from "./gestures.js";
import { point as pointText, round } from "./format.js";

const PADDING = 8;

export class SceneCanvas {
  /**
   * @param {HTMLElement} frame  the element the SVG fills
   * @param {object} callbacks   onGesture(samples) in touch mode, onPick([x, y]) in explain mode
   */
  constructor(frame, { onGesture, onPick }) {
    this.frame = frame;
    this.onGesture = onGesture;
    this.onPick = onPick;
    this.mode = "touch";
    this.geometry = null;
    this.tooltip = h("div", { class: "tooltip", role: "tooltip", hidden: true, id: "canvas-tooltip" });
  }

  setMode(mode) {
    this.mode = mode;
    this.frame.classList.toggle("explain-mode", mode === "explain");
  }

  /** Draws `geometry` (the geometry endpoint's answer), replacing what was there. */
  show(geometry) {
    this.geometry = geometry;
    this.byId = new Map(geometry.views.map((v) => [v.id, v]));
    this.groups = new Map();
    this.owner = new Map();   // recognizer and view controller ids → the view they belong to
    for (const v of geometry.views) {
      for (const r of v.recognizers) this.owner.set(r.id, v.id);
      if (v.viewController) this.owner.set(v.viewController.id, v.id);
    }

    const [x, y, width, height] = geometry.screen ?? [0, 0, 100, 100];
    const svg = s("svg", {
      class: "scene-svg",
      viewBox: `${x - PADDING} ${y - PADDING} ${width + 2 * PADDING} ${height + 2 * PADDING}`,
      preserveAspectRatio: "xMidYMid meet",
      role: "img",
      "aria-label": `${geometry.name ?? "Scene"}: ${geometry.views.length} views in ${geometry.windows.length} window(s), drawn to scale`,
    });
    const defs = s("defs", {},
      s("pattern", { id: "hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        s("line", { x1: 0, y1: 0, x2: 0, y2: 6, class: "hatch-line" })));
    svg.append(defs);
    svg.append(s("rect", { class: "screen", x, y, width, height }));

    const windowLayers = new Map();
    const viewsLayer = s("g", { class: "views" });
    for (const id of geometry.windows) {
      const layer = s("g", { class: "window-layer", "data-window": id });
      windowLayers.set(id, layer);
      viewsLayer.append(layer);
    }
    svg.append(viewsLayer);

    const containers = new Map();
    let clipCount = 0;
    for (const v of geometry.views) {
      const group = s("g", { class: this.classesOf(v).join(" "), "data-id": v.id });
      const children = s("g", { class: "subviews" });
      if (v.toScreen) {
        const matrix = `matrix(${v.toScreen.join(" ")})`;
        const [bx, by, bw, bh] = v.bounds;
        group.append(s("rect", { class: "box", x: bx, y: by, width: bw, height: bh, transform: matrix }));
        // A view that exactly covers its superview (a root view, a full-screen scroll view)
        // would print its id over the superview's: its id is in the tooltip instead.
        const parent = v.superview ? this.byId.get(v.superview) : null;
        const covers = parent?.quad && v.quad && v.quad.every((p, i) => p[0] === parent.quad[i][0] && p[1] === parent.quad[i][1]);
        const captions = this.captions(v, { withId: !covers });
        if (captions) group.append(s("g", { class: "captions", transform: matrix }, captions));
        if (v.clipsToBounds) {
          const clipId = `clip-${++clipCount}`;
          defs.append(s("clipPath", { id: clipId }, s("rect", { x: bx, y: by, width: bw, height: bh, transform: matrix })));
          children.setAttribute("clip-path", `url(#${clipId})`);
        }
      }
      group.append(children);
      const parent = v.superview ? containers.get(v.superview) : windowLayers.get(v.window);
      (parent ?? viewsLayer).append(group);
      containers.set(v.id, children);
      this.groups.set(v.id, group);
    }
    // Front-most first, for finding the view under a point.
    this.frontToBack = geometry.windows.slice().reverse().flatMap((w) =>
      geometry.views.filter((v) => v.window === w).reverse());

    this.overlay = s("g", { class: "overlay" });
    this.runLayer = s("g", { class: "run-overlay" });
    this.explainLayer = s("g", { class: "explain-overlay" });
    this.pendingLayer = s("g", { class: "pending-overlay" });
    this.overlay.append(this.runLayer, this.explainLayer, this.pendingLayer);
    svg.append(this.overlay);
    this.svg = svg;

    replace(this.frame, svg, this.tooltip);
    this.attachPointer(svg);
  }

  classesOf(v) {
    const classes = ["view"];
    if (!v.superview) classes.push("window");
    if (v.enabled !== undefined) classes.push("control");
    if (v.enabled === false) classes.push("disabled");
    if (v.hidden) classes.push("is-hidden");
    else if (v.alpha < 0.01) classes.push("is-transparent");
    if (v.outOfPlay) {
      classes.push(v.outOfPlay.view === v.id ? "out-of-play" : "out-of-play-inherited");
      if (!v.userInteractionEnabled || v.animating) classes.push("is-inert");
    }
    return classes;
  }

  /** The id in a corner and the label (a button's title) in the middle, when there is room. */
  captions(v, { withId }) {
    const [bx, by, bw, bh] = v.bounds;
    const parts = [];
    if (withId && bw >= 36 && bh >= 12) parts.push(s("text", { class: "caption-id", x: bx + 3, y: by + 9 }, v.id));
    if (v.label && bw >= 24 && bh >= 16) {
      parts.push(s("text", { class: "caption-label", x: bx + bw / 2, y: by + bh / 2 + 4, "text-anchor": "middle" }, v.label));
    }
    return parts.length ? parts : null;
  }

  /** The view an object stands for on the canvas: a view itself, a recognizer's view, a view controller's root view. */
  viewFor(id) {
    if (!this.geometry || id == null) return null;
    if (this.byId.has(id)) return id;
    return this.owner.get(id) ?? null;
  }

  /** `id` and its superviews up to the window, window first. */
  path(id) {
    const out = [];
    for (let v = this.byId.get(id); v; v = v.superview ? this.byId.get(v.superview) : null) out.unshift(v.id);
    return out;
  }

  /** The front-most drawn view whose visible rectangle contains the screen point. */
  viewAt(p) {
    if (!this.geometry) return null;
    for (const v of this.frontToBack) {
      if (!v.quad || !inside(v.quad, p)) continue;
      let clipped = false;
      for (let a = v.superview ? this.byId.get(v.superview) : null; a && !clipped; a = a.superview ? this.byId.get(a.superview) : null) {
        if (a.clipsToBounds && (!a.quad || !inside(a.quad, p))) clipped = true;
      }
      if (!clipped) return v;
    }
    return null;
  }

  setClass(className, ids) {
    if (!this.groups) return;
    for (const group of this.svg.querySelectorAll(`.${className}`)) group.classList.remove(className);
    for (const id of ids) this.groups.get(id)?.classList.add(className);
  }

  /** A run: every touch's hit-test path, the first responder, and where the touches went. */
  showRun(result) {
    const paths = new Set();
    for (const touch of result.touches ?? []) {
      if (touch.hitTestView) for (const id of this.path(touch.hitTestView)) paths.add(id);
    }
    this.setClass("hl-path", paths);
    this.setClass("hl-first", result.firstResponder ? [result.firstResponder.id] : []);
    this.runLayer.replaceChildren(...touchMarks(result.input?.events ?? []));
  }

  clearRun() {
    this.setClass("hl-path", []);
    this.setClass("hl-first", []);
    this.runLayer?.replaceChildren();
  }

  /** Emphasizes the receiver of a trace entry (or any object id); returns the view drawn, if any. */
  focus(id) {
    const view = this.viewFor(id);
    this.setClass("hl-focus", view ? [view] : []);
    return view;
  }

  /** A gesture being made or waiting to be sent, as its touch marks. */
  showPending(events) {
    this.pendingLayer?.replaceChildren(...touchMarks(events, "pending"));
  }

  /** The explain answer: the point, the target, the hit-test view, and the views a reason names. */
  showExplain(explanation) {
    const [x, y] = explanation.point;
    this.setClass("hl-target", [this.viewFor(explanation.target?.id)].filter(Boolean));
    this.setClass("hl-hit", explanation.hitTestView ? [explanation.hitTestView.id] : []);
    this.explainLayer.replaceChildren(
      s("circle", { class: "explain-point", cx: x, cy: y, r: 5 }),
      s("line", { class: "explain-cross", x1: x - 10, y1: y, x2: x + 10, y2: y }),
      s("line", { class: "explain-cross", x1: x, y1: y - 10, x2: x, y2: y + 10 }));
  }

  showReason(reason) {
    this.setClass("hl-reason", (reason?.views ?? []).map((v) => this.viewFor(v.id)).filter(Boolean));
  }

  clearExplain() {
    this.setClass("hl-target", []);
    this.setClass("hl-hit", []);
    this.setClass("hl-reason", []);
    this.explainLayer?.replaceChildren();
  }

  toScene(event) {
    const matrix = this.svg.getScreenCTM();
    if (!matrix) return [0, 0];
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    return [p.x, p.y];
  }

  attachPointer(svg) {
    new GestureRecorder(svg, {
      toScene: (event) => this.toScene(event),
      enabled: () => this.mode === "touch",
      onSample: (samples) => this.showPending(samplesAsEvents(samples)),
      onEnd: (samples) => this.onGesture(samples),
    });
    svg.addEventListener("click", (event) => {
      if (this.mode === "explain") this.onPick(this.toScene(event));
    });
    svg.addEventListener("pointermove", (event) => this.hover(event));
    svg.addEventListener("pointerleave", () => { this.tooltip.hidden = true; this.setClass("hl-hover", []); });
  }

  hover(event) {
    const p = this.toScene(event);
    const v = this.viewAt(p);
    this.setClass("hl-hover", v ? [v.id] : []);
    if (!v) { this.tooltip.hidden = true; return; }
    replace(this.tooltip, describe(v, p));
    this.tooltip.hidden = false;
    // Kept inside the frame: the tooltip never changes the page's layout.
    const box = this.frame.getBoundingClientRect();
    const left = Math.min(event.clientX - box.left + 14, box.width - this.tooltip.offsetWidth - 4);
    const top = Math.min(event.clientY - box.top + 14, box.height - this.tooltip.offsetHeight - 4);
    this.tooltip.style.left = `${Math.max(4, left)}px`;
    this.tooltip.style.top = `${Math.max(4, top)}px`;
  }
}

/** A view's id, class and the properties that decide whether it takes touches. */
export function describe(v, p) {
  const rows = [
    ["class", v.class + (v.base !== v.class ? ` (${v.base})` : "")],
    ["frame", v.frame.map(round).join(", ")],
  ];
  if (v.bounds[0] !== 0 || v.bounds[1] !== 0) rows.push(["bounds", v.bounds.map(round).join(", ")]);
  if (v.transform) rows.push(["transform", v.transform.map(round).join(", ")]);
  if (v.label) rows.push(["label", v.label]);
  if (!v.superview) rows.push(["window", `level ${v.level}${v.isKey ? ", key" : ""}`]);
  rows.push(["alpha", String(round(v.alpha))]);
  if (v.hidden) rows.push(["hidden", "YES"]);
  rows.push(["userInteractionEnabled", v.userInteractionEnabled ? "YES" : "NO"]);
  if (v.enabled !== undefined) rows.push(["enabled", v.enabled ? "YES" : "NO"]);
  if (v.clipsToBounds) rows.push(["clipsToBounds", "YES"]);
  if (v.recognizers.length) rows.push(["recognizers", v.recognizers.map((r) => r.id).join(", ")]);
  if (v.viewController) rows.push(["view controller", `${v.viewController.id} (${v.viewController.class})`]);
  if (v.actions) rows.push(["actions", v.actions.join(", ")]);
  if (v.outOfPlay) {
    const by = v.outOfPlay.view === v.id ? "" : ` (inside ${v.outOfPlay.view})`;
    rows.push(["out of play", `${v.outOfPlay.text}${by} [${v.outOfPlay.rule}]`]);
  }
  if (p) rows.push(["point", pointText(p)]);
  return [h("strong", {}, v.id), h("dl", {}, rows.map(([k, value]) => [h("dt", {}, k), h("dd", {}, value)]))];
}

/** Whether `p` is inside the convex quadrilateral `quad` (corners in order). */
function inside(quad, p) {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const [ax, ay] = quad[i];
    const [bx, by] = quad[(i + 1) % 4];
    const cross = (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax);
    if (cross === 0) continue;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  return true;
}

function samplesAsEvents(samples) {
  return samples.map((sample, i) => ({
    t: 0, touches: [{ id: "T1", phase: i === 0 ? "began" : "moved", at: sample.at }],
  }));
}

/** Each touch's path: a ring where it began, a line along its moves, a dot where it ended. */
export function touchMarks(events, extraClass = "") {
  const paths = new Map();
  for (const event of events) {
    for (const touch of event.touches ?? []) {
      if (!paths.has(touch.id)) paths.set(touch.id, []);
      paths.get(touch.id).push(touch);
    }
  }
  const marks = [];
  for (const [id, touches] of paths) {
    const points = touches.map((t) => t.at);
    const group = s("g", { class: `touch-mark ${extraClass}`.trim(), "data-touch": id });
    if (points.length > 1) group.append(s("polyline", { points: points.map((p) => p.join(",")).join(" ") }));
    group.append(s("circle", { class: "touch-start", cx: points[0][0], cy: points[0][1], r: 9 }));
    const end = touches[touches.length - 1];
    if (end.phase === "ended" || end.phase === "cancelled") {
      group.append(s("circle", { class: "touch-end", cx: end.at[0], cy: end.at[1], r: 3.5 }));
    }
    group.append(s("title", {}, `${id} ${pointText(points[0])}`));
    marks.push(group);
  }
  return marks;
}
