// A scene version's views as SVG, in screen points: each view's box at its place on screen
// (the engine's `toScreen`), nested as the tree is, windows back to front, subviews clipped
// where `clipsToBounds` says. The canvas and the compare pictures draw with it; what a box
// looks like is CSS (`.view > .box` and the classes below).

import { s } from "./dom.js";

/**
 * The classes of view `v` of `model`: `window`, `control`, `disabled`, `is-hidden`,
 * `is-transparent`, `pass-through`, `out-of-play` (it is pruned) or `out-of-play-inherited`
 * (a superview is), `is-inert` (no interaction).
 */
export function viewClasses(model, v, viewClass = "view") {
  const classes = [viewClass];
  if (!v.superview) classes.push("window");
  if (v.enabled !== undefined) classes.push("control");
  if (v.enabled === false) classes.push("disabled");
  if (v.hidden) classes.push("is-hidden");
  else if (v.alpha < 0.01) classes.push("is-transparent");
  if (model.extra(v.id).passThrough) classes.push("pass-through");
  if (v.outOfPlay) {
    classes.push(v.outOfPlay.view === v.id ? "out-of-play" : "out-of-play-inherited");
    if (!v.userInteractionEnabled || v.animating) classes.push("is-inert");
  }
  return classes;
}

/**
 * Draws `model` (a SceneModel): returns `{screen, views, groups}` — the screen rectangle, the
 * group of window layers, and each view's `g.view[data-id]` by id. Clip paths go into `defs`
 * with ids that start with `clipPrefix` (unique per drawing: several drawings share a page).
 * `viewClass` names the groups (`view` on the canvas; other drawings use their own, so a
 * selector for the canvas's views never matches them).
 */
export function drawViews(model, defs, clipPrefix, viewClass = "view") {
  const geometry = model.geometry;
  const [x, y, width, height] = geometry.screen ?? [0, 0, 100, 100];
  const screen = s("rect", { class: "screen", x, y, width, height });
  const views = s("g", {});
  const windowLayers = new Map();
  for (const id of geometry.windows) {
    const layer = s("g", { class: "window-layer", "data-window": id });
    windowLayers.set(id, layer);
    views.append(layer);
  }
  const groups = new Map();
  const containers = new Map();
  let clipCount = 0;
  for (const v of geometry.views) {
    const group = s("g", { class: viewClasses(model, v, viewClass).join(" "), "data-id": v.id });
    const children = s("g", { class: "subviews" });
    if (v.toScreen) {
      const matrix = `matrix(${v.toScreen.join(" ")})`;
      const [bx, by, bw, bh] = v.bounds;
      group.append(s("rect", { class: "box", x: bx, y: by, width: bw, height: bh, transform: matrix }));
      if (v.clipsToBounds) {
        const clipId = `${clipPrefix}-${++clipCount}`;
        defs.append(s("clipPath", { id: clipId }, s("rect", { x: bx, y: by, width: bw, height: bh, transform: matrix })));
        children.setAttribute("clip-path", `url(#${clipId})`);
      }
    }
    group.append(children);
    const parent = v.superview ? containers.get(v.superview) : windowLayers.get(v.window);
    (parent ?? views).append(group);
    containers.set(v.id, children);
    groups.set(v.id, group);
  }
  return { screen, views, groups };
}
