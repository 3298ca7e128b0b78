// The inspector: the selected view's facts (class, frame, the properties that decide whether
// it takes touches, why hit-testing skips it), under the outline, and what-if toggles for it.

import { h, replace } from "./dom.js";
import { facts } from "./describe.js";

export class Inspector {
  /** `whatIfForm` (a WhatIfForm) adds the what-if toggles under the facts. */
  constructor(element, { whatIfForm = null } = {}) {
    this.element = element;
    this.whatIfForm = whatIfForm;
    this.clear();
  }

  clear() {
    replace(this.element, h("p", { class: "empty" }, "Select a view in the outline or on the canvas."));
  }

  /** Shows view `id` of `model` (a SceneModel), or the empty state. */
  show(model, id) {
    const v = id ? model?.get(id) : null;
    if (!v) {
      this.clear();
      return;
    }
    const clip = model.clippedBy(v);
    replace(this.element,
      h("h3", { class: "inspector-title", id: "inspector-title" }, v.id),
      clip ? h("p", { class: "note", id: "inspector-clipped" },
        `Not drawn: outside ${clip.id}, which clips its subviews (clipsToBounds). Hit-testing does not reach it there either (H6).`) : null,
      h("dl", { class: "fields", id: "inspector-fields" },
        facts(v, model.extra(v.id)).map(([k, value]) => [h("dt", {}, k), h("dd", {}, value)])),
      this.whatIfForm?.render(model, v));
  }
}
