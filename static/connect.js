// Narrow where this page may connect (CSP connect-src) before anything else runs: this site,
// this computer on any port (local model servers) and the AI provider servers the user saved
// (decision 022). index.html's own policy sets only the outer bounds; a second policy can
// narrow them, never widen, so this one must be in place before any script could fetch.
// app/browser/connect_policy.py writes the lists and reads back what this load allowed.
// No IPv6 literal ([::1]) anywhere: CSP's host grammar has none, and Chromium logs an invalid
// source and ignores it; localhost reaches a server listening on [::1] all the same.
(function () {
  var ORIGIN = /^https?:\/\/[a-z0-9.-]+(?::\d{1,5})?$/;
  var SYNC_ORIGIN = /^(wss:\/\/[a-z0-9.-]+|ws:\/\/(127\.0\.0\.1|localhost))(?::\d{1,5})?$/;
  var sources = ["'self'", "http://localhost:*", "http://127.0.0.1:*"];

  function listed(area, name, once) {
    try {
      var storage = window[area];
      var text = storage.getItem(name);
      if (once) storage.removeItem(name);  // allowed for this load only
      var list = JSON.parse(text || "[]");
      return Array.isArray(list) ? list : [];
    } catch (e) {
      return [];  // storage blocked or damaged: nothing beyond this site and this computer
    }
  }

  function allow(list, pattern) {
    for (var i = 0; i < list.length; i++) {
      var origin = list[i];
      if (typeof origin === "string" && pattern.test(origin) && sources.indexOf(origin) < 0) {
        sources.push(origin);
      }
    }
  }

  allow(listed("localStorage", "lexical-connect", false)
    .concat(listed("sessionStorage", "lexical-connect-once", true)), ORIGIN);
  // The paired sync server (app/sync/pairing.py, decision 041): a websocket origin, ws:// only
  // on loopback (checked when pairing), and nothing else of its kind.
  allow(listed("localStorage", "lexical-connect-sync", false), SYNC_ORIGIN);
  var policy = document.createElement("meta");
  policy.httpEquiv = "Content-Security-Policy";
  policy.content = "connect-src " + sources.join(" ");
  document.head.appendChild(policy);
  document.documentElement.dataset.connectSrc = sources.join(" ");
})();
