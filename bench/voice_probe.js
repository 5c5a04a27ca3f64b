// Voice timings for `make bench` (bench/voice.py, bench/drill.py), an init script added after
// the e2e suite's recogniser and speech synthesis doubles (e2e/recognition_double.js,
// synthesis_double.js). It records, with performance.now(), when the double fires the final
// result (after a push-to-talk release, or when `say` delivers one), when the page
// starts the chat request (window.fetch), and when the page hands an utterance to
// speechSynthesis.speak; the app's own "lexical:voice-sentence" marks say when a streamed
// sentence was queued for speech. It counts the proxies a hundred turns leave alive through the
// Pyodide API bench/probe.js keeps.
(() => {
  const voice = { finals: [], requests: [], spoken: [], final: null };
  window.__benchVoice = voice;

  // A push-to-talk turn as a real recogniser ends one: the user releases the button, the page
  // calls stop(), and what was said arrives as the final result just before "end".
  const Recognition = window.SpeechRecognition;
  if (Recognition) {
    const stop = Recognition.prototype.stop;
    Recognition.prototype.stop = function () {
      if (voice.final !== null && this.running) {
        const text = voice.final;
        voice.final = null;
        voice.finals.push(performance.now());
        this._say(text);
      }
      return stop.call(this);
    };
  }

  // The double delivers `text` as the final result now, as a recogniser that heard it (the
  // time is taken just before its events: speech start, then the result).
  voice.say = (text) => {
    voice.finals.push(performance.now());
    window.__speech.say(text);
  };

  const fetch = window.fetch;
  window.fetch = function (resource, options) {
    const url = typeof resource === "string" ? resource : String(resource?.url ?? resource);
    if (url.includes("/chat/completions")) voice.requests.push(performance.now());
    return fetch.call(window, resource, options);
  };

  const synth = window.speechSynthesis;
  if (synth) {
    const speak = synth.speak;
    synth.speak = (utterance) => {
      voice.spoken.push(performance.now());
      return speak.call(synth, utterance);
    };
  }

  // Everything one turn recorded, then forgotten (so a hundred turns keep nothing here).
  voice.take = () => {
    const marks = performance.getEntriesByName("lexical:voice-sentence").map((m) => m.startTime);
    const turn = { finals: voice.finals, requests: voice.requests, sentences: marks,
                   spoken: voice.spoken };
    voice.finals = [];
    voice.requests = [];
    voice.spoken = [];
    performance.clearMarks("lexical:voice-sentence");
    return turn;
  };

  // Python's garbage collected first, so only proxies something still holds are counted:
  // PyProxies created since `traceProxies()` and not destroyed, and JS values Python holds.
  voice.traceProxies = () => window.__bench.pyodide._module.enable_pyproxy_allocation_tracing();
  voice.proxies = () => {
    const pyodide = window.__bench.pyodide;  // bench/probe.js keeps it
    pyodide.runPython("import gc; gc.collect()");
    const module = pyodide._module;
    return { pyproxies: module.pyproxy_alloc_map.size, jsrefs: module._hiwire_num_refs() };
  };

})();
