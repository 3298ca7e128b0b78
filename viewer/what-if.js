// The what-if path (issue 33, item 8): an edit of the shown version, as a JSON Patch, is
// stored as a new version (PATCH /v1/scenes/{id}, If-Match the shown version, which must be
// the latest), the touches are run again on it, and the two runs are compared. The touches
// are the open run's (its stored request: touches and knobs) or, without a run, the ones
// staged in the Touch panel, which are first run on the shown version so there is a run to
// compare with. Without either, the new version is opened.

import { announce } from "./dom.js";
import { api } from "./api.js";

/** Run labels are at most 200 characters (StoredDispatchRequest.label). */
const LABEL = 200;

export class WhatIf {
  /**
   * @param {object} options
   *   context() → {sceneId, version, latest, run (GET /v1/runs/{id}, or null), staged (a
   *     touches document, or null)}: what is shown now
   *   navigate(params)  opens an address (main.js)
   *   onCompared(a, b, note)  the comparison of runs a and b is about to open, with what was changed
   *   onStored(version)  a version was stored (the page's list of versions is out of date)
   */
  constructor({ context, navigate, onCompared, onStored }) {
    this.context = context;
    this.navigate = navigate;
    this.onCompared = onCompared;
    this.onStored = onStored;
  }

  /**
   * What applying an edit would do now, for the page to say before it is done:
   * {ok, base, next, touches: "run" | "staged" | null, runId, text}.
   */
  plan() {
    const c = this.context();
    if (!c.sceneId) return { ok: false, text: "Open a scene first." };
    if (c.version !== c.latest) {
      return { ok: false, base: c.version, text: `What-if edits the latest version: this is v${c.version}, the latest is v${c.latest}.` };
    }
    const next = c.latest + 1;
    if (c.run && c.run.sceneVersion === c.version) {
      return { ok: true, base: c.version, next, touches: "run", runId: c.run.id,
        text: `Stores v${next} (v${c.version} with the change), runs ${c.run.id}'s touches on it and compares the two runs.` };
    }
    if (c.staged) {
      return { ok: true, base: c.version, next, touches: "staged",
        text: `Stores v${next} (v${c.version} with the change), runs the staged touches on v${c.version} and on v${next}, and compares.` };
    }
    return { ok: true, base: c.version, next, touches: null,
      text: `Stores v${next} (v${c.version} with the change) and opens it. Open a run or stage touches to have them run again and compared.` };
  }

  /**
   * Stores `patch` as a new version and runs the touches again; `label` says the change in
   * words (shown with the comparison and given to the new run). Resolves to {version,
   * before, after} (run ids, or null without touches); throws an ApiError or an Error.
   */
  async apply(patch, label, { predicted = null } = {}) {
    const c = this.context();
    const plan = this.plan();
    if (!plan.ok) throw new Error(plan.text);
    let request = null, before = null;
    if (plan.touches === "run") {
      request = { touches: c.run.request.touches, ...(c.run.request.knobs ? { knobs: c.run.request.knobs } : {}) };
      before = c.run.id;
    } else if (plan.touches === "staged") {
      request = { touches: c.staged };
      // The staged touches on the shown version first: the run to compare with.
      before = (await api.dispatch(c.sceneId, { ...request, version: c.version })).id;
    }
    const stored = await api.patchScene(c.sceneId, patch, c.version);
    announce(`Stored version ${stored.version}: ${label}.`);
    await this.onStored(stored.version);
    if (!request) {
      await this.navigate({ scene: c.sceneId, version: stored.version });
      return { version: stored.version, before: null, after: null };
    }
    const after = await api.dispatch(c.sceneId, { ...request, version: stored.version, label: `What if: ${label}`.slice(0, LABEL) });
    this.onCompared(before, after.id, { label, base: c.version, version: stored.version, predicted });
    await this.navigate({ compare: `${before},${after.id}` });
    return { version: stored.version, before, after: after.id };
  }
}
