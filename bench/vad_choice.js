// The page side of bench/vad_choice.py (docs/decisions/030): loads one voice activity detector
// and classifies recordings with it, frame by frame, as it would run on live audio, and says how
// long that took on this thread. The Python side scores the frames; it never judges here.
//
// window.vadChoice.load(kind, variant) -> {loadMs}: import the detector from ./pkg/ (the npm
//   packages as `npm pack` gives them) and get it ready to classify (for Silero: compile the
//   onnxruntime-web wasm and the model, then one inference).
// window.vadChoice.classify(url, rate) -> {hopS, probs, cpuMs, audioS}: decode the WAV at its own
//   sample rate and give each frame's speech probability (0 or 1 for the detectors that only say
//   yes or no). cpuMs is the time the detector took on this thread, decoding excluded.
//
// window.vadChoice.live(seconds, options): static/vad.js itself on the fake microphone (--live).
//
// Kinds: "silero" (variant: "legacy", "v5", "v6": @ricky0123/vad-web's models run the way its
// models/*.js run them, in onnxruntime-web's wasm backend, single-threaded, after vad-web's
// box-average resampler to 16 kHz), "fvad" (variant: "MODE/FRAME_MS", libfvad's aggressiveness
// 0-3 and its frame, at the recording's own rate), "hark" (variant: the threshold in dB; hark's
// own code, its AnalyserNode and its 50 ms poll, run in an OfflineAudioContext whose suspend()
// stands in for the poll's setTimeout).

let detector = null;

async function timed(work) {
  const started = performance.now();
  const value = await work();
  return [value, performance.now() - started];
}

async function decode(url, rate) {
  const bytes = await (await fetch(url)).arrayBuffer();
  const context = new OfflineAudioContext(1, 1, rate);
  return context.decodeAudioData(bytes);
}

// vad-web's Resampler (dist/resampler.js): each output sample is the mean of the input samples
// that fall in its period. Kept as a whole-array pass here, but timed with the detector.
function boxResample(samples, fromRate, toRate) {
  if (fromRate === toRate) return samples;
  const out = new Float32Array(Math.floor((samples.length * toRate) / fromRate));
  let input = 0;
  for (let i = 0; i < out.length; i++) {
    const until = Math.min(samples.length, ((i + 1) * fromRate) / toRate);
    let sum = 0;
    let count = 0;
    for (; input < until; input++) {
      sum += samples[input];
      count++;
    }
    out[i] = count ? sum / count : 0;
  }
  return out;
}

async function sileroDetector(variant) {
  const ort = await import("./pkg/ort/ort.wasm.min.mjs");
  ort.env.wasm.wasmPaths = new URL("./pkg/ort/", location.href).href;
  ort.env.wasm.numThreads = 1; // no cross-origin isolation, so no threads anyway
  ort.env.logLevel = "error";
  const model = `./pkg/vad-web/silero_vad_${variant}.onnx`;
  const session = await ort.InferenceSession.create(model, { executionProviders: ["wasm"] });
  const legacy = variant === "legacy";
  const frameSamples = legacy ? 1536 : 512; // vad-web's frame for each model
  const contextSamples = legacy ? 0 : 64; // v5/v6 see the tail of the previous frame
  const sr = new ort.Tensor("int64", [16000n]);
  const fresh = () =>
    legacy
      ? {
          h: new ort.Tensor("float32", new Float32Array(128), [2, 1, 64]),
          c: new ort.Tensor("float32", new Float32Array(128), [2, 1, 64]),
        }
      : { state: new ort.Tensor("float32", new Float32Array(256), [2, 1, 128]) };
  let state = fresh();
  let context = new Float32Array(contextSamples);
  async function step(frame) {
    const input = new Float32Array(contextSamples + frame.length);
    input.set(context, 0);
    input.set(frame, contextSamples);
    if (contextSamples) context = frame.slice(-contextSamples);
    const out = await session.run({ input: new ort.Tensor("float32", input, [1, input.length]), sr, ...state });
    state = legacy ? { h: out.hn, c: out.cn } : { state: out.stateN };
    return out.output.data[0];
  }
  await step(new Float32Array(frameSamples)); // the first run allocates; it belongs to loading
  return {
    async classify(samples, rate) {
      state = fresh();
      context = new Float32Array(contextSamples);
      const probs = [];
      const [, cpuMs] = await timed(async () => {
        const audio = boxResample(samples, rate, 16000);
        for (let at = 0; at + frameSamples <= audio.length; at += frameSamples) {
          probs.push(await step(audio.subarray(at, at + frameSamples)));
        }
      });
      return { hopS: frameSamples / 16000, probs, cpuMs };
    },
  };
}

async function fvadDetector(variant) {
  const [mode, frameMs] = variant.split("/").map(Number);
  const factory = (await import("./pkg/fvad/fvad.js")).default;
  const wasm = await factory();
  return {
    async classify(samples, rate) {
      const frame = Math.round((rate * frameMs) / 1000);
      const probs = [];
      const [, cpuMs] = await timed(async () => {
        const handle = wasm._fvad_new();
        if (wasm._fvad_set_mode(handle, mode) || wasm._fvad_set_sample_rate(handle, rate)) {
          throw new Error(`fvad refuses mode ${mode} at ${rate} Hz`);
        }
        const pointer = wasm._malloc(frame * 2);
        const pcm = new Int16Array(frame);
        for (let at = 0; at + frame <= samples.length; at += frame) {
          for (let i = 0; i < frame; i++) {
            const s = samples[at + i];
            pcm[i] = s < -1 ? -32768 : s > 1 ? 32767 : Math.round(s * 32767);
          }
          wasm.HEAP16.set(pcm, pointer >> 1);
          const said = wasm._fvad_process(handle, pointer, frame);
          if (said < 0) throw new Error("fvad_process failed");
          probs.push(said);
        }
        wasm._free(pointer);
        wasm._fvad_free(handle);
      });
      return { hopS: frame / rate, probs, cpuMs };
    },
  };
}

