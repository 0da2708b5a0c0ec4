// Table talk on the game page: polls the game's messages (the API, after the last one
// shown) as often as live.js polls the board, and appends new ones as text (never as
// markup). The form posts without leaving the page; with no script it posts and comes
// back. The panel sits outside the board's live area, so typing here never holds
// back a board update.
(function () {
  "use strict";
  var POLL_MS = 2000;  // as live.js
  var panel = document.getElementById("table-talk");
  if (!panel || panel.dataset.muted === "true") return;
  var list = panel.querySelector("ol.messages");
  var lastId = Number(panel.dataset.lastId) || 0;
  var busy = false;

  function show(message) {
    var empty = list.querySelector(".empty");
    if (empty) empty.remove();
    var item = document.createElement("li");
    item.dataset.id = message.id;
    var name = document.createElement("strong");
    name.textContent = message.name;
    var when = document.createElement("span");
    when.className = "muted";
    when.textContent = " " + new Date(message.created_at).toUTCString().slice(5, 22);
    var text = document.createElement("p");
    text.textContent = message.text;
    item.append(name, when, text);
    list.appendChild(item);
    lastId = Math.max(lastId, message.id);
  }

  function poll() {
    if (busy) return Promise.resolve();
    busy = true;
    return fetch(panel.dataset.messagesUrl + "?after=" + lastId, {credentials: "same-origin", cache: "no-store"})
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (data) data.messages.forEach(function (m) { if (m.id > lastId) show(m); });
      })
      .catch(function () { /* offline for a moment: the next poll tries again */ })
      .then(function () { busy = false; });
  }

  var form = document.getElementById("say-form");
  if (form) {
    var status = form.querySelector(".say-status");
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      fetch(form.action, {method: "POST", body: new FormData(form), credentials: "same-origin",
                          headers: {"Accept": "application/json"}})
        .then(function (r) { return r.json().then(function (body) { return {ok: r.ok, body: body}; }); })
        .then(function (answer) {
          status.textContent = answer.ok ? "" : answer.body.message;
          if (answer.ok) form.reset();
          return poll();
        })
        .catch(function () { status.textContent = "Not sent: the connection failed; try again."; });
    });
  }
  setInterval(poll, POLL_MS);
})();
