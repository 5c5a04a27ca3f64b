// In-page timing for `make bench`, installed before any page script runs (Playwright init
// script). Every figure is taken here with performance.now(), from the moment the bench acts
// (an input event, a hash change, a click, a form submit) to the moment the DOM shows the result,
// so Playwright's round trips never count. "painted" adds the frame that draws it.
(() => {
  const now = () => performance.now();
  const probe = { readyAt: null };
  window.__bench = probe;

  // The Pyodide API PyScript started. PyScript's hooks are read from its own module once the
  // document is parsed (importing it any earlier, from here, stops PyScript from starting).
  probe.pyodide = null;
  if (location.pathname === "/") {
    addEventListener("DOMContentLoaded", () => {
      import("/static/vendor/pyscript/core.js").then(({ hooks }) => {
        hooks.main.onReady.add((wrap) => { probe.pyodide = wrap.interpreter; });
      });
    });
  }
  // The size of Pyodide's WebAssembly memory in MB (Python's heap and SQLite's database); CDP's
  // ArrayBuffer figure does not include it.
  probe.wasmMemory = () => (probe.pyodide ? probe.pyodide._module.HEAP8.length / 1e6 : 0);

  // Time to ready: when the page sets data-ready="true" on <html> (which does not exist yet
  // when this runs, hence the whole document is watched).
  let settle = null;
  const ready = new Promise((resolve, reject) => { settle = { resolve, reject }; });
  new MutationObserver(() => {
    const root = document.documentElement;
    if (probe.readyAt === null && root?.dataset.ready === "true") {
      probe.readyAt = now();
      settle.resolve(probe.readyAt);
    } else if (root?.dataset.bootError === "true") {
      const box = document.getElementById("boot-error");
      settle.reject(new Error(`bench: the app failed to start: ${box?.textContent}`));
    }
  }).observe(document, {
    attributes: true, subtree: true, attributeFilter: ["data-ready", "data-boot-error"],
  });

  // Resolves once the page is ready; rejects on a startup error or after `timeoutMs`.
  probe.ready = (timeoutMs) => Promise.race([ready, new Promise((_, reject) => setTimeout(
    () => reject(new Error("bench: the page did not become ready in time")), timeoutMs))]);

  // Main-thread tasks over 50 ms (the Long Tasks API reports no shorter ones), as
  // [start, duration]; buffered, so those before the observer was set up count too.
  probe.longTasks = [];
  new PerformanceObserver((list) => {
    for (const task of list.getEntries()) probe.longTasks.push([task.startTime, task.duration]);
  }).observe({ type: "longtask", buffered: true });
  // The durations of the long tasks that started at or after `since` (performance.now()),
  // less the bench's own calibration runs (each a long task of its own).
  probe.longTasksSince = (since) =>
    probe.longTasks.filter(([start, duration]) => start >= since && !probe.calibrations.some(
      ([from, to]) => start < to && start + duration > from)).map(([, duration]) => duration);

  // The calibration workload (bench/calibration.py): the first time in a page, `source` is run
  // in a namespace of its own (kept: its proxies are made once, before any figure that counts
  // proxies starts) and `called()` `warmUp` times untimed; then `called()` is timed `runs`
  // times. Each run is a task of its own, so the app's queued work runs between them rather
  // than inside a timing.
  probe.calibrations = [];
  let calibration = null;
  const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
  probe.calibrate = async (source, called, runs, warmUp) => {
    if (calibration === null) {
      if (!probe.pyodide) throw new Error("bench: no Pyodide to calibrate with");
      const start = now();  // compiling the source took about 100 ms in a fresh page
      const namespace = probe.pyodide.toPy({ __name__: "bench_calibration" });
      probe.pyodide.runPython(source, { globals: namespace });
      calibration = namespace.get(called);
      probe.calibrations.push([start, now()]);
      for (let i = 0; i < warmUp; i++) {
        await nextTask();
        const start = now();
        calibration();
        probe.calibrations.push([start, now()]);
      }
    }
    const ms = [];
    const checks = [];
    for (let i = 0; i < runs; i++) {
      await nextTask();
      const start = now();
      checks.push(calibration());
      const end = now();
      probe.calibrations.push([start, end]);
      ms.push(end - start);
    }
    return { ms, checks };
  };

  // PyScript reports its own steps ("Loading interpreter", "Loaded Pyodide", ...).
  probe.progress = [];
  window.addEventListener("py:progress", (e) => probe.progress.push([String(e.detail), now()]));

  probe.startup = () => ({
    ready: probe.readyAt,
    fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null,
    runtime: performance.getEntriesByName("bare:runtime")[0]?.startTime ?? null,
    // The copy of the last screen painted, on a warm start (static/warm.js).
    lastScreen: performance.getEntriesByName("lexical:warm-painted")[0]?.startTime ?? null,
    // Boot stages of the shell (static/boot.js marks each as it shows it).
    stages: Object.fromEntries(performance.getEntriesByType("mark")
      .filter((m) => m.name.startsWith("lexical:stage-"))
      .map((m) => [m.name.slice("lexical:stage-".length), m.startTime])),
    progress: probe.progress,
    measures: probe.measures(),
  });

  // When the app's performance.measure "lexical:<name>" ended, or null if it has not yet
  // (the packages it loads after the first screen, say).
  probe.measureEnd = (name) => {
    const span = performance.getEntriesByName(`lexical:${name}`, "measure")[0];
    return span ? span.startTime + span.duration : null;
  };

  // The app's own performance.measure entries (named "lexical:*"), in milliseconds.
  probe.measures = () => {
    const out = {};
    for (const m of performance.getEntriesByType("measure")) {
      if (m.name.startsWith("lexical:")) (out[m.name] ??= []).push(m.duration);
    }
    return out;
  };

  // Resolve with the time of the first DOM change under `target` after which `done()` holds.
  probe.until = (target, done, what, timeoutMs = 120000) =>
    new Promise((resolve, reject) => {
      const finish = (settle, value) => {
        observer.disconnect();
        clearTimeout(timer);
        settle(value);
      };
      const observer = new MutationObserver((records) => {
        try {
          if (done(records)) finish(resolve, now());
        } catch (error) {
          finish(reject, error);
        }
      });
      const timer = setTimeout(
        () => finish(reject, new Error(`bench: timed out waiting for ${what}`)), timeoutMs);
      observer.observe(target, {
        childList: true, subtree: true, attributes: true, attributeOldValue: true,
      });
    });

  // After the next frame has been rendered (a message posted from rAF runs after the paint).
  probe.painted = () =>
    new Promise((resolve) => requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve(now());
      channel.port2.postMessage(0);
    }));

  const $ = (selector) => {
    const el = document.querySelector(selector);
    if (!el) throw new Error(`bench: ${selector} is not on the page`);
    return el;
  };

  // Act, then time until the DOM under `target` satisfies `done` and until it is painted.
  async function timed(target, done, what, act) {
    const start = now();
    const changed = probe.until(target, done, what);
    act();
    const dom = await changed;
    const painted = await probe.painted();
    return { dom: dom - start, painted: painted - start };
  }

  // Search as you type: one input event per prefix of `query`, each timed until the results
  // list has been replaced.
  probe.type = async (query) => {
    const input = $("#search");
    const list = $("#search-results");
    input.focus();
    const samples = [];
    for (let i = 1; i <= query.length; i++) {
      if (!query.slice(0, i).trim()) continue;
      samples.push(await timed(list, (records) => records.some((r) => r.type === "childList"),
        `results for "${query.slice(0, i)}"`, () => {
          input.value = query.slice(0, i);
          input.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertText" }));
        }));
    }
    input.value = "";
    input.dispatchEvent(new InputEvent("input", { bubbles: true }));
    return samples;
  };

  const onFolder = () => document.querySelector("#main #folder-title") !== null;

  // Open a folder from the address (as a click on a link would) until its words are shown.
  probe.openFolder = (id) =>
    timed($("#main"), () => document.querySelector(`#main form.add-word[data-folder="${id}"]`),
      `folder ${id}`, () => { location.hash = `#/folder/${id}`; });

  // Home from a folder, the study screen or the stats page.
  const elsewhere = () => onFolder() || document.querySelector("#main .study, #main [data-chart]");
  probe.goHome = async () => {
    if (["", "#/"].includes(location.hash)) return { dom: 0, painted: 0 };  // no hashchange
    return timed($("#main"), () => !elsewhere(), "home", () => { location.hash = "#/"; });
  };

  // Expand or collapse a folder in the sidebar tree by clicking its toggle.
  probe.toggle = (id) => {
    const selector = `.tree-row[data-folder-id="${id}"] .tree-toggle`;
    const was = $(selector).getAttribute("aria-expanded");
    return timed($("#tree"), () => document.querySelector(selector)?.getAttribute("aria-expanded") !== was,
      `toggle of folder ${id}`, () => $(selector).click());
  };

  // The save indicator left "saving" and now says saved.
  const saved = (records) => {
    const status = $("#save-status");
    if (status.dataset.state === "error") throw new Error(`bench: ${status.textContent}`);
    return status.dataset.state === "saved" &&
      records.some((r) => r.attributeName === "data-state" && r.oldValue === "saving");
  };

  // Submit a form; `shown` is when the page was redrawn for it (`drawn` says so; an edit is
  // drawn once its log entry is written, decision 024), `painted` the frame after that,
  // `durable` when the status says Saved (the operation-log write committed in IndexedDB).
  async function submitUntilSaved(form, drawn) {
    const start = now();
    const durable = probe.until($("#save-status"), saved, "Saved");
    const redrawn = probe.until(document.body, drawn, "the redraw");
    form.requestSubmit();
    const shown = await redrawn;
    const painted = await probe.painted();
    const done = await durable;
    return { shown: shown - start, painted: painted - start, durable: done - start };
  }

  // Edit one word through its Edit form: new meanings, then Save.
  // The form is drawn before the Save, as when a person edits: in one task, the Long Tasks
  // figure would count opening the form and saving it as one piece of work.
  probe.editWord = async (id, meanings) => {
    $(`#word-${id} [data-action="edit-word"]`).click();
    await probe.painted();
    $(`#word-${id}-meanings`).value = meanings;
    const form = $(`form[data-action="save-word"][data-id="${id}"]`);
    return submitUntilSaved(form, () => !form.isConnected);
  };

  // Bulk paste `text` into the open folder: time the preview, then add and wait for Saved.
  probe.bulkAdd = async (text) => {
    $('#main [data-action="bulk-paste"]').click();
    const area = $("#bulk-text");
    area.value = text;
    const preview = await timed($("#bulk-preview"),
      () => document.querySelector('[data-role="bulk-summary"]') !== null, "bulk preview",
      () => area.dispatchEvent(new InputEvent("input", { bubbles: true })));
    const dialog = $("#dialog");
    const result = await submitUntilSaved($('form[data-action="bulk-add"]'), () => !dialog.open);
    if ($("#dialog").open) throw new Error(`bench: bulk add failed: ${$("#dialog").textContent}`);
    return { preview, ...result };
  };

  // Study everything from the top bar, until the first card is shown (loads py-fsrs first).
  probe.startStudy = () => timed($("#main"), () => document.querySelector("#study-prompt"),
    "the first card", () => $("#study-button").click());

  // Show the answer, then grade it: `dom`/`painted` until the next card replaced the grade
  // buttons, `durable` until the status says Saved.
  probe.grade = async (rating) => {
    $("#study-show").click();
    const button = $(`.grades [data-id="${rating}"]`);
    const start = now();
    const durable = probe.until($("#save-status"), saved, "Saved");
    const changed = probe.until($("#main"), () => !document.querySelector(".grades"), "next card");
    button.click();
    const dom = await changed;
    const painted = await probe.painted();
    const done = await durable;
    return { dom: dom - start, painted: painted - start, durable: done - start };
  };

  // Open the stats page of everything until every chart has been drawn (a canvas in each).
  const drawn = () => {
    const charts = [...document.querySelectorAll("#main [data-chart]")];
    return charts.length > 0 && charts.every((chart) => chart.querySelector("canvas"));
  };
  probe.openStats = () => timed($("#main"), drawn, "the stats page", () => {
    location.hash = "#/stats";
  });
})();
