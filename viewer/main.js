// The viewer's entry point: reads the deep link (`/?scene=ID[&version=N]`, `/?run=ID`,
// `/?compare=A,B`), loads what it names through the API, and keeps the address bar in step
// with what is shown so every view can be shared, reloaded and reached with Back. It also
// keeps one selected view in step across the canvas, the outline and the inspector, and
// tells the what-if path what is shown (version, open run, staged touches).

import { h, byId, replace, announce } from "./dom.js";
import { api } from "./api.js";
import { SceneModel } from "./model.js";
import { SceneCanvas } from "./canvas.js";
import { touchesFor } from "./gestures.js";
import { ScenesSidebar } from "./scenes.js";
import { SceneActions } from "./scene-actions.js";
import { RunView } from "./run.js";
import { TouchPanel } from "./touch.js";
import { ExplainPanel } from "./explain.js";
import { UnderPointPanel } from "./under-point.js";
import { HistoryPanel } from "./history.js";
import { CompareView } from "./compare.js";
import { Outline } from "./outline.js";
import { Inspector } from "./inspector.js";
import { Splitter } from "./layout.js";
import { Tabs } from "./tabs.js";
import { problemView } from "./problems.js";
import { ScreenshotUnderlay } from "./screenshot.js";
import { ScreenshotForm } from "./screenshot-form.js";
import { AuditOverlay } from "./audit-overlay.js";
import { WhatIf } from "./what-if.js";
import { WhatIfForm } from "./what-if-form.js";
import { WhyAnswers } from "./why.js";

const state = { sceneId: null, version: null, sceneName: null, model: null, versions: [], runId: null, run: null, selected: null };

/** One line each (the hint does not wrap: the canvas keeps the height). */
const HINTS = {
  inspect: "Click: select, list what is under the point. Drag: pan.",
  touch: "Click: tap. Hold: long press. Drag: drag. Then send.",
  explain: "Click a point to explain it (the first click picks the view).",
};

new Splitter(byId("split-left"), { variable: "--left", side: "left", min: 200, max: 520, initial: 280 });
const panelsSplitter = new Splitter(byId("split-right"), { variable: "--right", side: "right", min: 360, max: 1000, initial: 560 });
/** The canvas column never narrower than this (its toolbar), the panels never narrower than PANELS_MIN. */
const CANVAS_MIN = 380;
const PANELS_MIN = 420;
/** Pixels of the canvas column that are not the frame: two toolbar rows, the hint, padding. */
const CANVAS_CHROME = 130;

/**
 * The panels' width that leaves the canvas the room the scene needs: its shape at the frame's
 * height (a phone is narrow, an iPad in landscape wide), the panels the rest.
 */
function panelsWidth() {
  const stage = byId("stage");
  // The frame's height less what is above and below it (toolbar, hint, legend), estimated from
  // the stage rather than measured: the measurement would change with the width chosen here.
  const frame = stage.clientHeight - CANVAS_CHROME;
  const needed = frame * canvas.contentAspect() + 2 * 12 + 16;
  const canvasWidth = Math.max(CANVAS_MIN, Math.min(needed, stage.clientWidth - PANELS_MIN - 6));
  return stage.clientWidth - 6 - canvasWidth;
}

const canvas = new SceneCanvas(byId("canvas-frame"), {
  onGesture: (samples) => {
    const { kind, touches } = touchesFor(samples);
    touchPanel.propose(kind, touches);
    tabs.select("touch");
    byId("touch-send").focus();
    announce(`A ${kind} is ready to send: review it in the Touch panel.`);
  },
  onPick: (point) => {
    tabs.select("explain");
    explainPanel.pick(point, state.model?.visibleAt(point)?.id);
  },
  onSelect: (id, point) => {
    select(id, { from: "canvas" });
    if (point) {
      tabs.select("point");
      underPoint.pin(point);
    }
  },
  onPointer: (point) => underPoint.follow(point),
  onCamera: () => { byId("zoom-level").textContent = `${Math.round(canvas.view.scale * 100)}%`; },
});

