// Live updates on the game page: polls the game's version every couple of seconds and,
// when it changed, fetches the page and swaps its content in place (no reload), then
// restarts click-to-play (game.js's startBoard and each game script's starter). When
// it becomes the player's turn the title, the favicon and (if allowed) a browser
// notification say so.
(function () {
  "use strict";
  var POLL_MS = 2000;
  var live = document.getElementById("live");
  if (!live) return;
  var versionUrl = live.dataset.versionUrl;
  var busy = false;

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

  function refresh() {
    return fetch(window.location.pathname, {credentials: "same-origin"}).then(function (r) {
      if (!r.ok) throw new Error("page " + r.status);
      return r.text();
    }).then(function (html) {
      var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("live");
      if (!fresh) return;
      var wasMyTurn = live.dataset.myTurn === "true";
      live.replaceWith(fresh);
      live = fresh;
      document.querySelectorAll("p.flash").forEach(function (p) { p.remove(); });
      if (window.turnpost && window.turnpost.startBoard) window.turnpost.startBoard(live);
      ((window.turnpost && window.turnpost.starters) || []).forEach(function (start) { start(live); });
      offerNotifications(live);
      announce(live, wasMyTurn);
      scrollLogToEnd();
    });
  }

  function poll() {
    if (busy) return;
    busy = true;
    fetch(versionUrl, {credentials: "same-origin", cache: "no-store"}).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (data) {
      if (data && String(data.version) !== live.dataset.version) return refresh();
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

  offerNotifications(live);
  announce(live, true);
  scrollLogToEnd();
  setInterval(poll, POLL_MS);
})();
