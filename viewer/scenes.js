// The sidebar: stored scenes and the current scene's versions; adding a scene document (a new
// scene or a new version) or a recursiveDescription / Appium dump through the import endpoints.

import { h, byId, replace } from "./dom.js";
import { api, ApiError } from "./api.js";
import { problemView, selectLine } from "./problems.js";
import { when } from "./format.js";
import { uploadScreenshot } from "./screenshot-form.js";

export class ScenesSidebar {
  constructor({ navigate }) {
    this.navigate = navigate;
    this.current = null;
    this.list = byId("scene-list");
    this.more = byId("scene-more");
    this.versionsSection = byId("versions-section");
    this.versionList = byId("version-list");
    this.form = byId("add-scene-form");
    this.text = byId("add-scene-text");
    this.file = byId("add-scene-file");
    this.image = byId("add-scene-image");
    this.message = byId("add-scene-message");
    this.versionButton = byId("add-scene-version");
    this.newButton = byId("add-scene-new");

    this.more.addEventListener("click", () => this.load(this.cursor));
    this.file.addEventListener("change", () => this.readFile());
    this.form.addEventListener("change", (event) => { if (event.target.name === "source") this.syncSource(); });
    this.form.addEventListener("submit", (event) => { event.preventDefault(); this.store(false); });
    this.versionButton.addEventListener("click", () => this.store(true));
    this.syncSource();
  }

  get source() {
    return this.form.querySelector("input[name=source]:checked").value;
  }

  syncSource() {
    const isScene = this.source === "scene";
    this.newButton.textContent = isScene ? "Store as a new scene" : "Import and store";
    this.versionButton.hidden = !isScene || !this.current;
    this.text.placeholder = {
      scene: '{"format": "taptrace/scene@1", "windows": [...]}',
      "recursive-description": "<UIWindow: 0x7f…; frame = (0 0; 390 844); …>\n   | <UIView: 0x7f…; frame = …>",
      appium: '<?xml version="1.0" encoding="UTF-8"?><AppiumAUT><XCUIElementTypeApplication …',
    }[this.source];
  }

  async readFile() {
    const file = this.file.files?.[0];
    if (!file) return;
    this.text.value = await file.text();
    if (/\.xml$/i.test(file.name)) this.form.querySelector("input[value=appium]").checked = true;
    else if (/\.json$/i.test(file.name)) this.form.querySelector("input[value=scene]").checked = true;
    this.syncSource();
  }

  async load(cursor) {
    try {
      const page = await api.scenes(cursor);
      if (!cursor) this.list.replaceChildren();
      if (!cursor && page.items.length === 0) this.list.append(h("li", { class: "empty" }, "No scenes stored yet: add one below."));
      for (const scene of page.items) {
        this.list.append(h("li", {},
          h("a", {
            href: `/?scene=${scene.id}`, "data-scene": scene.id,
            "aria-current": scene.id === this.current ? "page" : false,
            onclick: (event) => { event.preventDefault(); this.navigate({ scene: scene.id }); },
          }, h("span", { class: "scene-name" }, scene.name || scene.id),
          h("span", { class: "muted" }, ` v${scene.latestVersion} · ${when(scene.updatedAt)}`))));
      }
      this.cursor = page.nextCursor;
      this.more.hidden = !page.nextCursor;
    } catch (error) {
      replace(this.list, h("li", {}, problemView(error, "The scenes could not be listed")));
    }
  }

