// Hands-free through the provider, for `make bench` (bench/drill_provider.py): an init script
// (after bench/probe.js) that watches the voice detector from the page's side and the drill
// screen, with performance.now().
//
// The detector (static/vad.js) runs its model in a worker named "lexical-vad" and takes that
// worker's messages in its `onmessage` handler: everything the detector does on the main thread
// while it listens (the worklet's frames go straight to the worker). Each call of that handler
// is timed here, with whatever the app's callbacks do inside it (onSpeechEnd starts the
// upload); when a "speech-end" arrives, its `decidedAt` (ms since the epoch, as vad.js turns it
// into the `t` of onSpeechEnd) is the moment the detector decided the utterance was over.
// `stats()` asks the worker for its own counters (frames classified, the model's time).
(() => {
  const provider = { ends: [], messages: 0, mainMs: 0, worker: null, stats: null, grade: null };
  window.__benchProvider = provider;

  const Native = window.Worker;
  let slot = null; // the `onmessage` accessor of Worker (on its prototype chain)
  for (let proto = Native?.prototype; proto && !slot; proto = Object.getPrototypeOf(proto)) {
    slot = Object.getOwnPropertyDescriptor(proto, "onmessage") ?? null;
  }
  const seen = (data, ms) => {
    if (data?.type === "stats") { // the bench asked: not the detector's work
      provider.stats = data;
      return;
    }
    provider.messages += 1;
    provider.mainMs += ms;
    if (data?.type === "speech-end") provider.ends.push(data.decidedAt - performance.timeOrigin);
  };
  if (Native && slot?.set) {
    window.Worker = class extends Native {
      constructor(url, options) {
        super(url, options);
        if (options?.name !== "lexical-vad") return;
        provider.worker = this;
        const worker = this;
        Object.defineProperty(this, "onmessage", {
          configurable: true,
          get: () => slot.get.call(worker),
          set: (handler) => slot.set.call(worker, typeof handler !== "function" ? handler
            : (event) => {
              const started = performance.now();
              try {
                return handler.call(worker, event);
              } finally {
                seen(event.data, performance.now() - started);
              }
            }),
        });
      }
    };
  }

  // The detector's times of decision since the last call, in performance.now() ms.
  provider.take = () => {
    const ends = provider.ends;
    provider.ends = [];
    return ends;
  };

  // The worker's counters ({frames, inferenceMs, ...}) with the main thread's
  // ({messages, mainMs}); null while no detector has started.
  provider.counters = async () => {
    if (!provider.worker) return null;
    provider.stats = null;
    provider.worker.postMessage({ type: "stats" });
    while (provider.stats === null) await new Promise((done) => setTimeout(done, 5));
    const { frames, inferenceMs } = provider.stats;
    return { frames, inferenceMs, messages: provider.messages, mainMs: provider.mainMs };
  };

  // From now, the first DOM change after which the drill shows new words heard and a grade:
  // `grade` becomes {shown, painted, heard, grade} (or {error}).
  provider.watchGrade = () => {
    const text = (id) => document.getElementById(id)?.textContent ?? "";
    const before = text("drill-heard");
    const graded = () => {
      const heard = text("drill-heard"), grade = text("drill-grade");
      return heard !== "" && heard !== "…" && heard !== before && grade !== "" && grade !== "…";
    };
    provider.grade = null;
    window.__bench.until(document.body, graded, "the grade shown", 60000).then(
      async (shown) => {
        const painted = await window.__bench.painted();
        provider.grade = { shown, painted, heard: text("drill-heard"), grade: text("drill-grade") };
      },
      (error) => { provider.grade = { error: String(error) }; },
    );
  };
})();
