// How trace entries, times and values read in the viewer: the same words as the service's text
// rendering (`?format=text`), so a line on screen can be found in a downloaded log.

/** Seconds on the virtual clock with millisecond precision, e.g. "0.120". */
export function time(t) {
  return Number.isFinite(t) ? t.toFixed(3) : "?";
}

/** A trace value as the text rendering prints it (YES/NO, (x, y), ids, {T1, T2}). */
export function value(v) {
  if (v === null || v === undefined) return "nil";
  if (typeof v === "boolean") return v ? "YES" : "NO";
  if (typeof v === "number") return String(v);
  if (typeof v === "string") return v;
  if (Array.isArray(v)) {
    if (v.length === 2 && v.every((n) => typeof n === "number")) return `(${v[0]}, ${v[1]})`;
    if (v.every((x) => x && typeof x === "object" && "phase" in x)) return `{${v.map((x) => x.id).join(", ")}}`;
    return `[${v.map((x) => (x && typeof x === "object" ? x.id : value(x))).join(", ")}]`;
  }
  if (typeof v === "object" && "id" in v) return v.id;
  return JSON.stringify(v);
}

/** The arguments worth a glance: the event id alone is noise unless it is the only one. */
function argumentText(args) {
  if (!args) return "";
  const names = Object.keys(args).filter((name) => name !== "event" || Object.keys(args).length === 1);
  return names.map((name) => value(args[name])).join(" ");
}

/** One entry without indentation: `buyButton -> touchesBegan:withEvent: {T1}  → YES`. */
export function entryText(e, names = "objc") {
  const receiver = e.receiver?.id ?? "?";
  if (e.kind === "state") {
    return `[state] ${receiver} .${e.from} → .${e.to} (${e.reason ?? ""})${e.discrete && e.to === "ended" ? " (discrete)" : ""}`;
  }
  if (e.kind === "marker") {
    return `[${e.marker ?? "marker"}]${e.receiver ? " " + receiver : ""}`;
  }
  const selector = names === "swift" && e.swift ? e.swift : e.selector;
  let text = `${receiver} -> ${selector}`;
  const args = argumentText(e.args);
  if (args) text += ` ${args}`;
  if (e.result !== undefined && e.result !== null) text += ` → ${value(e.result)}`;
  else if (e.selector === "hitTest:withEvent:") text += " → nil";
  return text;
}

/** "possible → began → changed ×2000 → ended → possible": repeated states counted, not listed. */
export function stateRuns(states) {
  const runs = [];
  for (const state of states) {
    const last = runs[runs.length - 1];
    if (last && last.state === state) last.count += 1;
    else runs.push({ state, count: 1 });
  }
  return runs.map((r) => (r.count > 1 ? `${r.state} ×${r.count}` : r.state)).join(" → ");
}

/** "2026-11-22T07:00:32.064Z" as local date and time to the second. */
export function when(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso ?? "";
  return date.toLocaleString(undefined, { dateStyle: "short", timeStyle: "medium" });
}

/** A point in screen coordinates, rounded for display. */
export function point(p) {
  return `(${round(p[0])}, ${round(p[1])})`;
}

export function round(n) {
  return Math.round(n * 10) / 10;
}

/** An outcome difference (compare, replay) in one line; state lists counted, not spelled out. */
export function differenceText(d) {
  if (/\.states$/.test(d.field)) {
    const states = (v) => (v == null ? "(none)" : stateRuns(String(v).split(", ")));
    return `${d.field}: ${states(d.before)} → ${states(d.after)}`;
  }
  return d.text;
}
