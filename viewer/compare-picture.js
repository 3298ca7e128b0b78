// Compare as pictures (issue 33, item 6): the two runs' layouts drawn side by side, or one
// over the other, each with its touches (where they began, moved and ended), its hit-test
// views, the hit-test path and its first responder; views whose placement or state differs
// between the two versions are marked in both. Each run's scene version is drawn from the
// engine's geometry (drawing.js), at the size of its box: no zoom, the whole screen in view.

import { h, s, replace } from "./dom.js";
import { api } from "./api.js";
import { SceneModel } from "./model.js";
import { drawViews } from "./drawing.js";
import { touchMarks } from "./canvas.js";
import { documentObjects } from "./json-pointer.js";

let pictures = 0;

export class ComparePictures {
  constructor() {
    this.overlaid = false;
    this.toggle = h("button", { type: "button", id: "compare-overlay", "aria-pressed": "false",
      onclick: () => this.setOverlaid(!this.overlaid) }, "Overlay the two layouts");
    this.body = h("div", { class: "compare-pictures", id: "compare-pictures" });
    this.element = h("section", { class: "compare-picture", "aria-labelledby": "compare-pictures-heading" },
      h("div", { class: "section-head" },
        h("h3", { id: "compare-pictures-heading" }, "The two layouts"), this.toggle),
      this.body,
      h("ul", { class: "legend compare-legend", "aria-label": "Legend of the pictures" },
        h("li", {}, h("span", { class: "swatch sw-tap" }), "touch: began (ring), moved, ended (dot)"),
        h("li", {}, h("span", { class: "swatch sw-path" }), "hit-test path"),
        h("li", {}, h("span", { class: "swatch sw-hit" }), "hit-test view"),
        h("li", {}, h("span", { class: "swatch sw-first" }), "first responder"),
        h("li", {}, h("span", { class: "swatch sw-changed" }), "differs between the versions"),
        h("li", { class: "overlay-only" }, "overlaid: A's marks blue, B's magenta (dashed)")));
    this.models = new Map();
  }

  /** Draws runs `a` and `b` (GET /v1/runs/{id}); resolves when drawn. */
  async show(a, b) {
    this.runs = [a, b];
    replace(this.body, h("p", {}, "Drawing the two layouts…"));
    const [modelA, modelB] = await Promise.all([this.model(a), this.model(b)]);
    this.pair = [modelA, modelB];
    this.changed = changedViews(modelA, modelB);
    this.draw();
  }

  /** One model per scene version, read once. */
  model(run) {
    const key = `${run.sceneId}@${run.sceneVersion}`;
    if (!this.models.has(key)) {
      this.models.set(key, Promise.all([api.geometry(run.sceneId, run.sceneVersion), api.scene(run.sceneId, run.sceneVersion)])
        .then(([geometry, stored]) => new SceneModel(geometry, stored.scene)));
    }
    return this.models.get(key);
  }

  setOverlaid(on) {
    this.overlaid = on;
    this.toggle.setAttribute("aria-pressed", String(on));
    this.toggle.textContent = on ? "Side by side" : "Overlay the two layouts";
    this.element.classList.toggle("is-overlaid", on);
    if (this.pair) this.draw();
  }

  draw() {
    const [a, b] = this.runs;
    const [modelA, modelB] = this.pair;
    if (this.overlaid) {
      replace(this.body, h("figure", { class: "compare-figure overlaid", id: "compare-figure-overlay" },
        this.picture([[modelA, a, "A"], [modelB, b, "B"]]),
        h("figcaption", {}, h("span", { class: "tag tag-a" }, "A"), ` ${summary(a)}  `, h("span", { class: "tag tag-b" }, "B"), ` ${summary(b)}`)));
      return;
    }
    replace(this.body,
      [[modelA, a, "A"], [modelB, b, "B"]].map(([model, run, name]) =>
        h("figure", { class: "compare-figure", id: `compare-figure-${name.toLowerCase()}` },
          this.picture([[model, run, name]]),
          h("figcaption", {}, h("span", { class: `tag tag-${name.toLowerCase()}` }, name), ` ${run.id} · v${run.sceneVersion}: ${summary(run)}`))));
  }

