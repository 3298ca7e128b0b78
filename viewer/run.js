// One stored run: what UIKit did with the touches. The responder chain, the touches, each
// recognizer's states on a timeline, the actions sent, the presses, shakes and remote-control
// events when there were any (run-events.js), and the trace; the canvas shows the
// hit-test path and the first responder, and follows the selected trace entry. Beside the first
// responder, each touch, each recognizer and each action a "why?" asks the why API (why.js).

import { append, h, replace } from "./dom.js";
import { links } from "./api.js";
import { downloadWithToken } from "./download.js";
import { time, when } from "./format.js";
import { problemView } from "./problems.js";
import { hasNonTouch, nonTouchSection } from "./run-events.js";
import { recognizerTimeline } from "./timeline.js";
import { TraceView } from "./trace.js";
import { VirtualList } from "./virtual-list.js";

const ROLE_WORDS = {
  application: "the application object", appDelegate: "the application delegate",
  viewController: "a view controller", recognizer: "a gesture recognizer",
};

export class RunView {
  /** `why` (a WhyAnswers) adds the "why?" buttons; `document()` is the run's scene document. */
  constructor(panel, { canvas, navigate, why = null, document = () => null }) {
    this.panel = panel;
    this.canvas = canvas;
    this.navigate = navigate;
    this.why = why;
    this.document = document;
    this.trace = new TraceView({
      onFocus: (entry) => this.canvas.focus(entry.receiver?.id),
      describeReceiver: (id) => this.describe(id),
    });
    this.actions = new VirtualList({
      label: "Actions sent",
      rowHeight: 22,
      className: "actions-list",
      renderRow: (action, _, row) => this.renderAction(action, row),
      onSelect: (action) => this.canvas.focus(action.sender),
    });
    this.actions.element.id = "run-actions";
  }

  /** What a chain member or receiver is, when it has no rectangle to highlight. */
  describe(id) {
    const link = this.run?.result.responderChain?.find((r) => r.id === id);
    if (link) return ROLE_WORDS[link.role] ?? link.role;
    if (this.run?.result.recognizers?.some((r) => r.id === id)) return "a gesture recognizer";
    return "not a view";
  }

