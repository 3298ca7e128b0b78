// A failed call as the user reads it: the problem's title and detail, and every validation
// issue with the JSON pointer of the value at fault.

import { h } from "./dom.js";
import { ApiError } from "./api.js";

export function problemView(error, what) {
  if (!(error instanceof ApiError)) {
    return h("div", { class: "error", role: "alert" }, h("p", {}, `${what}: ${error.message}`));
  }
  const problem = error.problem ?? {};
  const issues = problem.errors ?? [];
  return h("div", { class: "error", role: "alert" },
    h("p", {}, h("strong", {}, `${what}: `), `${problem.title ?? `HTTP ${error.status}`}. ${problem.detail ?? ""}`),
    problem.line ? h("p", {}, `Line ${problem.line}, column ${problem.column ?? "?"}.`) : null,
    issues.length ? h("ul", {}, issues.map((issue) => h("li", {}, h("code", {}, issue.pointer || "/"), ` ${issue.detail}`))) : null,
    problem.omittedErrors ? h("p", {}, `…and ${problem.omittedErrors} more.`) : null);
}
