// A scripted stand-in for the browser's speech recogniser, installed with
// `context.add_init_script(path=...)`.
//
// Headless Chromium's SpeechRecognition fails with "network" (its recogniser is a server), so the
// e2e tests replace the constructor with a double that fires the real events in the real order
// (start, audiostart, soundstart, speechstart, interim and final results, speechend, soundend,
// audioend, end) when the test says what the user "said", and each error code on demand.
// Everything behind it (our adapter, the listening state machine, the assistant) stays real.
//
// From a test: `page.evaluate("window.__speech.say('make a folder', {interim: ['make a']})")`,
// `__speech.fail('not-allowed')`, `__speech.started` (how many times recognition was started),
// `__speech.last` (the last instance: its lang, continuous, interimResults, processLocally,
// phrases). `__speech.availability` is what `SpeechRecognition.available()` answers.
//
// `window.__speechRefuses` (set by an init script before this one) makes it refuse as real
// browsers were measured to (Debian Chromium 156, headless, fake microphone, 2026-11-27):
//   {phrases: "phrases-not-supported"}  setting phrases fires that error at once (before start);
//                                       start() then fires it again and "end", never "start";
//   {start: "audio-capture"}            start() fires "start", that error, then "end"
//                                       ("network" for a build without a speech service);
//   {local: "language-not-supported"}   start() with processLocally fires that error and no "end".
// Each refusal is counted in `__speech.refused` (code -> times).
(() => {
  const refuses = window.__speechRefuses || {};
  const speech = {
    started: 0,
    refused: {},
    instances: [],
    availability: "unavailable",
    installs: [],
    get last() { return this.instances[this.instances.length - 1] || null; },
    get listening() { const r = this.last; return !!r && r.running; },
    say(text, options = {}) {
      const r = this.last;
      if (!r || !r.running) throw new Error("not listening");
      r._say(text, options);
    },
    hear(partial) {
      const r = this.last;
      if (!r || !r.running) throw new Error("not listening");
      r._hear(partial);
    },
    silence() { const r = this.last; if (r && r.running) r._end(); },
    fail(code) { const r = this.last; if (r && r.running) r._fail(code); },
  };
  const later = (fn) => setTimeout(fn, 0);
  function fire(target, type, extra = {}) {
    const event = new Event(type);
    Object.assign(event, extra);
    target.dispatchEvent(event);
    const handler = target["on" + type];
    if (typeof handler === "function") handler.call(target, event);
  }
  function resultList(items) {
    // The shape of SpeechRecognitionResultList: indexable, with length and item().
    const list = items.map(({ alternatives, isFinal }) => {
      const result = alternatives.map(({ transcript, confidence }) => ({ transcript, confidence }));
      result.isFinal = isFinal;
      result.item = (i) => result[i];
      return result;
    });
    list.item = (i) => list[i];
    return list;
  }
  class ScriptedRecognition extends EventTarget {
    constructor() {
      super();
      this.lang = "";
      this.continuous = false;
      this.interimResults = false;
      this.maxAlternatives = 1;
      this.processLocally = false;
      this._phrases = [];
      this.running = false;
      this._talking = false;
      this._results = [];
      speech.instances.push(this);
    }
    get phrases() { return this._phrases; }
    set phrases(value) {
      this._phrases = value;
      if (refuses.phrases && value && value.length) later(() => this._refuse(refuses.phrases));
    }
    _refuse(code) {
      speech.refused[code] = (speech.refused[code] || 0) + 1;
      fire(this, "error", { error: code, message: "" });
    }
    start() {
      if (this.running) throw new DOMException("already started", "InvalidStateError");
      speech.started += 1;
      const hinted = refuses.phrases && this._phrases && this._phrases.length;
      if (hinted || (refuses.local && this.processLocally)) {
        later(() => {
          this._refuse(hinted ? refuses.phrases : refuses.local);
          if (hinted) fire(this, "end");
        });
        return;
      }
      this.running = true;
      this._results = [];
      if (refuses.start) {
        later(() => { fire(this, "start"); this._refuse(refuses.start); this._end(); });
        return;
      }
      later(() => { fire(this, "start"); fire(this, "audiostart"); });
    }
    stop() { if (this.running) later(() => this._end()); }
    abort() { if (this.running) later(() => this._fail("aborted")); }
    _talk() {
      if (this._talking) return;
      this._talking = true;
      fire(this, "soundstart");
      fire(this, "speechstart");
    }
    _guess(partial) {
      const guess = { alternatives: [{ transcript: partial, confidence: 0.5 }], isFinal: false };
      const results = resultList([...this._results, guess]);
      fire(this, "result", { resultIndex: this._results.length, results });
    }
    _hear(partial) {
      this._talk();
      if (this.interimResults) this._guess(partial);
    }
    _say(text, { interim = [], alternatives = [], confidence = 0.9 } = {}) {
      this._talk();
      if (this.interimResults) interim.forEach((partial) => this._guess(partial));
      const index = this._results.length;
      const finals = [text, ...alternatives].slice(0, Math.max(1, this.maxAlternatives));
      const heard = finals.map((t, i) => ({ transcript: t, confidence: i ? confidence / 2 : confidence }));
      this._results.push({ alternatives: heard, isFinal: true });
      fire(this, "result", { resultIndex: index, results: resultList(this._results) });
      this._talking = false;
      fire(this, "speechend");
      fire(this, "soundend");
      if (!this.continuous) this._end();
    }
    _fail(code) {
      fire(this, "error", { error: code, message: "" });
      this._end();
    }
    _end() {
      if (!this.running) return;
      this.running = false;
      fire(this, "audioend");
      fire(this, "end");
    }
    static async available(options) { return speech.availability; }
    static async install(options) {
      speech.installs.push(options);
      speech.availability = "available";
      return true;
    }
  }
  window.SpeechRecognition = ScriptedRecognition;
  window.webkitSpeechRecognition = ScriptedRecognition;
  window.__speech = speech;
})();
