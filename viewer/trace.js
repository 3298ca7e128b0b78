// The trace as an indented list on a time axis (dispatch-rules §5): one row per entry, indented
// by depth, with a dot at its time; filterable by receiver and by kind. Selecting an entry
// shows it in full and highlights its receiver on the canvas.

import { h, replace } from "./dom.js";
import { entryText, time, value } from "./format.js";
import { VirtualList } from "./virtual-list.js";
import { ticks, timeSpan } from "./timeline.js";

const KINDS = ["call", "state", "marker"];
/** Indentation stops growing here; deeper entries say their depth instead. */
const MAX_INDENT = 24;

export class TraceView {
  /** `onFocus(entry)` is called when an entry is selected (to highlight its receiver). */
  constructor({ onFocus, describeReceiver }) {
    this.onFocus = onFocus;
    this.describeReceiver = describeReceiver;
    this.entries = [];
    this.bySeq = new Map();
    this.names = "objc";

    this.receiverSelect = h("select", { id: "trace-receiver", onchange: () => this.applyFilters() });
    this.kindBoxes = KINDS.map((kind) =>
      h("input", { type: "checkbox", id: `trace-kind-${kind}`, value: kind, checked: true, onchange: () => this.applyFilters() }));
    this.namesSelect = h("select", { id: "trace-names", onchange: () => { this.names = this.namesSelect.value; this.list.render(); } },
      h("option", { value: "objc" }, "Objective-C"), h("option", { value: "swift" }, "Swift"));
    this.count = h("span", { class: "trace-count", id: "trace-count", "aria-live": "polite" });
    this.axis = h("div", { class: "trace-axis", "aria-hidden": "true" });
    this.detail = h("div", { class: "trace-detail", id: "trace-detail" }, h("p", { class: "empty" }, "Select an entry (arrow keys or a click) to see it in full."));

    this.list = new VirtualList({
      label: "Trace entries",
      rowHeight: 22,
      className: "trace-list",
      renderRow: (entry, _, row) => this.renderRow(entry, row),
      onSelect: (entry) => this.selectEntry(entry),
      onActivate: (entry) => this.selectEntry(entry),
    });
    this.list.element.id = "trace-list";

    this.element = h("section", { class: "trace", "aria-labelledby": "trace-heading" },
      h("div", { class: "section-head" }, h("h3", { id: "trace-heading" }, "Trace"), this.count),
      h("div", { class: "trace-filters" },
        h("label", { for: "trace-receiver" }, "Receiver"), this.receiverSelect,
        h("fieldset", { class: "kinds" }, h("legend", {}, "Kinds"),
          this.kindBoxes.map((box) => h("label", { for: box.id }, box, box.value))),
        h("label", { for: "trace-names" }, "Names"), this.namesSelect),
      h("div", { class: "trace-columns", "aria-hidden": "true" },
        h("span", { class: "c-seq" }, "#"), h("span", { class: "c-t" }, "t (s)"), this.axis, h("span", { class: "c-text" }, "entry")),
      this.list.element,
      this.detail);
  }

  show(result) {
    this.entries = result.trace ?? [];
    this.bySeq = new Map(this.entries.map((e) => [e.seq, e]));
    this.end = timeSpan(result);
    const counts = new Map();
    for (const e of this.entries) {
      const id = e.receiver?.id ?? "(none)";
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    replace(this.receiverSelect,
      h("option", { value: "" }, `All receivers (${this.entries.length})`),
      [...counts].map(([id, n]) => h("option", { value: id }, `${id} (${n})`)));
    for (const box of this.kindBoxes) box.checked = true;
    replace(this.axis, ticks(this.end, 2).map((t, i) => {
      const tick = h("span", { class: `tick tick-${i}` }, time(t));
      tick.style.left = `${(t / this.end) * 100}%`;
      return tick;
    }));
    replace(this.detail, h("p", { class: "empty" }, "Select an entry (arrow keys or a click) to see it in full."));
    this.applyFilters();
  }

  applyFilters() {
    const receiver = this.receiverSelect.value;
    const kinds = new Set(this.kindBoxes.filter((b) => b.checked).map((b) => b.value));
    const shown = this.entries.filter((e) =>
      kinds.has(e.kind) && (!receiver || (e.receiver?.id ?? "(none)") === receiver));
    this.list.setItems(shown);
    this.count.textContent = shown.length === this.entries.length
      ? `${this.entries.length} entries`
      : `${shown.length} of ${this.entries.length} entries`;
  }

  renderRow(e, row) {
    row.classList.add(`kind-${e.kind}`);
    const depth = Math.min(e.depth ?? 0, MAX_INDENT);
    const dot = h("span", { class: "tdot" });
    dot.style.left = `${(e.t / this.end) * 100}%`;
    const text = h("span", { class: "c-text" },
      (e.depth ?? 0) > MAX_INDENT ? h("span", { class: "deep" }, `(depth ${e.depth}) `) : null,
      entryText(e, this.names),
      e.note ? h("span", { class: "note" }, `  // ${e.note}`) : null);
    text.style.paddingLeft = `${depth * 12 + 4}px`;
    row.append(
      h("span", { class: "c-seq" }, e.seq),
      h("span", { class: "c-t" }, time(e.t)),
      h("span", { class: "c-bar" }, dot),
      text);
    row.title = entryText(e, this.names) + (e.note ? `  // ${e.note}` : "");
  }

  /** Selects the entry with sequence number `seq`, widening the filters if they hide it. */
  reveal(seq) {
    let index = this.list.findIndex((e) => e.seq === seq);
    if (index < 0) {
      this.receiverSelect.value = "";
      for (const box of this.kindBoxes) box.checked = true;
      this.applyFilters();
      index = this.list.findIndex((e) => e.seq === seq);
    }
    if (index >= 0) this.list.select(index);
    this.list.element.focus();
  }

  selectEntry(e) {
    const drawn = this.onFocus(e);
    const fields = [
      ["seq", e.seq], ["t", `${time(e.t)} s`], ["cause", e.cause], ["kind", e.kind],
      ["receiver", e.receiver ? `${e.receiver.id} (${e.receiver.class})` : "none"],
    ];
    if (e.selector) fields.push(["selector", e.selector], ["swift", e.swift ?? ""]);
    if (e.args) fields.push(["args", JSON.stringify(e.args)]);
    if (e.result !== undefined) fields.push(["result", value(e.result)]);
    if (e.kind === "state") fields.push(["from → to", `.${e.from} → .${e.to}`], ["reason", e.reason ?? ""]);
    if (e.marker) fields.push(["marker", e.marker]);
    fields.push(["depth", e.depth ?? 0]);
    if (e.note) fields.push(["note", e.note]);
    const parent = e.parent != null ? this.bySeq.get(e.parent) : null;
    replace(this.detail,
      h("p", { class: "on-canvas" }, e.receiver
        ? (drawn ? `${e.receiver.id} is highlighted on the canvas${drawn !== e.receiver.id ? ` (as ${drawn})` : ""}.` : `${e.receiver.id} is not drawn on the canvas (${this.describeReceiver(e.receiver.id)}).`)
        : "This entry has no receiver."),
      h("dl", { class: "fields" }, fields.map(([k, v]) => [h("dt", {}, k), h("dd", {}, String(v))])),
      parent ? h("button", { type: "button", class: "link-button", onclick: () => this.reveal(parent.seq) },
        `Go to the parent entry #${parent.seq}`) : null);
  }
}
