// Eden on the game page: the hooks of click-to-play (static/game.js). A tool is a card
// of the hand (an irrigation card waters its square; a cultivation card covers several,
// its placements given in turn by clicking a square again) or a claim on a
// neighbour's tile (contest it, or attack with a tile too); each goes on squares.
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
    }
  };
})();
