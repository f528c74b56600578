// mjai-sim game viewer: displays the data embedded in #game-data (see src/viewer/game.rs).
// Plain DOM, no framework, no network. URL fragment: #event=N (0-based event index) or
// #kyoku=K&step=S (K-th hand, S events after its start_kyoku), plus &hide=1&seat=N.
// A three-player game (D.players === 3) shows seats 0-2 (East bottom, South right, West
// top, as Tenhou's sanma table) and each seat's kita beside its calls.
"use strict";
(function () {
  const t0 = performance.now();
  const D = JSON.parse(document.getElementById("game-data").textContent);
  const E = D.events;
  const N = D.players === 3 ? 3 : 4; // seats at the table
  const HONORS = ["E", "S", "W", "N", "P", "F", "C"];
  // Names in plain Latin: the page needs no font beyond it (tiles are the SVG sprite's).
  const HONOR_NAME = { E: "East", S: "South", W: "West", N: "North", P: "white dragon", F: "green dragon", C: "red dragon" };
  const SVG = "http://www.w3.org/2000/svg";
  const last = D.failure ? Math.min(D.failure.event, E.length - 1) : E.length - 1;
  const horaAt = new Map(D.horas.map((h) => [h.event, h]));
  const chomboAt = new Map(D.chombos.map((c) => [c.event, c]));
  let pos = D.kyokus.length ? D.kyokus[0].start : 0;

  function el(tag, attrs, ...kids) {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") n.className = v;
      else n.setAttribute(k, v);
    }
    for (const k of kids) if (k !== null && k !== undefined) n.append(k);
    return n;
  }
  const $ = (id) => document.getElementById(id);

  function tileKey(t) {
    if (typeof t !== "string") return 99;
    const h = HONORS.indexOf(t);
    if (h >= 0) return 30 + h;
    const s = "mps".indexOf(t[1]);
    if (s < 0) return 98;
    return s * 10 + Number(t[0]) + (t.length > 2 ? 0.5 : 0);
  }
  function kindOf(t) {
    return typeof t === "string" ? t.slice(0, 2) : "";
  }
  // "5m", "red 5m", "East", "white dragon", "a hidden tile".
  function tileName(t) {
    if (HONOR_NAME[t]) return HONOR_NAME[t];
    if (t === "?") return "a hidden tile";
    if (typeof t !== "string") return "?";
    return t.length === 3 && t[2] === "r" ? "red " + t.slice(0, 2) : t;
  }
  // The sprite's symbol for a tile name (src/viewer/tiles.rs).
  function symbolOf(t, back) {
    if (back || t === "?") return "back";
    return /^([1-9][mps]|5[mps]r|[ESWNPFC])$/.test(t) ? t : "unknown";
  }
  // One tile: <svg class="tile ..." data-pai=T><title>name</title><use href="#tile-T"/></svg>.
  function tile(t, cls) {
    const back = (cls || "").split(" ").includes("back");
    const n = document.createElementNS(SVG, "svg");
    n.setAttribute("class", "tile" + (cls ? " " + cls : ""));
    n.setAttribute("data-pai", t);
    n.setAttribute("viewBox", "0 0 30 40");
    n.setAttribute("role", "img");
    const name = back ? "a hidden tile" : tileName(t);
    n.setAttribute("aria-label", name);
    const title = document.createElementNS(SVG, "title");
    title.textContent = name;
    const use = document.createElementNS(SVG, "use");
    use.setAttribute("href", "#tile-" + symbolOf(t, back));
    n.append(title, use);
    return n;
  }
  function removeTile(hand, t) {
    let i = hand.indexOf(t);
    if (i < 0) i = hand.indexOf("?");
    if (i >= 0) hand.splice(i, 1);
  }

  function kyokuOf(i) {
    let k = -1;
    D.kyokus.forEach((q, j) => {
      if (q.start <= i) k = j;
    });
    return k;
  }

  // The table after event i (within its hand).
  function stateAt(i) {
    const k = kyokuOf(i);
    const st = {
      kyoku: k, hands: [[], [], [], []], rivers: [[], [], [], []], melds: [[], [], [], []],
      dora: [], scores: [25000, 25000, 25000, 25000], kyotaku: 0, honba: 0, wall: N === 3 ? 55 : 70,
      kita: [[], [], [], []],
      reach: [false, false, false, false], declaring: [false, false, false, false],
      drawn: null, turn: null, results: [], label: k >= 0 ? D.kyokus[k].label : "",
    };
    if (k < 0) return st;
    for (let j = D.kyokus[k].start; j <= i; j++) {
      try {
        apply(st, E[j], j);
      } catch (err) {
        st.results.push({ kind: "bad", text: "event " + j + " cannot be shown: " + err });
      }
    }
    return st;
  }

  function apply(st, e, j) {
    const a = e.actor;
    switch (e.type) {
      case "start_kyoku":
        st.hands = e.tehais.map((h) => h.slice());
        st.dora = [e.dora_marker];
        st.scores = e.scores.slice();
        st.kyotaku = e.kyotaku;
        st.honba = e.honba;
        st.oya = e.oya;
        st.turn = e.oya;
        break;
      case "tsumo":
        st.hands[a].push(e.pai);
        st.wall -= 1;
        st.drawn = { seat: a, pai: e.pai };
        st.turn = a;
        return;
      case "dahai":
        removeTile(st.hands[a], e.pai);
        st.rivers[a].push({ pai: e.pai, tsumogiri: e.tsumogiri, riichi: st.declaring[a] });
        st.declaring[a] = false;
        st.turn = a;
        break;
      case "reach":
        st.declaring[a] = true;
        return;
      case "reach_accepted":
        st.scores[a] -= 1000;
        st.kyotaku += 1;
        st.reach[a] = true;
        break;
      case "chi":
      case "pon":
      case "daiminkan": {
        e.consumed.forEach((t) => removeTile(st.hands[a], t));
        const r = st.rivers[e.target];
        if (r.length) r[r.length - 1].called = true;
        st.melds[a].push({ type: e.type, tiles: [e.pai].concat(e.consumed), from: e.target });
        st.turn = a;
        break;
      }
      case "kakan": {
        removeTile(st.hands[a], e.pai);
        const m = st.melds[a].find((q) => q.type === "pon" && kindOf(q.tiles[0]) === kindOf(e.pai.replace("r", "")));
        if (m) {
          m.type = "kakan";
          m.tiles.push(e.pai);
        } else st.melds[a].push({ type: "kakan", tiles: [e.pai].concat(e.consumed) });
        break;
      }
      case "ankan":
        e.consumed.forEach((t) => removeTile(st.hands[a], t));
        st.melds[a].push({ type: "ankan", tiles: e.consumed.slice() });
        break;
      case "kita":
      case "nukidora":
        removeTile(st.hands[a], e.pai);
        st.kita[a].push(e.pai);
        st.turn = a;
        break;
      case "dora":
        st.dora.push(e.dora_marker);
        return;
      case "hora":
        addDeltas(st, e.deltas);
        st.kyotaku = 0;
        st.results.push({ kind: "hora", e: e, j: j });
        break;
      case "ryukyoku":
        addDeltas(st, e.deltas);
        st.results.push({ kind: "ryukyoku", e: e, j: j });
        break;
      case "end_game":
        if (D.final_scores) st.scores = D.final_scores.slice();
        break;
      default:
        break;
    }
    st.drawn = null;
  }
  function addDeltas(st, d) {
    if (Array.isArray(d)) d.forEach((x, s) => (st.scores[s] += x));
  }

  function name(s) {
    return "seat " + s + (D.names[s] !== String(s) ? " (" + D.names[s] + ")" : "");
  }

  function renderSeat(st, s) {
    const box = $("seat-" + s);
    box.replaceChildren();
    box.classList.toggle("turn", st.turn === s);
    const hide = $("hide").checked && String(s) !== $("viewpoint").value;
    const wind = st.oya === undefined ? "" : HONOR_NAME[HONORS[(s - st.oya + N) % N]] + " · ";
    const who = el("div", { class: "who" }, wind + name(s) + "  ", el("span", { class: "score", "data-score": st.scores[s] }, String(st.scores[s])));
    if (st.reach[s] || st.declaring[s]) who.append(el("span", { class: "riichi-stick" }, "riichi"));
    box.append(who);
    let hand = st.hands[s].slice();
    let drawn = null;
    if (st.drawn && st.drawn.seat === s) {
      drawn = st.drawn.pai;
      removeTile(hand, drawn);
    }
    hand.sort((x, y) => tileKey(x) - tileKey(y));
    const shown = drawn === null ? hand : hand.concat([drawn]);
    const h = el("div", { class: "hand", "data-tiles": shown.join(" ") });
    hand.forEach((t) => h.append(hide ? tile("?", "back") : tile(t)));
    if (drawn !== null) h.append(hide ? tile("?", "back drawn") : tile(drawn, "drawn"));
    box.append(h);
    const melds = el("div", { class: "melds" });
    st.melds[s].forEach((m) => {
      const g = el("span", { class: "meld", "data-type": m.type });
      m.tiles.forEach((t) => g.append(tile(t)));
      g.append(el("span", { class: "from" }, m.type + (m.from !== undefined ? " from " + m.from : "")));
      melds.append(g);
    });
    if (st.kita[s].length) {
      const k = el("span", { class: "kita", "data-count": st.kita[s].length });
      st.kita[s].forEach((t) => k.append(tile(t)));
      k.append(el("span", { class: "from" }, "kita x" + st.kita[s].length));
      melds.append(k);
    }
    box.append(melds);
    const river = el("div", { class: "river", "data-tiles": st.rivers[s].map((d) => d.pai).join(" ") });
    st.rivers[s].forEach((d) => {
      const cls = [d.tsumogiri ? "tsumogiri" : "", d.riichi ? "riichi" : "", d.called ? "called" : ""].join(" ").trim();
      const t = tile(d.pai, cls);
      t.firstChild.textContent += (d.tsumogiri ? ", tsumogiri" : ", from the hand") + (d.riichi ? ", riichi" : "") + (d.called ? ", called" : "");
      river.append(t);
    });
    box.append(river);
  }

  function renderCenter(st) {
    const c = $("center");
    c.replaceChildren();
    c.append(el("div", { id: "round" }, st.label));
    const dora = el("div", { id: "dora", "data-tiles": st.dora.join(" ") }, "dora ");
    st.dora.forEach((t) => dora.append(tile(t)));
    c.append(dora);
    c.append(el("div", { id: "wall", "data-wall": st.wall }, "wall " + st.wall));
    c.append(el("div", {}, "honba " + st.honba + " · riichi sticks " + st.kyotaku));
  }

  function renderResult(st) {
    const r = $("result");
    r.replaceChildren();
    st.results.forEach((res) => {
      if (res.kind === "bad") return r.append(el("div", {}, res.text));
      const e = res.e;
      if (res.kind === "hora") {
        const how = e.actor === e.target ? "tsumo" : "ron from " + name(e.target);
        const box = el("div", { class: "hora" }, el("b", {}, name(e.actor) + " wins, " + how));
        const h = horaAt.get(res.j);
        if (h) {
          h.yaku.forEach(([y, han]) => box.append(el("div", { class: "yaku" }, y + " " + han + " han")));
          const total = scoreText(h);
          box.append(el("div", { class: "points" }, total + ", " + h.points + " points"));
        } else box.append(el("div", {}, "(not scored: the log fails verification before this win)"));
        box.append(el("div", { class: "deltas" }, "deltas " + JSON.stringify(e.deltas)));
        r.append(box);
      } else {
        const c = chomboAt.get(res.j);
        if (c) r.append(renderChombo(c, e));
        else r.append(el("div", { class: "draw" }, "draw" + (e.reason ? " (" + e.reason + ")" : "") + ", deltas " + JSON.stringify(e.deltas)));
      }
    });
  }

  function renderChombo(c, e) {
    const box = el("div", { class: "chombo" }, el("b", {}, "chombo by " + (c.actor === null ? "?" : name(c.actor)) + " in " + c.kyoku));
    box.append(el("div", {}, "deltas " + JSON.stringify(e.deltas)));
    if (!c.errors.length) box.append(el("div", {}, "(no errors.json entry for this hand)"));
    c.errors.forEach((x) => {
      box.append(el("div", { class: "error" }, "seat " + x.player_id + ": " + x.error_type + ": " + x.exception));
      if (x.line) box.append(el("div", {}, "answer: ", el("code", {}, x.line)));
      if (x.stderr_tail) box.append(el("pre", { class: "stderr" }, x.stderr_tail));
    });
    if (c.stderr_tail) box.append(el("div", {}, "stderr tail:"), el("pre", { class: "stderr" }, c.stderr_tail));
    return box;
  }

  function scoreText(h) {
    return h.yakuman ? h.yakuman + "x yakuman" : h.han + " han " + h.fu + " fu";
  }

  // The event at index j in words: "S2-1 · seat 3 pon 5m from seat 1".
  function describe(e, j) {
    const k = kyokuOf(j);
    const at = k >= 0 && e.type !== "start_game" ? D.kyokus[k].label + " · " : "";
    const who = "seat " + e.actor;
    let what;
    switch (e.type) {
      case "start_game": what = "start of the game"; break;
      case "start_kyoku": what = "start of the hand, dealer seat " + e.oya + ", dora marker " + tileName(e.dora_marker); break;
      case "tsumo": what = who + " draws " + (e.pai === "?" ? "a tile" : tileName(e.pai)); break;
      case "dahai": what = who + " discards " + tileName(e.pai) + (e.tsumogiri ? " (tsumogiri)" : ""); break;
      case "chi": what = who + " chi " + tileName(e.pai) + " from seat " + e.target + " with " + (e.consumed || []).map(tileName).join(" "); break;
      case "pon":
      case "daiminkan": what = who + " " + e.type + " " + tileName(e.pai) + " from seat " + e.target; break;
      case "kakan": what = who + " kakan " + tileName(e.pai); break;
      case "ankan": what = who + " ankan " + tileName(String((e.consumed || ["?"])[0]).slice(0, 2)); break;
      case "kita":
      case "nukidora": what = who + " sets aside " + tileName(e.pai) + " (kita)"; break;
      case "dora": what = "new dora marker " + tileName(e.dora_marker); break;
      case "reach": what = who + " declares riichi"; break;
      case "reach_accepted": what = who + " riichi accepted"; break;
      case "hora": {
        const h = horaAt.get(j);
        what = who + " hora by " + (e.actor === e.target ? "tsumo" : "ron from seat " + e.target) + (h ? ": " + scoreText(h) + ", " + h.points + " points" : "");
        break;
      }
      case "ryukyoku": {
        const c = chomboAt.get(j);
        what = c ? "chombo by " + (c.actor === null ? "?" : "seat " + c.actor) : "ryukyoku" + (e.reason ? " (" + e.reason + ")" : "");
        break;
      }
      case "end_kyoku": what = "end of the hand"; break;
      case "end_game": what = "end of the game"; break;
      case "none": what = "none"; break;
      default: what = String(e.type) + " (unknown event type)";
    }
    return at + what;
  }

  function renderEvent() {
    const e = E[pos];
    const bad = D.failure && D.failure.event === pos;
    const line = $("event-line");
    line.textContent = e ? describe(e, pos) + (bad ? " - fails verification: " + D.failure.reason : "") : "";
    line.classList.toggle("bad", !!bad);
    $("event-json").textContent = "line " + (pos + 1) + ": " + JSON.stringify(e);
    $("position").textContent = "event " + pos + " / " + last;
    const meta = $("meta");
    meta.hidden = !(e && e.meta !== undefined);
    meta.replaceChildren();
    if (!meta.hidden) {
      const text = JSON.stringify(e.meta, null, 1);
      meta.append(el("b", {}, "meta (seat " + e.actor + ")"), el("pre", {}, text.length > 8000 ? text.slice(0, 8000) + " ..." : text));
    }
  }

  function render() {
    const st = stateAt(pos);
    for (let s = 0; s < N; s++) renderSeat(st, s);
    renderCenter(st);
    renderResult(st);
    renderEvent();
    document.querySelectorAll("#kyokus li").forEach((li, j) => li.classList.toggle("current", j === st.kyoku));
    document.body.dataset.event = pos;
  }

  function go(i) {
    pos = Math.max(0, Math.min(last, i));
    render();
    history.replaceState(null, "", "#event=" + pos + ($("hide").checked ? "&hide=1&seat=" + $("viewpoint").value : ""));
  }
  function goKyoku(delta) {
    const k = kyokuOf(pos);
    const t = Math.max(0, Math.min(D.kyokus.length - 1, k + delta));
    if (D.kyokus.length) go(D.kyokus[t].start);
  }

  function fromHash() {
    const p = new URLSearchParams(location.hash.slice(1));
    if (p.has("hide")) $("hide").checked = p.get("hide") === "1";
    if (p.has("seat")) $("viewpoint").value = p.get("seat");
    if (p.has("event")) pos = Number(p.get("event")) || 0;
    else if (p.has("kyoku") && D.kyokus[Number(p.get("kyoku"))]) pos = D.kyokus[Number(p.get("kyoku"))].start + (Number(p.get("step")) || 0);
    pos = Math.max(0, Math.min(last, pos));
  }

  function renderStatic() {
    if (N === 3) {
      // No fourth player: its place on the table and in the viewpoint list go.
      $("seat-3").remove();
      $("viewpoint").querySelectorAll("option").forEach((o) => {
        if (Number(o.value) >= N) o.remove();
      });
      document.body.dataset.players = "3";
    }
    if (D.unverified) {
      const n = $("unverified");
      n.hidden = false;
      n.textContent = D.unverified;
    }
    const fin = $("final");
    if (D.final_scores) {
      const scores = D.final_scores.slice(0, N);
      fin.dataset.scores = scores.join(" ");
      fin.textContent = "final: " + scores.map((x, s) => name(s) + " " + x).join(", ");
    } else fin.textContent = "no end_game: the log stops early";
    if (D.failure) {
      const f = $("failure");
      f.hidden = false;
      f.textContent = "This log fails verification at line " + D.failure.line + ": " + D.failure.reason + ". The game is shown up to there.";
    }
    if (D.unknown.length) {
      const u = $("unknown");
      u.hidden = false;
      u.append(el("b", {}, D.unknown.length + " event(s) of unknown type (listed, not shown on the table):"));
      const ul = el("ul", {});
      D.unknown.slice(0, 200).forEach((x) => ul.append(el("li", { "data-event": x.event }, "event " + x.event + ": " + x.kind)));
      u.append(ul);
    }
    const list = $("kyokus");
    D.kyokus.forEach((k, j) => {
      const li = el("li", { "data-kyoku": k.label, "data-start": k.start }, k.label, el("span", { class: "res" }, k.result.join("; ")));
      li.addEventListener("click", () => go(D.kyokus[j].start));
      list.append(li);
    });
  }

  renderStatic();
  fromHash();
  render();
  $("prev").onclick = () => go(pos - 1);
  $("next").onclick = () => go(pos + 1);
  $("prev-kyoku").onclick = () => goKyoku(-1);
  $("next-kyoku").onclick = () => goKyoku(1);
  $("hide").onchange = () => go(pos);
  $("viewpoint").onchange = () => go(pos);
  window.addEventListener("hashchange", () => {
    fromHash();
    render();
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.target.tagName === "SELECT" || ev.target.tagName === "INPUT") return;
    const moves = { ArrowLeft: () => go(pos - 1), ArrowRight: () => go(pos + 1), ArrowUp: () => goKyoku(-1), ArrowDown: () => goKyoku(1) };
    if (moves[ev.key]) {
      ev.preventDefault();
      moves[ev.key]();
    }
  });
  // Test and benchmark hooks: ms from navigation start to the first render, and in this script.
  document.body.dataset.renderMs = performance.now().toFixed(1);
  document.body.dataset.scriptMs = (performance.now() - t0).toFixed(1);
})();
