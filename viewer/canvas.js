// The scene drawn to scale as SVG: each view at its rectangle on screen (the engine's geometry,
// GET /v1/scenes/{id}/geometry), windows by level, subviews clipped where clipsToBounds says.
// Views that hit-testing skips (hidden, alpha < 0.01, userInteractionEnabled = NO, inside
// such a view) are drawn dashed or hatched so they read as out of play. Nothing is filled
// but controls: windows and stacked full-screen views stay see-through, so what lies behind
// them shows.
//
// The drawing is a stack of layers in scene coordinates, moved together by the camera (zoom
// and pan), with the captions on top at screen size:
//
//   underlay   named groups drawn under the views (`canvas.layer(name, {under: true})`)
//   views      the flat scene, one `g.view` per view, nested as the tree is
//   layered    the exploded view (layers.js), shown instead of `views`
//   overlay    named groups over the views (`canvas.layer(name)`): runs, explain, touches, the point
//   captions   screen-size text (captions.js), outside the camera

import { h, s, replace } from "./dom.js";
import { GestureRecorder } from "./gestures.js";
import { point as pointText } from "./format.js";
import { Camera } from "./zoom.js";
import { Captions } from "./captions.js";
import { LayeredView } from "./layers.js";
import { facts } from "./describe.js";
import { drawViews } from "./drawing.js";

