// Click-to-play on the game page. The server embeds the seat's legal moves (each with
// its text notation); choosing a tool (a Tigris tile, leader or catastrophe; an Eden
// card, or contesting a tile; a card-game card from the hand, leader or catastrophe, or
// a ship to build) highlights the squares it may go to and shows the piece
// under the pointer; a click on one stages the move (drawn on the board, with Undo)
// and fills the move form, which Send posts. A square that several moves share (an
// Eden cultivation card's placements) gives the next one at each click. The form posts
// the text notation with the game's version, so the page also works without this
// script. `turnpost.startBoard` runs again when live updates replace the page.
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  // What a move may be put on: a square, a card place, a free ship.
  var PLACES = "[data-square], [data-slot], [data-free-ship]";
  var PAINT = {red: "#b83a2e", blue: "#2d6cb5", green: "#3c8a41", black: "#2e2e2e"};
  var TILE_LETTERS = {red: "T", blue: "F", green: "M", black: "S"};
  var LEADER_COLORS = {king: "black", priest: "red", farmer: "blue", trader: "green"};

  function matches(move, t) {
    if (t.kind === "tile") return move.type === "place_tile" && move.color === t.color;
    if (t.kind === "leader") return move.type === "place_leader" && move.leader === t.leader;
    if (t.kind === "catastrophe") return move.type === "place_catastrophe" || move.type === "play_catastrophe";
    if (t.kind === "hand-card") return move.type === "play_card" && move.color === t.color;
    if (t.kind === "card") {
      return (move.type === "irrigate" && move.square === t.card) || (move.type === "cultivate" && move.card === t.card);
    }
    if (t.kind === "contest" || t.kind === "attack_with") return move.type === t.kind;
    if (t.kind === "ship") return move.type === "build_ship";
    return false;
  }


  function toolOf(button) {
    var d = button.dataset;
    return {kind: d.kind, color: d.color, leader: d.leader, card: d.card};
  }

  // The squares (Tigris, Eden) or card places (the card game: `C2`, a gap `CD`; a bare
  // column letter means its next free place; a free ship by its name) a move puts
  // something on.
  function placesOf(move, board) {
    if (move.type === "build_ship") return [move.ship];
    if (move.squares) return move.squares;
    if (move.square) return [move.square];
    if (move.place && move.place.length === 1) {
      var free = board.querySelector('[data-column="' + move.place + '"][data-empty]');
      return free ? [free.dataset.slot] : [];
    }
    return [move.place || move.card];
  }

  function placeName(element) {
    return element.dataset.square || element.dataset.slot || element.dataset.freeShip;
  }

  // The piece a tool puts down, as a small SVG drawing inside `box` (a square's box).
  function pieceDrawing(t, box, opacity) {
    var g = document.createElementNS(SVG, "g");
    g.setAttribute("opacity", opacity);
    var pad = box.width * 0.12;
    var fill = "#e2b21d", letter = "";
    if (t.kind === "tile" || t.kind === "hand-card") { fill = PAINT[t.color]; letter = TILE_LETTERS[t.color]; }
    else if (t.kind === "leader") { fill = PAINT[LEADER_COLORS[t.leader]]; letter = t.leader.charAt(0).toUpperCase(); }
    else if (t.kind === "catastrophe") { fill = "#6d5c4c"; letter = "X"; }
    else if (t.kind === "ship") { fill = "none"; }  // a frame: the ship itself stays in sight
    else { letter = "+"; }
    var shape = document.createElementNS(SVG, t.kind === "leader" ? "circle" : "rect");
    if (t.kind === "leader") {
      shape.setAttribute("cx", box.x + box.width / 2);
      shape.setAttribute("cy", box.y + box.height / 2);
      shape.setAttribute("r", box.width / 2 - pad);
    } else {
      shape.setAttribute("x", box.x + pad);
      shape.setAttribute("y", box.y + pad);
      shape.setAttribute("width", box.width - 2 * pad);
      shape.setAttribute("height", box.height - 2 * pad);
      shape.setAttribute("rx", 4);
    }
    shape.setAttribute("fill", fill);
    shape.setAttribute("stroke", fill === "none" ? "#e2b21d" : "#fff");
    shape.setAttribute("stroke-width", fill === "none" ? 4 : 2);
    var text = document.createElementNS(SVG, "text");
    text.setAttribute("x", box.x + box.width / 2);
    text.setAttribute("y", box.y + box.height / 2);
    text.setAttribute("text-anchor", "middle");
    text.setAttribute("dominant-baseline", "central");
    text.setAttribute("font-size", box.width * 0.42);
    text.setAttribute("font-weight", "700");
    text.setAttribute("fill", "#fff");
    text.textContent = letter;
    g.appendChild(shape);
    g.appendChild(text);
    return g;
  }

  function startBoard(root) {
    var source = root.querySelector("#legal-moves");
    var form = root.querySelector("#move-form");
    var board = root.querySelector(".board svg");
    if (!source || !form || !board) return;
    var legal = JSON.parse(source.textContent);
    var textInput = form.querySelector("input[name=text]");
    var chosen = root.querySelector("#chosen-move");
    var staged = root.querySelector("#staged");
    var hint = chosen ? chosen.textContent : "";
    var tool = null;
    // Highlights, the pointer's preview and the staged piece sit over the board and
    // never take clicks, so a click always reaches the square beneath.
    var overlay = document.createElementNS(SVG, "g");
    overlay.setAttribute("class", "play-overlay");
    overlay.setAttribute("pointer-events", "none");
    var marks = overlay.appendChild(document.createElementNS(SVG, "g"));
    var preview = overlay.appendChild(document.createElementNS(SVG, "g"));
    var stagedDrawing = overlay.appendChild(document.createElementNS(SVG, "g"));
    board.appendChild(overlay);

    function squares() {
      return board.querySelectorAll(PLACES);
    }

    function boxOf(square) {
      var rect = square.querySelector("rect");
      return rect ? rect.getBBox() : square.getBBox();
    }

    function targets(t) {
      var found = {};
      legal.forEach(function (entry) {
        if (!t || !matches(entry.move, t)) return;
        placesOf(entry.move, board).forEach(function (name) {
          (found[name] = found[name] || []).push(entry);
        });
      });
      return found;
    }

    function markLegal() {
      marks.textContent = "";
      squares().forEach(function (sq) {
        var on = Boolean(tool && tool.targets[placeName(sq)]);
        sq.classList.toggle("legal", on);
        if (on) sq.setAttribute("tabindex", "0"); else sq.removeAttribute("tabindex");
        if (!on || sq.querySelector(".legal-mark")) return;  // a drawing with its own mark keeps it
        var box = boxOf(sq);
        var mark = document.createElementNS(SVG, "rect");
        mark.setAttribute("class", "legal-highlight");
        mark.setAttribute("x", box.x + 2);
        mark.setAttribute("y", box.y + 2);
        mark.setAttribute("width", box.width - 4);
        mark.setAttribute("height", box.height - 4);
        marks.appendChild(mark);
      });
    }

    function unstage() {
      stagedDrawing.textContent = "";
      squares().forEach(function (sq) { sq.classList.remove("chosen"); });
      textInput.value = "";
      if (staged) staged.hidden = true;
      if (chosen) chosen.textContent = hint;
    }

    function choose(button) {
      var same = tool && tool.button === button;
      root.querySelectorAll(".tool[aria-pressed=true]").forEach(function (b) {
        b.setAttribute("aria-pressed", "false");
      });
      unstage();
      tool = same ? null : Object.assign(toolOf(button), {button: button, targets: targets(toolOf(button))});
      if (tool) button.setAttribute("aria-pressed", "true");
      preview.textContent = "";
      markLegal();
    }

    function showPreview(square) {
      preview.textContent = "";
      if (!tool || !square || !tool.targets[placeName(square)]) return;
      preview.appendChild(pieceDrawing(tool, boxOf(square), 0.55));
    }

    function pick(square) {
      if (!tool || !square) return;
      var entries = tool.targets[placeName(square)];
      if (!entries) return;
      tool.turn = tool.last === placeName(square) ? (tool.turn + 1) % entries.length : 0;
      tool.last = placeName(square);
      var entry = entries[tool.turn];
      stagedDrawing.textContent = "";
      squares().forEach(function (sq) {
        var on = placesOf(entry.move, board).indexOf(placeName(sq)) >= 0;
        sq.classList.toggle("chosen", on);
        if (on) stagedDrawing.appendChild(pieceDrawing(tool, boxOf(sq), 0.95));
      });
      preview.textContent = "";
      textInput.value = entry.text;
      if (chosen) chosen.textContent = entry.description;
      if (staged) staged.hidden = false;
      form.querySelector("button[type=submit]").focus();
    }

    root.querySelectorAll(".tool").forEach(function (button) {
      var any = legal.some(function (entry) {
        return matches(entry.move, toolOf(button));
      });
      button.disabled = !any;
      button.addEventListener("click", function () { choose(button); });
    });
    // A decision with a single tool (the card game's ship) starts with it chosen.
    var first = root.querySelector(".tool[data-chosen-first]:not([disabled])");
    if (first) choose(first);
    var undo = root.querySelector("#undo-move");
    if (undo) undo.addEventListener("click", function () { unstage(); markLegal(); });
    board.addEventListener("click", function (event) {
      pick(event.target.closest(PLACES));
    });
    board.addEventListener("pointerover", function (event) {
      showPreview(event.target.closest(PLACES));
    });
    board.addEventListener("pointerleave", function () { preview.textContent = ""; });
    board.addEventListener("focusin", function (event) {
      showPreview(event.target.closest(PLACES));
    });
    board.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        pick(event.target.closest(PLACES));
      }
    });
  }

  window.turnpost = window.turnpost || {};
  window.turnpost.startBoard = startBoard;
  startBoard(document);
})();
