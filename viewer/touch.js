// Touching the scene: a gesture from the canvas (or typed in here) becomes a touches document
// that is shown, and can be edited, before it is sent. Sending stores a run
// (POST /v1/scenes/{id}/dispatch) and opens it. A key (with modifiers), a remote's press, a
// shake or a remote-control event is appended to that document and sent at once (keyboard.js).

import { h, replace } from "./dom.js";
import { api } from "./api.js";
import { problemView } from "./problems.js";
import { KEY_NAMES, MODIFIERS, PRESS_TYPES, REMOTE_CONTROL_SUBTYPES, keyFor, keyText, withPress, withRemoteControl, withShake } from "./keyboard.js";

export class TouchPanel {
  constructor(panel, { canvas, onStored }) {
    this.panel = panel;
    this.canvas = canvas;
    this.onStored = onStored;
    this.scene = null;

    const field = (id, label, attributes) => [h("label", { for: id }, label), h("input", { id, type: "number", step: "any", ...attributes })];
    this.kind = h("select", { id: "touch-kind", onchange: () => this.syncFields() },
      h("option", { value: "tap" }, "Tap"), h("option", { value: "longPress" }, "Long press"), h("option", { value: "drag" }, "Drag"));
    const [xLabel, x] = field("touch-x", "x", { value: 100, required: true });
    const [yLabel, y] = field("touch-y", "y", { value: 100, required: true });
    const [toXLabel, toX] = field("touch-to-x", "to x", { value: 100 });
    const [toYLabel, toY] = field("touch-to-y", "to y", { value: 300 });
    const [durationLabel, duration] = field("touch-duration", "duration (s)", { value: 0.6, min: 0 });
    Object.assign(this, { x, y, toX, toY, duration });
    this.dragFields = [toXLabel, toX, toYLabel, toY];
    this.durationFields = [durationLabel, duration];

    this.documentText = h("textarea", { id: "touch-document", rows: 12, spellcheck: "false", "aria-describedby": "touch-summary" });
    this.summary = h("p", { id: "touch-summary", class: "touch-summary" }, "Nothing to send yet.");
    this.sendButton = h("button", { type: "button", id: "touch-send", disabled: true, onclick: () => this.send() }, "Send");
    this.message = h("div", { class: "message", id: "touch-message", "aria-live": "polite" });
    this.documentText.addEventListener("input", () => { this.sendButton.disabled = !this.scene || !this.documentText.value.trim(); });

    // Keys and the other events: each button appends its records to the document and sends it.
    this.pressType = h("select", { id: "touch-press-type", onchange: () => this.syncFields() },
      h("option", { value: "keyboard" }, "Keyboard key"), PRESS_TYPES.map((type) => h("option", { value: type }, type)));
    this.key = h("input", { id: "touch-key", type: "text", list: "touch-key-names", autocomplete: "off", spellcheck: "false",
      placeholder: "s, Return, Escape, Up, F1…", "aria-describedby": "touch-key-help" });
    this.modifiers = MODIFIERS.map((m) => h("input", { type: "checkbox", id: `touch-mod-${m.flag}`, value: m.flag }));
    this.remote = h("select", { id: "touch-remote" }, REMOTE_CONTROL_SUBTYPES.map((subtype) => h("option", { value: subtype }, subtype)));
    this.eventButtons = [
      h("button", { type: "submit", id: "touch-send-key", disabled: true }, "Send key"),
      h("button", { type: "button", id: "touch-shake", disabled: true, onclick: () => this.sendShake() }, "Shake"),
      h("button", { type: "button", id: "touch-send-remote", disabled: true, onclick: () => this.sendRemoteControl() }, "Send"),
    ];
    this.keyFields = [this.key, ...this.modifiers];

    replace(panel,
      h("h2", {}, "Touch the scene"),
      h("p", {}, "On the canvas, in Touch mode: click to tap, press and hold to long-press, drag to drag. "
        + "Points are in screen coordinates. Or describe a gesture here:"),
      h("form", { class: "touch-form", onsubmit: (event) => { event.preventDefault(); this.fromForm(); } },
        h("label", { for: "touch-kind" }, "Gesture"), this.kind, xLabel, x, yLabel, y, ...this.dragFields, ...this.durationFields,
        h("button", { type: "submit" }, "Show the touches")),
      h("h3", {}, "Keys, shakes, remote control"),
      h("p", { id: "touch-key-help", class: "touch-summary" }, "Sent to the key window's first responder (the key responder), "
        + "after the touches below, which are sent again with them. A key is pressed and released 0.08 s later; "
        + "a capital letter is Shift and the letter."),
      h("form", { class: "touch-form key-form", onsubmit: (event) => { event.preventDefault(); this.sendKey(); } },
        h("label", { for: "touch-press-type" }, "Press"), this.pressType,
        h("label", { for: "touch-key" }, "Key"), this.key,
        h("datalist", { id: "touch-key-names" }, KEY_NAMES.map((name) => h("option", { value: name }))),
        h("fieldset", { class: "modifiers" }, h("legend", {}, "Modifiers"),
          MODIFIERS.map((m, i) => h("label", { for: this.modifiers[i].id, title: m.name }, this.modifiers[i],
            h("span", { "aria-hidden": "true" }, m.symbol), h("span", { class: "visually-hidden" }, m.name)))),
        this.eventButtons[0]),
      h("div", { class: "touch-form event-row" },
        this.eventButtons[1],
        h("label", { for: "touch-remote" }, "Remote control"), this.remote, this.eventButtons[2]),
      h("h3", {}, "Touch sequence to send"),
      this.summary,
      this.documentText,
      h("div", { class: "button-row" }, this.sendButton,
        h("button", { type: "button", onclick: () => this.discard() }, "Discard")),
      this.message);
    this.syncFields();
  }

