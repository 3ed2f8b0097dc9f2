// Crossrank public site: live updates. Every page works without it.
// An element with data-pub-live="<SSE url>" follows "edition-published";
// when an edition of the ranking shown (data-ranking, "" for any) is
// published, the page fetches itself again and swaps its <main>, then says
// so. If the fetch fails, the notice offers a reload instead.
(function () {
  "use strict";
  var root = document.querySelector("[data-pub-live]");
  if (!root || !root.getAttribute("data-pub-live") || !window.EventSource || !window.fetch || !window.DOMParser) return;

  var busy = false, again = null, source = null;
  var url = root.getAttribute("data-pub-live");

  // One stream per page, closed when the page is left: a browser holds
  // at most six connections to a host, and a page kept in the back-forward
  // cache would otherwise keep its stream. Coming back, it resumes after
  // the last edition it heard of, so nothing is missed. The stream opens
  // after the load event: opened earlier, a never-ending request keeps
  // the page loading, and a navigation that follows is aborted.
  function connect() {
    source = new EventSource(url);
    source.addEventListener("edition-published", function (ev) {
      if (ev.lastEventId) url = url.replace(/([?&]since=)\d*/, "$1" + ev.lastEventId);
      var data = {};
      try { data = JSON.parse(ev.data); } catch (e) { /* keep {} */ }
      var cur = document.querySelector("[data-pub-live]") || root;
      var ranking = cur.getAttribute("data-ranking");
      if (ranking && data.ranking && ranking !== data.ranking) return;
      refresh(data);
    });
  }
  window.addEventListener("pagehide", function () { if (source) { source.close(); source = null; } });
  window.addEventListener("pageshow", function (ev) { if (ev.persisted && !source) connect(); });
  if (document.readyState === "complete") connect();
  else window.addEventListener("load", connect);

  function refresh(data) {
    if (busy) { again = data; return; }
    busy = true;
    fetch(window.location.href, { headers: { "Accept": "text/html" }, credentials: "same-origin", cache: "no-cache" })
      .then(function (res) {
        if (!res.ok) throw new Error("HTTP " + res.status);
        return res.text();
      })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.querySelector("main");
        var old = document.querySelector("main");
        if (!fresh || !old) throw new Error("no main element");
        // Keep open what the reader had opened: a breakdown, the needs form.
        var open = {};
        old.querySelectorAll("details[open]").forEach(function (d) { open[detailsKey(d)] = true; });
        old.replaceWith(fresh);
        fresh.querySelectorAll("details").forEach(function (d) { if (open[detailsKey(d)]) d.open = true; });
        if (doc.title) document.title = doc.title;
        notice(fresh, data, false);
      })
      .catch(function () { notice(document.querySelector("main"), data, true); })
      .then(function () {
        busy = false;
        if (again) { var d = again; again = null; refresh(d); }
      });
  }

  function detailsKey(d) {
    var owner = d.closest("[data-entry]");
    return (owner ? owner.getAttribute("data-entry") : "") + "/" + d.className;
  }

  function notice(main, data, failed) {
    if (!main) return;
    var holder = main.querySelector("[data-pub-live]") || root;
    var old = document.getElementById("pub-live-notice");
    if (old) old.remove();
    var box = document.createElement("div");
    box.id = "pub-live-notice";
    box.className = "alert alert-info pub-live-notice";
    box.setAttribute("role", "status");
    box.setAttribute("data-testid", "live-notice");
    if (data && data.edition) box.setAttribute("data-edition", String(data.edition));
    box.textContent = holder.getAttribute("data-live-notice") || "A new edition was published.";
    if (failed) {
      var link = document.createElement("a");
      link.href = window.location.href;
      link.textContent = " " + (holder.getAttribute("data-live-reload") || "Reload the page");
      box.appendChild(link);
    }
    main.prepend(box);
  }
})();
