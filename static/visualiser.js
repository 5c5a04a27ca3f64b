// Lexical's live voice visualiser: draws a Web Audio AnalyserNode on a canvas, as a row of
// frequency bars that move with the voice. app/browser/microphone.py imports this module on
// first use and calls start(analyser, target) and stop(target); from then on each canvas has
// its own requestAnimationFrame loop here, so Python never runs per frame. The loop pauses while
// the page is hidden. With prefers-reduced-motion it draws a calm level meter a few times a
// second instead. Colours are the theme's CSS custom properties (--accent, --border), read
// again when the theme changes; the canvas follows its box and devicePixelRatio.
// window.__lexicalVisualiser counts frames and the main-thread milliseconds they took, for
// `make bench` (budget: 2 ms a frame) and the end-to-end tests.

const BARS = 32;
const TOP_HZ = 6000; // a voice's energy lies below this; higher bins would sit idle
const CALM_MS = 250; // the reduced-motion meter's pace
const shown = new Map(); // canvas -> its drawing state
const reduced = matchMedia("(prefers-reduced-motion: reduce)");
const cost = { frames: 0, totalMs: 0, running: 0 };
window.__lexicalVisualiser = cost;
let watching = false;

// Draw `analyser` in `target`: a canvas, or an element to hold one (made here, once).
export function start(analyser, target) {
  const canvas = canvasIn(target, true);
  stop(canvas);
  const state = {
    analyser,
    canvas,
    context: canvas.getContext("2d"),
    bins: new Uint8Array(analyser.frequencyBinCount),
    wave: new Uint8Array(analyser.fftSize),
    colours: colours(canvas),
    sized: false,
    frame: 0,
    timer: 0,
  };
  state.tick = () => tick(state);
  state.resize = new ResizeObserver(() => { state.sized = false; });
  state.resize.observe(canvas);
  shown.set(canvas, state);
  cost.running = shown.size;
  watch();
  schedule(state);
  return canvas;
}

// Stop drawing in `target` (every canvas when none is given) and clear it.
export function stop(target) {
  const canvases = target ? [canvasIn(target, false)] : [...shown.keys()];
  for (const canvas of canvases) {
    const state = shown.get(canvas);
    if (!state) continue;
    cancel(state);
    state.resize.disconnect();
    state.context.clearRect(0, 0, canvas.width, canvas.height);
    shown.delete(canvas);
  }
  cost.running = shown.size;
}

function canvasIn(target, make) {
  if (target instanceof HTMLCanvasElement) return target;
  let canvas = target.querySelector("canvas");
  if (!canvas && make) {
    canvas = document.createElement("canvas");
    canvas.className = "voice-meter-canvas";
    canvas.setAttribute("aria-hidden", "true"); // the element holding it names it
    target.append(canvas);
  }
  return canvas;
}

// Page-wide listeners, added once: hidden pages draw nothing, and a change of theme or of the
// motion preference applies to every canvas at once.
function watch() {
  if (watching) return;
  watching = true;
  const reschedule = () => shown.forEach((state) => { cancel(state); schedule(state); });
  document.addEventListener("visibilitychange", reschedule);
  reduced.addEventListener("change", reschedule);
  new MutationObserver(() => shown.forEach((s) => { s.colours = colours(s.canvas); }))
    .observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
}

function schedule(state) {
  if (document.hidden) return; // visibilitychange starts it again
  if (reduced.matches) state.timer = setTimeout(state.tick, CALM_MS);
  else state.frame = requestAnimationFrame(state.tick);
}

function cancel(state) {
  cancelAnimationFrame(state.frame);
  clearTimeout(state.timer);
  state.frame = state.timer = 0;
}

function tick(state) {
  state.frame = state.timer = 0;
  if (shown.get(state.canvas) !== state) return;
  const began = performance.now();
  fit(state);
  if (reduced.matches) drawLevel(state);
  else drawBars(state);
  cost.frames += 1;
  cost.totalMs += performance.now() - began;
  schedule(state);
}

function colours(canvas) {
  const style = getComputedStyle(canvas);
  const colour = (name) => style.getPropertyValue(name).trim() || style.color;
  return { bar: colour("--accent"), track: colour("--border") };
}

// The backing store matches the box in device pixels, so bars stay sharp when zoomed.
function fit(state) {
  const ratio = window.devicePixelRatio || 1;
  if (state.sized && state.ratio === ratio) return;
  const { canvas } = state;
  canvas.width = Math.max(1, Math.round(canvas.clientWidth * ratio));
  canvas.height = Math.max(1, Math.round(canvas.clientHeight * ratio));
  state.sized = true;
  state.ratio = ratio;
}

function drawBars(state) {
  const { analyser, bins, context, canvas } = state;
  analyser.getByteFrequencyData(bins);
  const nyquist = analyser.context.sampleRate / 2;
  const used = Math.max(BARS, Math.min(bins.length, Math.round((bins.length * TOP_HZ) / nyquist)));
  const per = used / BARS;
  const { width, height } = canvas;
  const slot = width / BARS;
  const barWidth = Math.max(1, slot * 0.6);
  const least = Math.max(1, state.ratio * 2); // silence still shows a quiet row of dots
  context.clearRect(0, 0, width, height);
  context.fillStyle = state.colours.bar;
  for (let bar = 0; bar < BARS; bar += 1) {
    let sum = 0;
    const from = Math.floor(bar * per);
    const to = Math.max(from + 1, Math.floor((bar + 1) * per));
    for (let i = from; i < to; i += 1) sum += bins[i];
    const size = Math.max(least, ((sum / (to - from)) / 255) * height);
    context.fillRect(bar * slot + (slot - barWidth) / 2, (height - size) / 2, barWidth, size);
  }
}

// Reduced motion: one horizontal level (the signal's RMS), on a track in the border colour.
function drawLevel(state) {
  const { analyser, wave, context, canvas } = state;
  analyser.getByteTimeDomainData(wave);
  let sum = 0;
  for (const sample of wave) sum += ((sample - 128) / 128) ** 2;
  const level = Math.min(1, Math.sqrt(sum / wave.length) * 4); // speech RMS is ~0.05-0.25
  const { width, height } = canvas;
  const thick = Math.min(height, Math.max(4, state.ratio * 6));
  const y = (height - thick) / 2;
  context.clearRect(0, 0, width, height);
  context.fillStyle = state.colours.track;
  context.fillRect(0, y, width, thick);
  context.fillStyle = state.colours.bar;
  context.fillRect(0, y, width * level, thick);
}