  /** `run` is `GET /v1/runs/{id}`; `scene` the scene's name for the header. */
  show(run, sceneName) {
    this.run = run;
    this.why?.setRun(run);
    const result = run.result;
    const why = (question, name) => (this.why ? [" ", this.why.button(question, name)] : null);
    const chain = h("ol", { class: "chain", id: "run-chain" },
      (result.responderChain ?? []).map((link) =>
        h("li", { class: `role-${link.role}` },
          h("button", { type: "button", class: "link-button", onclick: () => this.canvas.focus(link.id) }, link.id),
          " ", h("span", { class: "class" }, link.class), " ", h("span", { class: "role" }, link.role))));
    const touches = h("table", { class: "touches", id: "run-touches" },
      h("thead", {}, h("tr", {}, ["touch", "window", "hit-test view", "recognizers", "final phase"].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, (result.touches ?? []).map((t) =>
        h("tr", {},
          h("th", { scope: "row" }, t.id),
          h("td", {}, t.window ?? "—"),
          h("td", {}, t.hitTestView ?? "—"),
          h("td", {}, (t.recognizers ?? []).join(", ") || "—"),
          h("td", {}, t.finalPhase + (t.refused ? ` (refused: ${t.refused})` : "") + (t.cancelledBy ? ` (cancelled by ${t.cancelledBy})` : ""),
            t.hitTestView ? why({ view: t.hitTestView }, `Why did ${t.hitTestView} get ${t.id}'s phases as it did?`) : null)))));
    const actionCount = result.actions?.length ?? 0;
    const keysOnly = hasNonTouch(result) && !result.touches?.length;
    this.actions.element.classList.toggle("empty-list", actionCount === 0);
    // Up to six rows tall; more scroll inside the list.
    this.actions.element.style.height = `${Math.max(1, Math.min(actionCount, 6)) * 22 + 2}px`;

    // Downloads go through the token (download.js); a failed one is reported under the buttons.
    let buttons = null;
    const exportLink = (link) => downloadWithToken(link, (error) => {
      buttons.parentElement.querySelector(".download-error")?.remove();
      const report = problemView(error, "Download");
      report.classList.add("download-error");
      buttons.after(report);
    });
    replace(this.panel,
      h("header", { class: "run-header" },
        h("h2", { id: "run-heading" }, "Run ", h("code", {}, run.id)),
        h("p", { class: "run-meta" },
          `${sceneName ?? run.sceneId} · version ${run.sceneVersion} · ${when(run.createdAt)} · first responder `,
          h("strong", { id: "run-first-responder" }, result.firstResponder?.id ?? "none"),
          why({ firstResponder: true }, `Why is the first responder ${result.firstResponder?.id ?? "none"}?`)),
        result.warnings?.length ? h("ul", { class: "plain-list run-warnings", id: "run-warnings", "aria-label": "Warnings about the scene" },
          result.warnings.map((w) => h("li", {}, h("span", { "aria-hidden": "true" }, "⚠ "), w.detail, " ", h("code", { class: "pointer" }, w.pointer)))) : null,
        buttons = h("div", { class: "button-row" },
          exportLink(h("a", { class: "button", id: "export-chrome", href: links.chromeTrace(run.id), download: `${run.id}.chrome.json` }, "Chrome trace (Perfetto)")),
          exportLink(h("a", { class: "button", id: "export-text", href: links.text(run.id), download: `${run.id}.txt` }, "Text")),
          exportLink(h("a", { class: "button", id: "export-json", href: links.json(run.id), download: `${run.id}.json` }, "JSON")),
          h("button", { type: "button", onclick: () => this.navigate({ scene: run.sceneId, version: run.sceneVersion, tab: "history" }) }, "History of this scene"))),
      h("div", { class: "run-grid" },
        // Keys, shakes or remote control without a touch: the actions take the whole width.
        keysOnly ? null : h("section", { "aria-labelledby": "chain-heading" }, h("h3", { id: "chain-heading" }, "Responder chain"),
          result.responderChain?.length ? chain : h("p", { class: "empty" }, "No first responder: no chain.")),
        h("section", { "aria-labelledby": keysOnly ? "actions-heading" : "touches-heading" },
          keysOnly ? null : [h("h3", { id: "touches-heading" }, "Touches"), touches],
          h("h3", { id: "actions-heading" }, `Actions sent (${actionCount})`),
          actionCount ? this.actions.element : h("p", { class: "empty", id: "run-no-actions" }, "No action was sent."),
          this.actionQuestions(result))),
      nonTouchSection(result, { focus: (id) => this.canvas.focus(id), why: this.why ? (question, name) => this.why.button(question, name) : null }),
      h("section", { "aria-labelledby": "recognizers-heading" },
        h("h3", { id: "recognizers-heading" }, "Gesture recognizers"),
        recognizerTimeline(result, this.why ? (r) => {
          const recognized = (r.states ?? []).some((x) => x === "ended" || x === "began");
          return this.why.button({ recognizer: r.id, expect: recognized ? "not-fired" : "fired" },
            `Why did ${r.id} ${recognized ? "recognize" : "not recognize"}?`);
        } : null)),
      this.trace.element);
    this.actions.setItems(result.actions ?? []);
    this.trace.show(result);
    this.canvas.showRun(result);
  }

  /**
   * "why?" for each action: those sent (what would keep it from being sent) and those the scene
   * declares that were not (what would make it be sent), from the targets of its controls and
   * recognizers.
   */
  actionQuestions(result) {
    if (!this.why) return null;
    const sent = new Map();
    for (const a of result.actions ?? []) sent.set(a.action, (sent.get(a.action) ?? 0) + 1);
    const declared = new Set();
    const walk = (node) => {
      for (const t of node.targets ?? []) if (t.action) declared.add(t.action);
      for (const r of node.gestureRecognizers ?? []) for (const t of r.targets ?? []) if (t.action) declared.add(t.action);
      for (const child of node.subviews ?? []) walk(child);
    };
    for (const w of this.document()?.windows ?? []) walk(w);
    const unsent = [...declared].filter((a) => !sent.has(a)).sort();
    const items = [
      ...[...sent].map(([action, n]) => h("li", {}, h("code", {}, action), ` sent${n > 1 ? ` ×${n}` : ""}`,
        " ", this.why.button({ action, expect: "not-fired" }, `Why was ${action} sent?`))),
      ...unsent.map((action) => h("li", {}, h("code", {}, action), " not sent",
        " ", this.why.button({ action, expect: "fired" }, `Why was ${action} not sent?`))),
    ];
    return items.length ? h("ul", { class: "plain-list why-actions", id: "run-why-actions", "aria-label": "Actions to ask about" }, items) : null;
  }

  renderAction(a, row) {
    append(row, [
      h("span", { class: "c-t" }, time(a.t)),
      h("span", { class: "action-name" }, a.action),
      h("span", {}, ` ${a.sender} → ${a.target ?? "(nobody)"}`),
      h("span", { class: "via" }, ` via ${a.via}`),
      a.events ? h("span", { class: "events" }, ` [${a.events.join(", ")}]`) : null,
      a.state ? h("span", { class: "events" }, ` .${a.state}`) : null]);
    row.title = `${a.action} from ${a.sender} to ${a.target ?? "nobody"} (${a.via}) at ${time(a.t)} s`;
  }
}
