// The panel tabs (WAI-ARIA tabs pattern): one tab stop for the tab list, arrow keys and
// Home/End move between tabs, and moving selects.

import { byId } from "./dom.js";

export class Tabs {
  constructor(tablist, { onChange }) {
    this.tabs = [...tablist.querySelectorAll("[role=tab]")];
    this.onChange = onChange;
    for (const tab of this.tabs) tab.addEventListener("click", () => this.select(tab.id.replace(/^tab-/, ""), { focus: false }));
    tablist.addEventListener("keydown", (event) => {
      const index = this.tabs.indexOf(document.activeElement);
      if (index < 0) return;
      const target = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: this.tabs.length - 1 }[event.key];
      if (target === undefined) return;
      event.preventDefault();
      const tab = this.tabs[(target + this.tabs.length) % this.tabs.length];
      this.select(tab.id.replace(/^tab-/, ""), { focus: true });
    });
  }

  get current() {
    return this.tabs.find((t) => t.getAttribute("aria-selected") === "true")?.id.replace(/^tab-/, "");
  }

  select(name, { focus = false } = {}) {
    for (const tab of this.tabs) {
      const on = tab.id === `tab-${name}`;
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1;
      byId(tab.getAttribute("aria-controls")).hidden = !on;
      if (on && focus) tab.focus();
    }
    this.onChange(name);
  }
}
