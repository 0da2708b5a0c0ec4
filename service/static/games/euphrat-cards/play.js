// Euphrat & Tigris, the card game, on the game page: the hooks of click-to-play
// (static/game.js). A tool is a card of a colour from the hand, a leader, the
// catastrophe or a ship to build; they go on card places of the table (`C2`, a gap
// `CD`; a bare column letter means its next free place) or on a free ship by its name.
(function () {
  "use strict";
  var PAINT = {red: "#b83a2e", blue: "#2d6cb5", green: "#3c8a41", black: "#2e2e2e"};
  var CARD_LETTERS = {red: "T", blue: "F", green: "M", black: "S"};
  var LEADER_COLORS = {king: "black", priest: "red", farmer: "blue", trader: "green"};

  window.turnpostGames = window.turnpostGames || {};
  window.turnpostGames["euphrat-cards"] = {
    matches: function (move, tool) {
      if (tool.kind === "hand-card") return move.type === "play_card" && move.color === tool.color;
      if (tool.kind === "leader") return move.type === "place_leader" && move.leader === tool.leader;
      if (tool.kind === "catastrophe") return move.type === "play_catastrophe";
      if (tool.kind === "ship") return move.type === "build_ship";
      return false;
    },
    places: function (move, board) {
      if (move.type === "build_ship") return [move.ship];
      if (move.place && move.place.length === 1) {
        var free = board.querySelector('[data-column="' + move.place + '"][data-empty]');
        return free ? [free.dataset.slot] : [];
      }
      return [move.place || move.card];
    },
    piece: function (tool) {
      if (tool.kind === "hand-card") return {fill: PAINT[tool.color], letter: CARD_LETTERS[tool.color]};
      if (tool.kind === "leader") {
        return {fill: PAINT[LEADER_COLORS[tool.leader]], letter: tool.leader.charAt(0).toUpperCase(), round: true};
      }
      if (tool.kind === "catastrophe") return {fill: "#6d5c4c", letter: "X"};
      return {fill: "none", letter: ""};  // a ship: a frame, the ship itself stays in sight
    },
    start: showCardText
  };

  // A tap on a card (no tool chosen) says what it is and does, in a line under the
  // table: a phone shows no tooltip. The words are the card's own title in the drawing.
  function showCardText(root) {
    var board = root.querySelector(".board svg");
    if (!board) return;
    var line = root.querySelector("#card-text");
    if (!line) {
      line = document.createElement("p");
      line.id = "card-text";
      line.className = "muted";
      line.setAttribute("aria-live", "polite");
      line.textContent = "Tap or point at a card to read what it is and does.";
      board.parentNode.insertBefore(line, board.nextSibling);
    }
    board.addEventListener("click", function (event) {
      var place = event.target.closest("[data-slot], [data-free-ship]");
      var title = place && place.querySelector(":scope > title");
      if (!title || root.querySelector(".tool[aria-pressed=true]")) return;
      line.textContent = title.textContent;
    });
  }
})();
