// Turns a pointer on the canvas into a touches document (contract §2): a click is a tap, a
// press held in place is a long press, a pointer that moves is a drag along the path it took.

/** Movement (points) under which a press still counts as staying in place: UILongPressGestureRecognizer's default allowableMovement. */
export const ALLOWABLE_MOVEMENT = 10;
/** Held at least this long (seconds) it is a long press: UILongPressGestureRecognizer's default minimumPressDuration. */
export const LONG_PRESS = 0.5;
/** A drag keeps at most this many moved events, evenly spread over the path. */
export const MAX_MOVES = 40;

const round1 = (n) => Math.round(n * 10) / 10;
const round3 = (n) => Math.round(n * 1000) / 1000;

/**
 * The touches document for one pointer's samples `[{t (seconds), at: [x, y]}, ...]` in screen
 * coordinates, first to last; and what kind of gesture it was.
 */
export function touchesFor(samples) {
  const first = samples[0];
  const last = samples[samples.length - 1];
  const duration = round3(last.t - first.t);
  const at = first.at.map(round1);
  const moved = samples.some((s) => Math.hypot(s.at[0] - first.at[0], s.at[1] - first.at[1]) > ALLOWABLE_MOVEMENT);
  if (!moved) {
    if (duration >= LONG_PRESS) {
      return { kind: "long press", touches: { format: "taptrace/touches@1", gestures: [{ longPress: at, duration, t: 0 }] } };
    }
    return { kind: "tap", touches: { format: "taptrace/touches@1", gestures: [{ tap: at, t: 0 }] } };
  }
  // The path as the pointer drew it, thinned to MAX_MOVES moved events; times are strictly
  // increasing (the contract requires it), a millisecond apart at least.
  const middle = samples.slice(1, -1);
  const step = Math.max(1, middle.length / MAX_MOVES);
  const kept = [];
  for (let i = 0; i < middle.length && kept.length < MAX_MOVES; i += step) kept.push(middle[Math.floor(i)]);
  const events = [];
  let previous = -Infinity;
  const push = (sample, phase) => {
    let t = round3(sample.t - first.t);
    if (t <= previous) t = round3(previous + 0.001);
    previous = t;
    events.push({ t, touches: [{ id: "T1", phase, at: sample.at.map(round1) }] });
  };
  push(first, "began");
  for (const sample of kept) push(sample, "moved");
  push(last, "moved");
  push(last, "ended");
  return { kind: "drag", touches: { format: "taptrace/touches@1", events } };
}

/**
 * Records one pointer at a time on `element`. `toScene(event)` maps a pointer event to screen
 * coordinates; `onSample(samples)` follows the pointer live; `onEnd(samples)` gets the finished
 * path; a cancelled pointer (e.g. the window lost focus) gives nothing.
 */
export class GestureRecorder {
  constructor(element, { toScene, onSample, onEnd, enabled }) {
    this.samples = null;
    this.pointerId = null;
    const now = () => performance.now() / 1000;
    element.addEventListener("pointerdown", (event) => {
      if (!enabled() || event.button !== 0 || this.samples) return;
      event.preventDefault();
      this.pointerId = event.pointerId;
      element.setPointerCapture?.(event.pointerId);
      this.samples = [{ t: now(), at: toScene(event) }];
      onSample(this.samples);
    });
    element.addEventListener("pointermove", (event) => {
      if (!this.samples || event.pointerId !== this.pointerId) return;
      const at = toScene(event);
      const previous = this.samples[this.samples.length - 1].at;
      if (Math.hypot(at[0] - previous[0], at[1] - previous[1]) < 1) return;
      this.samples.push({ t: now(), at });
      onSample(this.samples);
    });
    element.addEventListener("pointerup", (event) => {
      if (!this.samples || event.pointerId !== this.pointerId) return;
      this.samples.push({ t: now(), at: toScene(event) });
      const samples = this.samples;
      this.samples = null;
      onEnd(samples);
    });
    element.addEventListener("pointercancel", () => this.cancel());
    this.onSample = onSample;
  }

  /** Drops the gesture in progress (a pinch began, the pointer was cancelled). */
  cancel() {
    if (!this.samples) return;
    this.samples = null;
    this.onSample([]);
  }
}
