// A change the why API suggests ("what would change it"), made a JSON Patch on the scene
// document so it is one click from a what-if version. The answer gives each change in words
// (`edit`), written by the service from a fixed set of forms (Sources/TapTraceCore/Why/
// WhatIf+Candidates.swift); each form is one edit of the document, named by ids, which are
// found in the document here. A change that carries a `patch` of its own is used as it is.
//
// Every patch starts with a `test` of each edited object's id at its pointer, so a document
// that is not the one read here fails as a 422 instead of being edited in the wrong place. A
// form the page cannot write exactly (a view's gestureRecognizerShouldBegin override made
// where it had none, while other recognizers above it could be answered by its class: the
// words do not say those answers) is refused with the reason.

import { documentObjects, token } from "./json-pointer.js";

const VIEW_FLAGS = ["userInteractionEnabled", "hidden", "alpha", "enabled", "exclusiveTouch", "multipleTouchEnabled", "animating"];
const SCROLL_FLAGS = ["delaysContentTouches", "scrollEnabled", "canCancelContentTouches"];
const RECOGNIZER_FLAGS = ["enabled", "cancelsTouchesInView", "delaysTouchesBegan", "delaysTouchesEnded"];

/** Thrown for words the page cannot make a patch of; `message` says why. */
export class EditNotSupported extends Error {}

/**
 * The JSON Patch for `change` (a why answer's `changes[i]`) on `document` (the scene document
 * of the version the run used). Throws EditNotSupported.
 */
export function patchForChange(change, document) {
  if (Array.isArray(change.patch)) return change.patch;
  return patchForWords(change.edit, document);
}

/** The JSON Patch for the words of one change; a combined change's parts are joined by "; ". */
export function patchForWords(words, document) {
  const objects = documentObjects(document);
  const tests = new Map();
  const ops = [];
  for (const part of words.split("; ")) {
    const edit = parse(part.trim(), objects);
    for (const id of edit.objects) tests.set(objects.get(id).pointer, id);
    ops.push(...edit.ops);
  }
  return [...[...tests].map(([pointer, id]) => ({ op: "test", path: `${pointer}/id`, value: id })), ...ops];
}

