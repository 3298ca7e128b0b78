// Each recognizer's states over the run's virtual time: one lane per recognizer, a segment per
// state it stayed in, from the trace's `state` entries (which carry the time and the reason).

import { h } from "./dom.js";
import { stateRuns, time } from "./format.js";

/**
 * The run's time span: from 0 to a little past its last trace entry or input event, so that
 * what happens at the very end (a tap recognized as the finger lifts) still has room to show.
 */
export function timeSpan(result) {
  let end = 0;
  for (const e of result.trace ?? []) if (e.t > end) end = e.t;
  for (const e of result.input?.events ?? []) if (e.t > end) end = e.t;
  return Math.max(end * 1.08, end + 0.01);
}

/** Segments [{state, from, to, reason}] of one recognizer; repeated states merge into one. */
export function segments(recognizerId, trace, end) {
  const out = [{ state: "possible", from: 0, to: end, reason: "initial" }];
  for (const e of trace) {
    if (e.kind !== "state" || e.receiver?.id !== recognizerId) continue;
    const current = out[out.length - 1];
    if (e.to === current.state) continue;
    current.to = e.t;
    out.push({ state: e.to, from: e.t, to: end, reason: e.reason ?? "" });
  }
  return out;
}

/** Tick positions for an axis from 0 to `end`: 0, end/4, …, end. */
export function ticks(end, count = 4) {
  return Array.from({ length: count + 1 }, (_, i) => (end * i) / count);
}

/** `whyButton(recognizer)`, when given, adds a button after each lane's states. */
export function recognizerTimeline(result, whyButton = null) {
  const end = timeSpan(result);
  const trace = result.trace ?? [];
  const lanes = (result.recognizers ?? []).map((r) => {
    const bar = h("div", { class: "lane-bar" });
    for (const segment of segments(r.id, trace, end)) {
      const piece = h("span", {
        class: `segment state-${segment.state}`,
        title: `${r.id}: .${segment.state} from ${time(segment.from)} s (${segment.reason})`,
      });
      piece.style.left = `${(segment.from / end) * 100}%`;
      piece.style.width = `${((segment.to - segment.from) / end) * 100}%`;
      bar.append(piece);
    }
    return h("li", { class: "lane" },
      h("span", { class: "lane-name", title: r.class ?? "" }, r.id),
      bar,
      h("span", { class: "lane-states" }, stateRuns(r.states ?? [])),
      whyButton ? whyButton(r) : h("span", {}));
  });
  if (lanes.length === 0) return h("p", { class: "empty" }, "No gesture recognizer saw these touches.");
  const axis = h("div", { class: "lane-axis", "aria-hidden": "true" },
    ticks(end).map((t) => {
      const tick = h("span", { class: "tick" }, `${time(t)} s`);
      tick.style.left = `${(t / end) * 100}%`;
      return tick;
    }));
  return h("div", { class: "timeline" },
    h("ul", { class: "plain-list lanes", id: "run-recognizers", "aria-label": "Recognizer states over time" }, lanes),
    h("div", { class: "lane-axis-row" }, h("span", { class: "lane-name" }), axis, h("span", { class: "lane-states" }), h("span", {})),
    h("ul", { class: "legend state-legend", "aria-label": "States" },
      ["possible", "began", "changed", "ended", "cancelled", "failed"].map((state) =>
        h("li", {}, h("span", { class: `swatch state-${state}` }), state))));
}
