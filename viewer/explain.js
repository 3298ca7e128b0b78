// Explain: pick a view (or recognizer) and a point; the explain endpoint's reasons, with their
// rule ids, are listed and drawn on the canvas (the point, the target, the hit-test view, and
// the views each reason names).

import { h, replace } from "./dom.js";
import { api } from "./api.js";
import { problemView } from "./problems.js";
import { point as pointText } from "./format.js";

export class ExplainPanel {
  constructor(panel, { canvas }) {
    this.panel = panel;
    this.canvas = canvas;
    this.scene = null;
    this.target = h("select", { id: "explain-target", required: true });
    this.x = h("input", { id: "explain-x", type: "number", step: "any", required: true });
    this.y = h("input", { id: "explain-y", type: "number", step: "any", required: true });
    this.output = h("div", { id: "explain-output", class: "explain-output", "aria-live": "polite" });
    replace(panel,
      h("h2", {}, "Explain"),
      h("p", {}, "Why is a view (not) the hit-test view at a point, or why does a recognizer (not) get the touch? "
        + "Switch the canvas to Explain and click a point: the first click also picks the view under it. Or fill in:"),
      h("form", { class: "explain-form", onsubmit: (event) => { event.preventDefault(); this.explain(); } },
        h("label", { for: "explain-target" }, "View or recognizer"), this.target,
        h("label", { for: "explain-x" }, "x"), this.x,
        h("label", { for: "explain-y" }, "y"), this.y,
        h("button", { type: "submit", id: "explain-submit" }, "Explain")),
      this.output);
  }

  /** The scene whose views can be picked. */
  setScene(sceneId, version, geometry) {
    this.scene = sceneId ? { id: sceneId, version } : null;
    const views = geometry?.views ?? [];
    const recognizers = views.flatMap((v) => v.recognizers.map((r) => ({ ...r, view: v.id })));
    replace(this.target,
      h("option", { value: "" }, "— pick one —"),
      h("optgroup", { label: "Views" }, views.map((v) => h("option", { value: v.id }, `${"  ".repeat(v.depth)}${v.id} (${v.class})`))),
      recognizers.length ? h("optgroup", { label: "Recognizers" },
        recognizers.map((r) => h("option", { value: r.id }, `${r.id} on ${r.view}`))) : null);
    this.output.replaceChildren();
    this.canvas.clearExplain();
  }

  /** A click on the canvas in Explain mode. */
  pick(point, viewUnderPoint) {
    this.x.value = String(Math.round(point[0] * 10) / 10);
    this.y.value = String(Math.round(point[1] * 10) / 10);
    if (!this.target.value && viewUnderPoint) this.target.value = viewUnderPoint;
    if (this.target.value) this.explain();
    else replace(this.output, h("p", {}, `Point ${pointText(point)}: now pick a view or recognizer above.`));
  }

  async explain() {
    if (!this.scene) return;
    const body = { point: [Number(this.x.value), Number(this.y.value)], target: this.target.value, version: this.scene.version };
    try {
      const answer = await api.explain(this.scene.id, body);
      this.render(answer);
    } catch (error) {
      this.canvas.clearExplain();
      replace(this.output, problemView(error, "No explanation"));
    }
  }

  render(answer) {
    this.canvas.showExplain(answer);
    const target = answer.target.id;
    let verdict;
    if (answer.receivesTouch !== undefined) {
      verdict = `${target} ${answer.receivesTouch ? "receives" : "does not receive"} the touch at ${pointText(answer.point)}.`;
    } else {
      verdict = answer.isHitTestView
        ? `${target} is the hit-test view at ${pointText(answer.point)}.`
        : `${target} is not the hit-test view at ${pointText(answer.point)}; ${answer.hitTestView ? `${answer.hitTestView.id} is` : "no view is"}.`;
    }
    const reasons = answer.reasons.map((reason, i) => {
      const item = h("li", { tabindex: 0, class: `reason kind-${reason.kind}` },
        h("span", { class: "rule" }, reason.rule), " ", h("span", { class: "kind" }, reason.kind), " ", reason.text);
      const show = () => this.canvas.showReason(reason);
      item.addEventListener("mouseenter", show);
      item.addEventListener("focus", show);
      item.dataset.index = String(i);
      return item;
    });
    replace(this.output,
      h("p", { class: "verdict", id: "explain-verdict" }, verdict),
      h("ol", { class: "reasons", id: "explain-reasons" }, reasons),
      h("p", { class: "hint" }, "Hover or focus a reason to see the views it names on the canvas (yellow). The target is outlined in purple, the hit-test view in red."));
    if (answer.reasons.length) this.canvas.showReason(answer.reasons[0]);
  }
}
