// Crossrank desk: the review queue's page-wide controls. "Tick all" ticks
// (or clears) every proposal of the page and every evidence item under
// each — a vote still verifies exactly the items ticked, which the
// reviewer can untick one by one. Keys: j and k move to the next and the
// previous proposal, x ticks the current one with its evidence, a
// approves the ticked proposals (the form's approve button). The page
// works without this script: the controls stay hidden.
(function () {
  "use strict";

  var form = document.querySelector('form[data-testid="review-form"]');
  var tools = document.querySelector("[data-review-tools]");
  if (!form || !tools) return;
  tools.hidden = false;
  var rows = Array.prototype.slice.call(form.querySelectorAll('[data-testid="review-row"]'));
  var all = tools.querySelector("[data-review-tick-all]");
  var current = -1;

  function tick(row, on) {
    row.querySelectorAll('input[type="checkbox"]').forEach(function (box) { box.checked = on; });
  }
  function focus(i) {
    if (i < 0 || i >= rows.length) return;
    if (current >= 0) rows[current].classList.remove("review-current");
    current = i;
    rows[i].classList.add("review-current");
    rows[i].scrollIntoView({ block: "nearest" });
    var box = rows[i].querySelector('[data-testid="review-select"]');
    if (box) box.focus({ preventScroll: true });
  }

  all.addEventListener("change", function () {
    rows.forEach(function (row) { tick(row, all.checked); });
  });
  document.addEventListener("keydown", function (e) {
    var t = e.target;
    if (e.ctrlKey || e.metaKey || e.altKey || t.tagName === "TEXTAREA" ||
        (t.tagName === "INPUT" && t.type !== "checkbox") || t.tagName === "SELECT") return;
    switch (e.key) {
      case "j": focus(current + 1); break;
      case "k": focus(Math.max(0, current - 1)); break;
      case "x":
        if (current < 0) return;
        var box = rows[current].querySelector('[data-testid="review-select"]');
        tick(rows[current], !(box && box.checked));
        break;
      case "a":
        var approve = form.querySelector('[data-testid="review-approve"]');
        if (approve) approve.click();
        break;
      default:
        return;
    }
    e.preventDefault();
  });
})();
