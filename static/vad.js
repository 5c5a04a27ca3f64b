// Lexical's voice activity detection: hears where the learner's utterances start and end in a
// microphone stream and hands over each one, once, as a recording to send to the provider's
// transcription (issue 24, docs/decisions/030). Silero VAD v6 (from @ricky0123/vad-web) runs in
// onnxruntime-web's WebAssembly backend in a worker (static/vad-worker.js), fed 16 kHz frames by
// an AudioWorklet (static/vad-worklet.js): per audio frame nothing runs on the main thread; the
// page gets only the events below. All three files and the vendored runtime are precached by
// the service worker; nothing loads until load() is called.
//
//   await load()  ->  {loadMs}
//     Starts the worker, which loads the model (~17 MB from static/vendor/, compiled once per
//     load; 0.8-2.5 s here, off the main thread). Safe to call again: the same promise. When the
//     runtime cannot be fetched it is taken from the service worker's cache; a failure (offline
//     and not cached) rejects, and the next call tries again.
//
//   const handle = await start(mediaStream, audioContext, callbacks, options)
//     Listens to `mediaStream` (from getUserMedia; turn its echoCancellation/noiseSuppression
//     on or off as the app likes) through `audioContext` (16 kHz or more), which must be
//     running (resumed in a user gesture). Calls load() itself. One session at a time: starting
//     another stops this one.
//     callbacks (each optional; a JS object or Map whose members are functions, e.g.
//     create_proxy()'d Python callables; a Python dict itself or an unknown name is refused):
//       onListening(t)                   the session's first frame reached the detector (t its
//                                        first sample), a little after start() resolved: from
//                                        now on an utterance is heard from its start
//       onSpeechStart(t)                 a frame of speech: an utterance may have begun at t
//       onSpeechEnd(t, blob, mime, info) the utterance is over: `blob` is its recording, a WAV
//                                        (mime "audio/wav", 16 kHz mono 16-bit) from preRollMs
//                                        before its first speech frame to tailMs after its last;
//                                        t is when the detector decided it was over. info:
//                                        {start, end} the speech itself, {recordedFrom,
//                                        recordedUntil} the recording, seconds its length.
//       onMisfire(t, info)               it was too short to be an utterance (a click, a cough):
//                                        nothing to send. info: {start, end}.
//       onError(reason)                  "ended" (the microphone's track ended) or the worker's
//                                        error message; the session is over.
//     options (a JS object or Map; defaults measured in docs/decisions/030):
//       minSpeechMs 60, silenceMs 800, maxUtteranceMs 15000, preRollMs 300, tailMs 200,
//       positive 0.5, negative 0.35 (the speech probabilities that start and keep an utterance).
//     Every time is in seconds of performance.now().
//
//   await handle.stop(flush = false)
//     Stops listening (the microphone stream itself is the caller's to stop). With flush, an
//     utterance in progress is still delivered (if long enough); without, nothing more is called.
//     Once it resolves no callback of this session is called again (destroy their proxies).
//   await handle.stats()
//     {frames, inferenceMs, maxLagMs, loadMs} from the worker, and the page's counters.
//
// window.__lexicalVad counts what reached the main thread ({messages, utterances, misfires}),
// for the tests and `make bench` (one message per event, never per frame: the first frame of
// a session is one such event).

const WORKER = new URL("./vad-worker.js", import.meta.url);
const WORKLET = new URL("./vad-worklet.js", import.meta.url);
const MIME = "audio/wav";
const counters = { messages: 0, utterances: 0, misfires: 0 };
window.__lexicalVad = counters;

let worker = null;
let loading = null; // a promise of {loadMs}, once asked for
let pendingLoad = null; // {resolve, reject} while loading
let statsWaiting = [];
const sessions = new Map(); // id -> session
const worklets = new WeakMap(); // AudioContext -> promise of its addModule
let nextId = 1;

export function load() {
  if (loading === null) {
    loading = attempt(false).catch(() => attempt(true));
    loading.catch(() => { loading = null; });
  }
  return loading;
}

// One worker loading the model; `fromCache`: its runtime from the service worker's cache (see
// cachedWasm() in static/vad-worker.js). A failed worker is ended.
function attempt(fromCache) {
  return new Promise((resolve, reject) => {
    pendingLoad = { resolve, reject };
    worker = new Worker(WORKER, { type: "module", name: "lexical-vad" });
    worker.onmessage = (event) => dispatch(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      failed(event.message || "the voice detector could not start");
    };
    worker.postMessage({ type: "load", fromCache });
  }).catch((error) => {
    worker.terminate();
    worker = null;
    throw error;
  });
}

function failed(message) {
  if (pendingLoad) {
    pendingLoad.reject(new Error(message));
    pendingLoad = null;
    return;
  }
  for (const session of [...sessions.values()]) {
    const listening = !session.closed; // a session being stopped hears nothing more
    session.close();
    sessions.delete(session.id);
    session.stopped();
    if (listening) call(session.callbacks.onError, message);
  }
}

function call(callback, ...args) {
  if (typeof callback !== "function") return;
  try {
    callback(...args);
  } catch (error) {
    reportError(error); // shown like any uncaught error; the next event still comes
  }
}

