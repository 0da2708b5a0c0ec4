// Click-to-play on the game page. The server embeds the seat's legal moves (each with
// its text notation); choosing a tool (one of the game's buttons in the decision panel)
// highlights the places it may go to and shows the piece under the pointer; a click on
// one stages the move (drawn on the board, with Undo) and fills the move form, which
// Send posts. A place that several moves share gives the next one at each click. The
// form posts the text notation with the game's version, so the page also works without
// this script. `turnpost.startBoard` runs again when live updates replace the page.
//
// A choice button (a move offered whole, `form.choice[data-stage]`) stages its move the
// same way: "You chose: ..." with Send and Undo, so a misclick can be taken back. Without
// this script the button posts at once. A game's own control that builds a move calls
// `window.turnpostStage(text, description)` to stage it (and `window.turnpostUnstage()`
// to take it back); the page's Undo is the control's too.
//
// What is particular to a game comes from its script module (static/games/<id>/), which
// registers hooks under its id, the page's `data-game`:
//   window.turnpostGames[id] = {
//     matches(move, tool)  whether a legal move is one the chosen tool makes (required
//                          for tools; a tool is its button's data attributes)
//     places(move, board)  the places a move puts something on (default: its squares)
//     piece(tool)          the piece a tool draws: {fill, letter, round} (default: a
//                          gold square with "+"; fill "none" draws a frame)
//     start(root)          the game's own play on the page, run at each (re)start
//   }
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  // What a move may be put on: a square, a card place, a free ship.
  var PLACES = "[data-square], [data-slot], [data-free-ship]";

  function gameHooks() {
    var live = document.getElementById("live");
    var games = window.turnpostGames || {};
    return (live && games[live.dataset.game]) || {};
  }

  function defaultPlaces(move) {
    if (move.squares) return move.squares;
    return move.square ? [move.square] : [];
  }

  function toolOf(button) {
    return Object.assign({}, button.dataset);
  }

  function placeName(element) {
    return element.dataset.square || element.dataset.slot || element.dataset.freeShip;
  }

  // The piece a tool puts down, as a small SVG drawing inside `box` (a square's box).
  function pieceDrawing(look, box, opacity) {
    var g = document.createElementNS(SVG, "g");
    g.setAttribute("opacity", opacity);
    var pad = box.width * 0.12;
    var fill = look.fill || "#e2b21d";
    var letter = look.letter === undefined ? "+" : look.letter;
    var shape = document.createElementNS(SVG, look.round ? "circle" : "rect");
    if (look.round) {
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

  // A place a tool may go to is focusable and named for the keyboard and screen readers
  // by the move it makes (Enter stages it); other places are left as drawn.
  function nameForKeys(place, description) {
    if (description) {
      place.setAttribute("tabindex", "0");
      place.setAttribute("role", "button");
      place.setAttribute("aria-label", description);
    } else {
      ["tabindex", "role", "aria-label"].forEach(function (name) { place.removeAttribute(name); });
    }
  }

  // Stages a move given whole (its text notation and its words) in the move form, for
  // Send to post; `clearBoard` of the form (set by the board's play) drops a piece staged
  // on the board first. Returns whether the page has a move form to stage it in.
  function stage(root, text, description, choiceButton) {
    var form = root.querySelector("#move-form");
    if (!form) return false;
    if (form.clearBoard) form.clearBoard();
    showStaged(root, form, text, description, choiceButton);
    return true;
  }

  function showStaged(root, form, text, description, choiceButton) {
    form.querySelector("input[name=text]").value = text;
    var words = root.querySelector("#staged-text");
    if (words) words.textContent = "You chose: " + description;
    var staged = root.querySelector("#staged");
    if (staged) staged.hidden = false;
    root.querySelectorAll("form.choice[data-stage] button").forEach(function (button) {
      button.setAttribute("aria-pressed", button === choiceButton ? "true" : "false");
    });
    form.querySelector("button[type=submit]").focus();
  }

  function hideStaged(root, form) {
    form.querySelector("input[name=text]").value = "";
    var words = root.querySelector("#staged-text");
    if (words) words.textContent = "";
    var staged = root.querySelector("#staged");
    if (staged) staged.hidden = true;
    root.querySelectorAll("form.choice[data-stage] button").forEach(function (button) {
      button.setAttribute("aria-pressed", "false");
    });
  }

  // Takes a staged move back: its words, the form's text and any piece on the board.
  function unstage(root, form) {
    hideStaged(root, form);
    if (form.clearBoard) form.clearBoard();
  }

  // The choice buttons stage their move instead of posting it; Undo takes any staged
  // move back (the board's play adds its own clearing through `form.clearBoard`).
  function stageChoices(root) {
    var form = root.querySelector("#move-form");
    if (!form) return;
    root.querySelectorAll("form.choice[data-stage]").forEach(function (choice) {
      var button = choice.querySelector("button");
      button.setAttribute("aria-pressed", "false");
      choice.addEventListener("submit", function (event) {
        event.preventDefault();
        stage(root, choice.querySelector("input[name=text]").value, choice.dataset.description, button);
      });
    });
    var undo = root.querySelector("#undo-move");
    if (undo) undo.addEventListener("click", function () { unstage(root, form); });
  }

  function currentRoot() {
    return document.getElementById("live") || document;
  }

  // The squares the last move touched (the board's `data-last-move`), outlined.
  function markLastMove(root) {
    var section = root.querySelector(".board[data-last-move]");
    var board = section && section.querySelector("svg");
    if (!board) return;
    var marks = document.createElementNS(SVG, "g");
    marks.setAttribute("class", "last-move-marks");
    marks.setAttribute("pointer-events", "none");
    section.dataset.lastMove.split(" ").forEach(function (name) {
      var square = board.querySelector('[data-square="' + name + '"]');
      if (!square) return;
      square.classList.add("last-move");
      var rect = square.querySelector("rect");
      var box = rect ? rect.getBBox() : square.getBBox();
      var ctm = square.getCTM && board.getCTM ? board.getCTM().inverse().multiply(square.getCTM()) : null;
      var mark = document.createElementNS(SVG, "rect");
      mark.setAttribute("class", "last-move-mark");
      mark.setAttribute("x", box.x + 2);
      mark.setAttribute("y", box.y + 2);
      mark.setAttribute("width", box.width - 4);
      mark.setAttribute("height", box.height - 4);
      if (ctm) mark.setAttribute("transform", "matrix(" + [ctm.a, ctm.b, ctm.c, ctm.d, ctm.e, ctm.f].join(" ") + ")");
      marks.appendChild(mark);
    });
    board.appendChild(marks);
  }

  function startBoard(root) {
    var hooks = gameHooks();
    markLastMove(root);
    stageChoices(root);
    playWithTools(root, hooks);
    if (hooks.start) hooks.start(root);
  }

  function playWithTools(root, hooks) {
    var matches = hooks.matches || function () { return false; };
    var placesOf = hooks.places || defaultPlaces;
    var look = hooks.piece || function () { return {}; };
    var source = root.querySelector("#legal-moves");
    var form = root.querySelector("#move-form");
    var board = root.querySelector(".board svg");
    if (!source || !form || !board) return;
    var legal = JSON.parse(source.textContent);
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
        var entries = tool && tool.targets[placeName(sq)];
        var on = Boolean(entries);
        sq.classList.toggle("legal", on);
        nameForKeys(sq, on ? entries[0].description : null);
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

    // Drops the piece staged on the board (the staged box is the caller's).
    function clearBoard() {
      stagedDrawing.textContent = "";
      squares().forEach(function (sq) { sq.classList.remove("chosen"); });
    }
    form.clearBoard = function () { clearBoard(); markLegal(); };

    function unstage() {
      clearBoard();
      hideStaged(root, form);
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
      preview.appendChild(pieceDrawing(look(tool), boxOf(square), 0.55));
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
        if (on) stagedDrawing.appendChild(pieceDrawing(look(tool), boxOf(sq), 0.95));
      });
      preview.textContent = "";
      showStaged(root, form, entry.text, entry.description, null);
    }

    root.querySelectorAll(".tool").forEach(function (button) {
      var any = legal.some(function (entry) {
        return matches(entry.move, toolOf(button));
      });
      button.disabled = !any;
      button.addEventListener("click", function () { choose(button); });
    });
    // A decision with a single tool (marked `data-chosen-first`) starts with it chosen.
    var first = root.querySelector(".tool[data-chosen-first]:not([disabled])");
    if (first) choose(first);
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
  // For a game's own control that builds a move (an amount, a pick among many): stage it
  // as a choice is staged, with Send and Undo.
  window.turnpostStage = function (text, description) {
    return stage(currentRoot(), text, description, null);
  };
  // Takes a staged move back, as Undo does, when the game's own control starts another.
  window.turnpostUnstage = function () {
    var root = currentRoot();
    var form = root.querySelector("#move-form");
    if (form) unstage(root, form);
  };
  startBoard(document);
})();
