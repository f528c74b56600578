// Follows a running league game on its page (/games/{id}), one hand behind: listens to the
// game's event stream (GET /api/games/{id}/live, server-sent events) from the first hand
// the page lacks. A new hand, a restart of the game or its end reloads the page, which the
// server renders again with the hands so far (or, once it ended, the whole game). A reader
// in the newest hand (or who has not moved) is taken to the hand that just ended; one
// looking at an earlier hand stays there. Plain DOM, same origin only (CSP connect-src).
"use strict";
(function () {
  const box = document.getElementById("live");
  if (!box) return;
  const shown = Number(box.dataset.hands) || 0;
  const fin = document.getElementById("final");
  if (fin) fin.textContent = "in play";
  const status = (text) => {
    box.textContent = text;
  };
  if (!window.EventSource) {
    status("Live: this browser cannot follow the game; reload the page to see new hands.");
    return;
  }
  const data = JSON.parse(document.getElementById("game-data").textContent);
  const starts = data.kyokus.map((k) => k.start);
  const following = () => !location.hash || Number(document.body.dataset.event || 0) >= (starts.length ? starts[starts.length - 1] : 0);
  let pending = null;
  let source = null;
  const reload = (hash) => {
    if (pending) clearTimeout(pending);
    // a few hands at once (a late arrival) make one reload
    pending = setTimeout(() => {
      source.close();
      if (hash !== null) history.replaceState(null, "", hash);
      location.reload();
    }, 250);
  };
  // A refused stream (503: too many open; a server restarting) is not retried by the
  // browser itself: try again after a pause that grows to a minute.
  let pause = 2000;
  const listen = () => {
    source = new EventSource(box.dataset.stream + "?from=" + shown);
    source.addEventListener("open", () => {
      pause = 2000;
    });
    source.addEventListener("error", () => {
      if (source.readyState !== EventSource.CLOSED) return; // the browser reconnects
      status("Live: the stream was refused; trying again in " + Math.round(pause / 1000) + " s.");
      setTimeout(listen, pause);
      pause = Math.min(pause * 2, 60000);
    });
    source.addEventListener("hand", (ev) => {
      const hand = JSON.parse(ev.data).hand;
      status("Live: hand " + (hand + 1) + " has ended; loading it.");
      reload(following() ? "#kyoku=" + hand : null);
    });
    source.addEventListener("restart", () => {
      status("Live: the game is being played again from its first hand.");
      reload("#kyoku=0");
    });
    source.addEventListener("end", (ev) => {
      const state = JSON.parse(ev.data).state;
      status(state === "finished" ? "The game has ended; loading the whole game." : "The game failed; see the list of games.");
      if (state === "finished") reload(null);
      else source.close();
    });
  };
  listen();
  document.body.dataset.live = "following";
})();
