// Tigris & Euphrates on the game page: the hooks of click-to-play (static/game.js). A
// tool is a tile of a colour, a leader or the catastrophe; each goes on a square.
(function () {
  "use strict";
  var PAINT = {red: "#b83a2e", blue: "#2d6cb5", green: "#3c8a41", black: "#2e2e2e"};
  var TILE_LETTERS = {red: "T", blue: "F", green: "M", black: "S"};
  var LEADER_COLORS = {king: "black", priest: "red", farmer: "blue", trader: "green"};

  window.turnpostGames = window.turnpostGames || {};
  window.turnpostGames["tigris"] = {
    matches: function (move, tool) {
      if (tool.kind === "tile") return move.type === "place_tile" && move.color === tool.color;
      if (tool.kind === "leader") return move.type === "place_leader" && move.leader === tool.leader;
      if (tool.kind === "catastrophe") return move.type === "place_catastrophe";
      return false;
    },
    piece: function (tool) {
      if (tool.kind === "tile") return {fill: PAINT[tool.color], letter: TILE_LETTERS[tool.color]};
      if (tool.kind === "leader") {
        return {fill: PAINT[LEADER_COLORS[tool.leader]], letter: tool.leader.charAt(0).toUpperCase(), round: true};
      }
      return {fill: "#6d5c4c", letter: "X"};  // the catastrophe
    },
    start: function (root) {
      var board = root.querySelector("svg.tigris-board");
      if (!board) return;
      endAtTheKey(board);
      if (!window.tigrisKeyWatched) {  // a phone turned on its side shows or hides the key
        window.tigrisKeyWatched = true;
        window.matchMedia("(max-width: 700px)").addEventListener("change", function () {
          var current = document.querySelector("svg.tigris-board");
          if (current) endAtTheKey(current);
        });
      }
    }
  };

  // On a phone the drawing's key gives way to the key in words (play.css): the drawing
  // then ends where its key begins, rather than keep an empty strip in its place. With
  // the face-up tiles drawn under the key (option open_tiles) it keeps its full height.
  function endAtTheKey(board) {
    var legend = board.querySelector(".legend");
    if (!legend) return;
    var full = board.getAttribute("data-full-height") || board.getAttribute("height");
    board.setAttribute("data-full-height", full);
    var hidden = getComputedStyle(legend).display === "none";
    var height = Number(full) - (hidden && !board.querySelector("[data-display-tile]") ? Number(legend.dataset.height) : 0);
    var box = board.viewBox.baseVal;
    board.setAttribute("viewBox", [box.x, box.y, box.width, height].join(" "));
    board.setAttribute("height", height);
  }
})();
