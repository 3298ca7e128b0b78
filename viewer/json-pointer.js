// JSON pointers (RFC 6901) into a scene document, and where each object of the document is:
// the service names a view by its pointer (`GET …/geometry`), a JSON Patch edits by pointer,
// and the page finds recognizers and view controllers by id.

/** A reference token: `~` as `~0`, `/` as `~1`. */
export function token(text) {
  return String(text).replace(/~/g, "~0").replace(/\//g, "~1");
}

/** The value at `pointer` in `document`, or undefined. */
export function resolve(document, pointer) {
  if (pointer === "") return document;
  let value = document;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (value === null || typeof value !== "object" || !(key in value)) return undefined;
    value = value[key];
  }
  return value;
}

/**
 * Every object of a scene document with an id, by id: `{kind, pointer, node, view}` where
 * kind is `view`, `recognizer` or `viewController`, `view` the pointer of the view it belongs
 * to (itself for a view), and `ancestors` the pointers of its superviews, nearest first.
 */
export function documentObjects(document) {
  const objects = new Map();
  const walk = (node, pointer, ancestors) => {
    objects.set(node.id, { kind: "view", pointer, node, view: pointer, ancestors });
    (node.gestureRecognizers ?? []).forEach((r, k) => {
      objects.set(r.id, { kind: "recognizer", pointer: `${pointer}/gestureRecognizers/${k}`, node: r, view: pointer, ancestors });
    });
    if (node.viewController?.id) {
      objects.set(node.viewController.id, { kind: "viewController", pointer: `${pointer}/viewController`, node: node.viewController, view: pointer, ancestors });
    }
    (node.subviews ?? []).forEach((child, k) => walk(child, `${pointer}/subviews/${k}`, [pointer, ...ancestors]));
  };
  (document?.windows ?? []).forEach((w, k) => walk(w, `/windows/${k}`, []));
  return objects;
}
