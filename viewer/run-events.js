// A run's events other than touches (contract §2.1): the key responder at the start and the
// end, each press with its path up the responder chain (who received it, who handled it, the
// key command performed, the text input that took the key), each shake and remote-control
// event likewise, and the first responder changes the app code asked for. A result has these
// members only when its input had such a record; without them nothing is shown.

import { h } from "./dom.js";
import { time } from "./format.js";
import { keyText } from "./keyboard.js";

/** Whether `result` has the non-touch summaries (all five come together). */
export function hasNonTouch(result) {
  return Boolean(result?.keyResponder);
}

const none = (id) => id ?? "none";

/**
 * The section, or null for a touch-only result. `focus(id)` highlights a responder on the
 * canvas; `why(question, name)`, when given, makes a "why?" button that asks the why API
 * (`{press}`, `{keyCommand}`, `{shake: true}`, `{remoteControl: true}`). The presses' keys
 * with their modifiers are read from the run's input.
 */
export function nonTouchSection(result, { focus, why = null }) {
  if (!hasNonTouch(result)) return null;
  const keys = pressKeys(result.input);
  const presses = result.presses ?? [];
  const motions = result.motions ?? [];
  const remotes = result.remoteControls ?? [];
  const changes = result.responderChanges ?? [];
  const ask = (question, name) => (why ? [" ", why(question, name)] : null);
  const who = (id) => (id ? h("button", { type: "button", class: "link-button", onclick: () => focus(id) }, id) : "none");
  const responder = (e) => [who(e.responder), e.source === "fallback" ? h("span", { class: "source", title: "The key window had no first responder: knob keyResponderFallback chose (N3)" }, " (fallback)") : null];

  const table = (id, label, columns, rows) => h("table", { class: "events-table", id, "aria-label": label },
    h("thead", {}, h("tr", {}, columns.map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, rows));

  return h("section", { class: "run-events", "aria-labelledby": "events-heading" },
    h("h3", { id: "events-heading" }, "Keys and other events"),
    h("p", { id: "run-key-responder", class: "key-responder" }, "Key responder: ",
      h("strong", {}, none(result.keyResponder.initial)), " → ", h("strong", {}, none(result.keyResponder.final))),
    presses.length ? [h("h4", { id: "presses-heading" }, `Presses (${presses.length})`),
      table("run-presses", "Presses", ["press", "key", "responder", "path up the chain", "outcome"], presses.map((p) => {
        const key = keys.get(p.id);
        return h("tr", { "data-press": p.id },
          h("th", { scope: "row" }, p.id),
          h("td", { class: "key", title: key ? JSON.stringify(key) : p.type }, p.type === "keyboard" ? keyText(key ?? p.key ?? "", key?.modifierFlags ?? []) : p.type),
          h("td", {}, responder(p)),
          h("td", {}, path(p, focus)),
          h("td", { class: "outcome" }, pressOutcome(p),
            ask({ press: p.id }, `Why did ${p.id} go where it went?`),
            p.keyCommand ? ask({ keyCommand: p.keyCommand }, `Why was ${p.keyCommand} performed?`) : null));
      }))] : null,
    motions.length ? [h("h4", { id: "motions-heading" }, `Shakes (${motions.length})`, ask({ shake: true }, "Why did the shake go where it went?")),
      table("run-motions", "Shakes", ["t (s)", "event", "responder", "path up the chain", "outcome"], motions.map((m) =>
        h("tr", { "data-t": m.t },
          h("td", {}, time(m.t)),
          h("td", {}, `${m.subtype} ${m.phase ?? ""}`.trim()),
          h("td", {}, responder(m)),
          h("td", {}, path(m, focus)),
          h("td", { class: "outcome" }, deliveryOutcome(m)))))] : null,
    remotes.length ? [h("h4", { id: "remote-controls-heading" }, `Remote control (${remotes.length})`,
      ask({ remoteControl: true }, "Why did the remote-control event go where it went?")),
      table("run-remote-controls", "Remote-control events", ["t (s)", "event", "responder", "path up the chain", "outcome"], remotes.map((r) =>
        h("tr", { "data-t": r.t },
          h("td", {}, time(r.t)),
          h("td", {}, r.subtype),
          h("td", {}, r.dropped ? "—" : responder(r)),
          h("td", {}, r.dropped ? h("span", { class: "muted" }, "dropped: the app does not receive remote-control events (RC3)") : path(r, focus)),
          h("td", { class: "outcome" }, r.dropped ? "dropped" : deliveryOutcome(r)))))] : null,
    changes.length ? [h("h4", { id: "responder-changes-heading" }, `First responder changes (${changes.length})`),
      h("ol", { class: "plain-list responder-changes", id: "run-responder-changes" }, changes.map((c) =>
        h("li", {},
          h("span", { class: "c-t" }, time(c.t)), " ",
          h("code", {}, `${c.receiver} ${c.call === "become" ? "becomeFirstResponder" : "resignFirstResponder"}`),
          ` → ${c.result ? "YES" : "NO"}: `, none(c.from), " → ", h("strong", {}, none(c.to)))))] : null,
    !presses.length && !motions.length && !remotes.length && !changes.length
      ? h("p", { class: "empty" }, "No press, shake or remote-control event.") : null);
}

/** Each press id's key (a UIKey, with its modifier flags) from the run's input. */
function pressKeys(input) {
  const keys = new Map();
  for (const e of input?.events ?? []) for (const p of e.presses ?? []) if (p.key && !keys.has(p.id)) keys.set(p.id, p.key);
  return keys;
}

/**
 * The chain from the responder: who received the event (in order), the one that handled it
 * marked, and the rest of the chain it did not reach, dimmed.
 */
function path(e, focus) {
  const chain = e.chain ?? [];
  const delivered = e.delivered ?? [];
  const reached = new Set(delivered);
  // The delivered responders in delivery order, then the members of the chain it never reached.
  const order = [...delivered, ...chain.filter((id) => !reached.has(id))];
  if (!order.length) return h("span", { class: "muted" }, "—");
  return h("ol", { class: "event-path", "aria-label": `Path of ${e.id ?? e.subtype}` }, order.map((id) => {
    const handled = id === e.handledBy;
    const state = handled ? "handled" : reached.has(id) ? "delivered" : "not-reached";
    return h("li", { class: state, title: { handled: `${id} handled it`, delivered: `${id} received it and passed it on`, "not-reached": `${id} did not receive it` }[state] },
      h("button", { type: "button", class: "link-button", onclick: () => focus(id) }, id),
      handled ? h("span", { class: "handled-mark" }, " ✓ handled") : null);
  }));
}

function pressOutcome(p) {
  const parts = [];
  if (p.keyCommand) parts.push(h("span", { class: "key-command" }, "key command ", h("code", {}, p.keyCommand)));
  if (p.textInput) parts.push(h("span", { class: "text-input" }, `typed into ${p.textInput}`));
  if (p.handledBy) parts.push(h("span", {}, `handled by ${p.handledBy}`));
  else if (!p.keyCommand && !p.textInput) parts.push(h("span", { class: "muted" }, "not handled"));
  if (p.recognizers?.length) parts.push(h("span", {}, `recognizers: ${p.recognizers.join(", ")}`));
  parts.push(h("span", { class: "muted" }, `.${p.finalPhase}`));
  return parts.flatMap((part, i) => (i ? ["; ", part] : [part]));
}

function deliveryOutcome(e) {
  return e.handledBy ? `handled by ${e.handledBy}` : h("span", { class: "muted" }, "not handled");
}