  /** The touches waiting to be sent (a touches document), or null when none are or they are not JSON. */
  staged() {
    if (!this.documentText.value.trim()) return null;
    try {
      return JSON.parse(this.documentText.value);
    } catch {
      return null;
    }
  }

  syncFields() {
    const kind = this.kind.value;
    for (const el of this.dragFields) el.hidden = kind !== "drag";
    for (const el of this.durationFields) el.hidden = kind === "tap";
    for (const el of this.keyFields) el.disabled = this.pressType.value !== "keyboard";
  }

  /** The scene (id and version) touches are sent to. */
  setScene(sceneId, version) {
    this.scene = sceneId ? { id: sceneId, version } : null;
    this.sendButton.disabled = !this.scene || !this.documentText.value.trim();
    this.sendButton.textContent = this.scene ? `Send to version ${version}` : "Send";
    for (const button of this.eventButtons) button.disabled = !this.scene;
  }

  fromForm() {
    const at = [Number(this.x.value), Number(this.y.value)];
    const duration = Number(this.duration.value);
    let gesture;
    if (this.kind.value === "tap") gesture = { tap: at, t: 0 };
    else if (this.kind.value === "longPress") gesture = { longPress: at, duration, t: 0 };
    else gesture = { drag: { from: at, to: [Number(this.toX.value), Number(this.toY.value)] }, duration, steps: 10, t: 0 };
    this.propose(this.kind.selectedOptions[0].textContent.toLowerCase(), { format: "taptrace/touches@1", gestures: [gesture] });
  }

  /** Shows `touches` (a touches document) for review; nothing is sent until Send. */
  propose(kind, touches) {
    this.documentText.value = JSON.stringify(touches, null, 2);
    const events = touches.events ?? [];
    this.summary.textContent = events.length
      ? `A ${kind}: ${events.length} events from (${events[0].touches[0].at.join(", ")}) over ${events[events.length - 1].t} s. Review or edit it, then send.`
      : `A ${kind}. Review or edit it, then send.`;
    this.canvas.showPending(events.length ? events : gestureEvents(touches.gestures ?? []));
    this.message.replaceChildren();
    this.sendButton.disabled = !this.scene;
  }