  /** Marks the current scene and lists its versions, `version` selected. */
  setCurrent(sceneId, version, versions) {
    this.current = sceneId;
    for (const link of this.list.querySelectorAll("a[data-scene]")) {
      if (link.dataset.scene === sceneId) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
    this.versionsSection.hidden = !sceneId;
    replace(this.versionList, (versions ?? []).slice().reverse().map((v) =>
      h("li", {}, h("a", {
        href: `/?scene=${sceneId}&version=${v.version}`,
        "aria-current": v.version === version ? "page" : false,
        onclick: (event) => { event.preventDefault(); this.navigate({ scene: sceneId, version: v.version }); },
      }, `v${v.version}`, h("span", { class: "muted" },
        ` ${v.counts.views} views${v.screenshot ? " · screenshot" : ""} · ${when(v.createdAt)}`)))));
    this.syncSource();
  }

  async store(asVersion) {
    const text = this.text.value;
    if (!text.trim()) {
      replace(this.message, h("p", { class: "error" }, "Paste a document or pick a file first."));
      return;
    }
    this.message.replaceChildren(h("p", {}, "Storing…"));
    try {
      if (this.source === "scene") {
        const stored = asVersion ? await api.addVersion(this.current, text) : await api.createScene(text);
        const image = await this.attachImage(stored.id, stored.version);
        replace(this.message, h("p", {}, `Stored ${stored.id} version ${stored.version}${image}.`));
        await this.load(null);
        this.navigate({ scene: stored.id, version: stored.version });
      } else {
        await this.importDump(text);
      }
    } catch (error) {
      this.showError(error);
    }
  }

  /**
   * The image picked beside the document, attached to the version just stored: " with its
   * screenshot (W × H px)", or "" when none was picked. A refused image does not undo the
   * scene: the error says the scene is stored without it.
   */
  async attachImage(sceneId, version) {
    const file = this.image.files?.[0];
    if (!file) return "";
    try {
      const shot = await uploadScreenshot(sceneId, version, file);
      this.image.value = "";
      return ` with its screenshot (${shot.width} × ${shot.height} px)`;
    } catch (error) {
      const why = error instanceof ApiError ? (error.problem?.detail ?? error.message) : error.message;
      return ` without its screenshot, which was refused: ${why}`;
    }
  }

  /**
   * The error under the form, scrolled into view; when it names a line (a dump or JSON that
   * does not parse), that line is selected in the text box.
   */
  showError(error) {
    const jump = (line, column) => selectLine(this.text, line, column);
    replace(this.message, problemView(error, "Not stored", { onLine: jump }));
    const line = error?.problem?.line;
    if (line) jump(line, error.problem.column ?? 1);
    this.message.scrollIntoView({ block: "nearest" });
  }

  /**
   * A dump goes through the import endpoint with `?store=true`. Whether the answer names the
   * stored scene or only carries the converted document, the scene ends up stored and shown;
   * the importer's warnings (what the dump did not say) are listed either way.
   */
  async importDump(text) {
    let answer;
    try {
      answer = await api.importDump(this.source, text);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        replace(this.message, h("p", { class: "error", role: "alert" },
          `This server has no import endpoint yet (POST /v1/import/${this.source} answered 404). `
          + "Convert the dump with `taptrace import` and paste the scene document instead."));
        return;
      }
      throw error;
    }
    const warnings = answer?.warnings ?? [];
    let id = storedSceneId(answer);
    let version = answer?.version ?? 1;
    if (!id && answer?.scene) {
      const stored = await api.createScene(JSON.stringify(answer.scene));
      id = stored.id;
      version = stored.version;
    }
    const image = id ? await this.attachImage(id, version) : "";
    replace(this.message,
      h("p", {}, id ? `Imported and stored as ${id}${image}.` : "Imported, but the answer named no scene."),
      warnings.length ? [h("p", {}, `${warnings.length} warning(s):`), h("ul", { class: "warnings" }, warnings.map((w) => h("li", {}, w)))] : null);
    if (id) {
      await this.load(null);
      this.navigate({ scene: id, version });
    }
  }
}

/** The scene id in an import answer that stored it, wherever the answer puts it. */
function storedSceneId(answer) {
  for (const candidate of [answer?.id, answer?.sceneId, answer?.stored?.id, answer?.stored?.sceneId]) {
    if (typeof candidate === "string" && candidate.startsWith("scn_")) return candidate;
  }
  return null;
}
