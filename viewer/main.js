// The viewer's entry point: reads the deep link (`/?scene=ID[&version=N]`, `/?run=ID`,
// `/?compare=A,B`), loads what it names through the API, and keeps the address bar in step
// with what is shown so every view can be shared, reloaded and reached with Back.

import { h, byId, replace, announce } from "./dom.js";
import { api } from "./api.js";
import { SceneCanvas } from "./canvas.js";
import { touchesFor } from "./gestures.js";
import { ScenesSidebar } from "./scenes.js";
import { RunView } from "./run.js";
import { TouchPanel } from "./touch.js";
import { ExplainPanel } from "./explain.js";
import { HistoryPanel } from "./history.js";
import { CompareView } from "./compare.js";
import { Tabs } from "./tabs.js";
import { problemView } from "./problems.js";

const state = { sceneId: null, version: null, sceneName: null, geometry: null, versions: [], runId: null };

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
    explainPanel.pick(point, canvas.viewAt(point)?.id);
  },
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
const runView = new RunView(byId("panel-run"), { canvas, navigate });
const touchPanel = new TouchPanel(byId("panel-touch"), { canvas, onStored: (runId) => navigate({ run: runId }) });
const explainPanel = new ExplainPanel(byId("panel-explain"), { canvas });
const historyPanel = new HistoryPanel(byId("panel-history"), { navigate });
const compareView = new CompareView(byId("panel-compare"), { navigate });
const tabs = new Tabs(byId("tabs"), {
  onChange: (name) => {
    // The comparison needs the width; the canvas shows one scene and gives way.
    byId("stage").classList.toggle("wide", name === "compare");
  },
});

for (const radio of document.querySelectorAll("input[name=canvas-mode]")) {
  radio.addEventListener("change", () => {
    canvas.setMode(radio.value);
    byId("canvas-hint").textContent = radio.value === "touch"
      ? "Click to tap, hold to long-press, drag to drag."
      : "Click a point to explain it; the first click also picks the view under it.";
    if (radio.value === "explain") tabs.select("explain");
  });
}
byId("home-link").addEventListener("click", (event) => { event.preventDefault(); navigate({}); });
window.addEventListener("popstate", () => route());

/** Loads scene `id` at `version` (latest when absent) unless it is what the canvas shows. */
async function showScene(id, version) {
  if (state.sceneId === id && state.version === version && state.geometry) return;
  const geometry = await api.geometry(id, version);
  const versions = (await api.versions(id)).items;
  Object.assign(state, { sceneId: id, version: geometry.sceneVersion, sceneName: geometry.name, geometry, versions });
  document.getElementById("canvas-empty")?.remove();
  canvas.show(geometry);
  sidebar.setCurrent(id, geometry.sceneVersion, versions);
  touchPanel.setScene(id, geometry.sceneVersion);
  explainPanel.setScene(id, geometry.sceneVersion, geometry);
}

function breadcrumbs(...parts) {
  replace(byId("breadcrumbs"), parts.filter(Boolean).map((part, i) => [i ? h("span", { class: "sep", "aria-hidden": "true" }, " › ") : null, part]));
}

const sceneCrumb = () => h("a", {
  href: `/?scene=${state.sceneId}&version=${state.version}`,
  onclick: (event) => { event.preventDefault(); navigate({ scene: state.sceneId, version: state.version }); },
}, `${state.sceneName ?? state.sceneId} v${state.version}`);

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
      canvas.clearRun();
      await historyPanel.show(state.sceneId, state.sceneName, state.versions);
      breadcrumbs(sceneCrumb());
      document.title = `${state.sceneName ?? state.sceneId} · TapTrace`;
      tabs.select(tab ?? (tabs.current === "run" || tabs.current === "compare" ? "touch" : tabs.current));
      announce(`Scene ${state.sceneName ?? state.sceneId}, version ${state.version}: ${state.geometry.views.length} views.`);
    } else {
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
