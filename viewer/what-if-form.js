// The inspector's what-if (issue 33, item 8): toggles for the selected view's hidden and
// userInteractionEnabled, its alpha, and its frame (or its center, for a view the scene
// places by center), as they are in this version. The fields changed become a JSON Patch on
// the view's member of the scene document (the view's `pointer` from the geometry) and go
// the what-if path (what-if.js): a new version, the touches run again, the compare.

import { h, replace } from "./dom.js";
import { problemView } from "./problems.js";
import { resolve } from "./json-pointer.js";
import { geometryOps } from "./what-if-edits.js";
import { round } from "./format.js";

export class WhatIfForm {
  /** @param {WhatIf} whatIf  the what-if path */
  constructor(whatIf) {
    this.whatIf = whatIf;
  }

  /** The form for view `v` of `model` (whose `document` is the version's scene document), or null. */
  render(model, v) {
    const node = model.document && v.pointer ? resolve(model.document, v.pointer) : null;
    if (!node || node.id !== v.id) return null;
    const byCenter = !node.frame && Boolean(node.center);
    const geometry = byCenter ? node.center : (node.frame ?? v.frame);
    const names = byCenter ? ["x", "y"] : ["x", "y", "width", "height"];
    const check = (id, label, checked) => {
      const box = h("input", { type: "checkbox", id, checked });
      return [box, h("label", { for: id, class: "what-if-check" }, box, ` ${label}`)];
    };
    const [hidden, hiddenLabel] = check("what-if-hidden", "hidden", v.hidden);
    const [interaction, interactionLabel] = check("what-if-interaction", "userInteractionEnabled", v.userInteractionEnabled);
    const alpha = h("input", { type: "number", id: "what-if-alpha", min: 0, max: 1, step: 0.01, value: round(v.alpha), required: true });
    const member = byCenter ? "center" : "frame";
    const numbers = names.map((name, i) => h("input", {
      type: "number", id: `what-if-${member}-${name}`, step: "any", value: geometry[i], required: true,
    }));
    const numberFields = names.map((name, i) => [h("label", { for: numbers[i].id }, name), numbers[i]]);
    const submit = h("button", { type: "submit", id: "what-if-apply", disabled: true });
    const plan = h("p", { class: "hint", id: "what-if-plan" });
    const message = h("div", { class: "message", id: "what-if-message", "aria-live": "polite" });

    /** The edits made in the form, in words and as patch operations. */
    const edits = () => {
      const words = [], ops = [];
      const flag = (box, name, was) => {
        if (box.checked !== was) { words.push(`${name} = ${box.checked ? "YES" : "NO"}`); ops.push({ op: "add", path: `${v.pointer}/${name}`, value: box.checked }); }
      };
      flag(hidden, "hidden", v.hidden);
      flag(interaction, "userInteractionEnabled", v.userInteractionEnabled);
      const a = Number(alpha.value);
      if (alpha.value !== "" && Number.isFinite(a) && a !== round(v.alpha)) {
        words.push(`alpha = ${a}`);
        ops.push({ op: "add", path: `${v.pointer}/alpha`, value: a });
      }
      const values = numbers.map((n) => Number(n.value));
      if (values.every(Number.isFinite) && values.some((x, i) => x !== geometry[i])) {
        const member = byCenter ? "center" : "frame";
        words.push(`${member} = [${values.join(", ")}]`);
        ops.push(...geometryOps({ pointer: v.pointer, node }, member, values));
      }
      return { words, ops };
    };
    const sync = () => {
      const p = this.whatIf.plan();
      const { words } = edits();
      submit.disabled = !p.ok || words.length === 0;
      submit.textContent = p.ok ? (p.touches ? `Store v${p.next} and re-run` : `Store v${p.next}`) : "Store a new version";
      plan.textContent = words.length ? `${v.id}: ${words.join(", ")}. ${p.text}` : p.text;
    };
    const apply = async () => {
      const { words, ops } = edits();
      if (!ops.length) return;
      submit.disabled = true;
      replace(message, h("p", {}, "Storing the new version…"));
      try {
        const patch = [{ op: "test", path: `${v.pointer}/id`, value: v.id }, ...ops];
        await this.whatIf.apply(patch, `set ${v.id}: ${words.join(", ")}`);
        message.replaceChildren();
      } catch (error) {
        replace(message, problemView(error, "No what-if version"));
        sync();
      }
    };
    const form = h("form", { class: "what-if-form", oninput: sync, onchange: sync, onsubmit: (event) => { event.preventDefault(); apply(); } },
      h("div", { class: "what-if-flags" }, hiddenLabel, interactionLabel),
      h("div", { class: "what-if-row" }, h("label", { for: "what-if-alpha" }, "alpha"), alpha),
      h("fieldset", { class: "what-if-geometry" },
        h("legend", {}, byCenter ? "center (placed by its center)" : "frame (in its superview)"), numberFields),
      plan, submit, message);
    sync();
    return h("details", { class: "what-if", id: "what-if", open: true },
      h("summary", {}, "What if…"), form);
  }
}
