// Crossrank desk: the live rank-impact preview on a proposal's page. While
// the editor picks a criterion and types a score, the impact panel is
// replaced by the server's answer for that hypothetical score
// (GET <panel's data-impact-url>?criterion=…&to=…). Nothing is stored; the
// page works the same without this script (the panel then shows the
// proposal as saved).
(function () {
  "use strict";

  var form = document.querySelector("form[data-impact-form]");
  var panel = document.querySelector("[data-impact-panel]");
  if (!form || !panel || !window.fetch || !window.DOMParser) return;
  var base = panel.getAttribute("data-impact-url");
  var timer = 0;
  var asked = "";

  function update() {
    var criterion = form.elements.criterion && form.elements.criterion.value;
    var to = form.elements.to && form.elements.to.value.trim();
    if (!criterion || !/^(10|[0-9])$/.test(to || "")) return;
    var url = base + "?criterion=" + encodeURIComponent(criterion) + "&to=" + encodeURIComponent(to);
    if (url === asked) return;
    asked = url;
    fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (res) { return res.ok ? res.text() : null; })
      .then(function (html) {
        if (html === null || url !== asked) return; // an error, or a newer answer is coming
        // The answer is our own server-rendered, escaped HTML; parsing it
        // inert and moving the node in runs no script.
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.querySelector("[data-impact-panel]");
        var current = document.querySelector("[data-impact-panel]");
        if (fresh && current) current.replaceWith(document.adoptNode(fresh));
      })
      .catch(function () { asked = ""; });
  }

  function later() {
    window.clearTimeout(timer);
    timer = window.setTimeout(update, 200);
  }

  form.addEventListener("input", later);
  form.addEventListener("change", later);
})();

// Crossrank desk: live capture results. While an evidence item of the
// proposal shows "capturing…", the evidence section (data-capture-live =
// the stream's URL) listens for "capture" and then fetches the page again
// and swaps in its evidence and quorum sections, which say what the
// capture found. Without this script the page shows the result when it
// is reloaded.
(function () {
  "use strict";

  var section = document.querySelector("[data-capture-live]");
  if (!section || !window.EventSource || !window.fetch || !window.DOMParser) return;
  var source = new EventSource(section.getAttribute("data-capture-live"));

  function swap(doc, selector) {
    var fresh = doc.querySelector(selector);
    var current = document.querySelector(selector);
    if (fresh && current) current.replaceWith(document.adoptNode(fresh));
  }

  source.addEventListener("capture", function () {
    fetch(window.location.href, { credentials: "same-origin", headers: { Accept: "text/html" } })
      .then(function (res) { return res.ok ? res.text() : null; })
      .then(function (html) {
        if (html === null) return;
        // Our own server-rendered, escaped HTML, parsed inert: moving its
        // nodes in runs no script.
        var doc = new DOMParser().parseFromString(html, "text/html");
        swap(doc, '[data-testid="evidence"]');
        swap(doc, '[data-testid="quorum"]');
        if (!document.querySelector("[data-capture-live]")) source.close();
      })
      .catch(function () {});
  });
})();

// Crossrank desk: the score form keeps what was typed while the editor
// adds evidence. Each form of the proposal page posts on its own, so
// adding the evidence a score needs came back to an empty score form.
// When another form of the page is submitted, the score form's fields are
// kept in this tab's sessionStorage, and the page the submit leads to
// puts them back (once; the live preview then follows them). A score form
// the server filled (its own failed submit) is left as sent. The command
// id is never carried: each page draws its own.
(function () {
  "use strict";

  var form = document.querySelector("form[data-impact-form]");
  if (!form || !window.sessionStorage || !window.JSON) return;
  var key = "crossrank.score-form:" + form.getAttribute("action");

  function fields() {
    return Array.prototype.filter.call(form.elements, function (el) {
      return el.name && el.name !== "cmd_id" && el.type !== "submit" && el.type !== "hidden";
    });
  }

  var saved = null;
  try {
    saved = JSON.parse(window.sessionStorage.getItem(key) || "null");
    window.sessionStorage.removeItem(key);
  } catch (e) {
    saved = null;
  }
  // Empty: nothing typed in the score or in either language's rationale
  // (the page came back from another form, not from this one's error).
  var empty = !form.elements.to.value && fields().every(function (el) {
    return !/^rationale/.test(el.name) || !el.value;
  });
  if (saved && empty) {
    fields().forEach(function (el) {
      var v = saved[el.name];
      if (v === undefined) return;
      if (el.type === "checkbox") el.checked = v.indexOf(el.value) >= 0;
      else el.value = v;
    });
    form.dispatchEvent(new Event("change", { bubbles: true }));
  }

  document.addEventListener("submit", function (ev) {
    if (ev.target === form) return;
    var typed = {};
    var any = false;
    fields().forEach(function (el) {
      if (el.type === "checkbox") {
        typed[el.name] = typed[el.name] || [];
        if (el.checked) typed[el.name].push(el.value);
      } else {
        typed[el.name] = el.value;
        if (el.value && el.tagName !== "SELECT") any = true;
      }
    });
    try {
      if (any) window.sessionStorage.setItem(key, JSON.stringify(typed));
    } catch (e) { /* storage full or refused: the form comes back empty, as without script */ }
  });
})();
