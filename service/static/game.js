// Click-to-play on the game page. The server embeds the seat's legal moves (each with
// its text notation); choosing a tile, leader or catastrophe highlights the squares it
// may go to, and a click on one fills the move form. The form itself posts the text
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
    return false;
  }

  function squares() {
    return board.querySelectorAll("[data-square]");
  }

  function targets(t) {
    var found = {};
    legal.forEach(function (entry) {
      if (t && matches(entry.move, t)) found[entry.move.square] = entry;
    });
    return found;
  }

  function choose(button) {
    var t = {kind: button.dataset.kind, color: button.dataset.color, leader: button.dataset.leader};
    var same = tool && tool.button === button;
    document.querySelectorAll(".tool[aria-pressed=true]").forEach(function (b) {
      b.setAttribute("aria-pressed", "false");
    });
    tool = same ? null : Object.assign(t, {button: button, targets: targets(t)});
    if (tool) button.setAttribute("aria-pressed", "true");
    squares().forEach(function (sq) {
      var on = Boolean(tool && tool.targets[sq.dataset.square]);
      sq.classList.toggle("legal", on);
      if (on) sq.setAttribute("tabindex", "0"); else sq.removeAttribute("tabindex");
    });
  }

  function pick(square) {
    if (!tool || !square) return;
    var entry = tool.targets[square.dataset.square];
    if (!entry) return;
    textInput.value = entry.text;
    if (chosen) chosen.textContent = entry.description;
    form.querySelector("button[type=submit]").focus();
  }

  document.querySelectorAll(".tool").forEach(function (button) {
    var any = legal.some(function (entry) {
      return matches(entry.move, {kind: button.dataset.kind, color: button.dataset.color, leader: button.dataset.leader});
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
