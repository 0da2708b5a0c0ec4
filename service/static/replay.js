// The replay panel: first / previous / next / last fetch the board as the reader saw
// it at that step (a page fragment the server draws) and highlight the step's entry.
(function () {
  "use strict";
  var panel = document.getElementById("replay");
  if (!panel) return;
  var last = Number(panel.dataset.steps) || 0;
  var url = panel.dataset.stepUrl.replace(/0$/, "");
  var board = panel.querySelector(".replay-board");
  var position = panel.querySelector(".replay-position");
  var current = null;

  function go(step) {
    step = Math.max(0, Math.min(last, step));
    return fetch(url + step, {credentials: "same-origin"}).then(function (r) {
      if (!r.ok) throw new Error("step " + r.status);
      return r.text();
    }).then(function (html) {
      board.innerHTML = html;  // drawn and escaped by the server's template
      current = step;
      position.textContent = "Step " + step + " of " + last;
      panel.querySelectorAll(".replay-log li").forEach(function (item) {
        var here = Number(item.dataset.step) === step;
        item.classList.toggle("current", here);
        if (here) { item.setAttribute("aria-current", "step"); item.scrollIntoView({block: "nearest"}); }
        else item.removeAttribute("aria-current");
      });
    }).catch(function () { position.textContent = "That step could not be loaded; try again."; });
  }

  panel.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-go]");
    if (!button) return;
    var at = current === null ? last : current;
    var target = {first: 0, previous: at - 1, next: at + 1, last: last}[button.dataset.go];
    go(target);
  });
})();
