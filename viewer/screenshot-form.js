// Attaching, replacing and removing the shown version's screenshot (PUT / DELETE
// /v1/scenes/{id}/versions/{n}/screenshot), in the sidebar; and the upload the add-a-scene
// form uses for the image picked beside a dump. The service takes PNG and JPEG, sent under
// their media type: the type is read from the file's first bytes, so a file without a type
// (or with a wrong one) is sent as what it is, and anything else is refused here with a
// clear message instead of a 415.

import { h, replace, announce } from "./dom.js";
import { api } from "./api.js";
import { screenshotURL } from "./screenshot-image.js";
import { problemView } from "./problems.js";

/** image/png or image/jpeg from the magic bytes of `file`, or null. */
export async function imageType(file) {
  const head = new Uint8Array(await file.slice(0, 8).arrayBuffer());
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (png.every((b, i) => head[i] === b)) return "image/png";
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "image/jpeg";
  return null;
}

/** Attaches `file` to version `version` of scene `sceneId`; throws an Error a person can read. */
export async function uploadScreenshot(sceneId, version, file) {
  const type = await imageType(file);
  if (!type) throw new Error(`${file.name || "The file"} is not a PNG or JPEG image (its first bytes say otherwise).`);
  return api.putScreenshot(sceneId, version, file, type);
}

export class ScreenshotForm {
  /**
   * @param {HTMLElement} section  where the form goes
   * @param {object} callbacks  onChanged(sceneId, version): the screenshot was stored or removed
   */
  constructor(section, { onChanged }) {
    this.section = section;
    this.onChanged = onChanged;
    this.scene = null;
    this.file = h("input", { type: "file", id: "screenshot-file", accept: "image/png,image/jpeg,.png,.jpg,.jpeg" });
    this.fileLabel = h("label", { for: "screenshot-file" });
    this.attachButton = h("button", { type: "submit", id: "screenshot-attach" });
    this.removeButton = h("button", { type: "button", id: "screenshot-remove", class: "danger", onclick: () => this.remove() }, "Remove the screenshot");
    this.heading = h("h2", { id: "screenshot-heading" });
    this.summary = h("div", { id: "screenshot-summary", class: "screenshot-summary" });
    this.message = h("div", { class: "message", id: "screenshot-message", "aria-live": "polite" });
    replace(section,
      this.heading,
      this.summary,
      h("form", { class: "screenshot-form", onsubmit: (event) => { event.preventDefault(); this.attach(); } },
        this.fileLabel, this.file,
        h("div", { class: "button-row" }, this.attachButton, this.removeButton)),
      this.message);
  }

  /** The shown version and its screenshot (null: none). */
  setVersion(sceneId, version, shot) {
    const changed = this.scene?.id !== sceneId || this.scene?.version !== version;
    this.scene = sceneId ? { id: sceneId, version, shot } : null;
    this.section.hidden = !sceneId;
    if (!sceneId) return;
    this.heading.textContent = `Screenshot of v${version}`;
    if (shot) {
      const thumb = h("img", { class: "screenshot-thumb", alt: `The screenshot of version ${version}` });
      screenshotURL(shot).then((url) => { thumb.src = url; }, () => { thumb.alt = "The screenshot could not be read."; });
      replace(this.summary,
        thumb,
        h("p", { class: "hint" }, `${shot.width} × ${shot.height} px ${shot.mediaType === "image/png" ? "PNG" : "JPEG"}, `
          + `${kilobytes(shot.bytes)}; drawn under the boxes (the opacity is beside the zoom).`));
    } else {
      replace(this.summary, h("p", { class: "hint" },
        "None. Attach the screen's PNG or JPEG: it is drawn under the boxes, scaled to the screen."));
    }
    this.fileLabel.textContent = shot ? "Replace it with (PNG or JPEG)" : "Image (PNG or JPEG)";
    this.attachButton.textContent = shot ? "Replace" : "Attach";
    this.removeButton.hidden = !shot;
    if (changed) {
      this.message.replaceChildren();
      this.file.value = "";
    }
  }

  async attach() {
    const file = this.file.files?.[0];
    if (!file) {
      replace(this.message, h("p", { class: "error", role: "alert" }, "Pick an image first."));
      this.file.focus();
      return;
    }
    const { id, version } = this.scene;
    this.attachButton.disabled = true;
    try {
      const stored = await uploadScreenshot(id, version, file);
      this.file.value = "";
      replace(this.message, h("p", { id: "screenshot-stored" }, `Stored: ${stored.width} × ${stored.height} px on v${version}.`));
      announce(`Screenshot attached to version ${version}.`);
      await this.onChanged(id, version);
    } catch (error) {
      replace(this.message, problemView(error, "Not attached"));
    } finally {
      this.attachButton.disabled = false;
    }
  }

  async remove() {
    const { id, version } = this.scene;
    try {
      await api.deleteScreenshot(id, version);
      replace(this.message, h("p", {}, `Removed the screenshot of v${version}.`));
      announce(`Screenshot of version ${version} removed.`);
      await this.onChanged(id, version);
    } catch (error) {
      replace(this.message, problemView(error, "Not removed"));
    }
  }
}

function kilobytes(bytes) {
  return bytes < 1024 ? `${bytes} bytes` : `${Math.round(bytes / 102.4) / 10} kB`;
}
