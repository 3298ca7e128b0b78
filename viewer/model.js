// What the viewer knows about one scene version's views, built once per version and shared by
// the canvas, the outline, the layered view and the list under a point: the geometry
// endpoint's placements, the tree they form, front-to-back order, and what only the scene
// document says (accessibility identifier, the dump's address, a pass-through hitTest).

export class SceneModel {
  /**
   * @param {object} geometry  GET /v1/scenes/{id}/geometry
   * @param {object} [sceneDocument] the scene document of the same version (GET /v1/scenes/{id}), or null
   */
  constructor(geometry, sceneDocument = null) {
    this.geometry = geometry;
    this.views = geometry.views;
    this.byId = new Map(this.views.map((v) => [v.id, v]));
    this.children = new Map(this.views.map((v) => [v.id, []]));
    for (const v of this.views) if (v.superview) this.children.get(v.superview)?.push(v.id);
    this.owner = new Map();   // recognizer and view controller ids → the view they belong to
    for (const v of this.views) {
      for (const r of v.recognizers) this.owner.set(r.id, v.id);
      if (v.viewController) this.owner.set(v.viewController.id, v.id);
    }
    this.document = sceneDocument;
    this.extras = documentExtras(sceneDocument);
    // Front-most first: windows front to back, and in a window the reverse of document order
    // (superviews first, subviews back to front), so a subview comes before its superview
    // and a later sibling's subtree before an earlier sibling.
    this.frontToBack = geometry.windows.slice().reverse().flatMap((w) =>
      this.views.filter((v) => v.window === w).reverse());
    this.order = new Map(this.frontToBack.map((v, i) => [v.id, i]));
  }

  get(id) {
    return this.byId.get(id) ?? null;
  }

  /** Document-only facts about view `id`: {accessibilityIdentifier, address, passThrough}. */
  extra(id) {
    return this.extras.get(id) ?? {};
  }

  /** The view an object stands for on the canvas: a view itself, a recognizer's view, a view controller's root view. */
  viewFor(id) {
    if (id == null) return null;
    if (this.byId.has(id)) return id;
    return this.owner.get(id) ?? null;
  }

  /** `id` and its superviews up to the window, window first. */
  path(id) {
    const out = [];
    for (let v = this.byId.get(id); v; v = v.superview ? this.byId.get(v.superview) : null) out.unshift(v.id);
    return out;
  }

  /** Every view whose rectangle on screen contains `p`, front-most first (containment only: whether hit-testing reaches them is the server's answer). */
  containing(p) {
    return this.frontToBack.filter((v) => v.quad && inside(v.quad, p));
  }

  /**
   * The view a click at `p` means: the front-most one drawn there (inside every clipping
   * superview) that can be seen and is not pass-through. Hidden and transparent views (and
   * what is inside them) and pass-through containers (an Appium capture's status bar window
   * covers the whole screen) are skipped; the list under the point still shows them.
   */
  visibleAt(p) {
    let fallback = null;
    for (const v of this.frontToBack) {
      if (!v.quad || !inside(v.quad, p)) continue;
      let clipped = false;
      for (let a = v.superview ? this.byId.get(v.superview) : null; a && !clipped; a = a.superview ? this.byId.get(a.superview) : null) {
        if (a.clipsToBounds && (!a.quad || !inside(a.quad, p))) clipped = true;
      }
      if (clipped) continue;
      fallback ??= v;
      if (!this.unseen(v) && !this.extra(v.id).passThrough) return v;
    }
    return fallback;
  }

  /** Whether `v` cannot be seen: it or a superview is hidden or has alpha < 0.01. */
  unseen(v) {
    for (let a = v; a; a = a.superview ? this.byId.get(a.superview) : null) {
      if (a.hidden || a.alpha < 0.01) return true;
    }
    return false;
  }

  /**
   * The part of `v`'s box [minX, minY, maxX, maxY] that is drawn: inside every superview
   * that clips (clipsToBounds); null when none of it is (a table's rows scrolled out of sight).
   */
  visibleBox(v) {
    if (!v?.quad) return null;
    let box = quadBox(v.quad);
    for (let a = v.superview ? this.byId.get(v.superview) : null; a; a = a.superview ? this.byId.get(a.superview) : null) {
      if (!a.clipsToBounds) continue;
      if (!a.quad) return null;
      const clip = quadBox(a.quad);
      box = [Math.max(box[0], clip[0]), Math.max(box[1], clip[1]), Math.min(box[2], clip[2]), Math.min(box[3], clip[3])];
      if (box[2] <= box[0] || box[3] <= box[1]) return null;
    }
    return box;
  }

  /** The nearest superview of `v` that clips it away entirely, or null. */
  clippedBy(v) {
    if (!v?.quad || this.visibleBox(v)) return null;
    let box = quadBox(v.quad);
    for (let a = v.superview ? this.byId.get(v.superview) : null; a; a = a.superview ? this.byId.get(a.superview) : null) {
      if (!a.clipsToBounds) continue;
      if (!a.quad) return a;
      const clip = quadBox(a.quad);
      box = [Math.max(box[0], clip[0]), Math.max(box[1], clip[1]), Math.min(box[2], clip[2]), Math.min(box[3], clip[3])];
      if (box[2] <= box[0] || box[3] <= box[1]) return a;
    }
    return null;
  }

  /** The text a search matches against: id, class, label, accessibility identifier, address, view controller. */
  searchText(v) {
    const extra = this.extra(v.id);
    return [v.id, v.class, v.base, v.label, extra.accessibilityIdentifier, extra.address,
      v.viewController?.id, v.viewController?.class].filter(Boolean).join("\n").toLowerCase();
  }

  /** Why hit-testing skips `v`, in words, or null: its own state, a pruned superview, or a pass-through override. */
  whyOutOfPlay(v) {
    if (!v.outOfPlay) return null;
    const by = v.outOfPlay.view === v.id ? "" : ` (inside ${v.outOfPlay.view})`;
    return `${v.outOfPlay.text}${by} [${v.outOfPlay.rule}]`;
  }
}

/** Id → {accessibilityIdentifier, address, passThrough} from the scene document's views. */
function documentExtras(sceneDocument) {
  const extras = new Map();
  const walk = (node) => {
    const extra = {};
    if (node.accessibilityIdentifier) extra.accessibilityIdentifier = node.accessibilityIdentifier;
    if (node.address) extra.address = node.address;
    if (node.overrides?.hitTest === "passThrough") extra.passThrough = true;
    if (Object.keys(extra).length) extras.set(node.id, extra);
    for (const child of node.subviews ?? []) walk(child);
  };
  for (const window of sceneDocument?.windows ?? []) walk(window);
  return extras;
}

/** Whether `p` is inside the convex quadrilateral `quad` (corners in order). */
export function inside(quad, p) {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const [ax, ay] = quad[i];
    const [bx, by] = quad[(i + 1) % 4];
    const cross = (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax);
    if (cross === 0) continue;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  // A quad of no area (a 0 × 0 frame) contains nothing.
  return sign !== 0;
}

/** The axis-aligned box [minX, minY, maxX, maxY] around a quad. */
export function quadBox(quad) {
  const xs = quad.map((p) => p[0]);
  const ys = quad.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** A long id shortened for a caption: the last component of a path-like id (`Window/Other/Button` → `Button`). */
export function shortName(id) {
  const slash = id.lastIndexOf("/");
  return slash >= 0 && slash < id.length - 1 ? id.slice(slash + 1) : id;
}