  /** One SVG with the layouts of `sides` ([model, run, name]...), back to front. */
  picture(sides) {
    const id = ++pictures;
    const defs = s("defs", {});
    const boxes = sides.map(([model]) => model.geometry.screen ?? [0, 0, 100, 100]);
    const minX = Math.min(...boxes.map((r) => r[0])), minY = Math.min(...boxes.map((r) => r[1]));
    const maxX = Math.max(...boxes.map((r) => r[0] + r[2])), maxY = Math.max(...boxes.map((r) => r[1] + r[3]));
    const pad = Math.max(maxX - minX, maxY - minY) * 0.02;
    const size = Math.max(maxX - minX, 1);
    const layers = sides.map(([model, run, name], i) => {
      const { screen, views, groups } = drawViews(model, defs, `cmp${id}-${i}`, "pview");
      const result = run.result;
      const path = new Set(), hits = new Set();
      for (const touch of result.touches ?? []) {
        if (!touch.hitTestView) continue;
        hits.add(touch.hitTestView);
        for (const v of model.path(touch.hitTestView)) path.add(v);
      }
      const mark = (ids, cls) => { for (const v of ids) groups.get(v)?.classList.add(cls); };
      mark(path, "hl-path");
      mark(hits, "hl-hit");
      if (result.firstResponder) mark([model.viewFor(result.firstResponder.id)].filter(Boolean), "hl-first");
      mark(this.changed, "cmp-changed");
      // Touch marks in points, sized for the whole screen at the picture's scale.
      const touches = s("g", { class: "compare-touches", transform: "" }, ...touchMarks(result.input?.events ?? []));
      for (const circle of touches.querySelectorAll("circle.touch-start")) circle.setAttribute("r", String(size * 0.028));
      for (const circle of touches.querySelectorAll("circle.touch-end")) circle.setAttribute("r", String(size * 0.011));
      return s("g", { class: `compare-side side-${name.toLowerCase()}`, "data-run": run.id },
        sides.length === 1 ? screen : null, views, touches);
    });
    const screens = sides.length > 1 ? boxes.map(([x, y, w, hh]) => s("rect", { class: "screen", x, y, width: w, height: hh })) : [];
    const label = sides.map(([, run, name]) => `${name}: ${summary(run)}`).join(" ");
    return s("svg", {
      class: "compare-svg", role: "img", "aria-label": `Layout of ${label}`,
      viewBox: `${minX - pad} ${minY - pad} ${maxX - minX + 2 * pad} ${maxY - minY + 2 * pad}`,
      preserveAspectRatio: "xMidYMin meet",
    }, defs, ...screens, ...layers);
  }
}

/** "hit-test view buyButton, first responder buyButton, 1 action". */
function summary(run) {
  const r = run.result;
  const hits = [...new Set((r.touches ?? []).map((t) => t.hitTestView ?? "nothing"))];
  const actions = r.actions?.length ?? 0;
  return `hit-test view ${hits.join(", ") || "none"}, first responder ${r.firstResponder?.id ?? "none"}, `
    + `${actions} action${actions === 1 ? "" : "s"}`;
}

/**
 * Ids of the views that differ between the two versions: in one and not the other, placed
 * elsewhere on screen, with another hidden, alpha, userInteractionEnabled, enabled or
 * out-of-play state, or whose own part of the scene document differs (its recognizers,
 * overrides, targets…; its subviews are theirs). Empty when both runs used the same version.
 */
export function changedViews(a, b) {
  if (a === b) return new Set();
  const changed = new Set();
  const same = (x, y) => JSON.stringify(x) === JSON.stringify(y);
  const own = (objects, id) => {
    const node = objects.get(id)?.node;
    if (!node) return null;
    const { subviews, ...rest } = node;
    return rest;
  };
  const objectsA = documentObjects(a.document), objectsB = documentObjects(b.document);
  for (const v of a.views) {
    const w = b.get(v.id);
    if (!w || !same(v.quad, w.quad) || v.hidden !== w.hidden || v.alpha !== w.alpha
      || v.userInteractionEnabled !== w.userInteractionEnabled || v.enabled !== w.enabled
      || (v.outOfPlay?.rule ?? null) !== (w.outOfPlay?.rule ?? null)
      || !same(own(objectsA, v.id), own(objectsB, v.id))) changed.add(v.id);
  }
  for (const w of b.views) if (!a.get(w.id)) changed.add(w.id);
  return changed;
}
