// A failed call as the user reads it: the problem's title and detail, and every validation
// issue with the JSON pointer of the value at fault; a problem with a line and column (a dump
// or JSON that does not parse) offers to select that line in the text it came from.

import { h } from "./dom.js";
import { ApiError } from "./api.js";

/**
 * The error as an alert. `onLine(line, column)`, when given, is offered as a "Go to line"
 * button for a problem that names a line.
 */
export function problemView(error, what, { onLine } = {}) {
  if (!(error instanceof ApiError)) {
    return h("div", { class: "error", role: "alert" }, h("p", {}, `${what}: ${error.message}`));
  }
  const problem = error.problem ?? {};
  const issues = problem.errors ?? [];
  return h("div", { class: "error", role: "alert" },
    h("p", {}, h("strong", {}, `${what}: `), `${problem.title ?? `HTTP ${error.status}`}. ${problem.detail ?? ""}`),
    problem.line ? h("p", {}, `Line ${problem.line}, column ${problem.column ?? "?"}.`,
      onLine ? [" ", h("button", { type: "button", class: "link-button problem-line", onclick: () => onLine(problem.line, problem.column ?? 1) },
        `Go to line ${problem.line}`)] : null) : null,
    issues.length ? h("ul", {}, issues.map((issue) => h("li", {}, h("code", {}, issue.pointer || "/"), ` ${issue.detail}`))) : null,
    problem.omittedErrors ? h("p", {}, `…and ${problem.omittedErrors} more.`) : null);
}

/**
 * Selects line `line` (1-based) of `textarea` and scrolls it into the middle of the box, the
 * column in view; focus moves to the text so the line can be fixed at once. The text box
 * does not wrap (`wrap="off"`), so line n is n line-heights down.
 */
export function selectLine(textarea, line, column = 1) {
  const lines = textarea.value.split("\n");
  const n = Math.max(1, Math.min(line, lines.length));
  let start = 0;
  for (let i = 0; i < n - 1; i++) start += lines[i].length + 1;
  const end = start + lines[n - 1].length;
  textarea.focus({ preventScroll: true });
  textarea.setSelectionRange(start, end, "forward");
  const style = getComputedStyle(textarea);
  const fontSize = parseFloat(style.fontSize) || 12;
  const lineHeight = parseFloat(style.lineHeight) || fontSize * 1.4;
  textarea.scrollTop = Math.max(0, (n - 1) * lineHeight - textarea.clientHeight / 3);
  // Monospace: a column is about 0.6 em wide.
  textarea.scrollLeft = Math.max(0, (column - 1) * fontSize * 0.6 - textarea.clientWidth / 2);
  return { start, end, line: n };
}
