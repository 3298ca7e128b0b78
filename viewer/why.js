// "Why?" on the run page (issue 33, item 9): beside the first responder, each touch, each
// recognizer and each action (and each press, key command, shake and remote-control event,
// run-events.js), a button asks the why API about the open run (POST
// /v1/runs/{id}/why) and shows its answer under that part of the page: the answer in one
// sentence, the reasons with their rule ids and links to the trace entries that show them,
// and, for an expected outcome, the single changes the service verified ("what would change
// it"), each one click from a what-if version (what-if.js) that runs the touches again and
// compares.

import { h, replace, announce } from "./dom.js";
import { api } from "./api.js";
import { problemView } from "./problems.js";
import { patchForChange, EditNotSupported } from "./what-if-edits.js";

/** The outcomes a question can be asked to change, by its subject. */
const EXPECT = {
  recognizer: [["fired", "What would make it recognize?"], ["not-fired", "What would keep it from recognizing?"]],
  action: [["fired", "What would make it be sent?"], ["not-fired", "What would keep it from being sent?"]],
  view: [["hit", "What would make it the hit-test view?"], ["fired", "What would make it receive touchesBegan?"],
    ["not-fired", "What would keep touches from it?"]],
  firstResponder: [],
  press: [],
  keyCommand: [],
  shake: [],
  remoteControl: [],
};

export class WhyAnswers {
  /**
   * @param {object} options
   *   whatIf       the what-if path (what-if.js)
   *   revealTrace(seq)  selects a trace entry in the run's trace
   *   document()   the scene document of the run's version (for the changes' patches)
   */
  constructor({ whatIf, revealTrace, document }) {
    this.whatIf = whatIf;
    this.revealTrace = revealTrace;
    this.document = document;
    this.run = null;
    this.generation = 0;
    this.box = h("section", { class: "why-answer", id: "why-answer", "aria-labelledby": "why-question", tabindex: -1 });
  }

  /** The run the questions are about (GET /v1/runs/{id}). */
  setRun(run) {
    this.run = run;
    this.generation++;
    this.box.remove();
  }

  /**
   * A "why?" button: `question` is the why API's ({recognizer | action | view | firstResponder,
   * expect?}), `name` its accessible name in words. The answer goes after `anchor` (the button's
   * section when absent).
   */
  button(question, name, anchor = null) {
    const button = h("button", { type: "button", class: "why-button", "aria-label": name, title: name });
    button.append("why?");
    button.addEventListener("click", () => this.ask(question, anchor ?? button.closest("section, header") ?? button.parentElement, button));
    return button;
  }

  /** Asks `question` about the run and shows the answer after `anchor`. */
  async ask(question, anchor, from = null) {
    const generation = ++this.generation;
    const subject = Object.keys(question).find((k) => k in EXPECT);
    this.from = from;
    anchor.after(this.box);
    this.box.setAttribute("aria-busy", "true");
    replace(this.box, h("h4", { id: "why-question" }, "Why?"), h("p", {}, "Asking the service…"));
    this.box.scrollIntoView({ block: "nearest" });
    let answer;
    try {
      answer = await api.why(this.run.id, question);
    } catch (error) {
      if (generation !== this.generation) return;
      this.box.removeAttribute("aria-busy");
      replace(this.box, h("h4", { id: "why-question" }, "Why?"), problemView(error, "No answer"), this.closeButton());
      return;
    }
    if (generation !== this.generation) return;
    this.box.removeAttribute("aria-busy");
    this.render(question, subject, answer, anchor);
    announce(answer.answer);
  }

  closeButton() {
    return h("button", { type: "button", class: "why-close", "aria-label": "Close the answer", onclick: () => {
      this.box.remove();
      this.from?.focus();
    } }, "Close");
  }

  render(question, subject, answer, anchor) {
    const trace = this.run.result.trace ?? [];
    const expectations = EXPECT[subject] ?? [];
    const select = expectations.length ? h("select", { id: "why-expect", onchange: () => {
      const { expect, ...rest } = question;
      this.ask(select.value ? { ...rest, expect: select.value } : rest, anchor, this.from);
    } }, h("option", { value: "" }, "— the reasons only —"),
    expectations.map(([value, words]) => h("option", { value, selected: question.expect === value }, words))) : null;
    const reasons = answer.reasons.map((reason) => h("li", { class: "why-reason" },
      h("span", { class: "rule" }, reason.rule), " ", reason.text,
      reason.trace.length ? h("span", { class: "why-trace" }, " (trace ",
        reason.trace.map((index, i) => {
          const entry = trace[index];
          const seq = entry?.seq ?? index + 1;
          return [i ? ", " : "", h("button", { type: "button", class: "link-button trace-link", "data-seq": seq,
            "aria-label": `Trace entry ${seq}${entry ? `: ${entry.receiver?.id ?? ""} ${entry.selector ?? entry.marker ?? entry.to ?? ""}` : ""}`,
            onclick: () => this.revealTrace(seq) }, `#${seq}`)];
        }), ")") : null));
    replace(this.box,
      h("div", { class: "why-head" },
        h("h4", { id: "why-question" }, answer.question),
        this.closeButton()),
      h("p", { class: "why-answer-text", id: "why-answer-text" }, answer.answer),
      reasons.length ? h("ol", { class: "why-reasons", id: "why-reasons" }, reasons) : null,
      select ? h("div", { class: "why-expect" }, h("label", { for: "why-expect" }, "What would change it?"), select) : null,
      question.expect ? this.changes(answer.changes) : null);
  }

  /** The verified changes, each with a button that makes a what-if version of it. */
  changes(changes) {
    if (!changes.length) {
      return h("p", { class: "hint", id: "why-no-changes" },
        "No change listed: the run already gives that outcome, or no single change the service tried does.");
    }
    const plan = this.whatIf.plan();
    const document = this.document();
    return [
      h("h5", { id: "why-changes-heading" }, "What would change it (each verified by running the touches again)"),
      h("ol", { class: "why-changes", id: "why-changes", "aria-labelledby": "why-changes-heading" }, changes.map((change) => {
        let patch = null, refused = null;
        try {
          patch = patchForChange(change, document);
        } catch (error) {
          if (!(error instanceof EditNotSupported)) throw error;
          refused = error.message;
        }
        const note = h("span", { class: "why-change-note" });
        const button = h("button", { type: "button", class: "why-try", disabled: !patch || !plan.ok,
          "aria-label": `Try it: ${change.edit}` }, plan.ok ? `Try it: store v${plan.next}` : "Try it");
        button.addEventListener("click", async () => {
          button.disabled = true;
          replace(note, " Storing…");
          try {
            await this.whatIf.apply(patch, change.edit, { predicted: change.outcome });
          } catch (error) {
            replace(note, problemView(error, "No what-if version"));
            button.disabled = false;
          }
        });
        if (refused) note.textContent = ` ${refused}`;
        else if (!plan.ok) note.textContent = ` ${plan.text}`;
        return h("li", { class: "why-change" },
          h("code", {}, change.edit), " ", h("span", { class: "rule" }, change.rule),
          h("div", { class: "why-outcome" }, `→ ${change.outcome}`),
          button, note);
      })),
      plan.ok ? h("p", { class: "hint" }, plan.text) : null,
    ];
  }
}
