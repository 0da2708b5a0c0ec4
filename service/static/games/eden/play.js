// Eden on the game page: the hooks of click-to-play (static/game.js). A tool is a card
// of the hand (an irrigation card waters its square; a cultivation card covers several,
// its placements given in turn by clicking a square again) or a claim on a
// neighbour's tile (contest it, or attack with a tile too); each goes on squares.
// A bid is one amount: its control shows the mana it would cost and stages `bid N`.
(function () {
  "use strict";
  window.turnpostGames = window.turnpostGames || {};
  window.turnpostGames["eden"] = {
    matches: function (move, tool) {
      if (tool.kind === "card") {
        return (move.type === "irrigate" && move.square === tool.card) ||
          (move.type === "cultivate" && move.card === tool.card);
      }
      if (tool.kind === "contest" || tool.kind === "attack_with") return move.type === tool.kind;
      return false;
    },
    start: startBidControl
  };

  function startBidControl(root) {
    var control = root.querySelector(".eden-bid");
    if (!control) return;
    var amount = control.querySelector("#eden-bid-amount");
    var cost = control.querySelector("#eden-bid-cost");
    var points = Number(control.getAttribute("data-points"));

    function current() {
      return Number(amount.value);
    }
    function valid() {
      var n = current();
      return amount.value !== "" && n >= Number(amount.min) && n <= Number(amount.max) &&
        (n - Number(amount.min)) % Number(amount.step) === 0;
    }
    function show() {
      cost.textContent = valid() ? current() + " x " + points + " = " + current() * points
        : "(a bid from " + amount.min + " to " + amount.max + " in steps of " + amount.step + ")";
    }
    amount.addEventListener("input", show);
    control.querySelector("#eden-bid-button").addEventListener("click", function () {
      if (!valid()) {
        amount.reportValidity();
        show();
        return;
      }
      var text = "bid " + current();
      var description = "bid " + current() + " mana per point (you pay " + current() * points +
        " mana if the other side accepts)";
      if (typeof window.turnpostStage === "function") {
        window.turnpostStage(text, description);
        return;
      }
      var form = root.querySelector("#move-form");
      form.querySelector("input[name=text]").value = text;
      form.submit();
    });
    show();
  }
})();