/** One change in words → {objects: ids edited, ops}. */
function parse(words, objects) {
  const fail = (why) => { throw new EditNotSupported(why); };
  const find = (id, kinds) => {
    const found = objects.get(id);
    return found && kinds.includes(found.kind) ? found : null;
  };
  let m;

  // set ID.PROPERTY = VALUE (views, scroll views, recognizers) and the delegate and override forms.
  if ((m = /^set (.+) = (YES|NO|-?[0-9.]+)$/.exec(words))) {
    const [, left, valueText] = m;
    const value = valueText === "YES" ? true : valueText === "NO" ? false : Number(valueText);
    for (const property of VIEW_FLAGS) {
      const view = left.endsWith(`.${property}`) && find(left.slice(0, -property.length - 1), ["view"]);
      if (view) return { objects: [view.node.id], ops: [{ op: "add", path: `${view.pointer}/${property}`, value }] };
    }
    for (const property of SCROLL_FLAGS) {
      const view = left.endsWith(`.scrollView.${property}`) && find(left.slice(0, -property.length - 12), ["view"]);
      if (view) {
        const op = view.node.scrollView
          ? { op: "add", path: `${view.pointer}/scrollView/${property}`, value }
          : { op: "add", path: `${view.pointer}/scrollView`, value: { [property]: value } };
        return { objects: [view.node.id], ops: [op] };
      }
    }
    for (const property of RECOGNIZER_FLAGS) {
      const recognizer = left.endsWith(`.${property}`) && find(left.slice(0, -property.length - 1), ["recognizer"]);
      if (recognizer) return { objects: [recognizer.node.id], ops: [{ op: "add", path: `${recognizer.pointer}/${property}`, value }] };
    }
    const delegate = /^(.+)\.delegate\.(shouldBegin|shouldReceiveTouch)$/.exec(left);
    if (delegate) return delegateAnswer(delegate[1], delegate[2], value, null, find, fail);
    const override = /^(.+)\.overrides\.gestureRecognizerShouldBegin for (.+)$/.exec(left);
    if (override) return shouldBegin(override[1], override[2], value, objects, find, fail);
    fail(`“${words}” names no view or recognizer of this version's document.`);
  }
  // set R.delegate.shouldBegin = NO (D becomes its delegate), and shouldRecognizeSimultaneouslyWith += Y.
  if ((m = /^set (.+)\.delegate\.(shouldBegin|shouldReceiveTouch) = (YES|NO) \((.+) becomes its delegate\)$/.exec(words))) {
    return delegateAnswer(m[1], m[2], m[3] === "YES", m[4], find, fail);
  }
  if ((m = /^set (.+)\.delegate\.shouldRecognizeSimultaneouslyWith \+= (.+?)(?: \((.+) becomes its delegate\))?$/.exec(words))) {
    return simultaneous(m[1], m[2], m[3] ?? null, find, fail);
  }
  if ((m = /^(add|remove) (.+) (?:to|from) (.+)\.requireToFail$/.exec(words))) {
    const recognizer = find(m[3], ["recognizer"]) ?? fail(`${m[3]} is not a recognizer declared in this version's document.`);
    const list = recognizer.node.requireToFail;
    const path = `${recognizer.pointer}/requireToFail`;
    if (m[1] === "add") {
      return { objects: [m[3]], ops: [list ? { op: "add", path: `${path}/-`, value: m[2] } : { op: "add", path, value: [m[2]] }] };
    }
    const k = (list ?? []).indexOf(m[2]);
    if (k < 0) fail(`${m[3]}.requireToFail does not list ${m[2]}.`);
    return { objects: [m[3]], ops: [{ op: "remove", path: list.length === 1 ? path : `${path}/${k}` }] };
  }
  if ((m = /^remove (.+)\.overrides\.(hitTest|pointInside)(?: \(.*\))?$/.exec(words))) {
    const view = find(m[1], ["view"]) ?? fail(`${m[1]} is not a view of this version's document.`);
    const overrides = view.node.overrides ?? fail(`${m[1]} has no overrides.`);
    if (!(m[2] in overrides)) fail(`${m[1]} has no ${m[2]} override.`);
    // The service drops an overrides object left empty.
    const only = Object.keys(overrides).length === 1;
    return { objects: [m[1]], ops: [{ op: "remove", path: only ? `${view.pointer}/overrides` : `${view.pointer}/overrides/${m[2]}` }] };
  }
  if ((m = /^bring (.+) to the front of (.+)$/.exec(words))) {
    const view = find(m[1], ["view"]) ?? fail(`${m[1]} is not a view of this version's document.`);
    const superview = find(m[2], ["view"]) ?? fail(`${m[2]} is not a view of this version's document.`);
    if (view.ancestors[0] !== superview.pointer) fail(`${m[1]} is not a subview of ${m[2]}.`);
    return { objects: [m[1], m[2]], ops: [{ op: "move", from: view.pointer, path: `${superview.pointer}/subviews/-` }] };
  }
  if ((m = /^(?:move|resize) (.+) to contain \(.+\): (frame|center) = \[([-0-9., ]+)\]$/.exec(words))) {
    const view = find(m[1], ["view"]) ?? fail(`${m[1]} is not a view of this version's document.`);
    const numbers = m[3].split(",").map((x) => Number(x.trim()));
    if (numbers.some((n) => !Number.isFinite(n)) || numbers.length !== (m[2] === "frame" ? 4 : 2)) fail(`“${words}” gives no ${m[2]}.`);
    return { objects: [m[1]], ops: geometryOps(view, m[2], numbers) };
  }
  if ((m = /^add (.+) to (.+)\.implements$/.exec(words))) {
    const controller = find(m[2], ["viewController"]) ?? fail(`${m[2]} is not a view controller of this version's document.`);
    const list = controller.node.implements;
    const path = `${controller.pointer}/implements`;
    return {
      objects: [resolveViewId(controller, objects)],
      ops: [list ? { op: "add", path: `${path}/-`, value: m[1] } : { op: "add", path, value: [m[1]] }],
    };
  }
  fail(`The page cannot make “${words}” into an edit of the document.`);
}

/** The id of the view a view controller belongs to (its root view): the object the patch tests. */
function resolveViewId(controller, objects) {
  for (const [id, o] of objects) if (o.kind === "view" && o.pointer === controller.view) return id;
  return null;
}