const navigate = (params, { replaceState = false } = {}) => {
  const query = new URLSearchParams();
  if (params.compare) query.set("compare", params.compare);
  else if (params.run) query.set("run", params.run);
  else if (params.scene) {
    query.set("scene", params.scene);
    if (params.version) query.set("version", params.version);
  }
  const url = query.toString() ? `/?${query}` : "/";
  if (replaceState) history.replaceState(params, "", url);
  else history.pushState(params, "", url);
  return route(params.tab);
};

const sidebar = new ScenesSidebar({ navigate });
const sideTabs = new Tabs(byId("side-tabs"), { onChange: () => {} });
const outline = new Outline(byId("outline"), {
  onSelect: (id) => select(id, { from: "outline" }),
  onMatches: (ids) => canvas.mark(ids),
});
const whatIf = new WhatIf({
  context: () => ({
    sceneId: state.sceneId,
    version: state.version,
    latest: state.versions[state.versions.length - 1]?.version ?? state.version,
    run: state.runId ? state.run : null,
    staged: touchPanel.staged(),
  }),
  navigate: (params) => navigate(params),
  onCompared: (a, b, note) => compareView.expectNote(a, b, note),
  // The versions listed and the inspector's what-if say which version is the latest now.
  onStored: async () => {
    state.versions = (await api.versions(state.sceneId)).items;
    sidebar.setCurrent(state.sceneId, state.version, state.versions);
    sceneActions.setScene(state.sceneId, state.sceneName, state.versions);
    inspector.show(state.model, state.selected);
  },
});
const inspector = new Inspector(byId("inspector"), { whatIfForm: new WhatIfForm(whatIf) });
const screenshot = new ScreenshotUnderlay(canvas, {
  box: byId("screenshot-control"), slider: byId("screenshot-opacity"), value: byId("screenshot-opacity-value"), info: byId("screenshot-info"),
});
const screenshotForm = new ScreenshotForm(byId("screenshot-section"), { onChanged: () => reloadScene() });
const audit = new AuditOverlay(canvas, {
  toggle: byId("audit-toggle"), summary: byId("audit-summary"),
  onSelect: (id) => select(id, { from: "audit" }),
});
const sceneActions = new SceneActions(byId("scene-actions"), {
  onRenamed: async (id, version) => {
    await sidebar.load(null);
    await navigate({ scene: id, version });
  },
  onDeleted: async () => {
    await sidebar.load(null);
    await navigate({});
  },
});
const why = new WhyAnswers({
  whatIf,
  revealTrace: (seq) => { tabs.select("run"); runView.trace.reveal(seq); },
  document: () => state.model?.document ?? null,
});
const runView = new RunView(byId("panel-run"), { canvas, navigate, why, document: () => state.model?.document ?? null });
const touchPanel = new TouchPanel(byId("panel-touch"), { canvas, onStored: (runId) => navigate({ run: runId }) });
const explainPanel = new ExplainPanel(byId("panel-explain"), { canvas });
const underPoint = new UnderPointPanel(byId("panel-point"), { canvas, onSelect: (id) => select(id, { from: "point" }) });
const historyPanel = new HistoryPanel(byId("panel-history"), { navigate });
const compareView = new CompareView(byId("panel-compare"), { navigate });
const tabs = new Tabs(byId("tabs"), {
  onChange: (name) => {
    // The comparison needs the width; the canvas shows one scene and gives way.
    byId("stage").classList.toggle("wide", name === "compare");
    underPoint.active = name === "point";
  },
});

/** One view selected everywhere: `from` is where the selection was made (it is already shown there). */
function select(id, { from } = {}) {
  state.selected = state.model?.get(id) ? id : null;
  if (from !== "canvas") canvas.select(state.selected);
  else canvas.select(state.selected, { reveal: false });
  if (from !== "outline") outline.select(state.selected);
  inspector.show(state.model, state.selected);
}

