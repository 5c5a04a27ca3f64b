// A scripted stand-in for the browser's speech synthesis, installed with
// `context.add_init_script(path=...)`. Headless Chromium has no voices and its speak() fails,
// so the page gets a double before it loads: it lists its voices late (as Chrome does, with
// `voiceschanged`), records every utterance in `window.__spoken` (text, lang, voice, rate,
// pitch) and fires start then end. Everything behind it is the app as it ships.
(() => {
  const voices = [
    {name: "Afrikaans", lang: "af", localService: true, default: true, voiceURI: "af"},
    {name: "English (America)", lang: "en-US", localService: true, default: false, voiceURI: "en"},
    {name: "Spanish (Latin America)", lang: "es-419", localService: true, default: false,
     voiceURI: "es-419"},
    {name: "Spanish (Spain)", lang: "es_ES", localService: true, default: false, voiceURI: "es"},
    {name: "German", lang: "de-DE", localService: true, default: false, voiceURI: "de"},
  ];
  class Utterance {
    constructor(text) {
      Object.assign(this, {text, lang: "", voice: null, rate: 1, pitch: 1, volume: 1,
                           onstart: null, onend: null, onerror: null});
    }
  }
  const fire = (u, type) => { if (u[`on${type}`]) u[`on${type}`]({type, utterance: u}); };
  const synth = new EventTarget();
  let listed = [];
  window.__spoken = [];
  Object.assign(synth, {
    speaking: false, pending: false, paused: false,
    getVoices: () => listed,
    speak(u) {
      window.__spoken.push({text: u.text, lang: u.lang, voice: u.voice && u.voice.name,
                            rate: u.rate, pitch: u.pitch});
      setTimeout(() => { fire(u, "start"); setTimeout(() => fire(u, "end"), 10); }, 0);
    },
    cancel() {}, pause() {}, resume() {},
  });
  Object.defineProperty(window, "speechSynthesis", {value: synth, configurable: true});
  Object.defineProperty(window, "SpeechSynthesisUtterance", {value: Utterance,
                                                             configurable: true});
  setTimeout(() => { listed = voices; synth.dispatchEvent(new Event("voiceschanged")); }, 50);
})();