export class SceneCanvas {
  /**
   * @param {HTMLElement} frame  the element the SVG fills
   * @param {object} callbacks
   *   onGesture(samples)  a finished pointer gesture in Touch mode
   *   onPick([x, y])      a click in Explain mode
   *   onSelect(id, [x, y]) a click in Inspect mode (or on a plane of the layered view)
   *   onPointer([x, y] | null) the pointer moved over the scene (null: it left)
   *   onCamera()          zoom or pan changed
   */
  constructor(frame, { onGesture, onPick, onSelect = () => {}, onPointer = () => {}, onCamera = () => {} }) {
    this.frame = frame;
    this.callbacks = { onGesture, onPick, onSelect, onPointer, onCamera };
    this.mode = "inspect";
    this.layeredMode = false;
    this.model = null;
    this.groups = new Map();
    this.selected = null;
    this.tooltip = h("div", { class: "tooltip", role: "tooltip", hidden: true, id: "canvas-tooltip" });

    this.svg = s("svg", { class: "scene-svg", role: "img", "aria-label": "No scene" });
    this.defs = s("defs", {},
      s("pattern", { id: "hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
        s("line", { x1: 0, y1: 0, x2: 0, y2: 6, class: "hatch-line" })));
    this.camera = s("g", { class: "camera" });
    this.slots = {
      underlay: s("g", { class: "underlay" }),
      views: s("g", { class: "views" }),
      layered: s("g", { class: "layered", display: "none" }),
      overlay: s("g", { class: "overlay" }),
    };
    this.camera.append(this.slots.underlay, this.slots.views, this.slots.layered, this.slots.overlay);
    this.captionGroup = s("g", { class: "captions", "aria-hidden": "true" });
    this.svg.append(this.defs, this.camera, this.captionGroup);
    this.named = new Map();
    this.runLayer = this.layer("run");
    this.explainLayer = this.layer("explain");
    this.pointLayer = this.layer("point");
    this.pendingLayer = this.layer("pending");

    this.captions = new Captions(this.captionGroup);
    this.layered = new LayeredView(this.slots.layered);
    this.view = new Camera(this.svg, this.camera, {
      onChange: () => this.cameraChanged(),
      // In Touch mode a primary drag is a drag gesture; elsewhere it pans.
      pansOnDrag: () => this.mode !== "touch" || this.layeredMode,
      onPinch: () => this.recorder.cancel(),
    });
    this.attachPointer();
  }

  /**
   * A group of the drawing in scene coordinates, created on first use and kept across scenes:
   * under the views with `under: true` (e.g. a screenshot), over them otherwise (markers,
   * highlights). Its owner draws in it and clears it. In the layered view, groups under the
   * views lie on the back plane and groups over them are hidden.
   */
  layer(name, { under = false } = {}) {
    let group = this.named.get(name);
    if (!group) {
      group = s("g", { class: `layer-${name} ${name}-overlay`, "data-layer": name });
      this.named.set(name, group);
      (under ? this.slots.underlay : this.slots.overlay).append(group);
    }
    return group;
  }

  setMode(mode) {
    this.mode = mode;
    this.frame.dataset.mode = mode;
  }

  /** Draws the scene of `model` (a SceneModel), replacing what was there. */
  show(model) {
    this.model = model;
    this.selected = null;
    const geometry = model.geometry;
    this.svg.setAttribute("aria-label",
      `${geometry.name ?? "Scene"}: ${geometry.views.length} views in ${geometry.windows.length} window(s), drawn to scale`);
    for (const clip of this.defs.querySelectorAll("clipPath")) clip.remove();
    const { screen, views, groups } = drawViews(model, this.defs, "clip");
    this.groups = groups;
    this.slots.views.replaceChildren(screen, views);
    this.captions.setModel(model);
    this.layered.build(model);
    for (const group of this.named.values()) if (group !== this.pointLayer) group.replaceChildren();
    this.pointLayer.replaceChildren();

    if (!this.svg.isConnected) replace(this.frame, this.svg, this.tooltip);
    this.applyLayered();
  }

  /** No scene: the frame says so. */
  clear() {
    this.model = null;
    this.selected = null;
    this.groups = new Map();
    this.slots.views.replaceChildren();
    this.slots.layered.replaceChildren();
    this.layered.boxes = new Map();
    for (const group of this.named.values()) group.replaceChildren();
    this.captions.update(this.view, 0, 0, { hidden: true });
    this.captions.model = null;
    replace(this.frame, h("p", { class: "empty", id: "canvas-empty" }, "Pick a scene on the left, or open a run."));
  }

  // ---------------------------------------------------------------- camera and layered view

  /** Flat or exploded; the camera fits what is drawn. */
  setLayered(on) {
    this.layeredMode = on;
    this.applyLayered();
  }

  applyLayered() {
    if (!this.model) return;
    const on = this.layeredMode;
    this.slots.views.setAttribute("display", on ? "none" : "inline");
    this.slots.layered.setAttribute("display", on ? "inline" : "none");
    this.slots.overlay.setAttribute("display", on ? "none" : "inline");
    // Under the views means on the back plane.
    if (on) this.slots.underlay.setAttribute("transform", `matrix(${this.layered.projection(0).join(" ")})`);
    else this.slots.underlay.removeAttribute("transform");
    this.frame.classList.toggle("layered-mode", on);
    const [x, y, width, height] = this.model.geometry.screen ?? [0, 0, 100, 100];
    this.view.setContent(on ? this.layered.bounds() : [x, y, width, height]);
  }

  /**
   * A marker at scene point (x, y) drawn at screen size whatever the zoom: `children` are in
   * pixels around (0, 0). For points, pins and badges on top of the views.
   */
  marker(x, y, ...children) {
    return s("g", { class: "marker", "data-x": x, "data-y": y, transform: `translate(${x} ${y}) scale(${1 / this.view.scale})` }, ...children);
  }

  cameraChanged() {
    const k = 1 / this.view.scale;
    for (const m of this.svg.querySelectorAll("g.marker")) {
      m.setAttribute("transform", `translate(${m.dataset.x} ${m.dataset.y}) scale(${k})`);
    }
    if (this.captionsScheduled) return;
    this.captionsScheduled = true;
    requestAnimationFrame(() => {
      this.captionsScheduled = false;
      const { width, height } = this.view.viewport();
      this.captions.update(this.view, width, height, { selected: this.selected, hidden: this.layeredMode });
      this.callbacks.onCamera();
    });
  }

  // ---------------------------------------------------------------- highlights

  setClass(className, ids) {
    for (const element of this.svg.querySelectorAll(`.${className}`)) element.classList.remove(className);
    for (const id of ids) {
      this.groups.get(id)?.classList.add(className);
      this.layered.boxes.get(id)?.classList.add(className);
    }
  }

  /** The selected view: outlined, its caption shown first, brought into view when outside it. */
  select(id, { reveal = true } = {}) {
    this.selected = this.model?.get(id) ? id : null;
    this.setClass("hl-select", this.selected ? [this.selected] : []);
    // The part of it that is drawn is brought into view; a view clipped away entirely (a
    // table row scrolled out of sight) has nothing to show.
    const box = this.selected ? this.model.visibleBox(this.model.get(this.selected)) : null;
    if (box && reveal && !this.layeredMode) this.view.reveal(box);
    else this.cameraChanged();
  }

  /** Views that match a search. */
  mark(ids) {
    this.setClass("hl-match", ids);
  }

  viewFor(id) {
    return this.model?.viewFor(id) ?? null;
  }

  /** A run: every touch's hit-test path, the first responder, and where the touches went. */
  showRun(result) {
    const paths = new Set();
    for (const touch of result.touches ?? []) {
      if (touch.hitTestView) for (const id of this.model.path(touch.hitTestView)) paths.add(id);
    }
    this.setClass("hl-path", paths);
    this.setClass("hl-first", result.firstResponder ? [result.firstResponder.id] : []);
    this.runLayer.replaceChildren(...touchMarks(result.input?.events ?? []));
  }

  clearRun() {
    this.setClass("hl-path", []);
    this.setClass("hl-first", []);
    this.runLayer.replaceChildren();
  }

  /** Emphasizes the receiver of a trace entry (or any object id); returns the view drawn, if any. */
  focus(id) {
    const view = this.viewFor(id);
    this.setClass("hl-focus", view ? [view] : []);
    return view;
  }

  /** A gesture being made or waiting to be sent, as its touch marks. */
  showPending(events) {
    this.pendingLayer.replaceChildren(...touchMarks(events, "pending"));
  }

  /** The explain answer: the point, the target, the hit-test view, and the views a reason names. */
  showExplain(explanation) {
    this.setClass("hl-target", [this.viewFor(explanation.target?.id)].filter(Boolean));
    this.setClass("hl-hit", explanation.hitTestView ? [explanation.hitTestView.id] : []);
    this.explainLayer.replaceChildren(this.crosshair(explanation.point, "explain"));
  }

  showReason(reason) {
    this.setClass("hl-reason", (reason?.views ?? []).map((v) => this.viewFor(v.id)).filter(Boolean));
  }

  clearExplain() {
    this.setClass("hl-target", []);
    this.setClass("hl-hit", []);
    this.setClass("hl-reason", []);
    this.explainLayer.replaceChildren();
  }

  /** The point whose views are listed (under-point.js): a cross, and its views outlined. */
  showPoint(point, { containing = [], hitTestView = null } = {}) {
    this.pointLayer.replaceChildren(...(point ? [this.crosshair(point, "point")] : []));
    this.setClass("hl-under", containing);
    this.setClass("hl-under-hit", hitTestView ? [hitTestView] : []);
    this.layered.showPoint(containing.length ? point : null, containing, hitTestView, (x, y, ...c) => this.marker(x, y, ...c));
  }

  /** Width over height of what is drawn (the screen, or the exploded planes). */
  contentAspect() {
    if (!this.model) return 390 / 844;
    const [, , w, h] = this.layeredMode ? this.layered.bounds() : (this.model.geometry.screen ?? [0, 0, 100, 100]);
    return w / Math.max(h, 1);
  }

  /** A ring and a cross at a point, at screen size. */
  crosshair([x, y], kind) {
    return this.marker(x, y,
      s("circle", { class: `${kind}-point`, cx: 0, cy: 0, r: 6 }),
      s("line", { class: `${kind}-cross`, x1: -11, y1: 0, x2: 11, y2: 0 }),
      s("line", { class: `${kind}-cross`, x1: 0, y1: -11, x2: 0, y2: 11 }));
  }

  // ---------------------------------------------------------------- pointer

  toScene(event) {
    return this.view.toScene(event);
  }

  attachPointer() {
    const svg = this.svg;
    this.recorder = new GestureRecorder(svg, {
      toScene: (event) => this.toScene(event),
      enabled: () => this.mode === "touch" && !this.layeredMode && !this.view.pinching,
      onSample: (samples) => this.showPending(samplesAsEvents(samples)),
      onEnd: (samples) => this.callbacks.onGesture(samples),
    });
    svg.addEventListener("click", (event) => {
      if (!this.model) return;
      if (this.layeredMode) {
        const id = event.target.closest?.("[data-id]")?.dataset.id;
        if (id) this.callbacks.onSelect(id, null);
        return;
      }
      const p = this.toScene(event);
      if (this.mode === "explain") this.callbacks.onPick(p);
      else if (this.mode === "inspect") this.callbacks.onSelect(this.model.visibleAt(p)?.id ?? null, p);
    });
    svg.addEventListener("pointermove", (event) => this.hover(event));
    svg.addEventListener("pointerleave", () => {
      this.tooltip.hidden = true;
      this.setClass("hl-hover", []);
      this.callbacks.onPointer(null);
    });
  }

  hover(event) {
    if (!this.model) return;
    // A mark with a tooltip of its own (an audit badge) says what it is; the view under it does not.
    if (event.target.closest?.("[data-own-tooltip]")) {
      this.tooltip.hidden = true;
      this.setClass("hl-hover", []);
      return;
    }
    let v, p = null;
    if (this.layeredMode) {
      v = this.model.get(event.target.closest?.("[data-id]")?.dataset.id);
    } else {
      p = this.toScene(event);
      v = this.model.visibleAt(p);
      this.callbacks.onPointer(p);
    }
    this.setClass("hl-hover", v ? [v.id] : []);
    if (!v) { this.tooltip.hidden = true; return; }
    const layer = this.layeredMode ? ` · layer ${this.layered.layerOf.get(v.id)}` : "";
    replace(this.tooltip, h("strong", {}, v.id + layer),
      h("dl", {}, facts(v, this.model.extra(v.id), p).map(([k, value]) => [h("dt", {}, k), h("dd", {}, value)])));
    this.tooltip.hidden = false;
    // Kept inside the frame: the tooltip never changes the page's layout.
    const box = this.frame.getBoundingClientRect();
    const left = Math.min(event.clientX - box.left + 14, box.width - this.tooltip.offsetWidth - 4);
    const top = Math.min(event.clientY - box.top + 14, box.height - this.tooltip.offsetHeight - 4);
    this.tooltip.style.left = `${Math.max(4, left)}px`;
    this.tooltip.style.top = `${Math.max(4, top)}px`;
  }
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