for (const radio of document.querySelectorAll("input[name=canvas-mode]")) {
  radio.addEventListener("change", () => {
    canvas.setMode(radio.value);
    byId("canvas-hint").textContent = HINTS[radio.value];
    byId("canvas-hint").title = HINTS[radio.value];
    if (radio.value === "explain") tabs.select("explain");
  });
}
// The legend drops down over the canvas; Escape closes it and gives the focus back to its button.
byId("legend-box").addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || !byId("legend-box").open) return;
  byId("legend-box").open = false;
  byId("legend-box").querySelector("summary").focus();
});
byId("zoom-in").addEventListener("click", () => canvas.view.zoomBy(1.25));
byId("zoom-out").addEventListener("click", () => canvas.view.zoomBy(1 / 1.25));
byId("zoom-fit").addEventListener("click", () => canvas.view.fit());
byId("zoom-actual").addEventListener("click", () => canvas.view.actualSize());
byId("canvas-frame").addEventListener("keydown", (event) => {
  if (event.target !== byId("canvas-frame") || !canvas.model) return;
  if (event.key === "Escape" && underPoint.pinned) {
    event.preventDefault();
    underPoint.unpin();
  } else {
    canvas.view.key(event);
  }
});

const layersToggle = byId("layers-toggle");
const layerRange = byId("layer-range");
layersToggle.addEventListener("click", () => {
  const on = layersToggle.getAttribute("aria-pressed") !== "true";
  layersToggle.setAttribute("aria-pressed", String(on));
  byId("layer-stepper").hidden = !on;
  canvas.setLayered(on);
  // The planes are wider than the screen: the canvas takes the room they need.
  panelsSplitter.auto(panelsWidth);
  syncLayerStepper();
  announce(on ? `Layered view: ${canvas.layered.top + 1} layers, back to front.` : "Flat view.");
});
layerRange.addEventListener("input", () => {
  canvas.layered.show(Number(layerRange.value));
  describeLayer();
});

function syncLayerStepper() {
  layerRange.max = String(canvas.layered.top);
  layerRange.value = String(canvas.layered.shown);
  describeLayer();
}

function describeLayer() {
  const n = canvas.layered.shown;
  const ids = canvas.layered.viewsOn(n);
  const names = ids.slice(0, 3).join(", ") + (ids.length > 3 ? ` and ${ids.length - 3} more` : "");
  byId("layer-info").textContent = `0–${n} of ${canvas.layered.top} · top: ${names || "nothing"}`;
  layerRange.setAttribute("aria-valuetext", `Layers 0 to ${n} of ${canvas.layered.top}; layer ${n} holds ${names || "nothing"}`);
}

byId("home-link").addEventListener("click", (event) => { event.preventDefault(); navigate({}); });
window.addEventListener("popstate", () => route());

/** Loads scene `id` at `version` (latest when absent) unless it is what the canvas shows. */
async function showScene(id, version) {
  if (state.sceneId === id && state.version === version && state.model) return;
  const geometry = await api.geometry(id, version);
  const [stored, page] = await Promise.all([api.scene(id, geometry.sceneVersion), api.versions(id)]);
  const model = new SceneModel(geometry, stored.scene);
  const changed = state.sceneId !== id;
  Object.assign(state, { sceneId: id, version: geometry.sceneVersion, sceneName: geometry.name, model, versions: page.items, selected: null });
  document.getElementById("canvas-empty")?.remove();
  panelsSplitter.auto(panelsWidth);
  canvas.show(model);
  // The canvas has just emptied its layers: the screenshot and the audit are drawn again.
  screenshot.show(model, stored.screenshot);
  screenshotForm.setVersion(id, geometry.sceneVersion, stored.screenshot ?? null);
  audit.setScene(id, geometry.sceneVersion);
  outline.setModel(model);
  inspector.show(model, null);
  sidebar.setCurrent(id, geometry.sceneVersion, page.items);
  sceneActions.setScene(id, geometry.name, page.items);
  touchPanel.setScene(id, geometry.sceneVersion);
  explainPanel.setScene(id, geometry.sceneVersion, geometry);
  underPoint.setScene(id, geometry.sceneVersion, model);
  syncLayerStepper();
  if (changed) sideTabs.select("outline");
}

