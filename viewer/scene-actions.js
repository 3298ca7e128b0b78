// Renaming and deleting the open scene. A scene's name is its documents' `name`, so a rename
// stores the latest version again with the new name (PATCH with a JSON Patch, If-Match the
// latest version): a new version, said so on the button. Deleting removes every version and
// run (DELETE /v1/scenes/{id}) after a confirmation on the page.

import { h, replace, announce } from "./dom.js";
import { api } from "./api.js";
import { problemView } from "./problems.js";

export class SceneActions {
  /**
   * @param {HTMLElement} section  where the forms go
   * @param {object} callbacks  onRenamed(sceneId, version), onDeleted(sceneId)
   */
  constructor(section, { onRenamed, onDeleted }) {
    this.section = section;
    this.onRenamed = onRenamed;
    this.onDeleted = onDeleted;
    this.scene = null;
    this.name = h("input", { type: "text", id: "scene-name", required: true, autocomplete: "off", spellcheck: "false" });
    this.renameButton = h("button", { type: "submit", id: "scene-rename" }, "Rename");
    this.renameNote = h("p", { class: "hint", id: "scene-rename-note" });
    this.deleteButton = h("button", { type: "button", id: "scene-delete", class: "danger", onclick: () => this.confirmDelete(true) }, "Delete this scene…");
    this.confirm = h("div", { class: "confirm", id: "scene-delete-confirm", role: "alertdialog", "aria-labelledby": "scene-delete-question", hidden: true });
    this.message = h("div", { class: "message", id: "scene-actions-message", "aria-live": "polite" });
    replace(section,
      h("h2", { id: "scene-actions-heading" }, "This scene"),
      h("form", { class: "rename-form", onsubmit: (event) => { event.preventDefault(); this.rename(); } },
        h("label", { for: "scene-name" }, "Name"),
        h("div", { class: "inline-field" }, this.name, this.renameButton)),
      this.renameNote,
      this.deleteButton,
      this.confirm,
      this.message);
  }

  /** The open scene: `versions` is its version list, oldest first. */
  setScene(sceneId, name, versions) {
    const changed = this.scene?.id !== sceneId;
    this.scene = sceneId ? { id: sceneId, name, latest: versions[versions.length - 1]?.version ?? 1, count: versions.length } : null;
    this.section.hidden = !sceneId;
    if (!sceneId) return;
    this.name.value = name ?? "";
    this.renameNote.textContent = `A scene's name is part of its document: renaming stores version ${this.scene.latest + 1} `
      + `(version ${this.scene.latest} with the new name); earlier versions keep theirs.`;
    if (changed) {
      this.message.replaceChildren();
      this.confirmDelete(false);
    }
  }

  async rename() {
    const name = this.name.value.trim();
    if (!name) {
      replace(this.message, h("p", { class: "error", role: "alert" }, "Give the scene a name."));
      this.name.focus();
      return;
    }
    if (name === this.scene.name) {
      replace(this.message, h("p", {}, `The scene is already called “${name}”.`));
      return;
    }
    this.renameButton.disabled = true;
    try {
      const stored = await api.renameScene(this.scene.id, name, this.scene.latest);
      replace(this.message, h("p", { id: "scene-renamed" }, `Renamed to “${stored.name}”: version ${stored.version}.`));
      announce(`Scene renamed to ${stored.name} (version ${stored.version}).`);
      await this.onRenamed(stored.id, stored.version);
    } catch (error) {
      replace(this.message, problemView(error, "Not renamed"));
    } finally {
      this.renameButton.disabled = false;
    }
  }

  confirmDelete(show) {
    this.confirm.hidden = !show;
    this.deleteButton.hidden = show;
    if (!show) return;
    const label = this.scene.name ? `“${this.scene.name}”` : this.scene.id;
    const yes = h("button", { type: "button", id: "scene-delete-yes", class: "danger", onclick: () => this.delete() }, "Delete for good");
    replace(this.confirm,
      h("p", { id: "scene-delete-question" },
        `Delete ${label} with its ${this.scene.count} version${this.scene.count === 1 ? "" : "s"} and every run? This cannot be undone.`),
      h("div", { class: "button-row" }, yes,
        h("button", { type: "button", id: "scene-delete-no", onclick: () => { this.confirmDelete(false); this.deleteButton.focus(); } }, "Cancel")));
    yes.focus();
  }

  async delete() {
    const { id, name } = this.scene;
    try {
      await api.deleteScene(id);
      this.confirmDelete(false);
      announce(`Deleted ${name ?? id}.`);
      await this.onDeleted(id);
    } catch (error) {
      replace(this.message, problemView(error, "Not deleted"));
    }
  }
}
