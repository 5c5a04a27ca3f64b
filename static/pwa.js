// Offline use: register the service worker (sw.js) and offer a new version when one is deployed.
// Registration waits until the app is ready, so precaching never competes with startup.
// A reload for a new version waits until every edit is saved (the save status in the top bar
// leaves "Saving…" and "Not saved"), because reloading drops edits still in the queue.
const root = document.documentElement;
const banner = document.getElementById("update-banner");
const reloadButton = document.getElementById("update-reload");
const saveStatus = document.getElementById("save-status");
let reloadRequested = false;
let reloading = false;

// Fulfilled when `test()` holds, re-checked whenever `attribute` of `element` changes.
function whenAttribute(element, attribute, test) {
  return new Promise((resolve) => {
    if (test()) return resolve();
    const observer = new MutationObserver(() => {
      if (test()) {
        observer.disconnect();
        resolve();
      }
    });
    observer.observe(element, { attributes: true, attributeFilter: [attribute] });
  });
}

const appReady = () => whenAttribute(root, "data-ready", () => root.dataset.ready === "true");
// The same rule as the app's beforeunload guard: only "saved" and "idle" have nothing pending.
const allSaved = () =>
  whenAttribute(saveStatus, "data-state", () => ["saved", "idle"].includes(saveStatus.dataset.state));

async function reloadOnce() {
  await allSaved();
  if (reloading) return;
  reloading = true;
  location.reload();
}

function offerUpdate(registration) {
  if (!registration.waiting || !navigator.serviceWorker.controller) return; // first install
  banner.hidden = false;
  reloadButton.onclick = async () => {
    if (reloadRequested) return;
    reloadButton.textContent = "Reloading…";
    reloadButton.setAttribute("aria-disabled", "true");
    reloadRequested = true;
    await allSaved();
    if (registration.waiting) {
      registration.waiting.postMessage({ type: "skip-waiting" }); // then controllerchange
    } else {
      reloadOnce(); // another tab already switched to the new version
    }
  };
}

function watch(registration) {
  offerUpdate(registration);
  registration.addEventListener("updatefound", () => {
    const worker = registration.installing;
    worker.addEventListener("statechange", () => offerUpdate(registration));
  });
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloadRequested) reloadOnce();
  });
  // Long-lived tabs look for a new version when they come back into view or online.
  const check = () => registration.update().catch(() => {});
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") check();
  });
  window.addEventListener("online", check);
}

async function register() {
  if (!("serviceWorker" in navigator)) return;
  await appReady();
  try {
    watch(await navigator.serviceWorker.register("./sw.js", { updateViaCache: "none" }));
  } catch (error) {
    // Without a worker the app still works online; say why in the console only.
    console.warn("Lexical: offline use is unavailable:", error);
  }
}

register();
