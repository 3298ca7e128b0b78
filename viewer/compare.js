// Two runs side by side (GET /v1/runs/{a}/compare/{b}): the two layouts as pictures with the
// touches, hit-test views and first responders (compare-picture.js), the outcome differences,
// each run's first responder, chain, recognizer outcomes and actions with what the other lacks
// highlighted, and the two traces aligned entry by entry (virtualized: a long run aligns to
// many rows; the list is as tall as the window allows). A comparison the what-if path opened
// says what was changed.

import { h, replace } from "./dom.js";
import { api } from "./api.js";
import { problemView } from "./problems.js";
import { entryText, stateRuns, time, when } from "./format.js";
import { VirtualList } from "./virtual-list.js";
import { ComparePictures } from "./compare-picture.js";

/** Items of `mine` that `theirs` lacks, as a multiset (the same action twice counts twice). */
export function unmatched(mine, theirs, key) {
  const counts = new Map();
  for (const item of theirs) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return mine.map((item) => {
    const k = key(item);
    const n = counts.get(k) ?? 0;
    if (n > 0) { counts.set(k, n - 1); return false; }
    return true;
  });
}

/** The aligned rows of the comparison's edit script: [{op, a?, b?, fields?}]. */
export function alignedRows(comparison, traceA, traceB) {
  const changedFields = new Map(comparison.trace.changed.map((c) => [`${c.a}:${c.b}`, c.fields]));
  const indexA = new Map(traceA.map((e, i) => [e.seq, i]));
  const indexB = new Map(traceB.map((e, i) => [e.seq, i]));
  const rows = [];
  for (const step of comparison.trace.script) {
    const ia = step.a !== undefined ? indexA.get(step.a) : undefined;
    const ib = step.b !== undefined ? indexB.get(step.b) : undefined;
    for (let k = 0; k < step.count; k++) {
      const a = ia !== undefined && step.op !== "inserted" ? traceA[ia + k] : undefined;
      const b = ib !== undefined && step.op !== "removed" ? traceB[ib + k] : undefined;
      rows.push({ op: step.op, a, b, fields: step.op === "changed" ? changedFields.get(`${step.a}:${step.b}`) : undefined });
    }
  }
  return rows;
}

/** A difference's value as the service wrote it; state lists counted ("changed ×2000"). */
function readable(field, value) {
  if (value === null || value === undefined) return "(none)";
  if (/\.states$/.test(field)) return stateRuns(String(value).split(", "));
  return String(value);
}

export class CompareView {
  constructor(panel, { navigate }) {
    this.panel = panel;
    this.navigate = navigate;
    this.list = new VirtualList({
      label: "Aligned traces",
      rowHeight: 22,
      className: "diff-list",
      renderRow: (row, _, element) => this.renderRow(row, element),
    });
    this.list.element.id = "compare-trace";
    this.onlyDifferences = h("input", { type: "checkbox", id: "compare-only-differences", onchange: () => this.applyFilter() });
    this.pictures = new ComparePictures();
    this.note = null;
  }

  /**
   * What the comparison of runs `a` and `b` shows, when the what-if path made `b`:
   * {label, base, version, predicted}.
   */
  expectNote(a, b, note) {
    this.note = { a, b, ...note };
  }

