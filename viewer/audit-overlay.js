// The audit on the canvas (issue 33, item 7): `POST /v1/scenes/{id}/audit` (docs/audit.md)
// hit-tests every interactive element at its centre as XCUITest's isHittable does. Elements
// that are not simply hittable, and targets smaller than 44 × 44 pt, get a badge at their
// centre (screen size, in the `audit` layer) and an outline; the badge's tooltip gives the
// status and the service's reasons, on hover and on keyboard focus (the badges are in the
// tab order, named by their reason), and a click or Enter selects the element.

import { h, s, replace, announce } from "./dom.js";
import { api } from "./api.js";
import { problemView } from "./problems.js";
import { point as pointText } from "./format.js";

/** What each status is called, its badge's glyph, and the class of the view's outline. */
const STATUS = {
  unreachable: { words: "unreachable: no point of it takes a tap", glyph: "✕", outline: "hl-audit-fail" },
  partlyReachable: { words: "partly reachable: its centre misses, part of it takes a tap", glyph: "!", outline: "hl-audit-part" },
  offscreen: { words: "below the fold: scrolling brings it into view", glyph: "↓", outline: "hl-audit-off" },
  small: { words: "a small target", glyph: "S", outline: "hl-audit-small" },
};

export class AuditOverlay {
  /**
   * @param {SceneCanvas} canvas
   * @param {object} options  toggle (the Audit button, aria-pressed), summary (where the counts
   *   go), onSelect(viewId)
   */
  constructor(canvas, { toggle, summary, onSelect }) {
    this.canvas = canvas;
    this.layer = canvas.layer("audit");
    this.toggle = toggle;
    this.summary = summary;
    this.onSelect = onSelect;
    this.scene = null;
    this.generation = 0;
    this.tip = h("div", { class: "tooltip audit-tip", role: "tooltip", id: "audit-tooltip", hidden: true });
    toggle.addEventListener("click", () => this.setOn(toggle.getAttribute("aria-pressed") !== "true"));
  }

  get on() {
    return this.toggle.getAttribute("aria-pressed") === "true";
  }

  setOn(on) {
    this.toggle.setAttribute("aria-pressed", String(on));
    if (on) this.run();
    else this.clear();
  }

  /** The scene shown (the canvas has just drawn it, so the layer is empty): audited again when on. */
  setScene(sceneId, version) {
    this.scene = sceneId ? { id: sceneId, version } : null;
    this.toggle.disabled = !sceneId;
    if (this.on && sceneId) this.run();
    else this.clear({ keepPressed: true });
  }

  clear({ keepPressed = false } = {}) {
    this.generation++;
    this.layer.replaceChildren();
    this.canvas.setClass("hl-audit-fail", []);
    this.canvas.setClass("hl-audit-part", []);
    this.canvas.setClass("hl-audit-off", []);
    this.canvas.setClass("hl-audit-small", []);
    this.tip.hidden = true;
    this.summary.hidden = true;
    this.summary.replaceChildren();
    if (!keepPressed) this.toggle.setAttribute("aria-pressed", "false");
  }

  async run() {
    if (!this.scene) return;
    const generation = ++this.generation;
    const { id, version } = this.scene;
    this.summary.hidden = false;
    replace(this.summary, `Auditing v${version}…`);
    let audit;
    try {
      audit = await api.audit(id, version);
    } catch (error) {
      if (generation === this.generation) replace(this.summary, problemView(error, "No audit"));
      return;
    }
    if (generation !== this.generation || this.scene?.id !== id || this.scene?.version !== version) return;
    this.draw(audit);
  }

  draw(audit) {
    if (!this.tip.isConnected) this.canvas.frame.append(this.tip);
    const flagged = audit.elements.filter((e) => e.status !== "hittable" || e.smallTarget);
    const outlines = { "hl-audit-fail": [], "hl-audit-part": [], "hl-audit-off": [], "hl-audit-small": [] };
    const badges = [];
    for (const element of flagged) {
      const status = element.status === "hittable" ? "small" : element.status;
      const view = this.canvas.model?.get(element.id);
      if (view) {
        outlines[STATUS[status].outline].push(element.id);
        if (element.smallTarget && status !== "small") outlines["hl-audit-small"].push(element.id);
      }
      badges.push(this.badge(element, status));
    }
    for (const [cls, ids] of Object.entries(outlines)) this.canvas.setClass(cls, ids);
    this.layer.replaceChildren(...badges);
    const counts = [`${audit.unreachable} unreachable`, `${audit.partlyReachable} partly reachable`,
      `${audit.offscreen} below the fold`, `${audit.small} smaller than 44 × 44 pt`];
    const sentence = `Audit of v${audit.sceneVersion}, ${audit.count} interactive element${audit.count === 1 ? "" : "s"}: ${counts.join(", ")}.`;
    replace(this.summary,
      h("span", { id: "audit-counts", class: audit.unreachable ? "audit-bad" : "" }, sentence), " ",
      h("span", { class: "audit-key" }, flagged.length
        ? "✕ unreachable, ! partly, ↓ below the fold, S small: hover or Tab to a badge for why."
        : "Nothing to mark."));
    announce(sentence);
  }

