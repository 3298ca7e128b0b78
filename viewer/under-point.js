// What is under a point: every view whose rectangle contains it, front to back, with whether
// hit-testing reaches it and, from the service, the rule that stops it. Containment is the
// only thing computed here; the hit-test (POST /v1/scenes/{id}/hit-test) says which views
// were asked and which one won, and explain (POST /v1/scenes/{id}/explain, one per view)
// gives each view's reasons with their rule ids. The list follows the pointer over the
// canvas; a click in Inspect mode pins it to a point.

import { h, replace } from "./dom.js";
import { api } from "./api.js";
import { problemView } from "./problems.js";
import { point as pointText } from "./format.js";

/** Views explained per point; a deeper pile is listed with its hit-test status only. */
const EXPLAINED = 60;
/** Explain requests in flight at once. */
const PARALLEL = 4;
/** The pointer rests this long (ms) before the service is asked about the point under it. */
const SETTLE = 180;

export class UnderPointPanel {
  constructor(panel, { canvas, onSelect }) {
    this.panel = panel;
    this.canvas = canvas;
    this.onSelect = onSelect;
    this.scene = null;
    this.model = null;
    this.pinned = null;
    this.active = false;
    this.generation = 0;
    this.where = h("p", { class: "point-where", id: "point-where" });
    this.unpinButton = h("button", { type: "button", id: "point-unpin", hidden: true, onclick: () => this.unpin() }, "Unpin");
    this.verdict = h("p", { class: "verdict", id: "point-verdict", "aria-live": "polite" });
    this.body = h("div", { id: "point-body" });
    replace(panel,
      h("h2", {}, "Under a point"),
      h("p", { class: "hint" }, "Every view containing the point, front to back, and whether hit-testing reaches it. "
        + "Move the pointer over the canvas, or click in Inspect mode to pin a point."),
      h("div", { class: "point-head" }, this.where, this.unpinButton),
      this.verdict,
      this.body);
    this.clear();
  }

  setScene(sceneId, version, model) {
    this.scene = sceneId ? { id: sceneId, version } : null;
    this.model = model;
    this.pinned = null;
    this.unpinButton.hidden = true;
    this.clear();
  }

  clear() {
    this.generation++;
    this.where.textContent = "No point yet.";
    this.verdict.textContent = "";
    this.body.replaceChildren();
    this.canvas.showPoint(null);
  }

  /** The pointer is over `p` (null: it left the canvas). Ignored while a point is pinned. */
  follow(p) {
    if (this.pinned || !this.active || !this.model) return;
    clearTimeout(this.timer);
    if (!p) return;
    const generation = this.render(p, false);
    this.timer = setTimeout(() => this.ask(p, generation), SETTLE);
  }

  /** Lists what is under `p` and keeps it there until unpinned. */
  async pin(p) {
    if (!this.model) return;
    clearTimeout(this.timer);
    this.pinned = p;
    this.unpinButton.hidden = false;
    const generation = this.render(p, true);
    await this.ask(p, generation);
  }

  unpin() {
    this.pinned = null;
    this.unpinButton.hidden = true;
    this.clear();
  }