  async show(a, b) {
    replace(this.panel, h("p", {}, `Comparing ${a} with ${b}…`));
    let runA, runB, comparison;
    try {
      [runA, runB, comparison] = await Promise.all([api.run(a), api.run(b), api.compare(a, b)]);
    } catch (error) {
      replace(this.panel, problemView(error, "The runs could not be compared"));
      return;
    }
    this.rows = alignedRows(comparison, runA.result.trace ?? [], runB.result.trace ?? []);
    const verdict = comparison.identical ? "The two runs are identical."
      : comparison.outcomeChanged ? "The outcomes differ."
        : "Same outcome; the traces differ.";
    const link = (run) => h("a", { href: `/?run=${run.id}`, onclick: (e) => { e.preventDefault(); this.navigate({ run: run.id }); } }, run.id);
    const note = this.note && this.note.a === a && this.note.b === b ? this.note : null;

    replace(this.panel,
      h("h2", { id: "compare-heading" }, note ? "What if" : "Compare two runs"),
      note ? h("p", { class: "what-if-note", id: "compare-what-if" },
        h("strong", {}, note.label), ` — v${note.version} is v${note.base} with this change; B is A's touches run again on it.`,
        note.predicted ? [" The service predicted: ", h("em", {}, note.predicted), "."] : null) : null,
      h("p", { class: `verdict ${comparison.identical ? "same" : "different"}`, id: "compare-verdict" }, verdict),
      // The pictures and the outcome differences side by side where there is room.
      h("div", { class: "compare-top" },
        this.pictures.element,
        h("section", { class: "compare-differences", "aria-labelledby": "compare-differences-heading" },
          h("h3", { id: "compare-differences-heading" }, `Outcome differences (${comparison.differences.length})`),
          comparison.differences.length
            ? h("div", { class: "differences-box", tabindex: 0, role: "region", "aria-label": "Outcome differences" },
              h("table", { class: "differences-table", id: "compare-differences" },
                h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "what"), h("th", { scope: "col" }, "A"), h("th", { scope: "col" }, "B"))),
                h("tbody", {}, comparison.differences.map((d) => h("tr", {},
                  h("th", { scope: "row" }, d.field),
                  h("td", { class: "removed" }, readable(d.field, d.before)),
                  h("td", { class: "inserted" }, readable(d.field, d.after)))))))
            : h("p", { class: "empty" }, "None: the same first responder, chain, touches, recognizer outcomes and actions."))),
      h("div", { class: "side-by-side" },
        this.column("A", runA, runB, link),
        this.column("B", runB, runA, link)),
      h("section", { "aria-labelledby": "compare-trace-heading", class: "compare-trace" },
        h("div", { class: "section-head" },
          h("h3", { id: "compare-trace-heading" }, "Traces aligned"),
          h("span", { class: "trace-count" },
            `${comparison.trace.unchanged} same, ${comparison.trace.changed.length} changed, `
            + `${comparison.trace.removed.length} only in A, ${comparison.trace.inserted.length} only in B`
            + (comparison.trace.minimal ? "" : " (alignment not minimal: the traces differ a lot)"))),
        h("label", { for: "compare-only-differences", class: "inline" }, this.onlyDifferences, " Only the differences"),
        h("div", { class: "diff-columns", "aria-hidden": "true" }, h("span", {}, "A"), h("span", {}, "B")),
        this.list.element));
    this.onlyDifferences.checked = false;
    this.applyFilter();
    try {
      await this.pictures.show(runA, runB);
    } catch (error) {
      replace(this.pictures.body, problemView(error, "The layouts could not be drawn"));
    }
  }

  column(name, run, other, link) {
    const r = run.result, o = other.result;
    // Chains share their tails (window, application, delegate); what differs is who is in one
    // and not the other.
    const chainDiff = unmatched(r.responderChain ?? [], o.responderChain ?? [], (x) => `${x.id}|${x.role}`);
    const actionKey = (x) => `${x.action}|${x.sender}|${x.target}|${x.via}`;
    const actionDiff = unmatched(r.actions ?? [], o.actions ?? [], actionKey);
    const otherStates = new Map((o.recognizers ?? []).map((x) => [x.id, stateRuns(x.states)]));
    const firstDiffers = r.firstResponder?.id !== o.firstResponder?.id;
    const actions = r.actions ?? [];
    return h("section", { class: "compare-column", "aria-label": `Run ${name}` },
      h("h3", {}, `${name}: `, link(run)),
      h("p", { class: "run-meta" }, `scene ${run.sceneId} v${run.sceneVersion} · ${when(run.createdAt)}`),
      h("p", {}, "First responder: ", h("strong", { class: firstDiffers ? "differs" : "" }, r.firstResponder?.id ?? "none")),
      h("h4", {}, "Responder chain"),
      h("ol", { class: "chain" }, (r.responderChain ?? []).map((item, i) =>
        h("li", { class: chainDiff[i] ? "differs" : "" }, item.id, " ", h("span", { class: "role" }, item.role)))),
      h("h4", {}, "Recognizers"),
      h("ul", { class: "plain-list" }, (r.recognizers ?? []).map((x) => {
        const states = stateRuns(x.states);
        return h("li", { class: otherStates.get(x.id) === states ? "" : "differs" }, h("code", {}, x.id), ` ${states}`);
      })),
      h("h4", {}, `Actions (${actions.length})`),
      h("ol", { class: "plain-list compare-actions" },
        actions.slice(0, 50).map((x, i) => h("li", { class: actionDiff[i] ? "differs" : "" },
          `${time(x.t)} ${x.action} ${x.sender} → ${x.target ?? "nobody"} (${x.via})`)),
        actions.length > 50 ? h("li", { class: "muted" }, `…and ${actions.length - 50} more (${actionDiff.filter(Boolean).length} without a match in total)`) : null));
  }

  applyFilter() {
    this.list.setItems(this.onlyDifferences.checked ? this.rows.filter((r) => r.op !== "equal") : this.rows);
  }

  renderRow(row, element) {
    element.classList.add(`op-${row.op}`);
    const cell = (e) => h("span", { class: "diff-cell" },
      e ? [h("span", { class: "c-seq" }, e.seq), h("span", { class: "c-t" }, time(e.t)), `${"  ".repeat(Math.min(e.depth ?? 0, 12))}${entryText(e)}`] : "");
    element.append(cell(row.a), cell(row.b));
    element.title = row.op === "changed" ? `changed: ${(row.fields ?? []).map((f) => `${f.field} ${JSON.stringify(f.a)} → ${JSON.stringify(f.b)}`).join("; ")}`
      : row.op === "removed" ? "only in A" : row.op === "inserted" ? "only in B" : "the same in both";
  }
}