  /** A badge at the element's centre, focusable, named by its reason. */
  badge(element, status) {
    const { glyph } = STATUS[status];
    const text = describe(element, status);
    const mark = this.canvas.marker(element.point[0], element.point[1],
      s("circle", { class: "audit-ring", r: 14 }),
      s("circle", { class: "audit-disc", r: 10 }),
      s("text", { class: "audit-glyph", x: 0, y: 0.5, "text-anchor": "middle", "dominant-baseline": "central" }, glyph));
    mark.classList.add("audit-badge", `audit-${status}`);
    Object.assign(mark.dataset, { id: element.id, ownTooltip: "true", status });
    mark.setAttribute("tabindex", "0");
    mark.setAttribute("role", "button");
    mark.setAttribute("aria-label", text.label);
    mark.setAttribute("aria-describedby", "audit-tooltip");
    const show = () => this.showTip(mark, element, status, text);
    const hide = () => { if (document.activeElement !== mark) this.tip.hidden = true; };
    mark.addEventListener("pointerenter", show);
    mark.addEventListener("focus", show);
    mark.addEventListener("pointerleave", hide);
    mark.addEventListener("blur", () => { this.tip.hidden = true; });
    mark.addEventListener("click", (event) => {
      event.stopPropagation();
      this.onSelect(element.id);
    });
    mark.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
      event.stopPropagation();
      this.onSelect(element.id);
      mark.focus();
    });
    return mark;
  }

  showTip(mark, element, status, text) {
    // The view under the pointer is not what the badge is about.
    this.canvas.tooltip.hidden = true;
    replace(this.tip,
      h("strong", {}, element.id), ` ${element.class}`,
      h("p", { class: "audit-tip-status" }, text.status),
      element.reasons.length ? h("ol", { class: "audit-reasons" }, element.reasons.map((r) =>
        h("li", {}, h("span", { class: "rule" }, r.rule), " ", r.text))) : null,
      element.smallTarget ? h("p", {}, `${size(element)} on screen: smaller than 44 × 44 pt (Apple's guidelines).`) : null,
      element.reachablePoint ? h("p", {}, `A tap at ${pointText(element.reachablePoint)} reaches it.`) : null);
    this.tip.hidden = false;
    const frame = this.canvas.frame.getBoundingClientRect();
    const box = mark.getBoundingClientRect();
    const left = Math.min(box.right - frame.left + 6, frame.width - this.tip.offsetWidth - 4);
    let top = box.bottom - frame.top + 6;
    if (top + this.tip.offsetHeight > frame.height - 4) top = Math.max(4, box.top - frame.top - this.tip.offsetHeight - 6);
    this.tip.style.left = `${Math.max(4, left)}px`;
    this.tip.style.top = `${top}px`;
  }
}

/** {status, label}: the status in words, and the badge's accessible name (status and the deciding reason). */
function describe(element, status) {
  const words = status === "small" ? `${STATUS.small.words} (${size(element)})` : STATUS[status].words;
  const centre = element.hitTestView && element.hitTestView.id !== element.id && status !== "small"
    ? `; its centre ${pointText(element.point)} goes to ${element.hitTestView.id}` : "";
  const statusText = `${words}${centre}${element.smallTarget && status !== "small" ? `; also a small target (${size(element)})` : ""}.`;
  const first = element.reasons[0];
  return {
    status: statusText[0].toUpperCase() + statusText.slice(1),
    label: `${element.id}: ${statusText}${first ? ` ${first.rule}: ${first.text}` : ""}`,
  };
}

function size(element) {
  return `${element.size[0]} × ${element.size[1]} pt`;
}
