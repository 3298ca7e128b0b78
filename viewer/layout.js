// Resizable columns: a splitter between two columns sets the width of one of them (a CSS
// variable on the page), by drag or by keyboard (WAI-ARIA window splitter: a focusable
// separator with its value; arrows move it 16 px, Home/End to its limits). The width is kept
// in localStorage, so a reload keeps the layout; until the user moves a splitter (and after a
// double click on it) the page may choose the width, e.g. from the scene's shape.

const STEP = 16;

export class Splitter {
  /**
   * @param {HTMLElement} handle   the separator element
   * @param {object} options
   * @param {string} options.variable   CSS custom property holding the width (e.g. `--left`)
   * @param {"left"|"right"} options.side  which side of the handle the sized column is on
   * @param {number} options.min        pixels
   * @param {number} options.max        pixels
   * @param {number} options.initial    pixels when nothing is stored
   */
  constructor(handle, { variable, side, min, max, initial }) {
    this.handle = handle;
    this.variable = variable;
    this.side = side;
    this.min = min;
    this.max = max;
    this.key = `taptrace.viewer.${variable.replace(/^--/, "")}`;
    handle.setAttribute("role", "separator");
    handle.setAttribute("aria-orientation", "vertical");
    handle.tabIndex = 0;
    let stored = null;
    try { stored = Number(localStorage.getItem(this.key)); } catch { stored = null; }
    // A width the user chose stays; until then the width may follow `auto`.
    this.userSet = Boolean(stored);
    this.autoWidth = () => initial;
    this.set(stored || initial, { save: false });
    window.addEventListener("resize", () => this.set(this.userSet ? this.width : this.autoWidth(), { save: false }));
    // A double click gives the choice back to the page.
    handle.addEventListener("dblclick", () => {
      this.userSet = false;
      try { localStorage.removeItem(this.key); } catch { /* nothing kept */ }
      this.set(this.autoWidth(), { save: false });
    });

    handle.addEventListener("pointerdown", (event) => {
      if (event.button !== 0) return;
      event.preventDefault();
      handle.setPointerCapture(event.pointerId);
      const start = event.clientX, width = this.width;
      handle.classList.add("dragging");
      const move = (e) => this.set(width + (this.side === "left" ? 1 : -1) * (e.clientX - start));
      const up = () => {
        handle.classList.remove("dragging");
        handle.removeEventListener("pointermove", move);
        handle.removeEventListener("pointerup", up);
        handle.removeEventListener("pointercancel", up);
      };
      handle.addEventListener("pointermove", move);
      handle.addEventListener("pointerup", up);
      handle.addEventListener("pointercancel", up);
    });
    handle.addEventListener("keydown", (event) => {
      const grow = this.side === "left" ? 1 : -1;
      const moves = { ArrowLeft: -STEP * grow, ArrowRight: STEP * grow };
      if (event.key in moves) this.set(this.width + moves[event.key]);
      else if (event.key === "Home") this.set(this.min);
      else if (event.key === "End") this.set(this.max);
      else return;
      event.preventDefault();
    });
  }

  /** The width the page would choose (`width()`, pixels), used while the user has not dragged the splitter. */
  auto(width) {
    this.autoWidth = width;
    if (!this.userSet) this.set(width(), { save: false });
  }

  set(width, { save = true } = {}) {
    // The limit also follows the window: the other columns keep room of their own.
    const max = Math.max(this.min, Math.min(this.max, window.innerWidth * 0.5));
    this.width = Math.round(Math.max(this.min, Math.min(max, width)));
    document.documentElement.style.setProperty(this.variable, `${this.width}px`);
    this.handle.setAttribute("aria-valuenow", String(this.width));
    this.handle.setAttribute("aria-valuemin", String(this.min));
    this.handle.setAttribute("aria-valuemax", String(Math.round(max)));
    if (save) {
      this.userSet = true;
      try { localStorage.setItem(this.key, String(this.width)); } catch { /* private mode: not kept */ }
    }
  }
}
