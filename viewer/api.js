// The service's own HTTP API (openapi.yaml), as the viewer uses it. Same origin only: the page
// is served by the service it talks to, so every path is relative to it.

import { authorizedFetch } from "./auth.js";

/** A failed call: the HTTP status and the RFC 9457 problem document when there is one. */
export class ApiError extends Error {
  constructor(status, problem, path) {
    super(problem?.detail ?? problem?.title ?? `HTTP ${status} from ${path}`);
    this.status = status;
    this.problem = problem;
    this.path = path;
  }
}

async function call(method, path, { json, body, contentType, headers: extra, blob = false } = {}) {
  const headers = { ...extra };
  if (json !== undefined) {
    body = JSON.stringify(json);
    contentType = "application/json";
  }
  if (contentType) headers["Content-Type"] = contentType;
  const response = await authorizedFetch(path, { method, headers, body });
  const type = response.headers.get("Content-Type") ?? "";
  if (!response.ok) {
    let problem = null;
    if (type.includes("json")) {
      try { problem = await response.json(); } catch { problem = null; }
    }
    throw new ApiError(response.status, problem, path);
  }
  if (response.status === 204) return null;
  if (blob) return response.blob();
  return type.includes("json") ? response.json() : response.text();
}

const enc = encodeURIComponent;
const versionQuery = (version) => (version ? `?version=${enc(version)}` : "");
const pageQuery = (cursor, limit) => {
  const parts = [];
  if (limit) parts.push(`limit=${enc(limit)}`);
  if (cursor) parts.push(`cursor=${enc(cursor)}`);
  return parts.length ? `?${parts.join("&")}` : "";
};

export const api = {
  scenes: (cursor, limit = 50) => call("GET", `/v1/scenes${pageQuery(cursor, limit)}`),
  scene: (id, version) => call("GET", `/v1/scenes/${enc(id)}${versionQuery(version)}`),
  versions: (id) => call("GET", `/v1/scenes/${enc(id)}/versions`),
  createScene: (document) => call("POST", "/v1/scenes", { body: document, contentType: "application/json" }),
  addVersion: (id, document) => call("PUT", `/v1/scenes/${enc(id)}`, { body: document, contentType: "application/json" }),
  /**
   * Every view's placement. The service pages a large scene's geometry (`nextCursor`, at most
   * its `--max-geometry-views` a page): the pages are read in turn and joined, so the page
   * always draws the whole scene.
   */
  geometry: async (id, version) => {
    const first = await call("GET", `/v1/scenes/${enc(id)}/geometry${versionQuery(version)}`);
    let page = first;
    while (page.nextCursor) {
      page = await call("GET", `/v1/scenes/${enc(id)}/geometry?version=${enc(first.sceneVersion)}&cursor=${enc(page.nextCursor)}`);
      first.views.push(...page.views);
    }
    delete first.nextCursor;
    return first;
  },
  dispatch: (id, body) => call("POST", `/v1/scenes/${enc(id)}/dispatch`, { json: body }),
  explain: (id, body) => call("POST", `/v1/scenes/${enc(id)}/explain`, { json: body }),
  hitTest: (id, body) => call("POST", `/v1/scenes/${enc(id)}/hit-test`, { json: body }),
  /**
   * A scene's name lives in its documents: renaming stores the latest version again with the
   * new name (a JSON Patch, PATCH /v1/scenes/{id}), as version latest+1. `latest` is the
   * version the rename is based on; a version stored meanwhile makes it a 409.
   */
  renameScene: (id, name, latest) => call("PATCH", `/v1/scenes/${enc(id)}`, {
    body: JSON.stringify([{ op: "add", path: "/name", value: name }]),
    contentType: "application/json-patch+json",
    headers: { "If-Match": `"${latest}"` },
  }),
  /**
   * A what-if edit: `patch` (a JSON Patch, RFC 6902) applied to version `base`, which must
   * still be the latest (If-Match; 409 otherwise), stored as version base+1.
   */
  patchScene: (id, patch, base) => call("PATCH", `/v1/scenes/${enc(id)}`, {
    body: JSON.stringify(patch),
    contentType: "application/json-patch+json",
    headers: { "If-Match": `"${base}"` },
  }),
  /** Deletes the scene with all its versions and runs. */
  deleteScene: (id) => call("DELETE", `/v1/scenes/${enc(id)}`),
  /** Attaches `file` (a PNG or JPEG File or Blob, sent under `mediaType`) to a version, replacing the one it had. */
  putScreenshot: (id, version, file, mediaType) => call("PUT", `/v1/scenes/${enc(id)}/versions/${enc(version)}/screenshot`,
    { body: file, contentType: mediaType }),
  /**
   * A version's screenshot (its `Screenshot` member) as a Blob: read through the API like every
   * other call (so with the same authorization), not by an image element's own request.
   */
  screenshotImage: (shot) => call("GET", shot.href, { blob: true }),
  deleteScreenshot: (id, version) => call("DELETE", `/v1/scenes/${enc(id)}/versions/${enc(version)}/screenshot`),
  /** Can every interactive element be tapped? (docs/audit.md) */
  audit: (id, version) => call("POST", `/v1/scenes/${enc(id)}/audit`, { json: { version } }),
  /** Why a stored run did what it did: `question` is {recognizer | action | view | firstResponder, expect?}. */
  why: (runId, question) => call("POST", `/v1/runs/${enc(runId)}/why`, { json: question }),
  runs: (id, cursor, limit = 20) => call("GET", `/v1/scenes/${enc(id)}/runs${pageQuery(cursor, limit)}`),
  run: (id) => call("GET", `/v1/runs/${enc(id)}`),
  compare: (a, b) => call("GET", `/v1/runs/${enc(a)}/compare/${enc(b)}`),
  replay: (id, from, to) => call("POST", `/v1/scenes/${enc(id)}/replay`, { json: { from, to } }),
  /** Contract §6: `POST /v1/import/recursive-description` (text) or `/v1/import/appium` (XML). */
  importDump: (format, text) => call("POST", `/v1/import/${format}?store=true`, {
    body: text,
    contentType: format === "appium" ? "application/xml" : "text/plain; charset=utf-8",
  }),
};

/** Paths the viewer links to rather than fetches (downloads). */
export const links = {
  chromeTrace: (runId) => `/v1/runs/${enc(runId)}?format=chrome`,
  text: (runId) => `/v1/runs/${enc(runId)}?format=text`,
  json: (runId) => `/v1/runs/${enc(runId)}`,
};
