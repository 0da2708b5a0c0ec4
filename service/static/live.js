// Live updates on the game page: polls the game's version every couple of seconds and,
// when it changed, fetches the page and swaps its content in place (no reload), then
// restarts click-to-play (game.js's startBoard, which starts the game's own script). When
// it becomes the player's turn the title, the favicon and (if allowed) a browser
// notification say so. While the player is in the middle of something (a tool chosen,
// a move staged, text typed) the swap waits, so nothing is lost: the form keeps the
// version it was drawn from, and sending it answers plainly if the game moved on. The
// game log keeps its scroll position unless it was at its end.
(function () {
  "use strict";
  var POLL_MS = 2000;
  var live = document.getElementById("live");
  if (!live) return;
  var versionUrl = live.dataset.versionUrl;
  var busy = false;
  var waiting = null;  // a fetched page held back while the player is busy

  function badge(on) {
    var link = document.querySelector("link[rel=icon]");
    if (!link) {
      link = document.createElement("link");
      link.rel = "icon";
      document.head.appendChild(link);
    }
    var dot = on ? '<circle cx="24" cy="8" r="8" fill="#d9480f"/>' : "";
    link.href = "data:image/svg+xml," + encodeURIComponent(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="2" y="6" width="24" height="24" rx="4" fill="#8a3b12"/>' +
      '<text x="14" y="25" font-size="18" font-family="sans-serif" fill="#fff" text-anchor="middle">t</text>' + dot + "</svg>");
  }

  function announce(current, wasMyTurn) {
    var mine = current.dataset.myTurn === "true";
    document.title = (mine ? "(Your turn) " : "") + current.dataset.title;
    badge(mine);
    if (mine && !wasMyTurn && window.Notification && Notification.permission === "granted" && document.hidden) {
      new Notification("Your turn", {body: current.dataset.title});
    }
  }

  function scrollLogToEnd() {
    var log = document.querySelector("#live .log");
    if (log) log.scrollTop = log.scrollHeight;
  }

  // The log's scroll position, or null when it is at its end (or absent).
  function logPosition() {
    var log = live.querySelector(".log");
    if (!log || log.scrollTop + log.clientHeight >= log.scrollHeight - 4) return null;
    return log.scrollTop;
  }

  // Whether the player is in the middle of something a swap would throw away: a tool
  // chosen by hand, a staged move, or text typed into a form.
  function playerIsBusy() {
    if (live.querySelector("[aria-pressed=true]:not([data-chosen-first])")) return true;
    var staged = live.querySelector("#staged");
    // A game's own script marks what it stages with `data-staged-move`.
    if ((staged && !staged.hidden) || live.querySelector("[data-staged-move]")) return true;
    return Array.prototype.some.call(live.querySelectorAll("input, textarea"), function (field) {
      return field.type !== "hidden" && field.type !== "checkbox" && field.value !== field.defaultValue;
    });
  }

  function hold(fresh) {
    var first = !waiting;
    waiting = fresh;
    announce(fresh, live.dataset.myTurn === "true");
    var status = live.querySelector("#live-status");
    if (!first || !status) return;
    status.textContent = "The game has moved on; what you were doing is kept. Send your move (if the game " +
      "no longer allows it you are told so and nothing changes), undo it, or ";
    var now = document.createElement("button");
    now.type = "button";
    now.id = "show-update";
    now.textContent = "show the new position now";
    now.addEventListener("click", function () { swap(waiting); });
    status.appendChild(now);
  }

  function swap(fresh) {
    var wasMyTurn = live.dataset.myTurn === "true";
    var position = logPosition();
    waiting = null;
    live.replaceWith(fresh);
    live = fresh;
    document.querySelectorAll("p.flash").forEach(function (p) { p.remove(); });
    if (window.turnpost && window.turnpost.startBoard) window.turnpost.startBoard(live);
    offerNotifications(live);
    announce(live, wasMyTurn);
    var log = live.querySelector(".log");
    if (position === null) scrollLogToEnd();
    else if (log) log.scrollTop = position;
  }

  function refresh() {
    return fetch(window.location.pathname, {credentials: "same-origin"}).then(function (r) {
      if (!r.ok) throw new Error("page " + r.status);
      return r.text();
    }).then(function (html) {
      var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("live");
      if (!fresh) return;
      if (playerIsBusy()) hold(fresh); else swap(fresh);
    });
  }

  function poll() {
    if (waiting && !playerIsBusy()) swap(waiting);
    if (busy) return;
    busy = true;
    var shown = waiting ? waiting.dataset.version : live.dataset.version;
    fetch(versionUrl, {credentials: "same-origin", cache: "no-store"}).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (data) {
      if (data && String(data.version) !== shown) return refresh();
    }).catch(function () { /* offline for a moment: the next poll tries again */ })
      .then(function () { busy = false; });
  }

  // The button in the players panel, while the browser may still ask; the panel is
  // part of what a refresh swaps in, so each new one is set up again.
  function offerNotifications(root) {
    var notify = root.querySelector("#notify-me");
    if (!notify || !window.Notification || Notification.permission !== "default") return;
    notify.hidden = false;
    notify.addEventListener("click", function () {
      Notification.requestPermission().then(function () { notify.hidden = true; });
    });
  }

  // Undoing a staged move while an update waits shows the update at once.
  document.addEventListener("click", function (event) {
    if (waiting && event.target.closest("#undo-move")) swap(waiting);
  });
  offerNotifications(live);
  announce(live, true);
  scrollLogToEnd();
  setInterval(poll, POLL_MS);
})();