  /** The containing views at once (statuses to come); returns the request generation. */
  render(p, pinned) {
    const generation = ++this.generation;
    this.point = p;
    this.views = this.model.containing(p);
    this.where.textContent = `${pointText(p)}${pinned ? " · pinned" : " · following the pointer"}: `
      + `${this.views.length} view${this.views.length === 1 ? "" : "s"} contain it, front to back.`;
    this.verdict.textContent = "Asking the service…";
    this.rows = new Map();
    const rows = this.views.map((v, i) => {
      const status = h("td", { class: "hit-status" }, "…");
      const why = h("td", { class: "why" }, i < EXPLAINED ? "…" : "");
      const row = h("tr", { "data-id": v.id, tabindex: -1 },
        h("td", { class: "num" }, String(i + 1)),
        h("th", { scope: "row" }, h("button", { type: "button", class: "link-button", onclick: () => this.onSelect(v.id) }, v.id),
          h("span", { class: "class" }, ` ${v.class}`)),
        status, why);
      row.addEventListener("mouseenter", () => this.canvas.setClass("hl-hover", [v.id]));
      row.addEventListener("mouseleave", () => this.canvas.setClass("hl-hover", []));
      this.rows.set(v.id, { row, status, why });
      return row;
    });
    replace(this.body, this.views.length
      ? h("table", { class: "under-point", id: "under-point-table" },
        h("caption", { class: "visually-hidden" }, `Views under ${pointText(p)}, front to back`),
        h("thead", {}, h("tr", {}, ["#", "view", "hit-testing", "why (rule)"].map((c) => h("th", { scope: "col" }, c)))),
        h("tbody", {}, rows))
      : h("p", { class: "empty" }, "No view contains this point."));
    this.canvas.showPoint(p, { containing: pinned ? this.views.map((v) => v.id) : [] });
    return generation;
  }

  async ask(p, generation) {
    if (!this.scene || generation !== this.generation) return;
    let report;
    try {
      report = await api.hitTest(this.scene.id, { point: p, version: this.scene.version });
    } catch (error) {
      if (generation === this.generation) replace(this.body, problemView(error, "No hit-test"));
      return;
    }
    if (generation !== this.generation) return;
    const hit = report.hitTestView?.id ?? null;
    const path = new Set(report.path.map((r) => r.id));
    // What each view's hitTest:withEvent: answered, outermost call first (an override's
    // frame and its super call are both in the trace; the outer one is what the caller got).
    const answers = new Map();
    for (const e of report.trace) {
      if (e.kind !== "call" || e.selector !== "hitTest:withEvent:" || !e.receiver) continue;
      if (!answers.has(e.receiver.id)) answers.set(e.receiver.id, e.result ? e.result.id : null);
    }
    this.verdict.textContent = hit
      ? `Hit-test view: ${hit} (window ${report.window?.id ?? "?"}). The touch goes to it.`
      : "No view takes a touch here: every window returned nil (W5).";
    for (const v of this.views) {
      const cells = this.rows.get(v.id);
      let text, kind;
      if (v.id === hit) { text = "hit-test view"; kind = "is-hit"; }
      else if (path.has(v.id)) { text = "on the path: a subview is hit"; kind = "on-path"; }
      else if (answers.has(v.id)) {
        const answer = answers.get(v.id);
        text = answer ? `asked: returned ${answer}` : "asked: returned nil";
        kind = "asked";
      } else { text = "not asked"; kind = "not-asked"; }
      cells.status.textContent = text;
      cells.row.classList.add(kind);
    }
    if (this.pinned) this.canvas.showPoint(p, { containing: this.views.map((v) => v.id), hitTestView: hit });
    await this.explainAll(p, generation, hit);
  }

  /** Each view's reasons, a few requests at a time, written into its row as they come. */
  async explainAll(p, generation, hit) {
    const queue = this.views.slice(0, EXPLAINED);
    const worker = async () => {
      while (queue.length && generation === this.generation) {
        const v = queue.shift();
        const cells = this.rows.get(v.id);
        try {
          const answer = await api.explain(this.scene.id, { point: p, target: v.id, version: this.scene.version });
          if (generation !== this.generation) return;
          replace(cells.why, reasonsCell(answer, v.id === hit));
        } catch (error) {
          if (generation !== this.generation) return;
          replace(cells.why, h("span", { class: "error-text" }, error.message));
        }
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
  }
}

/** The first reason in full, the others as rule ids whose text is their title. */
function reasonsCell(answer, isHit) {
  const [first, ...rest] = answer.reasons;
  if (!first) return h("span", { class: "muted" }, isHit ? "—" : "no reason given");
  return [
    h("span", { class: "rule", title: first.kind }, first.rule), " ", first.text,
    rest.length ? [" ", rest.map((r) => [h("span", { class: "rule rule-more", title: r.text }, r.rule), " "])] : null,
  ];
}
