// The replay panel: first / previous / next / last fetch the board as the reader saw
// it at that step (a page fragment the server draws) and highlight the step's entry.
// The panel is part of what live.js swaps in when the game moves on, so clicks are
// caught on the document and the step shown is drawn again in the new panel.
(function () {
  "use strict";
  var current = null;  // the step shown, kept across live updates

  function panel() { return document.getElementById("replay"); }

  function go(step) {
    var here = panel();
    if (!here) return Promise.resolve();
    var last = Number(here.dataset.steps) || 0;
    step = Math.max(0, Math.min(last, step));
    var position = here.querySelector(".replay-position");
    return fetch(here.dataset.stepUrl.replace(/0$/, "") + step, {credentials: "same-origin"}).then(function (r) {
      if (!r.ok) throw new Error("step " + r.status);
      return r.text();
    }).then(function (html) {
      here = panel();
      here.querySelector(".replay-board").innerHTML = html;  // drawn and escaped by the server's template
      current = step;
      here.querySelector(".replay-position").textContent = "Step " + step + " of " + last;
      here.querySelectorAll(".replay-log li").forEach(function (item) {
        var at = Number(item.dataset.step) === step;
        item.classList.toggle("current", at);
        if (at) { item.setAttribute("aria-current", "step"); item.scrollIntoView({block: "nearest"}); }
        else item.removeAttribute("aria-current");
      });
    }).catch(function () { if (position) position.textContent = "That step could not be loaded; try again."; });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("#replay button[data-go]");
    if (!button) return;
    var last = Number(panel().dataset.steps) || 0;
    var at = current === null ? last : current;
    go({first: 0, previous: at - 1, next: at + 1, last: last}[button.dataset.go]);
  });

  // A live update brings a new panel, empty: show the step that was shown.
  new MutationObserver(function () {
    var here = panel();
    if (current !== null && here && !here.querySelector(".replay-step")) go(current);
  }).observe(document.body, {childList: true, subtree: true});
})();
