// One stored run: what UIKit did with the touches. The responder chain, the touches, each
// recognizer's states on a timeline, the actions sent, and the trace; the canvas shows the
// hit-test path and the first responder, and follows the selected trace entry.

import { h, replace } from "./dom.js";
import { links } from "./api.js";
import { time, when } from "./format.js";
import { recognizerTimeline } from "./timeline.js";
import { TraceView } from "./trace.js";
import { VirtualList } from "./virtual-list.js";

const ROLE_WORDS = {
  application: "the application object", appDelegate: "the application delegate",
  viewController: "a view controller", recognizer: "a gesture recognizer",
};

export class RunView {
  constructor(panel, { canvas, navigate }) {
    this.panel = panel;
    this.canvas = canvas;
    this.navigate = navigate;
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
    const result = run.result;
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
          h("td", {}, t.finalPhase + (t.refused ? ` (refused: ${t.refused})` : "") + (t.cancelledBy ? ` (cancelled by ${t.cancelledBy})` : ""))))));
    const actionCount = result.actions?.length ?? 0;
    this.actions.element.classList.toggle("empty-list", actionCount === 0);
    // Up to six rows tall; more scroll inside the list.
    this.actions.element.style.height = `${Math.max(1, Math.min(actionCount, 6)) * 22 + 2}px`;

    replace(this.panel,
      h("header", { class: "run-header" },
        h("h2", { id: "run-heading" }, "Run ", h("code", {}, run.id)),
        h("p", { class: "run-meta" },
          `${sceneName ?? run.sceneId} · version ${run.sceneVersion} · ${when(run.createdAt)} · first responder `,
          h("strong", { id: "run-first-responder" }, result.firstResponder?.id ?? "none")),
        h("div", { class: "button-row" },
          h("a", { class: "button", id: "export-chrome", href: links.chromeTrace(run.id), download: `${run.id}.chrome.json` }, "Chrome trace (Perfetto)"),
          h("a", { class: "button", id: "export-text", href: links.text(run.id), download: `${run.id}.txt` }, "Text"),
          h("a", { class: "button", href: links.json(run.id), download: `${run.id}.json` }, "JSON"),
          h("button", { type: "button", onclick: () => this.navigate({ scene: run.sceneId, version: run.sceneVersion, tab: "history" }) }, "History of this scene"))),
      h("div", { class: "run-grid" },
        h("section", { "aria-labelledby": "chain-heading" }, h("h3", { id: "chain-heading" }, "Responder chain"),
          result.responderChain?.length ? chain : h("p", { class: "empty" }, "No first responder: no chain.")),
        h("section", { "aria-labelledby": "touches-heading" },
          h("h3", { id: "touches-heading" }, "Touches"), touches,
          h("h3", { id: "actions-heading" }, `Actions sent (${actionCount})`),
          actionCount ? this.actions.element : h("p", { class: "empty", id: "run-no-actions" }, "No action was sent."))),
      h("section", { "aria-labelledby": "recognizers-heading" },
        h("h3", { id: "recognizers-heading" }, "Gesture recognizers"), recognizerTimeline(result)),
      this.trace.element);
    this.actions.setItems(result.actions ?? []);
    this.trace.show(result);
    this.canvas.showRun(result);
  }

  renderAction(a, row) {
    row.append(
      h("span", { class: "c-t" }, time(a.t)),
      h("span", { class: "action-name" }, a.action),
      h("span", {}, ` ${a.sender} → ${a.target ?? "(nobody)"}`),
      h("span", { class: "via" }, ` via ${a.via}`),
      a.events ? h("span", { class: "events" }, ` [${a.events.join(", ")}]`) : null,
      a.state ? h("span", { class: "events" }, ` .${a.state}`) : null);
    row.title = `${a.action} from ${a.sender} to ${a.target ?? "nobody"} (${a.via}) at ${time(a.t)} s`;
  }
}