/** A frame (with the bounds size following it when the view has bounds and no transform, as the service does) or a center. */
export function geometryOps(view, member, numbers) {
  const ops = [{ op: "add", path: `${view.pointer}/${member}`, value: numbers }];
  const { bounds, transform } = view.node;
  const identity = !transform || (transform[0] === 1 && transform[1] === 0 && transform[2] === 0 && transform[3] === 1 && transform[4] === 0 && transform[5] === 0);
  if (member === "frame" && bounds && identity) {
    ops.push({ op: "add", path: `${view.pointer}/bounds`, value: [bounds[0], bounds[1], numbers[2], numbers[3]] });
  }
  return ops;
}

function delegateAnswer(recognizerId, method, value, becomes, find, fail) {
  const recognizer = find(recognizerId, ["recognizer"]) ?? fail(`${recognizerId} is not a recognizer declared in this version's document.`);
  const path = `${recognizer.pointer}/delegate`;
  if (recognizer.node.delegate) return { objects: [recognizerId], ops: [{ op: "add", path: `${path}/${method}`, value }] };
  if (!becomes) fail(`${recognizerId} has no delegate, and the words do not say which object becomes it.`);
  return { objects: [recognizerId], ops: [{ op: "add", path, value: { id: becomes, [method]: value } }] };
}

function simultaneous(recognizerId, other, becomes, find, fail) {
  const recognizer = find(recognizerId, ["recognizer"]) ?? fail(`${recognizerId} is not a recognizer declared in this version's document.`);
  const delegate = recognizer.node.delegate;
  const path = `${recognizer.pointer}/delegate`;
  if (!delegate) {
    if (!becomes) fail(`${recognizerId} has no delegate, and the words do not say which object becomes it.`);
    return { objects: [recognizerId], ops: [{ op: "add", path, value: { id: becomes, shouldRecognizeSimultaneouslyWith: [other] } }] };
  }
  const list = delegate.shouldRecognizeSimultaneouslyWith;
  if (list === "all") fail(`${recognizerId}'s delegate already recognizes simultaneously with all.`);
  return {
    objects: [recognizerId],
    ops: [Array.isArray(list)
      ? { op: "add", path: `${path}/shouldRecognizeSimultaneouslyWith/-`, value: other }
      : { op: "add", path: `${path}/shouldRecognizeSimultaneouslyWith`, value: [other] }],
  };
}

/**
 * `set V.overrides.gestureRecognizerShouldBegin for R = X`. With an override in place the
 * answer for R is added to it. Without one, the service keeps the class's answers for the
 * other recognizers of V and its superviews (X2) beside R's; the words do not give them, so
 * the page writes the override only when there are none (no other recognizer is declared on
 * V or above it: a scroll view's built-in recognizers are pans and delays, never taps).
 */
function shouldBegin(viewId, recognizerId, answer, objects, find, fail) {
  const view = find(viewId, ["view"]) ?? fail(`${viewId} is not a view of this version's document.`);
  const current = view.node.overrides?.gestureRecognizerShouldBegin;
  const path = `${view.pointer}/overrides/gestureRecognizerShouldBegin`;
  if (current !== undefined) {
    if (typeof current === "boolean") return { objects: [viewId], ops: [{ op: "replace", path, value: { default: current, byRecognizer: { [recognizerId]: answer } } }] };
    const byRecognizer = `${path}/byRecognizer`;
    return {
      objects: [viewId],
      ops: [current.byRecognizer ? { op: "add", path: `${byRecognizer}/${token(recognizerId)}`, value: answer }
        : { op: "add", path: byRecognizer, value: { [recognizerId]: answer } }],
    };
  }
  const others = [];
  for (const [id, o] of objects) {
    if (o.kind === "recognizer" && id !== recognizerId && (o.view === view.pointer || view.ancestors.includes(o.view))) others.push(id);
  }
  if (others.length) {
    fail(`${viewId} has no gestureRecognizerShouldBegin override: the service's version keeps ${viewId}'s own answers `
      + `for ${others.join(", ")}, which its words do not give. Apply it with taptrace why --expect, or edit the scene.`);
  }
  const value = { default: true, byRecognizer: { [recognizerId]: answer } };
  return {
    objects: [viewId],
    ops: [view.node.overrides ? { op: "add", path, value } : { op: "add", path: `${view.pointer}/overrides`, value: { gestureRecognizerShouldBegin: value } }],
  };
}