/** Nothing open: the canvas, outline and panels of a scene are emptied. */
function clearScene() {
  Object.assign(state, { sceneId: null, version: null, sceneName: null, model: null, versions: [], runId: null, run: null, selected: null });
  canvas.clear();
  screenshot.show(null, null);
  screenshotForm.setVersion(null);
  audit.setScene(null);
  outline.clear();
  inspector.clear();
  sidebar.setCurrent(null, null, []);
  sceneActions.setScene(null);
  touchPanel.setScene(null);
  explainPanel.setScene(null);
  underPoint.setScene(null, null, null);
  sideTabs.select("scenes");
}

function breadcrumbs(...parts) {
  replace(byId("breadcrumbs"), parts.filter(Boolean).map((part, i) => [i ? h("span", { class: "sep", "aria-hidden": "true" }, " › ") : null, part]));
}

const sceneCrumb = () => h("a", {
  href: `/?scene=${state.sceneId}&version=${state.version}`,
  onclick: (event) => { event.preventDefault(); navigate({ scene: state.sceneId, version: state.version }); },
}, `${state.sceneName ?? state.sceneId} v${state.version}`);

/** The shown scene read again (its screenshot or versions changed), the selection kept. */
async function reloadScene() {
  const selected = state.selected;
  state.model = null;
  await route();
  if (selected && state.model?.get(selected)) select(selected);
}

async function route(tab) {
  const query = new URLSearchParams(location.search);
  try {
    if (query.has("compare")) {
      const [a, b] = query.get("compare").split(",");
      breadcrumbs(`Compare ${a} with ${b}`);
      tabs.select("compare");
      document.title = `Compare ${a} · ${b} · TapTrace`;
      await compareView.show(a, b);
      announce(`Comparing ${a} with ${b}.`);
    } else if (query.has("run")) {
      const run = await api.run(query.get("run"));
      await showScene(run.sceneId, run.sceneVersion);
      state.runId = run.id;
      state.run = run;
      canvas.clearExplain();
      runView.show(run, state.sceneName);
      breadcrumbs(sceneCrumb(), run.id);
      document.title = `${run.id} · TapTrace`;
      tabs.select(tab ?? "run");
      await historyPanel.show(state.sceneId, state.sceneName, state.versions);
      announce(`Run ${run.id}: first responder ${run.result.firstResponder?.id ?? "none"}, ${run.result.actions.length} action(s), ${run.result.trace.length} trace entries.`);
    } else if (query.has("scene")) {
      const version = query.has("version") ? Number(query.get("version")) : undefined;
      await showScene(query.get("scene"), version);
      state.runId = null;
      state.run = null;
      canvas.clearRun();
      await historyPanel.show(state.sceneId, state.sceneName, state.versions);
      breadcrumbs(sceneCrumb());
      document.title = `${state.sceneName ?? state.sceneId} · TapTrace`;
      tabs.select(tab ?? (tabs.current === "run" || tabs.current === "compare" ? "touch" : tabs.current));
      announce(`Scene ${state.sceneName ?? state.sceneId}, version ${state.version}: ${state.model.views.length} views.`);
    } else {
      clearScene();
      breadcrumbs("Pick a scene");
      document.title = "TapTrace viewer";
    }
  } catch (error) {
    const panel = byId("panel-run");
    replace(panel, problemView(error, "Could not open this address"));
    tabs.select("run");
    announce(`Could not open this address: ${error.message}`);
  }
}

await sidebar.load(null);
await route();
document.body.dataset.ready = "true";
