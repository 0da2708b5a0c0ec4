// The new-game form shows only the chosen game's options (without this script all
// are shown, each under its game's name, and only the chosen game's are used).
(function () {
  "use strict";
  var choice = document.getElementById("game-choice");
  if (!choice) return;
  function show() {
    document.querySelectorAll(".game-options").forEach(function (set) {
      set.hidden = set.dataset.game !== choice.value;
    });
  }
  choice.addEventListener("change", show);
  show();
})();
