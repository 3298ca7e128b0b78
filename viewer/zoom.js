// Zoom and pan of the canvas: one uniform scale and a translation from screen points (the
// scene's coordinates) to the SVG's pixels, applied as the transform of one group. Ctrl + wheel
// (a trackpad pinch arrives as one) and two-finger pinch zoom about the pointer; the wheel, a
// middle-button drag (or a primary drag where the canvas allows it) and the arrow keys pan;
// + / − / 0 / 1 zoom in, out, to fit and to actual size.

const MIN_SCALE = 0.05;
const MAX_SCALE = 40;
const STEP = 1.25;
/** A drag shorter than this (pixels) is a click, not a pan. */
const PAN_SLOP = 4;
const FIT_MARGIN = 12;

export class Camera {
  /**
   * @param {SVGSVGElement} svg   the drawing surface (its user units are CSS pixels)
   * @param {SVGGElement} group   what the camera moves
   * @param {object} options
   * @param {() => void} options.onChange          after every change of scale or offset
   * @param {(event) => boolean} [options.pansOnDrag]  whether a primary-button drag pans here
   * @param {() => void} [options.onPinch]          a two-finger pinch began (a gesture in progress ends)
   */
  constructor(svg, group, { onChange, pansOnDrag = () => false, onPinch = () => {} }) {
    this.svg = svg;
    this.group = group;
    this.onChange = onChange;
    this.pansOnDrag = pansOnDrag;
    this.onPinch = onPinch;
    this.scale = 1;
    this.tx = 0;
    this.ty = 0;
    this.content = [0, 0, 100, 100];
    this.fitted = true;
    this.touches = new Map();
    this.attach();
    // The frame changes size with the window and the column splitters: a fitted scene stays
    // fitted, a zoomed one keeps its centre.
    this.size = this.viewport();
    new ResizeObserver(() => {
      const before = this.size;
      this.size = this.viewport();
      if (!this.size.width || !this.size.height) return;
      if (this.fitted || !before.width) this.fit();
      else this.panBy((this.size.width - before.width) / 2, (this.size.height - before.height) / 2, { keepFit: false });
    }).observe(svg);
  }

  viewport() {
    const box = this.svg.getBoundingClientRect();
    return { width: box.width, height: box.height };
  }

  /** The scene's extent [x, y, width, height] in screen points, for fitting. */
  setContent(rect) {
    this.content = rect;
    this.fit();
  }

  /** The whole content in view, centred. */
  fit() {
    const { width, height } = this.viewport();
    const [x, y, w, h] = this.content;
    if (!width || !height || !w || !h) return;
    const scale = clamp(Math.min((width - 2 * FIT_MARGIN) / w, (height - 2 * FIT_MARGIN) / h));
    this.set(scale, (width - w * scale) / 2 - x * scale, (height - h * scale) / 2 - y * scale);
    this.fitted = true;
  }

  /** One screen point to one CSS pixel, about the centre of the view. */
  actualSize() {
    const { width, height } = this.viewport();
    this.zoomAt(1 / this.scale, [width / 2, height / 2]);
  }

  zoomBy(factor) {
    const { width, height } = this.viewport();
    this.zoomAt(factor, [width / 2, height / 2]);
  }

  /** Scales by `factor` keeping the scene point under pixel `at` where it is. */
  zoomAt(factor, at) {
    const scale = clamp(this.scale * factor);
    const k = scale / this.scale;
    this.set(scale, at[0] - (at[0] - this.tx) * k, at[1] - (at[1] - this.ty) * k);
    this.fitted = false;
  }

  panBy(dx, dy, { keepFit = false } = {}) {
    this.set(this.scale, this.tx + dx, this.ty + dy);
    this.fitted = keepFit && this.fitted;
  }

  /**
   * Brings the scene rectangle `box` ([minX, minY, maxX, maxY]) into view with the least
   * movement: panned just inside the edge it was beyond, zoomed out first when it is larger
   * than the view.
   */
  reveal(box) {
    const { width, height } = this.viewport();
    const w = box[2] - box[0], h = box[3] - box[1];
    const scale = clamp(Math.min(this.scale, (width - 2 * FIT_MARGIN) / Math.max(w, 1), (height - 2 * FIT_MARGIN) / Math.max(h, 1)));
    const k = scale / this.scale;
    // The offset that keeps the view's centre where it is at the new scale.
    let tx = width / 2 - (width / 2 - this.tx) * k;
    let ty = height / 2 - (height / 2 - this.ty) * k;
    const shift = (low, high, size) => (low < FIT_MARGIN ? FIT_MARGIN - low : high > size - FIT_MARGIN ? size - FIT_MARGIN - high : 0);
    tx += shift(box[0] * scale + tx, box[2] * scale + tx, width);
    ty += shift(box[1] * scale + ty, box[3] * scale + ty, height);
    if (scale === this.scale && tx === this.tx && ty === this.ty) return;
    this.set(scale, tx, ty);
    this.fitted = false;
  }

