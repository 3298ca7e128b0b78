// A scene's runs, newest first; two of them can be picked for a comparison. And replay: every
// run of one version run again against another, with the outcomes that changed listed.

import { h, replace } from "./dom.js";
import { api } from "./api.js";
import { problemView } from "./problems.js";
import { differenceText, when } from "./format.js";

/** A replayed run lists this many differences; the comparison has them all. */
const SHOWN_DIFFERENCES = 8;

export class HistoryPanel {
  constructor(panel, { navigate }) {
    this.panel = panel;
    this.navigate = navigate;
    this.scene = null;
    this.picked = [];
    this.list = h("ol", { class: "plain-list history-list", id: "history-list", "aria-label": "Runs, newest first" });
    this.more = h("button", { type: "button", class: "link-button", hidden: true, onclick: () => this.load(this.cursor) }, "Load older runs");
    this.compareButton = h("button", { type: "button", id: "history-compare", disabled: true, onclick: () => this.compare() }, "Compare the two picked runs");
    this.from = h("select", { id: "replay-from" });
    this.to = h("select", { id: "replay-to" });
    this.replayOutput = h("div", { id: "replay-output", "aria-live": "polite" });
    this.heading = h("h2", { id: "history-heading" }, "History");
    replace(panel,
      this.heading,
      h("p", { class: "hint" }, "Pick two runs to compare them side by side."),
      this.compareButton,
      this.list,
      this.more,
      h("section", { "aria-labelledby": "replay-heading", class: "replay" },
        h("h3", { id: "replay-heading" }, "Replay"),
        h("p", { class: "hint" }, "Runs every stored run of one version again, with the same touches, against another version, "
          + "stores the new runs and lists the outcomes that changed."),
        h("form", { class: "replay-form", onsubmit: (event) => { event.preventDefault(); this.replay(); } },
          h("label", { for: "replay-from" }, "Runs of version"), this.from,
          h("label", { for: "replay-to" }, "against version"), this.to,
          h("button", { type: "submit", id: "replay-submit" }, "Replay")),
        this.replayOutput));
  }

  /** Shows the runs of a scene; `versions` is its version list (for replay). */
  async show(sceneId, sceneName, versions) {
    const changed = this.scene !== sceneId;
    this.scene = sceneId;
    this.heading.textContent = `History of ${sceneName ?? sceneId}`;
    const numbers = versions.map((v) => v.version);
    const options = () => numbers.map((n) => h("option", { value: n }, `v${n}`));
    replace(this.from, options());
    replace(this.to, options());
    if (numbers.length) {
      this.from.value = String(numbers[Math.max(0, numbers.length - 2)]);
      this.to.value = String(numbers[numbers.length - 1]);
    }
    if (changed) this.replayOutput.replaceChildren();
    this.picked = [];
    this.updateCompare();
    this.list.replaceChildren();
    await this.load(null);
  }

  async load(cursor) {
    try {
      const page = await api.runs(this.scene, cursor);
      if (!cursor) this.list.replaceChildren();
      if (!cursor && page.items.length === 0) {
        this.list.append(h("li", { class: "empty" }, "No runs yet: touch the scene on the canvas."));
      }
      for (const run of page.items) this.list.append(this.item(run));
      this.cursor = page.nextCursor;
      this.more.hidden = !page.nextCursor;
    } catch (error) {
      replace(this.list, h("li", {}, problemView(error, "The runs could not be read")));
    }
  }

  item(run) {
    const actions = run.actions.length === 0 ? "no action"
      : run.actions.length === 1 ? `${run.actions[0].action} → ${run.actions[0].target ?? "nobody"}`
        : `${run.actionCount} actions`;
    const box = h("input", { type: "checkbox", id: `pick-${run.id}`, value: run.id, onchange: () => this.pick(run.id, box.checked) });
    return h("li", { class: "history-item", "data-run": run.id },
      box,
      h("label", { for: `pick-${run.id}`, class: "visually-hidden" }, `Pick ${run.id} for comparison`),
      h("a", { href: `/?run=${run.id}`, onclick: (event) => { event.preventDefault(); this.navigate({ run: run.id }); } }, run.id),
      h("span", { class: "when" }, when(run.createdAt)),
      h("span", { class: "version" }, `v${run.sceneVersion}`),
      h("span", {}, `first responder ${run.firstResponder?.id ?? "none"}`),
      h("span", { class: "muted" }, actions));
  }

  pick(id, on) {
    this.picked = this.picked.filter((x) => x !== id);
    if (on) this.picked.push(id);
    // Only two at a time: the oldest pick is dropped.
    while (this.picked.length > 2) {
      const dropped = this.picked.shift();
      const box = this.panel.querySelector(`#pick-${dropped}`);
      if (box) box.checked = false;
    }
    this.updateCompare();
  }

  updateCompare() {
    this.compareButton.disabled = this.picked.length !== 2;
  }

  compare() {
    // Older run on the left: the list is newest first.
    const order = [...this.list.querySelectorAll("[data-run]")].map((li) => li.dataset.run);
    const [a, b] = this.picked.slice().sort((x, y) => order.indexOf(y) - order.indexOf(x));
    this.navigate({ compare: `${a},${b}` });
  }

  async replay() {
    const from = Number(this.from.value), to = Number(this.to.value);
    replace(this.replayOutput, h("p", {}, `Replaying the runs of v${from} against v${to}…`));
    try {
      const report = await api.replay(this.scene, from, to);
      const rows = report.runs.map((r) => h("tr", { class: r.changed ? "changed" : "" },
        h("td", {}, h("a", { href: `/?run=${r.original}`, onclick: (e) => { e.preventDefault(); this.navigate({ run: r.original }); } }, r.original)),
        h("td", {}, h("a", { href: `/?run=${r.replayed}`, onclick: (e) => { e.preventDefault(); this.navigate({ run: r.replayed }); } }, r.replayed)),
        h("td", {}, r.changed ? "changed" : "same"),
        h("td", {}, r.differences.length ? h("ul", { class: "differences" },
          r.differences.slice(0, SHOWN_DIFFERENCES).map((d) => h("li", {}, differenceText(d))),
          r.differences.length > SHOWN_DIFFERENCES ? h("li", { class: "muted" }, `…and ${r.differences.length - SHOWN_DIFFERENCES} more: compare the two runs`) : null) : "—"),
        h("td", {}, h("a", { href: `/?compare=${r.original},${r.replayed}`,
          onclick: (e) => { e.preventDefault(); this.navigate({ compare: `${r.original},${r.replayed}` }); } }, "compare"))));
      replace(this.replayOutput,
        h("p", { class: "verdict" }, `${report.count} run(s) of v${report.from} replayed against v${report.to}: ${report.changedCount} changed outcome(s).`),
        report.count ? h("table", { class: "replay-table", id: "replay-table" },
          h("thead", {}, h("tr", {}, ["original", "replayed", "outcome", "what changed", ""].map((c) => h("th", { scope: "col" }, c)))),
          h("tbody", {}, rows)) : null);
      await this.load(null);
    } catch (error) {
      replace(this.replayOutput, problemView(error, "Replay failed"));
    }
  }
}