function dispatch(message) {
  counters.messages++;
  if (message.type === "ready") {
    pendingLoad?.resolve({ loadMs: message.loadMs });
    pendingLoad = null;
    return;
  }
  if (message.type === "failed") return failed(message.message);
  if (message.type === "stats") {
    statsWaiting.forEach((resolve) => resolve({ ...message, ...counters }));
    statsWaiting = [];
    return;
  }
  const session = sessions.get(message.session);
  if (!session) return;
  if (message.type === "stopped") {
    sessions.delete(session.id);
    session.stopped();
    return;
  }
  if (session.closed) return;
  const { callbacks } = session;
  const at = (time) => session.clock(time);
  if (message.type === "listening") {
    call(callbacks.onListening, at(message.time));
  } else if (message.type === "speech-start") {
    call(callbacks.onSpeechStart, at(message.time));
  } else if (message.type === "speech-end") {
    counters.utterances++;
    const [from, until] = message.recorded;
    const info = {
      start: at(message.start),
      end: at(message.end),
      recordedFrom: at(from),
      recordedUntil: at(until),
      seconds: until - from,
    };
    const blob = new Blob([message.wav], { type: MIME });
    call(callbacks.onSpeechEnd, fromEpoch(message.decidedAt), blob, MIME, info);
  } else if (message.type === "misfire") {
    counters.misfires++;
    const info = { start: at(message.start), end: at(message.end) };
    call(callbacks.onMisfire, fromEpoch(message.decidedAt), info);
  }
}

// The worker stamps decisions in milliseconds since the epoch; this page's performance.now()
// counts from its own origin.
function fromEpoch(ms) {
  return (ms - performance.timeOrigin) / 1000;
}

const CALLBACKS = ["onListening", "onSpeechStart", "onSpeechEnd", "onMisfire", "onError"];
const OPTIONS = [
  "minSpeechMs", "silenceMs", "maxUtteranceMs", "preRollMs", "tailMs", "positive", "negative",
];

// A JS object or Map (Pyodide's to_js makes a Map of a dict) with only `names` as keys. A
// Python dict itself (a PyProxy) would read as empty, silently: it is refused instead.
function plain(value, names, what) {
  if (value == null) return {};
  if (typeof value.toJs === "function") {
    throw new TypeError(`${what}: pass a JS object (to_js(d, dict_converter=Object.fromEntries))`);
  }
  const entries = value instanceof Map ? Object.fromEntries(value) : { ...value };
  const unknown = Object.keys(entries).filter((name) => !names.includes(name));
  if (unknown.length) throw new TypeError(`${what}: unknown ${unknown.join(", ")}`);
  return entries;
}

function worklet(audioContext) {
  if (!worklets.has(audioContext)) {
    const adding = audioContext.audioWorklet.addModule(WORKLET);
    adding.catch(() => worklets.delete(audioContext));
    worklets.set(audioContext, adding);
  }
  return worklets.get(audioContext);
}

export async function start(mediaStream, audioContext, callbacks = {}, options = {}) {
  if (audioContext.sampleRate < 16000) {
    throw new Error(`the voice detector needs 16 kHz or more, not ${audioContext.sampleRate} Hz`);
  }
  const handlers = plain(callbacks, CALLBACKS, "callbacks");
  const settings = plain(options, OPTIONS, "options");
  await load();
  await worklet(audioContext);
  for (const session of [...sessions.values()]) session.stop(false);
  const id = nextId++;
  const source = audioContext.createMediaStreamSource(mediaStream);
  const node = new AudioWorkletNode(audioContext, "lexical-vad", {
    numberOfInputs: 1,
    numberOfOutputs: 0,
    channelCount: 1,
    channelCountMode: "explicit",
  });
  const channel = new MessageChannel();
  node.port.postMessage({ type: "port", port: channel.port1 }, [channel.port1]);
  worker.postMessage({ type: "start", port: channel.port2, options: { ...settings, session: id } }, [
    channel.port2,
  ]);
  source.connect(node);
  const tracks = mediaStream.getAudioTracks();
  let stopping = null;
  const session = {
    id,
    callbacks: handlers,
    closed: false,
    stopped: () => {},
    // AudioContext seconds -> performance.now() seconds, as of now.
    clock: (time) => (performance.now() - (audioContext.currentTime - time) * 1000) / 1000,
    close() {
      if (session.closed) return;
      session.closed = true;
      tracks.forEach((track) => track.removeEventListener("ended", ended));
      source.disconnect();
      node.port.postMessage({ type: "stop" });
      node.port.close();
    },
    stop(flush) {
      if (stopping) return stopping;
      stopping = new Promise((resolve) => { session.stopped = resolve; });
      if (!flush) session.close();
      worker.postMessage({ type: "stop", session: id, flush: Boolean(flush) });
      stopping.then(() => session.close());
      return stopping;
    },
  };
  function ended() {
    session.stop(false);
    call(handlers.onError, "ended");
  }
  tracks.forEach((track) => track.addEventListener("ended", ended));
  sessions.set(id, session);
  return {
    stop: (flush = false) => session.stop(flush),
    stats: () =>
      new Promise((resolve) => {
        statsWaiting.push(resolve);
        worker.postMessage({ type: "stats" });
      }),
  };
}
