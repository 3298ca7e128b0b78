// The version's screenshot under the boxes (issue 33, item 5): an `<image>` in the canvas's
// `screenshot` layer, under the views, at the scene's screen rectangle. The image is in pixels
// and the scene in points, so it is scaled to the screen (a 1170 × 2532 px capture of a
// 390 × 844 pt screen is drawn at 1/3); an image of another shape is fitted inside the screen,
// top-aligned, and the page says so. An opacity slider (kept across reloads) fades it.

import { s } from "./dom.js";
import { screenshotURL } from "./screenshot-image.js";

/** Shapes that differ by less than this (relative) are the same shape: the image fills the screen. */
const SAME_SHAPE = 0.02;
const STORED = "taptrace.viewer.screenshot-opacity";

export class ScreenshotUnderlay {
  /**
   * @param {SceneCanvas} canvas
   * @param {object} controls  {box, slider, value, info}: the slider's container, the range
   *   input, its output and the text that says how the image is placed
   */
  constructor(canvas, { box, slider, value, info }) {
    this.canvas = canvas;
    this.layer = canvas.layer("screenshot", { under: true });
    Object.assign(this, { box, slider, value, info });
    let stored = null;
    try { stored = localStorage.getItem(STORED); } catch { stored = null; }
    if (stored !== null && Number.isFinite(Number(stored))) slider.value = stored;
    slider.addEventListener("input", () => {
      this.applyOpacity();
      try { localStorage.setItem(STORED, slider.value); } catch { /* private mode: not kept */ }
    });
    this.applyOpacity();
    this.shot = null;
    this.generation = 0;
  }

  /** Draws `shot` (a version's `screenshot` member, or null) under `model`'s views. */
  show(model, shot) {
    this.shot = shot ?? null;
    const generation = ++this.generation;
    this.layer.replaceChildren();
    this.canvas.svg.classList.toggle("has-screenshot", Boolean(shot));
    this.box.hidden = !shot;
    if (!shot || !model) {
      this.info.textContent = "";
      this.info.hidden = true;
      return;
    }
    const [x, y, width, height] = model.geometry.screen ?? [0, 0, shot.width, shot.height];
    const placement = placeImage(shot, [x, y, width, height]);
    // The slider is described by the sentence either way; it is shown when the image is not
    // the screen's shape, which the picture alone does not make plain.
    this.info.textContent = placement.text;
    this.info.hidden = placement.fills;
    this.applyOpacity();
    screenshotURL(shot).then((url) => {
      // Another version (or none) may be shown by now.
      if (generation !== this.generation) return;
      this.layer.replaceChildren(s("image", {
        class: "screenshot", href: url, x, y, width, height,
        preserveAspectRatio: placement.fills ? "none" : "xMidYMin meet",
        "data-sha256": shot.sha256, "data-width": shot.width, "data-height": shot.height,
      }));
    }, (error) => {
      if (generation !== this.generation) return;
      this.info.textContent = `The screenshot could not be read: ${error.message}`;
      this.info.hidden = false;
    });
  }

  applyOpacity() {
    const percent = Number(this.slider.value);
    this.value.textContent = `${percent}%`;
    this.slider.setAttribute("aria-valuetext", `${percent}% opaque`);
    this.layer.setAttribute("opacity", String(percent / 100));
  }
}

/**
 * How an image of `shot.width` × `shot.height` pixels goes on the screen rectangle (points):
 * `{fills, scale, text}` — whether it fills the screen exactly (same shape), the pixels per
 * point, and a sentence saying so.
 */
export function placeImage(shot, [, , width, height]) {
  const imageShape = shot.width / shot.height;
  const screenShape = width / Math.max(height, 1e-9);
  const fills = Math.abs(imageShape / screenShape - 1) < SAME_SHAPE;
  // Fitted inside (`meet`), the side that reaches the screen's edge decides the scale.
  const scale = fills ? shot.width / width : Math.max(shot.width / width, shot.height / height);
  const size = `${shot.width} × ${shot.height} px`;
  const screen = `${round(width)} × ${round(height)} pt`;
  const text = fills
    ? `Screenshot ${size} drawn on the ${screen} screen (${round(scale)} px a point).`
    : `Screenshot ${size} is not the shape of the ${screen} screen: fitted inside it, top-aligned.`;
  return { fills, scale, text };
}

function round(n) {
  return Math.round(n * 100) / 100;
}
