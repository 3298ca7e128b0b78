// UIKit's events other than touches (contract §2.1) as records of a touches document: a key
// typed in the Touch panel as the UIKey UIKit would report, a press of a remote's button, a
// shake and a remote-control event, each appended after what the document already holds.

/** The modifier flags in the contract's order, with the symbols the service's notes use. */
export const MODIFIERS = [
  { flag: "control", symbol: "⌃", name: "Control" },
  { flag: "alternate", symbol: "⌥", name: "Option" },
  { flag: "shift", symbol: "⇧", name: "Shift" },
  { flag: "command", symbol: "⌘", name: "Command" },
];
const FLAG_ORDER = ["alphaShift", "shift", "control", "alternate", "command", "numericPad"];

/** `UIPress.PressType`s other than `keyboard` (a press of a remote or game controller). */
export const PRESS_TYPES = ["select", "menu", "playPause", "upArrow", "downArrow", "leftArrow", "rightArrow", "pageUp", "pageDown"];

/** `UIEvent.EventSubtype`s of remote-control events. */
export const REMOTE_CONTROL_SUBTYPES = ["togglePlayPause", "play", "pause", "stop", "nextTrack", "previousTrack",
  "beginSeekingBackward", "endSeekingBackward", "beginSeekingForward", "endSeekingForward"];

/** How long a typed key is held, and a shake lasts (seconds). */
export const KEY_HOLD = 0.08;
export const SHAKE_LENGTH = 0.4;
/** New records start this long after the last one already in the document. */
export const GAP = 0.5;

const special = (characters, keyCode) => ({ characters, keyCode });
/** Named keys, by lower-cased name: UIKit's characters (the `UIKeyInput…` string where it has one) and HID usage. */
const NAMED = new Map([
  ["return", special("\r", "keyboardReturnOrEnter")], ["enter", special("\r", "keyboardReturnOrEnter")],
  ["escape", special("UIKeyInputEscape", "keyboardEscape")], ["esc", special("UIKeyInputEscape", "keyboardEscape")],
  ["tab", special("\t", "keyboardTab")],
  ["backspace", special("\b", "keyboardDeleteOrBackspace")],
  ["delete", special("UIKeyInputDelete", "keyboardDeleteForward")],
  ["space", special(" ", "keyboardSpacebar")],
  ["up", special("UIKeyInputUpArrow", "keyboardUpArrow")], ["uparrow", special("UIKeyInputUpArrow", "keyboardUpArrow")],
  ["down", special("UIKeyInputDownArrow", "keyboardDownArrow")], ["downarrow", special("UIKeyInputDownArrow", "keyboardDownArrow")],
  ["left", special("UIKeyInputLeftArrow", "keyboardLeftArrow")], ["leftarrow", special("UIKeyInputLeftArrow", "keyboardLeftArrow")],
  ["right", special("UIKeyInputRightArrow", "keyboardRightArrow")], ["rightarrow", special("UIKeyInputRightArrow", "keyboardRightArrow")],
  ["↑", special("UIKeyInputUpArrow", "keyboardUpArrow")], ["↓", special("UIKeyInputDownArrow", "keyboardDownArrow")],
  ["←", special("UIKeyInputLeftArrow", "keyboardLeftArrow")], ["→", special("UIKeyInputRightArrow", "keyboardRightArrow")],
  ["home", special("UIKeyInputHome", "keyboardHome")], ["end", special("UIKeyInputEnd", "keyboardEnd")],
  ["pageup", special("UIKeyInputPageUp", "keyboardPageUp")], ["pagedown", special("UIKeyInputPageDown", "keyboardPageDown")],
  ...Array.from({ length: 24 }, (_, i) => [`f${i + 1}`, special(`UIKeyInputF${i + 1}`, `keyboardF${i + 1}`)]),
]);
/** The names the key field suggests. */
export const KEY_NAMES = ["Return", "Escape", "Tab", "Backspace", "Delete", "Space", "Up", "Down", "Left", "Right",
  "Home", "End", "PageUp", "PageDown", ...Array.from({ length: 12 }, (_, i) => `F${i + 1}`)];

/** US-layout punctuation keys and their HID usages. */
const PUNCTUATION = new Map([
  ["-", "keyboardHyphen"], ["=", "keyboardEqualSign"], ["[", "keyboardOpenBracket"], ["]", "keyboardCloseBracket"],
  ["\\", "keyboardBackslash"], [";", "keyboardSemicolon"], ["'", "keyboardQuote"], ["`", "keyboardGraveAccentAndTilde"],
  [",", "keyboardComma"], [".", "keyboardPeriod"], ["/", "keyboardSlash"], [" ", "keyboardSpacebar"],
]);

/**
 * The UIKey for `text` (one character, or a named key such as Return, Escape, Up, F1) with the
 * modifier `flags` (`["command", "shift"]`): `{characters, charactersIgnoringModifiers, keyCode,
 * modifierFlags}`. A capital letter is that letter with Shift. Throws an Error that says what
 * it cannot read.
 */
