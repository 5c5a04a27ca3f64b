// Lexical's voice activity detection, off the main thread: a module worker that runs Silero VAD
// (v6, the model @ricky0123/vad-web ships) in onnxruntime-web's WebAssembly backend, on the
// 16 kHz frames static/vad-worklet.js posts to it, and decides where utterances start and end.
// Each utterance is sent to the page once, as a WAV of the audio from a pre-roll before its first
// speech frame to a tail after its last. static/vad.js starts and talks to it; the choice of
// detector and the rules below are measured in docs/decisions/030 (bench/vad_choice.py).
//
// Messages in:  {type: "load", fromCache}, {type: "start", port, options}, {type: "stop", session, flush},
//               {type: "stats"}.
// Messages out: {type: "ready", loadMs}, {type: "failed", message},
//               {type: "listening", session, time} (the session's first frame came),
//               {type: "speech-start", session, time},
//               {type: "speech-end", session, start, end, recorded, decidedAt, wav},
//               {type: "misfire", session, start, end, decidedAt}, {type: "stopped", session},
//               {type: "stats", ...}.
// `time`, `start`, `end` and `recorded` (the [first, last] second of the WAV) are AudioContext
// seconds (of the frames' samples); `decidedAt` is
// milliseconds since the epoch (performance.timeOrigin + performance.now()), which the page
// turns into its own performance.now().
//
// The rules (each frame is 32 ms): a frame whose speech probability is >= positive starts an
// utterance; inside one, frames >= negative keep it going; silenceMs without such a frame ends
// it at its last speech frame; one holding less than minSpeechMs of frames >= positive is a
// misfire (no recording); maxUtteranceMs ends it wherever it is.

import * as ort from "./vendor/onnxruntime-web/ort.wasm.min.mjs";

const RATE = 16000;
const FRAME = 512;
const FRAME_S = FRAME / RATE;
const CONTEXT = 64; // v6 sees the last 64 samples of the previous frame (silero-vad's utils_vad.py)
const RUNTIME = "./vendor/onnxruntime-web/";
const MODEL = new URL("./vendor/silero-vad/silero_vad_v6.onnx", import.meta.url).href;
const DEFAULTS = {
  positive: 0.5,
  negative: 0.35,
  minSpeechMs: 60,
  silenceMs: 800,
  maxUtteranceMs: 15000,
  preRollMs: 300,
  tailMs: 200,
};

let session = null; // ort.InferenceSession
let sr = null;
let current = null; // the running session's state, see start()
let work = Promise.resolve(); // frames are classified one after another, in order
const stats = { frames: 0, inferenceMs: 0, maxLagMs: 0, loadMs: 0 };

function now() {
  return performance.timeOrigin + performance.now();
}

// The runtime's WebAssembly, from the service worker's cache. sw.js leaves .wasm requests to the
// network while the server answered when the page opened (for V8's code cache; decision 005),
// so a page that lost the network since cannot fetch it; then static/vad.js starts this worker
// again with `fromCache`, and the bytes come from the precache instead (compiled without the
// code cache: about twice as slow to load).
async function cachedWasm() {
  const url = new URL(`${RUNTIME}ort-wasm-simd-threaded.wasm`, import.meta.url).href;
  const response = (await self.caches?.match(url)) ?? (await fetch(url));
  if (!response.ok) throw new Error(`the voice detector's runtime is missing (${response.status})`);
  return response.arrayBuffer();
}

async function load(fromCache) {
  const started = performance.now();
  ort.env.wasm.wasmPaths = new URL(RUNTIME, import.meta.url).href;
  ort.env.wasm.numThreads = 1; // threads need cross-origin isolation, which the app does not have
  ort.env.logLevel = "error";
  if (fromCache) ort.env.wasm.wasmBinary = await cachedWasm();
  session = await ort.InferenceSession.create(MODEL, { executionProviders: ["wasm"] });
  sr = new ort.Tensor("int64", [BigInt(RATE)]);
  const warm = fresh({});
  await classify(warm, new Float32Array(FRAME)); // the first run allocates: part of loading
  stats.inferenceMs = 0;
  stats.loadMs = performance.now() - started;
  return stats.loadMs;
}

function fresh(options) {
  return {
    id: options.session ?? 0,
    rules: { ...DEFAULTS, ...options },
    state: new ort.Tensor("float32", new Float32Array(256), [2, 1, 128]),
    context: new Float32Array(CONTEXT),
    frames: [], // {samples, time}: the pre-roll while idle, the utterance and after inside one
    speaking: false,
    first: 0, // index in frames of the first speech frame
    last: 0, // index in frames of the last frame >= negative
    speechFrames: 0,
    flowing: false, // its first frame came
  };
}