  /** The document in the text area as the base for more records: null when empty; undefined (reported) when it is not JSON. */
  base() {
    if (!this.documentText.value.trim()) return null;
    try {
      const touches = JSON.parse(this.documentText.value);
      if (touches && typeof touches === "object" && !Array.isArray(touches)) return touches;
      replace(this.message, h("p", { class: "error" }, "The touch sequence is not a touches document (a JSON object): fix it or discard it first."));
    } catch (error) {
      replace(this.message, h("p", { class: "error" }, `The touch sequence is not JSON: ${error.message}. Fix it or discard it first.`));
    }
    return undefined;
  }

  /** The key (or remote press) of the form, appended as a began and an ended press, and sent. */
  sendKey() {
    const base = this.base();
    if (base === undefined) return;
    const type = this.pressType.value;
    let key = null;
    if (type === "keyboard") {
      try {
        key = keyFor(this.key.value, this.modifiers.filter((box) => box.checked).map((box) => box.value));
      } catch (error) {
        replace(this.message, h("p", { class: "error", id: "touch-key-error" }, error.message));
        this.key.focus();
        return;
      }
    }
    const { touches, id, start } = withPress(base, type, key);
    this.stageAndSend(base, touches, `${id}: ${key ? keyText(key) : type} pressed at ${start} s`);
  }

  sendShake() {
    const base = this.base();
    if (base === undefined) return;
    const { touches, start } = withShake(base);
    this.stageAndSend(base, touches, `A shake from ${start} s`);
  }

  sendRemoteControl() {
    const base = this.base();
    if (base === undefined) return;
    const { touches, start } = withRemoteControl(base, this.remote.value);
    this.stageAndSend(base, touches, `Remote control ${this.remote.value} at ${start} s`);
  }

  /** Shows `touches` (`base` with new records) as the document to send, and sends it. */
  stageAndSend(base, touches, what) {
    this.documentText.value = JSON.stringify(touches, null, 2);
    const earlier = (base?.events?.length ?? 0) + (base?.gestures?.length ?? 0);
    this.summary.textContent = `${what}, after ${earlier ? `the ${earlier} record(s) and gesture(s) already here` : "nothing else"}.`;
    this.message.replaceChildren();
    return this.send();
  }

  discard() {
    this.documentText.value = "";
    this.summary.textContent = "Nothing to send yet.";
    this.sendButton.disabled = true;
    this.canvas.showPending([]);
  }

  async send() {
    let touches;
    try {
      touches = JSON.parse(this.documentText.value);
    } catch (error) {
      replace(this.message, h("p", { class: "error" }, `The touch sequence is not JSON: ${error.message}`));
      return;
    }
    this.sendButton.disabled = true;
    try {
      const result = await api.dispatch(this.scene.id, { touches, version: this.scene.version });
      this.canvas.showPending([]);
      this.message.replaceChildren();
      await this.onStored(result.id);
    } catch (error) {
      replace(this.message, problemView(error, "The touches were not run"));
    } finally {
      this.sendButton.disabled = !this.scene;
    }
  }
}

/** Where shorthand gestures touch, for marking them on the canvas before the server expands them. */
function gestureEvents(gestures) {
  const events = [];
  for (const g of gestures) {
    const at = g.tap ?? g.doubleTap ?? g.longPress;
    if (at) {
      events.push({ t: 0, touches: [{ id: "T1", phase: "began", at }] }, { t: 0, touches: [{ id: "T1", phase: "ended", at }] });
    } else if (g.drag) {
      events.push({ t: 0, touches: [{ id: "T1", phase: "began", at: g.drag.from }] },
        { t: 0, touches: [{ id: "T1", phase: "ended", at: g.drag.to }] });
    }
  }
  return events;
}

