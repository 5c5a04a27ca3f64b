// Warm start (decision 023): while Python starts, paint the copy of the last screen that
// app/browser/last_screen.py kept, if it belongs to the address being opened. The copy is inert
// and marked busy (nothing in it can be clicked, typed into or focused) and Python's first
// render replaces it; static/boot.js takes it away if startup fails.
// Storage is not trusted: elements are built one by one from an allow-list of tags and
// attributes (never innerHTML), links may only be the app's own #/ addresses, and anything
// else (scripts, frames, forms, handlers, styles, ids, other URLs) is dropped.
(function () {
  var KEY = "lexical-last-screen";
  var FORMAT = 1;
  var MAX_CHARS = 300000;  // the app writes at most 256 KB; anything larger is not its copy
  var MAX_DEPTH = 40;
  var TAGS = [
    "div", "span", "p", "a", "button", "input", "textarea", "select", "option", "label",
    "ul", "ol", "li", "nav", "header", "main", "aside", "section", "h1", "h2", "h3", "h4",
    "h5", "h6", "strong", "em", "del", "code", "pre", "blockquote", "hr", "br", "table",
    "thead", "tbody", "tr", "th", "td", "details", "summary", "kbd", "small", "mark", "time",
    "progress", "fieldset", "legend", "figure", "figcaption", "dl", "dt", "dd",
  ];
  var RENAMED = { form: "div" };  // the app's forms keep their look, not their function
  // No ids (they would clash with the page's own) nor the attributes that point at one.
  var ATTRIBUTE = /^(?:class|role|title|type|value|placeholder|lang|dir|hidden|disabled|checked|selected|open|min|max|colspan|rowspan|datetime|data-[a-z0-9-]+|aria-(?!controls$|labelledby$|describedby$|owns$|activedescendant$|details$|errormessage$|flowto$)[a-z]+)$/;
  var HREF = /^#\/[A-Za-z0-9\/_.-]*$/;

  function build(data, depth) {
    if (typeof data === "string") return document.createTextNode(data);
    if (!Array.isArray(data) || data.length !== 3 || depth > MAX_DEPTH) return null;
    var tag = Object.prototype.hasOwnProperty.call(RENAMED, data[0]) ? RENAMED[data[0]] : data[0];
    var attrs = data[1], children = data[2];
    if (TAGS.indexOf(tag) < 0 || !attrs || typeof attrs !== "object" || !Array.isArray(children)) {
      return null;
    }
    var element = document.createElement(tag);
    for (var name in attrs) {
      if (!Object.prototype.hasOwnProperty.call(attrs, name)) continue;
      var value = attrs[name];
      if (typeof value !== "string") continue;
      if (ATTRIBUTE.test(name) || (name === "href" && tag === "a" && HREF.test(value))) {
        element.setAttribute(name, value);
      }
    }
    for (var i = 0; i < children.length; i++) {
      var child = build(children[i], depth + 1);
      if (child) element.appendChild(child);
    }
    return element;
  }

  function inert(data) {
    var node = build(data, 0);
    if (!node) return null;
    var copy = document.createElement("div");
    copy.setAttribute("class", "warm-copy");
    copy.setAttribute("data-warm-copy", "");
    copy.setAttribute("inert", "");
    copy.setAttribute("aria-busy", "true");
    copy.appendChild(node);
    return copy;
  }

  function stored() {
    try {
      var text = window.localStorage.getItem(KEY);
      if (typeof text !== "string" || text.length > MAX_CHARS) return null;
      var copy = JSON.parse(text);
      return copy && copy.format === FORMAT ? copy : null;
    } catch (e) {
      return null;  // storage blocked or the copy damaged: the usual boot screen
    }
  }

  var copy = stored();
  if (!copy || copy.route !== (window.location.hash || "#/")) return;
  var tree = inert(copy.tree), main = inert(copy.main);
  if (!main) return;  // without the main view it would not be the screen the user left
  if (tree) document.getElementById("tree").appendChild(tree);
  document.getElementById("main").appendChild(main);
  document.documentElement.setAttribute("data-warm", "true");
  // When the frame showing it has been drawn (a task queued from the frame runs after it).
  window.requestAnimationFrame(function () {
    window.setTimeout(function () { window.performance.mark("lexical:warm-painted"); }, 0);
  });
})();
