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
