// A view in rows of facts: what it is, where, and the properties that decide whether it takes
// touches. The canvas's tooltip and the inspector show the same rows.

import { point as pointText, round } from "./format.js";

/**
 * [[name, value], ...] for view `v` (a geometry placement); `extra` is what only the scene
 * document says ({accessibilityIdentifier, address, passThrough}); `p` a point to add.
 */
export function facts(v, extra = {}, p = null) {
  const rows = [
    ["class", v.class + (v.base !== v.class ? ` (${v.base})` : "")],
    ["frame", v.frame.map(round).join(", ")],
  ];
  if (v.bounds[0] !== 0 || v.bounds[1] !== 0) rows.push(["bounds", v.bounds.map(round).join(", ")]);
  if (v.transform) rows.push(["transform", v.transform.map(round).join(", ")]);
  if (v.label) rows.push(["label", v.label]);
  if (extra.accessibilityIdentifier) rows.push(["accessibility id", extra.accessibilityIdentifier]);
  if (extra.address) rows.push(["address", extra.address]);
  if (!v.superview) rows.push(["window", `level ${v.level}${v.isKey ? ", key" : ""}`]);
  if (extra.passThrough) {
    rows.push(["hitTest", v.superview ? "pass-through: only its subviews can be hit (H8)"
      : "pass-through window: touches outside its subviews go to the windows behind (H8)"]);
  }
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
  return rows;
}
