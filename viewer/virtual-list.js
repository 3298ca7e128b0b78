// A list that renders only the rows in view, at a fixed row height, so 10,000 trace entries
// cost a few dozen DOM nodes and scrolling never changes the page's layout: the list's box has
// a fixed height, and its scroll height is known before a single row is drawn.
//
// It is a listbox: focus stays on the list, the selected row is its active descendant, and the
// keyboard moves the selection (arrows, Page Up/Down, Home, End; Enter activates).

let counter = 0;

export class VirtualList {
  /**
   * @param {object} options
   * @param {string} options.label        accessible name
   * @param {number} [options.rowHeight]  pixels; must match the CSS of `.vrow`
   * @param {(item, index, row: HTMLElement) => void} options.renderRow  fills a row element
   * @param {(item, index) => void} [options.onSelect]    selection moved to a row
   * @param {(item, index) => void} [options.onActivate]  Enter or double click on a row
   * @param {string} [options.role]       the list's role: `listbox` (rows are `option`s) or `tree` (`treeitem`s)
   */
  constructor({ label, rowHeight = 22, renderRow, onSelect, onActivate, className = "", role = "listbox" }) {
    this.rowHeight = rowHeight;
    this.renderRow = renderRow;
    this.onSelect = onSelect ?? (() => {});
    this.onActivate = onActivate ?? (() => {});
    this.items = [];
    this.selected = -1;
    this.prefix = `vlist${++counter}`;
    this.overscan = 8;

    this.element = document.createElement("div");
    this.element.className = `vlist ${className}`.trim();
    this.element.tabIndex = 0;
    this.element.setAttribute("role", role);
    this.rowRole = role === "tree" ? "treeitem" : "option";
    this.element.setAttribute("aria-label", label);
    this.spacer = document.createElement("div");
    this.spacer.className = "vlist-spacer";
    this.element.append(this.spacer);

    let scheduled = false;
    this.element.addEventListener("scroll", () => {
      if (scheduled) return;
      scheduled = true;
      requestAnimationFrame(() => { scheduled = false; this.render(); });
    });
    this.element.addEventListener("keydown", (event) => this.keydown(event));
    this.element.addEventListener("click", (event) => {
      const row = event.target.closest?.(".vrow");
      if (row) this.select(Number(row.dataset.index), { scroll: false });
    });
    this.element.addEventListener("dblclick", (event) => {
      const row = event.target.closest?.(".vrow");
      if (row) this.onActivate(this.items[Number(row.dataset.index)], Number(row.dataset.index));
    });
    // Rows are drawn for the box's height, which is only known once it is in the document.
    new ResizeObserver(() => this.render()).observe(this.element);
  }

  /**
   * Replaces the rows; keeps the scroll position when `keepScroll`, else starts at the top;
   * `selected` is the index to keep selected (without notifying), -1 for none.
   */
  setItems(items, { keepScroll = false, selected = -1 } = {}) {
    this.items = items;
    this.selected = selected < items.length ? selected : -1;
    if (this.selected >= 0) this.element.setAttribute("aria-activedescendant", this.rowId(this.selected));
    else this.element.removeAttribute("aria-activedescendant");
    this.spacer.style.height = `${items.length * this.rowHeight}px`;
    if (!keepScroll) this.element.scrollTop = 0;
    // A shorter list: the scroll position is clamped now, not when the browser gets to it,
    // so the rows drawn below are the ones in view.
    const end = Math.max(0, items.length * this.rowHeight - this.element.clientHeight);
    if (this.element.scrollTop > end) this.element.scrollTop = end;
    this.render();
  }

  /** Index of the first item for which `predicate` holds, or -1. */
  findIndex(predicate) {
    return this.items.findIndex(predicate);
  }

  select(index, { scroll = true, notify = true } = {}) {
    if (this.items.length === 0) return;
    index = Math.max(0, Math.min(this.items.length - 1, index));
    this.selected = index;
    if (scroll) this.scrollToIndex(index);
    this.render();
    this.element.setAttribute("aria-activedescendant", this.rowId(index));
    if (notify) this.onSelect(this.items[index], index);
  }

  /** Scrolls just enough for row `index` to be fully in view. */
  scrollToIndex(index) {
    const top = index * this.rowHeight;
    const bottom = top + this.rowHeight;
    const view = this.element;
    if (top < view.scrollTop) view.scrollTop = top;
    else if (bottom > view.scrollTop + view.clientHeight) view.scrollTop = bottom - view.clientHeight;
  }

  get pageSize() {
    return Math.max(1, Math.floor(this.element.clientHeight / this.rowHeight) - 1);
  }

  keydown(event) {
    const moves = {
      ArrowDown: 1, ArrowUp: -1, PageDown: this.pageSize, PageUp: -this.pageSize,
      Home: -Infinity, End: Infinity,
    };
    if (event.key in moves) {
      event.preventDefault();
      const from = this.selected < 0 ? (moves[event.key] > 0 ? -1 : this.items.length) : this.selected;
      const to = Number.isFinite(moves[event.key]) ? from + moves[event.key] : (moves[event.key] > 0 ? this.items.length - 1 : 0);
      this.select(to);
    } else if (event.key === "Enter" && this.selected >= 0) {
      event.preventDefault();
      this.onActivate(this.items[this.selected], this.selected);
    }
  }

  rowId(index) {
    return `${this.prefix}-row-${index}`;
  }

  /** Draws the rows in view (plus a few either side) and nothing else. */
  render() {
    const view = this.element;
    const height = view.clientHeight || 0;
    const first = Math.max(0, Math.floor(view.scrollTop / this.rowHeight) - this.overscan);
    const last = Math.min(this.items.length, Math.ceil((view.scrollTop + height) / this.rowHeight) + this.overscan);
    const rows = [];
    for (let i = first; i < last; i++) rows.push(this.row(i));
    // The selected row stays in the DOM so aria-activedescendant always points at something.
    if (this.selected >= 0 && (this.selected < first || this.selected >= last)) rows.push(this.row(this.selected));
    this.spacer.replaceChildren(...rows);
  }

  row(index) {
    const row = document.createElement("div");
    row.className = index % 2 ? "vrow odd" : "vrow";
    row.id = this.rowId(index);
    row.dataset.index = String(index);
    row.setAttribute("role", this.rowRole);
    row.setAttribute("aria-setsize", String(this.items.length));
    row.setAttribute("aria-posinset", String(index + 1));
    row.setAttribute("aria-selected", String(index === this.selected));
    row.style.transform = `translateY(${index * this.rowHeight}px)`;
    this.renderRow(this.items[index], index, row);
    return row;
  }
}
