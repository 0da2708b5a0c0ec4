// Click-to-play on the game page. The server embeds the seat's legal moves (each with
// its text notation); choosing a tool (a Tigris tile, leader or catastrophe; an Eden
// card, or contesting a tile) highlights the squares it may go to, and a click on one
// fills the move form. A square that several moves share (an Eden cultivation card's
// placements) gives the next one at each click. The form itself posts the text
// notation with the game's version, so the page also works without this script.
(function () {
  "use strict";
  var source = document.getElementById("legal-moves");
  var form = document.getElementById("move-form");
  var board = document.querySelector(".board svg");
  if (!source || !form || !board) return;
  var legal = JSON.parse(source.textContent);
  var textInput = form.querySelector("input[name=text]");
  var chosen = document.getElementById("chosen-move");
  var tool = null;

  function matches(move, t) {
    if (t.kind === "tile") return move.type === "place_tile" && move.color === t.color;
    if (t.kind === "leader") return move.type === "place_leader" && move.leader === t.leader;
    if (t.kind === "catastrophe") return move.type === "place_catastrophe";
    if (t.kind === "card") {
      return (move.type === "irrigate" && move.square === t.card) || (move.type === "cultivate" && move.card === t.card);
    }
    if (t.kind === "contest" || t.kind === "attack_with") return move.type === t.kind;
    return false;
  }

  function squares() {
    return board.querySelectorAll("[data-square]");
  }

  function movedSquares(move) {
    return move.squares || [move.square];
  }

  function targets(t) {
    var found = {};
    legal.forEach(function (entry) {
      if (!t || !matches(entry.move, t)) return;
      movedSquares(entry.move).forEach(function (name) {
        (found[name] = found[name] || []).push(entry);
      });
    });
    return found;
  }

  function choose(button) {
    var t = toolOf(button);
    var same = tool && tool.button === button;
    document.querySelectorAll(".tool[aria-pressed=true]").forEach(function (b) {
      b.setAttribute("aria-pressed", "false");
    });
    tool = same ? null : Object.assign(t, {button: button, targets: targets(t)});
    if (tool) button.setAttribute("aria-pressed", "true");
    squares().forEach(function (sq) {
      var on = Boolean(tool && tool.targets[sq.dataset.square]);
      sq.classList.toggle("legal", on);
      sq.classList.remove("chosen");
      if (on) sq.setAttribute("tabindex", "0"); else sq.removeAttribute("tabindex");
    });
  }

  function toolOf(button) {
    var d = button.dataset;
    return {kind: d.kind, color: d.color, leader: d.leader, card: d.card};
  }

  function pick(square) {
    if (!tool || !square) return;
    var entries = tool.targets[square.dataset.square];
    if (!entries) return;
    tool.turn = tool.last === square.dataset.square ? (tool.turn + 1) % entries.length : 0;
    tool.last = square.dataset.square;
    var entry = entries[tool.turn];
    squares().forEach(function (sq) {
      sq.classList.toggle("chosen", movedSquares(entry.move).indexOf(sq.dataset.square) >= 0);
    });
    textInput.value = entry.text;
    if (chosen) chosen.textContent = entry.description;
    form.querySelector("button[type=submit]").focus();
  }

  document.querySelectorAll(".tool").forEach(function (button) {
    var any = legal.some(function (entry) {
      return matches(entry.move, toolOf(button));
    });
    button.disabled = !any;
    button.addEventListener("click", function () { choose(button); });
  });
  board.addEventListener("click", function (event) {
    pick(event.target.closest("[data-square]"));
  });
  board.addEventListener("keydown", function (event) {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      pick(event.target.closest("[data-square]"));
    }
  });
})();