async function classify(state, samples) {
  const input = new Float32Array(CONTEXT + FRAME);
  input.set(state.context, 0);
  input.set(samples, CONTEXT);
  state.context = samples.slice(FRAME - CONTEXT);
  const started = performance.now();
  const out = await session.run({
    input: new ort.Tensor("float32", input, [1, input.length]),
    state: state.state,
    sr,
  });
  stats.inferenceMs += performance.now() - started;
  state.state.dispose();
  state.state = out.stateN;
  const probability = out.output.data[0];
  out.output.dispose();
  return probability;
}

function wav(frames, from, until) {
  const count = (until - from) * FRAME;
  const bytes = new ArrayBuffer(44 + count * 2);
  const view = new DataView(bytes);
  const text = (at, value) => [...value].forEach((c, i) => view.setUint8(at + i, c.charCodeAt(0)));
  text(0, "RIFF");
  view.setUint32(4, 36 + count * 2, true);
  text(8, "WAVEfmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, RATE, true);
  view.setUint32(28, RATE * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, "data");
  view.setUint32(40, count * 2, true);
  let at = 44;
  for (let f = from; f < until; f++) {
    for (const s of frames[f].samples) {
      view.setInt16(at, Math.max(-32768, Math.min(32767, Math.round(s * 32767))), true);
      at += 2;
    }
  }
  return bytes;
}

function finish(state) {
  const { rules, frames } = state;
  const start = frames[state.first].time;
  const end = frames[state.last].time + FRAME_S;
  const decidedAt = now();
  if (state.speechFrames * FRAME_S * 1000 < rules.minSpeechMs) {
    postMessage({ type: "misfire", session: state.id, start, end, decidedAt });
  } else {
    const from = Math.max(0, state.first - Math.ceil(rules.preRollMs / 1000 / FRAME_S));
    const until = Math.min(frames.length, state.last + 1 + Math.ceil(rules.tailMs / 1000 / FRAME_S));
    const bytes = wav(frames, from, until);
    const recorded = [frames[from].time, frames[until - 1].time + FRAME_S];
    postMessage(
      { type: "speech-end", session: state.id, start, end, recorded, decidedAt, wav: bytes },
      [bytes],
    );
  }
  state.speaking = false;
  state.speechFrames = 0;
  keepPreRoll(state);
}

function keepPreRoll(state) {
  const keep = Math.ceil(state.rules.preRollMs / 1000 / FRAME_S) + 1;
  if (state.frames.length > keep) state.frames.splice(0, state.frames.length - keep);
}

async function step(state, frame) {
  const probability = await classify(state, frame.samples);
  if (current !== state) return; // stopped while this frame was classified
  stats.frames++;
  stats.maxLagMs = Math.max(stats.maxLagMs, now() - frame.arrived);
  const { rules, frames } = state;
  frames.push(frame);
  const index = frames.length - 1;
  if (!state.speaking) {
    if (probability >= rules.positive) {
      Object.assign(state, { speaking: true, first: index, last: index, speechFrames: 1 });
      postMessage({ type: "speech-start", session: state.id, time: frame.time });
    } else {
      keepPreRoll(state);
    }
    return;
  }
  if (probability >= rules.negative) {
    state.last = index;
    if (probability >= rules.positive) state.speechFrames++;
  }
  const silentMs = (frame.time - (frames[state.last].time + FRAME_S)) * 1000;
  const lengthMs = (frame.time + FRAME_S - frames[state.first].time) * 1000;
  if (silentMs >= rules.silenceMs) {
    finish(state);
  } else if (lengthMs >= rules.maxUtteranceMs) {
    state.last = index;
    finish(state);
  }
}

function start(port, options) {
  stop(undefined, false);
  const state = fresh(options);
  current = state;
  port.onmessage = (event) => {
    const frame = { ...event.data, arrived: now() };
    if (!state.flowing) {
      // The session's audio reaches the model only now, a little after start: said sooner, a
      // word would lose its start, so the page says it listens from here.
      state.flowing = true;
      postMessage({ type: "listening", session: state.id, time: frame.time });
    }
    work = work.then(() => (current === state ? step(state, frame) : null)).catch(fail);
  };
  state.port = port;
}

function stop(id, flush) {
  const state = current;
  if (!state || (id !== undefined && state.id !== id)) {
    if (id !== undefined) postMessage({ type: "stopped", session: id }); // already over
    return;
  }
  state.port.onmessage = null;
  state.port.close();
  if (!flush) current = null; // frames still queued are dropped
  work = work.then(() => {
    if (flush && current === state && state.speaking) finish(state);
    if (current === state) current = null;
    postMessage({ type: "stopped", session: state.id });
  });
}

function fail(error) {
  postMessage({ type: "failed", message: String(error?.message ?? error) });
}

onmessage = (event) => {
  const message = event.data;
  if (message.type === "load") {
    load(Boolean(message.fromCache)).then((loadMs) => postMessage({ type: "ready", loadMs }), fail);
  } else if (message.type === "start") {
    start(message.port, message.options);
  } else if (message.type === "stop") {
    stop(message.session, Boolean(message.flush));
  } else if (message.type === "stats") {
    postMessage({ type: "stats", ...stats });
  }
};