function loadClassic(src) {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.onload = resolve;
    script.onerror = () => reject(new Error(`cannot load ${src}`));
    document.head.append(script);
  });
}

async function harkDetector(variant) {
  await loadClassic("./pkg/hark/hark.bundle.js");
  const threshold = Number(variant);
  const interval = 50; // hark's default poll
  return {
    async classify(samples, rate) {
      const buffer = new AudioBuffer({ length: samples.length, sampleRate: rate, numberOfChannels: 1 });
      buffer.copyToChannel(samples, 0);
      const context = new OfflineAudioContext(1, samples.length, rate);
      const source = new AudioBufferSourceNode(context, { buffer });
      // hark takes the context it is given and a MediaStream; this one hands it the source.
      const shim = {
        createAnalyser: () => context.createAnalyser(),
        createMediaStreamSource: () => source,
        destination: context.destination,
        suspend: () => Promise.resolve(),
        resume: () => Promise.resolve(),
        state: "running",
      };
      let poll = null;
      const realSetTimeout = window.setTimeout;
      window.setTimeout = (callback) => { poll = callback; return 0; };
      const probs = [];
      let cpuMs = 0;
      let harker;
      try {
        harker = window.hark({}, { audioContext: shim, interval, threshold });
      } finally {
        window.setTimeout = realSetTimeout;
      }
      harker.on("volume_change", (volume, limit) => probs.push(volume > limit ? 1 : 0));
      const steps = Math.ceil((samples.length / rate) * (1000 / interval)) - 1;
      for (let k = 1; k <= steps; k++) {
        context.suspend((k * interval) / 1000).then(() => {
          const callback = poll;
          poll = null;
          window.setTimeout = (next) => { poll = next; return 0; };
          const started = performance.now();
          try {
            callback?.();
          } finally {
            cpuMs += performance.now() - started;
            window.setTimeout = realSetTimeout;
          }
          context.resume();
        });
      }
      source.start();
      await context.startRendering();
      harker.stop();
      return { hopS: interval / 1000, probs, cpuMs };
    },
  };
}

const KINDS = { silero: sileroDetector, fvad: fvadDetector, hark: harkDetector };

// A recording's length, and where its sound is: the 10 ms windows louder than 4x the quietest
// fifth of them (a crude onset, enough to see a clipped first syllable).
async function measure(blob) {
  const audio = await new OfflineAudioContext(1, 1, 16000).decodeAudioData(await blob.arrayBuffer());
  const samples = audio.getChannelData(0);
  const size = Math.round(audio.sampleRate / 100);
  const levels = [];
  for (let at = 0; at + size <= samples.length; at += size) {
    let sum = 0;
    for (let i = at; i < at + size; i++) sum += samples[i] * samples[i];
    levels.push(Math.sqrt(sum / size));
  }
  const floor = [...levels].sort((a, b) => a - b)[Math.floor(levels.length / 5)];
  const loud = levels.map((level, i) => [level, i]).filter(([level]) => level > 4 * floor);
  return {
    decoded: audio.duration,
    soundFrom: loud.length ? loud[0][1] / 100 : null,
    soundUntil: loud.length ? (loud[loud.length - 1][1] + 1) / 100 : null,
  };
}

// static/vad.js as the app runs it, on Chromium's fake microphone for `seconds`: every event,
// each recording measured, t0 = when getUserMedia answered (about when the file started), the
// worker's figures, and the main thread's long tasks meanwhile.
async function live(seconds, options) {
  const vad = await import("./static/vad.js");
  const { loadMs } = await vad.load();
  const context = new AudioContext();
  await context.resume();
  const result = { starts: [], utterances: [], misfires: [], loadMs, longTasks: [] };
  new PerformanceObserver((list) => {
    for (const task of list.getEntries()) {
      result.longTasks.push([task.startTime / 1000, task.duration]);
    }
  }).observe({ type: "longtask", buffered: true });
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
  });
  result.t0 = performance.now() / 1000;
  const pending = [];
  const handle = await vad.start(stream, context, {
    onSpeechStart: (t) => result.starts.push(t),
    onSpeechEnd: (t, blob, mime, info) => {
      const heard = { t, info, mime, size: blob.size, now: performance.now() / 1000 };
      pending.push(measure(blob).then((m) => result.utterances.push({ ...heard, ...m })));
    },
    onMisfire: (t, info) => result.misfires.push(info),
  }, options);
  result.listening = performance.now() / 1000;
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  await handle.stop(true);
  await Promise.all(pending);
  result.stats = await handle.stats();
  stream.getTracks().forEach((track) => track.stop());
  return result;
}

window.vadChoice = {
  live,
  async load(kind, variant) {
    const [made, loadMs] = await timed(() => KINDS[kind](String(variant)));
    detector = made;
    return { loadMs };
  },
  async classify(url, rate) {
    const buffer = await decode(url, rate);
    const samples = buffer.getChannelData(0);
    const result = await detector.classify(samples, rate);
    return { ...result, audioS: samples.length / rate };
  },
};
document.documentElement.dataset.ready = "true";
