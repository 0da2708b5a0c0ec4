// Clickable play for Civilization: The Card Game on the game page. The server embeds
// the seat's legal moves (each with its text notation) and the seat's view. A click on
// a highlighted card of the tableaux (a plot for sale or of the draft, a technology,
// one's own plot, a card in hand) chooses what to do; when the move needs more (which
// plot to build on, how to pay, which neighbour to attack, which unit to counter) the
// choices follow as highlighted cards and buttons. The move so made is staged in the
// page's move form (`window.turnpostStage`: "You chose: ..." in words, with Undo), whose
// one Send posts its text notation, so the page still works without this script. A combat shows who attacks whom with what, and the
// defender's counters from his hand as buttons. Every card carries its rules text (the
// drawing's <title>, which a pointer shows); a tap or click on a card shows it in a line
// below the tableaux, whoever is to move. Registered as the game's `start` hook, which
// static/game.js runs on the page and again when live updates replace it.
(function () {
  "use strict";
  var CARD_HINT = "Point at or tap a card to read what it does.";
  // Why a card of the tableaux is not lit for the decision owed (set while one is owed).
  var closedReason = function () { return ""; };

  // The line below the tableaux that shows the rules text of the card last tapped.
  function showCardTexts(board) {
    var section = board.closest(".board");
    if (!section || section.querySelector(".civ-card-text")) return;
    var line = document.createElement("p");
    line.className = "civ-card-text";
    line.setAttribute("aria-live", "polite");
    line.textContent = CARD_HINT;
    section.appendChild(line);
    board.addEventListener("click", function (event) {
      var card = event.target.closest("[data-card]");
      if (!card) return;
      var title = card.querySelector("title");
      var closed = card.hasAttribute("data-slot") && !card.classList.contains("legal") ? closedReason(card) : "";
      line.textContent = (title ? title.textContent : CARD_HINT) + (closed ? " Not open now: " + closed : "");
      board.querySelectorAll("[data-card].shown").forEach(function (el) { el.classList.remove("shown"); });
      card.classList.add("shown");
    });
  }

  // The reason, from the seat's view, a card is not lit for the decision `kind`: what
  // it costs against what is held, or when such a card is played.
  function reasonFor(view, me, kind) {
    var player = view.players[me];
    var held = player.resources;
    return function (card) {
      var slot = card.getAttribute("data-slot");
      var cardKind = card.getAttribute("data-kind");
      if (kind === "buy") {
        if (slot.indexOf("display-plot-") === 0) {
          var total = held.food + held.production + held.commerce;
          return total < player.plot_price ? "a plot costs " + player.plot_price + " resources of any mix; you hold " + total + "." : "";
        }
        if (slot.indexOf("tech-") === 0) return "you hold " + held.commerce + " commerce, too little for it.";
        if (slot.indexOf("plot-") === 0) {
          if (view.population <= 0) return "no population card is left.";
          return held.food < player.population_price ? "a population costs " + player.population_price + " food; you hold " + held.food + "." : "";
        }
        if (cardKind === "unit") return "units are played in combat, after buying.";
        if (cardKind === "building" || cardKind === "wonder") {
          return "it needs its cost in production (you hold " + held.production + ") and a plot of yours with room.";
        }
      }
      if (kind === "attack" && slot.indexOf("hand-") === 0 && cardKind !== "unit") return "only units attack.";
      return "";
    };
  }

  function start() {
    var board = document.querySelector(".board svg");
    closedReason = function () { return ""; };
    if (board) showCardTexts(board);
    var source = document.getElementById("legal-moves");
    var context = document.getElementById("civ-context");
    var form = document.getElementById("move-form");
    var decision = document.getElementById("decision");
    if (!source || !context || !form || !decision || !board) return;
    var legal = JSON.parse(source.textContent);
    var data = JSON.parse(context.textContent);
    var view = data.view;
    var names = data.names || {};
    var me = view.seat;
    var selected = null; // {slot, entries}: a first click that needs a second choice
    var staged = null;
    var reason = reasonFor(view, me, (view.pending || {})[String(me)]);
    closedReason = function (card) {
      if (selected && card.getAttribute("data-slot").indexOf("plot-") === 0) {
        return "this plot has no room for another building or wonder.";
      }
      return selected ? "" : reason(card);
    };

    function cardName(id) {
      return String(id).split("-").map(function (w) { return w.charAt(0).toUpperCase() + w.slice(1); }).join(" ");
    }
    function seatName(seat) {
      var name = names[String(seat)];
      return (name ? name + " " : "") + "(seat " + seat + ")";
    }
    function mix(pay) {
      return ["food", "production", "commerce"].map(function (k) { return pay[k] + " " + k; }).join(", ");
    }
    function ownPlot(n) {
      var plot = view.players[me].plots[n - 1];
      return "plot " + n + (plot ? " (" + cardName(plot.plot) + ")" : "");
    }
    function plotList(numbers) {
      return numbers.map(ownPlot).join(", ");
    }
    function front(defender) {
      var fronts = (view.combat && view.combat.fronts) || [];
      return fronts.filter(function (f) { return f.defender === defender; })[0];
    }
    function unitName(f, number) {
      return number + ". " + cardName(f.units[number - 1]);
    }

    // The card of the tableaux a move is chosen by, first; null for moves made by button.
    function firstSlot(move) {
      switch (move.type) {
        case "pick_plot": case "buy_plot": return "display-plot-" + move.slot;
        case "settle": case "buy_population": case "return_walls": return "plot-" + move.plot;
        case "give_population": case "place_population": return move.plots.length === 1 ? "plot-" + move.plots[0] : null;
        case "research": return "tech-" + move.card;
        case "discard": case "build": case "cash": case "attack": case "counter": return "hand-" + move.card;
        default: return null;
      }
    }
    // The card that completes a move after the first click, if one does.
    function secondSlot(move) {
      return move.type === "build" ? "plot-" + move.plot : null;
    }
    // What a move adds to its first click, as a button's words.
    function option(move) {
      switch (move.type) {
        case "buy_plot": return "pay " + mix(move.pay);
        case "build": return "on " + ownPlot(move.plot);
        case "cash": return "as " + move.resource;
        case "attack": return "against " + seatName(move.target);
        case "counter": return "counter " + unitName(front(me), move.unit);
        default: return null;
      }
    }
    // What a first click chose, while the rest of the move is asked for.
    function heading(move) {
      var what = {buy_plot: "Buy " + (move.type === "buy_plot" ? cardName(view.plot_display[move.slot - 1]) : ""),
                  build: "Build " + cardName(move.card), cash: "Play " + cardName(move.card),
                  attack: "Attack with " + cardName(move.card), counter: "Counter with " + cardName(move.card)};
      return (what[move.type] || cardName(move.card || "")) + ": choose";
    }
    // A move in words, with card names (the engine's descriptions keep some cards private).
    function words(entry) {
      var m = entry.move;
      switch (m.type) {
        case "pick_plot": return "take " + cardName(view.draft.display[m.slot - 1]) + " from the draft";
        case "settle": return "put the free population on " + ownPlot(m.plot);
        case "discard": return "discard " + cardName(m.card);
        case "buy_plot": return "buy " + cardName(view.plot_display[m.slot - 1]) + ", paying " + mix(m.pay);
        case "buy_population": return "buy a population for " + ownPlot(m.plot);
        case "build": return "build " + cardName(m.card) + " on " + ownPlot(m.plot);
        case "research": return "buy the technology " + cardName(m.card);
        case "cash": return "play " + cardName(m.card) + " as " + m.resource;
        case "attack": return "attack " + seatName(m.target) + " with " + cardName(m.card);
        case "counter": return "counter " + unitName(front(me), m.unit) + " with " + cardName(m.card);
        case "repel": return m.unit === null ? "let the attack through" : "send " + unitName(front(me), m.unit) + " back";
        case "end_buying": return "done buying";
        case "fight": return view.combat && view.combat.fronts.length ? "fight" : "fight with no unit (no combat)";
        case "end_counters": return "counter done";
        case "collect": return "your population yields " + mix(m.population);
        case "lose_buildings": return "lose " + m.buildings.map(function (b) {
          return cardName(b[1]) + " on " + ownPlot(b[0]);
        }).join(", ");
        case "give_population": return "give up population from " + plotList(m.plots);
        case "place_population": return "place the captured population on " + plotList(m.plots);
        case "return_walls": return "return the Walls of " + ownPlot(m.plot) + " to your hand";
        case "scrap": return "scrap " + cardName(m.card) + " on " + ownPlot(m.plot);
        default: return entry.description;
      }
    }
    // Payments that keep the most of the scarcest kind first (all cost the same in total).
    function kept(entry) {
      var held = view.players[me].resources;
      return ["food", "production", "commerce"].map(function (k) { return held[k] - entry.move.pay[k]; })
        .sort(function (a, b) { return a - b; });
    }
    function byPayment(a, b) {
      var ka = kept(a), kb = kept(b);
      for (var i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return kb[i] - ka[i];
      return 0;
    }

    var panel = document.createElement("div");
    panel.id = "civ-play";
    form.parentNode.insertBefore(panel, form);
    decision.classList.add("civ-clickable");

    function button(label, onClick, extra) {
      var b = document.createElement("button");
      b.type = "button";
      b.textContent = label;
      if (extra) b.className = extra;
      b.addEventListener("click", onClick);
      return b;
    }
    function section(title) {
      var div = document.createElement("div");
      div.className = "civ-section";
      if (title) {
        var h = document.createElement("h3");
        h.textContent = title;
        div.appendChild(h);
      }
      panel.appendChild(div);
      return div;
    }

    // The page's staging (static/game.js) clears the board's marks; render() puts them back.
    function stage(entry) {
      staged = entry;
      selected = null;
      window.turnpostStage(entry.text, words(entry));
      render();
    }

    function clear() {
      if (staged) window.turnpostUnstage();
      staged = null;
      selected = null;
      render();
    }

    function clickSlot(slot) {
      if (selected) {
        var done = selected.entries.filter(function (e) { return secondSlot(e.move) === slot; });
        if (done.length === 1) return stage(done[0]);
      }
      var entries = legal.filter(function (e) { return firstSlot(e.move) === slot; });
      if (!entries.length) return;
      if (entries.length === 1) return stage(entries[0]);
      if (entries[0].move.type === "buy_plot") entries.sort(byPayment);
      if (staged) window.turnpostUnstage();
      selected = {slot: slot, entries: entries};
      staged = null;
      render();
    }

    function markSlots() {
      var targets = {};
      if (selected) {
        selected.entries.forEach(function (e) { var s = secondSlot(e.move); if (s) targets[s] = true; });
      } else {
        legal.forEach(function (e) { var s = firstSlot(e.move); if (s) targets[s] = true; });
      }
      board.querySelectorAll("[data-slot]").forEach(function (el) {
        var slot = el.getAttribute("data-slot");
        var on = Boolean(targets[slot]);
        el.classList.toggle("legal", on);
        el.classList.toggle("chosen", Boolean((selected && selected.slot === slot) ||
                                              (staged && [firstSlot(staged.move), secondSlot(staged.move)].indexOf(slot) >= 0)));
        if (on) el.setAttribute("tabindex", "0"); else el.removeAttribute("tabindex");
      });
    }

    function renderCombat() {
      var fronts = (view.combat && view.combat.fronts) || [];
      var attacker = view.turn.active;
      if (!fronts.length || (me !== attacker && !front(me))) return;
      var box = section("Combat");
      box.id = "civ-combat";
      box.classList.add("civ-combat");
      fronts.forEach(function (f) {
        if (me !== attacker && f.defender !== me) return;
        var p = document.createElement("p");
        p.className = "civ-front";
        p.textContent = (me === attacker ? "You attack " + seatName(f.defender) : seatName(attacker) + " attacks you") + " with:";
        box.appendChild(p);
        var list = document.createElement("ol");
        list.className = "civ-units";
        f.units.forEach(function (unit, i) {
          var li = document.createElement("li");
          li.textContent = cardName(unit) + (i === f.repelled ? " (sent back)" : "");
          if (Array.isArray(f.counters)) {
            f.counters.filter(function (c) { return c[1] === i; }).forEach(function (c) {
              li.textContent += ", countered by " + cardName(c[0]);
            });
          }
          var counters = legal.filter(function (e) { return e.move.type === "counter" && e.move.unit === i + 1; });
          counters.forEach(function (e) {
            li.appendChild(document.createTextNode(" "));
            li.appendChild(button("counter with " + cardName(e.move.card), function () { stage(e); }, "civ-counter"));
          });
          list.appendChild(li);
        });
        box.appendChild(list);
      });
    }

    // Moves no card of the tableaux chooses: done, fight, trades, counter done, losses...
    function renderButtons() {
      var rest = legal.filter(function (e) { return firstSlot(e.move) === null; });
      if (!rest.length) return;
      var groups = {trade: "Trade 3:1", scrap: "Scrap a building or wonder", give: "Give to your teammate"};
      var combatBox = document.getElementById("civ-combat");
      var boxes = {};
      rest.forEach(function (e) {
        var title = groups[e.move.type] || "";
        if (!(title in boxes)) boxes[title] = combatBox && !title ? combatBox : section(title);
        var label = e.move.type === "trade" ? "3 " + e.move.give + " → 1 " + e.move.get : words(e);
        boxes[title].appendChild(button(label, function () { stage(e); }, "civ-choice"));
      });
    }

    function renderSelection() {
      if (!selected) return;
      var first = selected.entries[0].move;
      var box = section(heading(first));
      box.classList.add("civ-options");
      var shown = first.type === "buy_plot" && !selected.all ? selected.entries.slice(0, 6) : selected.entries;
      shown.forEach(function (e) {
        box.appendChild(button(option(e.move) || words(e), function () { stage(e); }, "civ-choice"));
      });
      if (shown.length < selected.entries.length) {
        box.appendChild(button("more ways to pay (" + (selected.entries.length - shown.length) + ")", function () {
          selected.all = true;
          render();
        }, "civ-more"));
      }
      if (secondSlot(first)) {
        var hint = document.createElement("p");
        hint.className = "muted";
        hint.textContent = "or click a highlighted plot of yours.";
        box.appendChild(hint);
      }
    }

    // What to do next while nothing is staged (a staged move shows in the move form).
    function renderHint() {
      if (staged) return;
      var box = section("");
      box.id = "civ-hint";
      var line = document.createElement("p");
      line.className = "muted";
      line.textContent = selected ? "Complete the move above." : "Click a highlighted card, or a button.";
      box.appendChild(line);
      if (selected) {
        box.setAttribute("data-staged-move", "");  // live.js holds updates back while a move is half made
        box.appendChild(button("Clear", clear, "civ-clear"));
      }
    }

    function render() {
      panel.innerHTML = "";
      renderCombat();
      renderSelection();
      renderButtons();
      renderHint();
      markSlots();
    }

    var undo = document.getElementById("undo-move");  // the page's Undo takes back the staged move
    if (undo) undo.addEventListener("click", function () { staged = null; selected = null; render(); });
    board.addEventListener("click", function (event) {
      var el = event.target.closest("[data-slot]");
      if (el) clickSlot(el.getAttribute("data-slot")); // a card that chooses nothing is ignored
    });
    board.addEventListener("keydown", function (event) {
      var el = event.target.closest("[data-slot]");
      if (el && el.classList.contains("legal") && (event.key === "Enter" || event.key === " ")) {
        event.preventDefault();
        clickSlot(el.getAttribute("data-slot"));
      }
    });
    render();
  }

  window.turnpostGames = window.turnpostGames || {};
  window.turnpostGames["civ-cards"] = {start: start};
})();