  set(scale, tx, ty) {
    this.scale = scale;
    this.tx = tx;
    this.ty = ty;
    this.group.setAttribute("transform", `matrix(${scale} 0 0 ${scale} ${tx} ${ty})`);
    this.onChange();
  }

  /** A scene point in the SVG's pixels. */
  toPixels(p) {
    return [p[0] * this.scale + this.tx, p[1] * this.scale + this.ty];
  }

  /** The scene point under a pointer event. */
  toScene(event) {
    const box = this.svg.getBoundingClientRect();
    return [(event.clientX - box.left - this.tx) / this.scale, (event.clientY - box.top - this.ty) / this.scale];
  }

  pixelAt(event) {
    const box = this.svg.getBoundingClientRect();
    return [event.clientX - box.left, event.clientY - box.top];
  }

  attach() {
    const svg = this.svg;
    svg.addEventListener("wheel", (event) => {
      event.preventDefault();
      if (event.ctrlKey || event.metaKey) {
        // A trackpad pinch arrives as a wheel event with ctrlKey and small deltas.
        const factor = Math.exp(-event.deltaY * (event.deltaMode === 1 ? 0.05 : 0.0025));
        this.zoomAt(factor, this.pixelAt(event));
      } else {
        const unit = event.deltaMode === 1 ? 16 : 1;
        this.panBy(-event.deltaX * unit, -event.deltaY * unit);
      }
    }, { passive: false });

    // Panning by drag: a middle-button drag anywhere, a primary drag where `pansOnDrag` says.
    let pan = null;
    let justPanned = false;
    svg.addEventListener("pointerdown", (event) => {
      if (event.pointerType === "touch") {
        this.touches.set(event.pointerId, this.pixelAt(event));
        if (this.touches.size === 2) {
          this.onPinch();
          this.pinch = this.pinchState();
        }
        return;
      }
      if (event.button === 1 || (event.button === 0 && this.pansOnDrag(event))) {
        pan = { id: event.pointerId, start: [event.clientX, event.clientY], last: [event.clientX, event.clientY], moved: false };
        if (event.button === 1) event.preventDefault();
      }
    });
    svg.addEventListener("pointermove", (event) => {
      if (this.touches.has(event.pointerId)) {
        this.touches.set(event.pointerId, this.pixelAt(event));
        if (this.touches.size === 2 && this.pinch) {
          const now = this.pinchState();
          this.zoomAt(now.distance / this.pinch.distance, now.centre);
          this.panBy(now.centre[0] - this.pinch.centre[0], now.centre[1] - this.pinch.centre[1]);
          this.pinch = now;
        }
        return;
      }
      if (!pan || event.pointerId !== pan.id) return;
      if (!pan.moved && Math.hypot(event.clientX - pan.start[0], event.clientY - pan.start[1]) < PAN_SLOP) return;
      if (!pan.moved) {
        pan.moved = true;
        svg.setPointerCapture?.(event.pointerId);
        svg.classList.add("panning");
      }
      this.panBy(event.clientX - pan.last[0], event.clientY - pan.last[1]);
      pan.last = [event.clientX, event.clientY];
    });
    const end = (event) => {
      this.touches.delete(event.pointerId);
      if (this.touches.size < 2) this.pinch = null;
      if (pan && event.pointerId === pan.id) {
        justPanned = pan.moved;
        pan = null;
        svg.classList.remove("panning");
      }
    };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
    // The click that ends a pan is not a click on the scene.
    svg.addEventListener("click", (event) => {
      if (justPanned) {
        event.stopImmediatePropagation();
        justPanned = false;
      }
    }, { capture: true });
  }

  /** Two fingers are down: a pinch, not a touch of the scene. */
  get pinching() {
    return this.touches.size >= 2;
  }

  pinchState() {
    const [a, b] = [...this.touches.values()];
    return { distance: Math.max(1, Math.hypot(a[0] - b[0], a[1] - b[1])), centre: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2] };
  }

  /** Keys on the focused canvas: + − 0 1 and the arrows (Shift: further). Returns whether it was one. */
  key(event) {
    const step = event.shiftKey ? 160 : 40;
    const actions = {
      "+": () => this.zoomBy(STEP), "=": () => this.zoomBy(STEP), "-": () => this.zoomBy(1 / STEP),
      "0": () => this.fit(), "1": () => this.actualSize(),
      ArrowLeft: () => this.panBy(step, 0), ArrowRight: () => this.panBy(-step, 0),
      ArrowUp: () => this.panBy(0, step), ArrowDown: () => this.panBy(0, -step),
    };
    const action = actions[event.key];
    if (!action || event.altKey || event.ctrlKey || event.metaKey) return false;
    event.preventDefault();
    action();
    return true;
  }
}

export const ZOOM_STEP = STEP;

function clamp(scale) {
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale));
}
