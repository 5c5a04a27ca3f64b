// Fits FSRS-6's parameters to a learner's review log with fsrs-rs, the optimiser Anki uses,
// compiled to WebAssembly (npm fsrs-browser, vendored): in a worker of its own, so the page
// keeps answering while it trains (seconds on a large log), and a fit can be cancelled by
// ending the worker. app/browser/fit.py calls `fit`; the training items come from
// app/study/training.py. Decision 037 says why fsrs-rs and not a fit in Python.

const WORKER = new URL("./fsrs-fit-worker.js", import.meta.url);

// Resolves to the 21 parameters; rejects with a sentence when fsrs-rs fails. `signal` (an
// AbortSignal) ends the worker and rejects with an AbortError.
export function fit(ratings, deltaTs, lengths, signal) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { type: "module" });
    const end = (settle, value) => {
      worker.terminate();
      signal?.removeEventListener("abort", abort);
      settle(value);
    };
    const abort = () => end(reject, new DOMException("The fit was cancelled.", "AbortError"));
    signal?.addEventListener("abort", abort);
    worker.onmessage = ({ data }) => {
      if (data?.type === "fitted") end(resolve, data.parameters);
      else if (data?.type === "failed") end(reject, new Error(data.message));
    };
    worker.onerror = (event) => end(reject, new Error(event.message || "The optimiser could not start."));
    worker.postMessage({ type: "fit", ratings, deltaTs, lengths }, [ratings.buffer, deltaTs.buffer, lengths.buffer]);
  });
}
