// Crossrank: a little progressive enhancement. Every page works without it.
//  - forms: a submit button is disabled while its form is sent (the hidden
//    cmd_id already makes a double submit harmless), and a form with
//    data-confirm asks first;
//  - live updates: an element with data-live="<SSE url>" listens for
//    "edition-published" and offers to reload the page;
//  - the desk header's inbox link (data-inbox-events="<SSE url>") writes
//    each "unread" count it is sent into its badge.
(function () {
  "use strict";

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!(form instanceof HTMLFormElement)) return;
    var question = form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) {
      ev.preventDefault();
      return;
    }
    var buttons = form.querySelectorAll("button[type=submit], input[type=submit]");
    window.setTimeout(function () {
      buttons.forEach(function (b) { b.disabled = true; b.setAttribute("aria-busy", "true"); });
    }, 0);
  });

  // Coming back with the back button shows the page from the cache, buttons
  // still disabled: enable them again.
  window.addEventListener("pageshow", function () {
    document.querySelectorAll("button[aria-busy=true], input[aria-busy=true]").forEach(function (b) {
      b.disabled = false;
      b.removeAttribute("aria-busy");
    });
  });

  function liveUpdates() {
    var el = document.querySelector("[data-live]");
    if (!el || !window.EventSource) return;
    var source = new EventSource(el.getAttribute("data-live"));
    source.addEventListener("edition-published", function () {
      if (document.getElementById("live-banner")) return;
      var banner = document.createElement("div");
      banner.id = "live-banner";
      banner.className = "alert alert-info live-banner";
      banner.setAttribute("role", "status");
      var link = document.createElement("a");
      link.href = window.location.href;
      link.textContent = el.getAttribute("data-live-message") || "A new edition was published. Reload";
      banner.appendChild(link);
      var main = document.getElementById("main");
      (main || document.body).prepend(banner);
    });
  }

  function inboxCount() {
    var link = document.querySelector("[data-inbox-events]");
    var badge = link && link.querySelector("[data-unread]");
    if (!badge || !window.EventSource) return;
    var source = new EventSource(link.getAttribute("data-inbox-events"));
    source.addEventListener("unread", function (ev) {
      var n = String(parseInt(ev.data, 10) || 0);
      badge.textContent = n;
      badge.classList.toggle("badge-unread", n !== "0");
      var label = link.getAttribute("aria-label");
      if (label) link.setAttribute("aria-label", label.replace(/\d+/, n));
    });
  }

  // The theme switch: "auto" follows the system (no data-theme), "light"
  // and "dark" set data-theme on <html> and are remembered in
  // localStorage; the layout's head applies a remembered choice before
  // the page is painted.
  function themeSwitch() {
    var group = document.querySelector("[data-theme-switch]");
    if (!group) return;
    var root = document.documentElement;
    function show(value) {
      group.querySelectorAll("button[data-theme-value]").forEach(function (b) {
        b.setAttribute("aria-pressed", String(b.getAttribute("data-theme-value") === value));
      });
    }
    show(root.getAttribute("data-theme") || "auto");
    group.addEventListener("click", function (ev) {
      var b = ev.target.closest("button[data-theme-value]");
      if (!b) return;
      var value = b.getAttribute("data-theme-value");
      if (value === "auto") root.removeAttribute("data-theme");
      else root.setAttribute("data-theme", value);
      try {
        if (value === "auto") window.localStorage.removeItem("crossrank-theme");
        else window.localStorage.setItem("crossrank-theme", value);
      } catch (e) { /* storage refused: the choice lasts for this page */ }
      show(value);
    });
    group.hidden = false;
  }

  function start() {
    liveUpdates();
    inboxCount();
    themeSwitch();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
