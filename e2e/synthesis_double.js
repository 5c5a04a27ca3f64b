// A scripted stand-in for the browser's speech synthesis, installed with
// `context.add_init_script(path=...)`. Headless Chromium has no voices and its speak() fails,
// so the page gets a double before it loads. By default it is an ideal browser: it lists its
// voices late (as Chrome does, with `voiceschanged`), records every utterance in
// `window.__spoken` (text, lang, voice, rate, pitch, outcome) and fires start then end.
// Everything behind it is the app as it ships.
//
// Options reproduce what real browsers were measured to do. Set them in an init script added
// before this one: `window.__synthesisOptions = {voices: "empty", speak: "synthesis-failed"}`.
//   voices: "listed"           (default) five voices, listed 50 ms after load with voiceschanged
//           "empty"            getVoices() stays [], voiceschanged fires once with it (Debian
//                              Chromium 150 and 156 headless, no speech-dispatcher: it fires
//                              after 1-2 ms)
//           "never"            getVoices() stays [] and voiceschanged never fires (Chromium 156
//                              with --enable-speech-dispatcher and Debian's
//                              speech-dispatcher-espeak-ng, the daemon already running)
//           "other-languages"  voices exist, none for English or Spanish (Afrikaans, German)
//           [{name, lang}, ...] exactly these
//   speak:  "end"              (default) start, then end 10 ms later
//           "synthesis-failed" (or any error code) `error` with that code at once, no start
//                              (Chromium 156 headless without speech-dispatcher, 2026-11-28)
//           "hang"             nothing ever fires, `speaking` stays true; cancel() fires
//                              error "canceled" (Chromium 156 with speech-dispatcher: no start,
//                              end or error in 15 s)
//           "start-then-hang"  start, then nothing; cancel() fires error "interrupted" (the same,
//                              on the daemon's first start: 13,362 voices after 2.5 s, start,
//                              then no end)
// `window.__synthesis` counts `cancels` and holds the options in force.
(() => {
  const LISTED = [
    {name: "Afrikaans", lang: "af", localService: true, default: true, voiceURI: "af"},
    {name: "English (America)", lang: "en-US", localService: true, default: false, voiceURI: "en"},
    {name: "Spanish (Latin America)", lang: "es-419", localService: true, default: false,
     voiceURI: "es-419"},
    {name: "Spanish (Spain)", lang: "es_ES", localService: true, default: false, voiceURI: "es"},
    {name: "German", lang: "de-DE", localService: true, default: false, voiceURI: "de"},
  ];
  const PRESETS = {listed: LISTED, empty: [], never: [],
                   "other-languages": [LISTED[0], LISTED[4]]};
  const options = {voices: "listed", speak: "end", ...(window.__synthesisOptions || {})};
  const voices = Array.isArray(options.voices)
    ? options.voices.map((v) => ({localService: true, default: false, voiceURI: v.name, ...v}))
    : PRESETS[options.voices];
  class Utterance {
    constructor(text) {
      Object.assign(this, {text, lang: "", voice: null, rate: 1, pitch: 1, volume: 1,
                           onstart: null, onend: null, onerror: null});
    }
  }
  const fire = (u, type, error) => {
    const handler = u[`on${type}`];
    if (handler) handler({type, utterance: u, ...(error ? {error} : {})});
  };
  const synth = new EventTarget();
  let listed = [];
  let hung = [];  // utterances the engine took and never finished: cancel() ends them
  window.__spoken = [];
  window.__synthesis = {cancels: 0, options};
  Object.assign(synth, {
    speaking: false, pending: false, paused: false,
    getVoices: () => listed,
    speak(u) {
      const record = {text: u.text, lang: u.lang, voice: u.voice && u.voice.name,
                      rate: u.rate, pitch: u.pitch, outcome: "said"};
      window.__spoken.push(record);
      synth.speaking = true;
      if (options.speak === "end") {
        setTimeout(() => {
          fire(u, "start");
          setTimeout(() => { synth.speaking = false; fire(u, "end"); }, 10);
        }, 0);
      } else if (options.speak === "hang" || options.speak === "start-then-hang") {
        record.outcome = "hung";
        hung.push(u);
        if (options.speak === "start-then-hang") {
          u.__started = true;
          setTimeout(() => fire(u, "start"), 0);
        }
      } else {
        record.outcome = options.speak;
        setTimeout(() => { synth.speaking = false; fire(u, "error", options.speak); }, 0);
      }
    },
    cancel() {
      window.__synthesis.cancels += 1;
      const ended = hung;
      hung = [];
      synth.speaking = false;
      for (const u of ended) fire(u, "error", u.__started ? "interrupted" : "canceled");
    },
    pause() {}, resume() {},
  });
  Object.defineProperty(window, "speechSynthesis", {value: synth, configurable: true});
  Object.defineProperty(window, "SpeechSynthesisUtterance", {value: Utterance,
                                                             configurable: true});
  if (options.voices !== "never") {
    const delay = options.voices === "empty" ? 2 : 50;
    setTimeout(() => { listed = voices; synth.dispatchEvent(new Event("voiceschanged")); }, delay);
  }
})();