export function keyFor(text, flags = []) {
  const modifiers = new Set(flags);
  let characters;
  let ignoring;
  let keyCode;
  const named = NAMED.get(text.trim().toLowerCase());
  if (text.length === 1 && (text === " " || !named)) {
    const c = text;
    const lower = c.toLowerCase();
    if (/^[a-z]$/.test(lower)) {
      if (c !== lower) modifiers.add("shift");
      keyCode = `keyboard${lower.toUpperCase()}`;
    } else if (/^[0-9]$/.test(c)) {
      keyCode = `keyboard${c}`;
    } else if (PUNCTUATION.has(c)) {
      keyCode = PUNCTUATION.get(c);
    } else {
      throw new Error(`"${c}" is not a key of a US keyboard: type a letter, a digit, punctuation or a key's name (Return, Escape, Up, F1…)`);
    }
    ignoring = lower;
    characters = modifiers.has("shift") ? lower.toUpperCase() : lower;
  } else if (named) {
    ignoring = characters = named.characters;
    keyCode = named.keyCode;
  } else if (!text.trim()) {
    throw new Error("Type a key first: a character, or a key's name (Return, Escape, Tab, Backspace, Up, F1…).");
  } else {
    throw new Error(`"${text.trim()}" is not a key: type one character, or a key's name (${KEY_NAMES.slice(0, 10).join(", ")}, F1…)`);
  }
  return {
    characters, charactersIgnoringModifiers: ignoring, keyCode,
    modifierFlags: FLAG_ORDER.filter((f) => modifiers.has(f)),
  };
}

/**
 * How a key reads, as in the service's notes: modifier symbols and the key's name (`⌘s`,
 * `⇧Tab`, `Escape`), or a plain character in quotes (`"a"`). `key` is a UIKey, or a
 * result's `charactersIgnoringModifiers` string with `flags` beside it.
 */
export function keyText(key, flags = key?.modifierFlags ?? []) {
  const c = typeof key === "string" ? key : key?.charactersIgnoringModifiers ?? "";
  const symbols = MODIFIERS.filter((m) => flags.includes(m.flag)).map((m) => m.symbol).join("");
  const name = { "\r": "Return", "\t": "Tab", "\b": "Backspace", " ": "Space", "": typeof key === "object" ? key?.keyCode ?? "?" : "(no character)" }[c]
    ?? (c.startsWith("UIKeyInput") ? c.slice("UIKeyInput".length) : c);
  if (!symbols && c.length === 1 && !"\r\t\b ".includes(c)) return `"${c}"`;
  return symbols + name;
}

const round3 = (n) => Math.round(n * 1000) / 1000;
const GESTURE_LENGTH = {
  tap: (g) => g.duration ?? 0.1,
  doubleTap: (g) => 0.1 + (g.interval ?? 0.1) + 0.1,
  longPress: (g) => g.duration ?? 0.8,
  drag: (g) => g.duration ?? 0.3,
};

/**
 * When the last record of a touches document happens (its explicit events, and its gestures as
 * the service lays them out: an untimed gesture 1 s after the one before it ends, docs/touches.md);
 * null for an empty document.
 */
export function documentEnd(touches) {
  let end = null;
  const later = (t) => { if (Number.isFinite(t) && (end === null || t > end)) end = t; };
  for (const e of touches.events ?? []) later(e.t);
  let previousEnd = null;
  for (const g of touches.gestures ?? []) {
    const kind = Object.keys(GESTURE_LENGTH).find((k) => k in g);
    if (!kind) continue;
    const start = g.t ?? (previousEnd === null ? 0 : previousEnd + 1);
    previousEnd = start + GESTURE_LENGTH[kind](g);
    later(previousEnd);
  }
  return end;
}

/** A fresh press id: P1, P2, … past every press id the document has. */
function nextPressId(touches) {
  let n = 0;
  for (const e of touches.events ?? []) {
    for (const p of e.presses ?? []) {
      const m = /^P(\d+)$/.exec(p.id);
      if (m) n = Math.max(n, Number(m[1]));
    }
  }
  return `P${n + 1}`;
}

/** A copy of `touches` (a touches document, or null for a new one) with `records` (relative times from 0) appended after its end. */
function appended(touches, records) {
  const doc = touches ? structuredClone(touches) : { format: "taptrace/touches@1" };
  doc.format ??= "taptrace/touches@1";
  const end = documentEnd(doc);
  const start = end === null ? 0 : round3(end + GAP);
  doc.events = [...(doc.events ?? []), ...records.map(({ t, ...record }) => ({ t: round3(start + t), ...record }))];
  return { touches: doc, start };
}

/**
 * `touches` with a press appended: `began`, then `ended` KEY_HOLD s later. `type` is
 * `keyboard` with `key` (a UIKey) or one of PRESS_TYPES. Returns `{touches, id, start}`.
 */
export function withPress(touches, type, key = null) {
  const id = nextPressId(touches ?? {});
  const press = (phase) => ({ id, phase, type, ...(type === "keyboard" ? { key } : {}) });
  const { touches: doc, start } = appended(touches, [
    { t: 0, presses: [press("began")] },
    { t: KEY_HOLD, presses: [press("ended")] },
  ]);
  return { touches: doc, id, start };
}

/** `touches` with a shake appended: `began`, then `ended` SHAKE_LENGTH s later. */
export function withShake(touches) {
  return appended(touches, [
    { t: 0, motion: { subtype: "shake", phase: "began" } },
    { t: SHAKE_LENGTH, motion: { subtype: "shake", phase: "ended" } },
  ]);
}

/** `touches` with one remote-control event appended. */
export function withRemoteControl(touches, subtype) {
  return appended(touches, [{ t: 0, remoteControl: { subtype } }]);
}
