/* TV page: the table everyone may see. QR and roster in the lobby, then the public game view.
 * The laptop's own TV page (or one opened with the host key) also carries the host controls. */
"use strict";

(() => {
  const { t, esc } = PH;
  const app = document.getElementById("app");
  let screen = "";
  /* The lobby's turn between tonight's record and the how-to (this TV only). */
  let lobbyView = "howto";
  let lobbyKey = "";
  let playersSig = ""; /* what the lobby's players list was last drawn for */

  PH.langButton();
  PH.connect("tv");
  PH.on("state", () => render());

  /* The QR drawing is fetched (and inlined as SVG) once per join URL, not sent with every state. */
  const qrCache = new Map();
  function qrSvg(url) {
    if (!qrCache.has(url)) {
      qrCache.set(url, "");
      fetch("/qr.svg?data=" + encodeURIComponent(url)).then((r) => (r.ok ? r.text() : "")).then((svg) => {
        qrCache.set(url, svg);
        document.querySelectorAll(".qr[data-url]").forEach((el) => { if (el.dataset.url === url) el.innerHTML = svg; });
      });
    }
    return qrCache.get(url);
  }

  /* The Wi-Fi card's QR code (it holds the password) is fetched from /wifi.svg by this host TV
     page only, once per version; the state carries the SSID and the version, never the password. */
  const hostKey = new URLSearchParams(location.search).get("key");
  const wifiCache = new Map();
  function wifiSvg(w) {
    const v = String(w.v);
    if (!wifiCache.has(v)) {
      wifiCache.set(v, "");
      fetch("/wifi.svg?v=" + v + (hostKey ? "&key=" + encodeURIComponent(hostKey) : ""), { cache: "no-store" })
        .then((r) => (r.ok ? r.text() : "")).then((svg) => {
          wifiCache.set(v, svg);
          document.querySelectorAll(".qr[data-wifi]").forEach((el) => { if (el.dataset.wifi === v) el.innerHTML = svg; });
        });
    }
    return wifiCache.get(v);
  }

  /* The join address as two unbreakable parts, "http://" and the rest: it breaks after the
     scheme if anywhere, never inside the address or its port (fitUrl: unless it cannot fit). */
  function urlHtml(url) {
    const at = url.indexOf("://") + 3;
    return at > 2 ? `<span class="nb">${esc(url.slice(0, at))}</span><wbr><span class="nb">${esc(url.slice(at))}</span>` : esc(url);
  }

  /* The join address kept whole (urlHtml) unless even its address part is wider than its column
     (a long IPv6 address on a 720p TV): then it may break anywhere rather than leave the panel. */
  function fitUrl(panel) {
    const url = panel.querySelector(".url");
    if (!url) return;
    url.classList.remove("spill");
    if (url.scrollWidth > url.clientWidth + 1) url.classList.add("spill");
  }

  /* With a Wi-Fi card: two steps side by side, the Wi-Fi's code first, then the join code. */
  function joinSteps(s) {
    const w = s.wifi;
    return `<div class="join-steps" data-testid="join-steps">
      <div class="step wifi-step"><p class="step-title">${esc(t("wifi.step_wifi"))}</p>
        <div class="qr" data-testid="wifi-qr" data-wifi="${esc(String(w.v))}">${wifiSvg(w)}</div>
        <p class="ssid" data-testid="wifi-ssid"><span class="ssid-name">${esc(w.ssid)}</span>${w.open ? ` <span class="muted">${esc(t("wifi.open_network"))}</span>` : ""}</p></div>
      <div class="step"><p class="step-title">${esc(t("wifi.step_join"))}</p>
        <div class="qr" data-testid="qr" data-url="${esc(s.join.url)}">${qrSvg(s.join.url)}</div>
        <p class="url" data-testid="join-url">${urlHtml(s.join.url)}</p></div></div>`;
  }

  function qrBlock(s, small) {
    if (!s.join) return "";
    if (!small && s.wifi) return joinSteps(s);
    return `<div class="qr ${small ? "small" : ""}" data-testid="qr" data-url="${esc(s.join.url)}">${qrSvg(s.join.url)}</div>
      ${small ? "" : `<p class="scan">${esc(t("lobby.scan"))}</p>`}
      <p class="url" data-testid="join-url">${urlHtml(s.join.url)}</p>`;
  }

  function addressPicker(s) {
    if (!s.host || !s.join || s.join.addresses.length < 2) return "";
    return `<label class="addr">${esc(t("lobby.address"))}
      <select data-testid="address">${s.join.addresses.map((a, i) =>
        `<option value="${i}" ${i === s.join.index ? "selected" : ""}>${esc(a.address)} — ${esc(a.interface)}${a.virtual ? " (virtual)" : ""}</option>`).join("")}</select></label>`;
  }

  /* The roster the table sees: names, marks and tags only. The host's tools for each seat (kick,
     promote) live in the host menu, not beside every name on the shared screen. `row(r)`, when
     given, adds the chosen game's own part of a seat's row in the lobby (Word Basket's handicap). */
  function rosterHtml(s, row) {
    if (!s.party.roster.length) return `<p class="empty">${esc(t("lobby.empty"))}</p>`;
    return `<ul class="roster big" data-testid="roster">${s.party.roster.map((r) => `
      <li class="${r.connected ? "" : "away"}" data-seat="${esc(r.seat)}">
        ${PH.markOf(s, r.seat)}
        <span class="who" title="${esc(r.name)}">${esc(r.name)}</span>
        ${r.host ? `<span class="tag host">${esc(t("roster.host"))}</span>` : ""}
        ${r.spectator ? `<span class="tag">${esc(t("roster.spectator"))}</span>` : ""}
        ${r.connected ? "" : `<span class="tag away">${esc(t("roster.away"))}</span>`}
        ${row ? row(r) : ""}
      </li>`).join("")}</ul>`;
  }

  function gamePicker(s) {
    const count = s.party.roster.length;
    const present = s.party.roster.filter((r) => r.connected).length;
    const g = s.party.games.find((x) => x.key === s.party.game_key);
    /* more seats than the game takes: the extra ones watch and take a turn next game */
    const ok = g && (count > g.max ? present >= g.min : count >= g.min);
    const note = !g ? "" : !ok ? t("lobby.need", { game: t(g.key + ".name"), min: g.min, max: g.max, count })
      : count > g.max ? t("lobby.sitout", { count: count - g.max }) : t("lobby.ready_to_start");
    return `<div class="games">${s.party.games.map((x) => `
        <button class="game-tile ${x.key === s.party.game_key ? "on" : ""}" ${s.host ? "" : "disabled"} data-choose="${esc(x.key)}">
          <strong>${esc(t(x.key + ".name"))}</strong>${PH.howto ? PH.howto.tileNote(s, x.key) : ""}</button>`).join("")}</div>
      ${g ? `<p class="blurb" data-testid="blurb">${esc(t(g.key + ".blurb"))}</p>` : ""}
      ${s.host ? `<button class="primary huge" data-host="start" data-testid="start" ${ok ? "" : "disabled"}>${esc(t("lobby.start"))}</button>` : ""}
      <div class="start-row"><p class="note" data-testid="start-note">${esc(note)}</p>${PH.coach ? PH.coach.lobby(s) : ""}</div>`;
  }

  function renderLobby(s) {
    if (screen !== "lobby") {
      screen = "lobby";
      app.dataset.screen = "lobby";
      app.innerHTML = `<div class="lobby"><section class="join-panel"></section><section class="howto-slot"></section><section class="record-slot"></section><section class="side"></section><section class="doctor-checks" data-testid="doctor-checks"></section><section class="doctor-slot" data-testid="doctor"></section></div>`;
      lobbyView = (s.party.record || []).length ? "record" : "howto";
      lobbyKey = s.party.game_key;
    }
    const panel = app.querySelector(".join-panel");
    /* once a game has been played, tonight's record takes the how-to's place; choosing another
       game brings that game's how-to back, and one button turns between the two */
    const hasRecord = Boolean(PH.record && (s.party.record || []).length);
    if (s.party.game_key !== lobbyKey) { lobbyKey = s.party.game_key; lobbyView = "howto"; }
    const showRecord = hasRecord && lobbyView === "record";
    /* the room code is in the top bar (phones never need it); the address picker in the host menu */
    const panelHtml = `${qrBlock(s, false)}${
          hasRecord && !showRecord ? `<p class="lobby-turn"><button class="small rec-toggle" data-lobby-view="record" data-testid="show-record">${esc(t("record.show"))}</button></p>` : ""}`;
    PH.patch(panel, panelHtml, (el) => { PH.wireHost(el, s); wireLobbyView(el); });
    panel.classList.toggle("has-wifi", Boolean(s.wifi && s.join));
    fitUrl(panel);
    drawDoctor(s);
    app.querySelector(".lobby").classList.toggle("show-record", showRecord);
    const many = s.party.roster.length > 4;
    const side = app.querySelector(".side");
    if (!side.querySelector(".game-options")) {
      side.innerHTML = `<div class="picker"></div><div class="game-options" data-testid="game-options"></div><p class="opt-help-tv" data-testid="opt-help-tv" aria-live="polite" hidden></p><div class="lobby-players"></div>`;
    }
    const picker = side.querySelector(".picker");
    picker.innerHTML = `
        ${s.party.ended && s.party.ended.reason !== "finished" ? `<p class="event" data-testid="ended">${esc(t("lobby.ended." + s.party.ended.reason))}</p>` : ""}
        ${PH.night ? PH.night.lobbyTv(s) : ""}
        <h2>${esc(t("lobby.game"))}</h2>
        ${gamePicker(s)}`;
    PH.wireHost(picker, s);
    if (PH.night) PH.night.wire(picker, s);
    PH.lobbyOptions(side.querySelector(".game-options"), s);
    PH.optHelpLine(side.querySelector(".opt-help-tv"), side.querySelector(".game-options"), s);
    const players = side.querySelector(".lobby-players");
    /* A TV never scrolls: more than four seats start in two compact columns, and whenever the
       side column still overflows (a "game ended" note, a game's options, a longer blurb in
       English, many seats) the list steps down to the next denser layout, three columns last
       (Decrypto's teams seven against two). */
    const layouts = ["", "two-col", "two-col tight", "two-col tight three"];
    /* the chosen game may add its own control to each seat's row (Word Basket: the handicap), so
       the names are not listed a second time under its options */
    const game = PH.games[s.party.game_key];
    const row = game && game.lobbyRow ? (r) => game.lobbyRow(s, r) : null;
    const list = rosterHtml(s, row);
    /* drawn again only when the list or the room around it changed: a select in a row that is
       open stays open through a state that did not touch it */
    const sig = [PH.lang, many, side.clientWidth, side.clientHeight, picker.offsetHeight,
      side.querySelector(".game-options").offsetHeight, side.querySelector(".opt-help-tv").offsetHeight, list].join("|");
    if (playersSig !== sig || !players.firstChild) {
      playersSig = sig;
      for (let i = many ? 1 : 0; i < layouts.length; i++) {
        players.innerHTML = `<h2>${esc(t("list.count", { label: t("lobby.players"), count: s.party.roster.length }))}</h2>
          <div class="${layouts[i]}">${list}</div>`;
        if (side.scrollHeight <= side.clientHeight + 1) break;
      }
      if (game && game.wireLobbyRows) game.wireLobbyRows(players);
    }
    PH.wireHost(players, s);
    if (PH.howto) PH.howto.lobby(app.querySelector(".howto-slot"), s);
    const recordSlot = app.querySelector(".record-slot");
    /* the slot's size settles after the QR code and the side column: draw again when it changes;
       and when the side column's does (a window made full screen, the type's first drawing), so
       its players list steps to the layout that fits the new room */
    if (!recordSlot.dataset.observed && window.ResizeObserver) {
      recordSlot.dataset.observed = "1";
      const ro = new ResizeObserver(() => { if (recordSlot.isConnected && PH.last && PH.last.party.phase !== "game") render(); });
      ro.observe(recordSlot);
      ro.observe(side);
      /* while the doctor shows, the side column and the record are hidden: its own slots say
         when the room changed (a window made full screen), and its words are fitted again */
      ro.observe(app.querySelector(".doctor-slot"));
      ro.observe(app.querySelector(".doctor-checks"));
    }
    if (showRecord) {
      const sig = [PH.lang, recordSlot.clientWidth, recordSlot.clientHeight, JSON.stringify(s.party.record),
        JSON.stringify(s.party.scoreboard)].join("|");
      if (recordSlot.dataset.sig !== sig || !recordSlot.firstChild) {
        recordSlot.dataset.sig = sig;
        PH.record.tv(recordSlot, s, `<button class="small rec-toggle" data-lobby-view="howto" data-testid="show-howto">${esc(t("record.show_howto"))}</button>`);
        wireLobbyView(recordSlot);
      }
    } else if (recordSlot.firstChild) {
      recordSlot.innerHTML = "";
      recordSlot.dataset.sig = "";
    }
  }

  function wireLobbyView(el) {
    el.querySelectorAll("[data-lobby-view]").forEach((b) => {
      b.onclick = () => { lobbyView = b.dataset.lobbyView; render(); };
    });
  }

  function hostBar(s) {
    const bar = document.getElementById("hostbar");
    if (!s.host || s.party.phase !== "game" || s.party.paused) { bar.innerHTML = ""; return; }
    bar.innerHTML = s.party.over
      ? `<button class="primary" data-host="restart" data-testid="again">${esc(t("host.again"))}</button>
         <button data-host="end" data-testid="to-lobby">${esc(t("host.lobby"))}</button>`
      : `${s.party.paused ? `<button class="primary" data-host="resume" data-testid="resume">${esc(t("host.resume"))}</button>`
                          : `<button data-host="pause" data-testid="pause">${esc(t("host.pause"))}</button>`}
         <button data-host="end" data-testid="end">${esc(t("host.end"))}</button>`;
    PH.wireHost(bar, s);
  }

  function renderGame(s) {
    if (screen !== "game") {
      screen = "game";
      app.dataset.screen = "game";
      app.innerHTML = `<div id="game-root" class="game-root"></div>
        <aside class="corner"><div class="corner-qr"></div></aside>
        <div class="pause-slot"></div>`;
    }
    const corner = app.querySelector(".corner-qr");
    const url = s.join ? s.join.url : "";
    if (corner.dataset.url !== url) { corner.dataset.url = url; corner.innerHTML = qrBlock(s, true); }
    const pause = app.querySelector(".pause-slot");
    pause.innerHTML = s.party.paused ? PH.pausedHtml(s, `<div class="pause-roster">${rosterHtml(s)}</div>`) : "";
    PH.wireHost(pause, s);
    const game = PH.games[s.game.game];
    if (game) game.tv(app.querySelector("#game-root"), s);
  }



  /* ----- The join doctor: when nobody has joined `after` seconds after the QR code first showed
     (the host's --doctor-after, 45 s by default), the lobby lists the usual reasons phones cannot
     connect, each with what to do, and what the laptop found out about itself
     (partyhost/doctor.py). It covers the game picker and the how-to (no game starts with nobody
     seated) and leaves the QR code; it goes away when the first phone joins, or when the host
     closes it. A TV page that gets no state at all shows the causes on its own. ----- */
  const OFFLINE_AFTER = 8000; /* ms without a first state before the offline doctor shows */
  let qrShownAt = 0;
  let doctorTimer = 0;
  let doctorClosed = false;
  const CHECK_MARK = { ok: "✓", warn: "⚠", info: "・" };

  function portOf(s) {
    try { return new URL(s.join.url).port || "80"; } catch (e) { return ""; }
  }

  function causesHtml(s) {
    const port = s ? portOf(s) : location.port;
    const wifiName = s && s.wifi ? s.wifi.ssid : "";
    const causes = [
      ["same_wifi", wifiName ? t("doctor.cause.same_wifi.do", { ssid: wifiName }) : t("doctor.cause.same_wifi.do_any")],
      ["guest", t("doctor.cause.guest.do")],
      ["mobile_data", t("doctor.cause.mobile_data.do")],
      ["firewall", t("doctor.cause.firewall.do", { port })],
      ["address", t("doctor.cause.address.do")],
    ];
    return `<ol class="causes">${causes.map(([key, todo]) => `<li data-cause="${key}">
      <h3>${keepWhole(esc(t("doctor.cause." + key)))}</h3><p>${keepWhole(esc(todo))}</p></li>`).join("")}</ol>`;
  }

  /* a failed connection's reason is a code: said in this screen's language */
  function checkParams(p) {
    const out = Object.assign({}, p);
    if (out.detail) out.detail = t("doctor.reason." + out.detail);
    return out;
  }

  function checksHtml(s) {
    const d = s.join && s.join.doctor;
    if (!d || !d.checks.length) return "";
    return `<div class="checks"><h2>${esc(t("doctor.checks"))}</h2><ul>${d.checks.map((c) => `
      <li class="${esc(c.level)}" data-check="${esc(c.code)}"><span class="mark" aria-hidden="true">${CHECK_MARK[c.level] || "・"}</span>
        <span>${keepWhole(esc(t("doctor.check." + c.code, checkParams(c.params))))}</span></li>`).join("")}</ul></div>`;
  }

  /* the largest of these font sizes at which the panel's words fit without scrolling: the TV's
     body type (1.6vw) first; a smaller one only when a laptop's long list leaves no other way */
  const DOCTOR_SIZES = ["1.6vw", "1.5vw", "1.4vw", "1.25vw", "1.1vw"];
  function fitText(el, sizes) {
    for (const size of sizes) {
      el.style.fontSize = size;
      if (el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1) return;
    }
  }

  /* Latin runs with inner marks (Wi-Fi, an address and its port, 8765/tcp, --host-ip, the SSID)
     stay whole on one line: a Japanese line breaks around them, an English one at its spaces.
     `html` is already escaped text (its entities have no inner marks). */
  function keepWhole(html) {
    return html.replace(/-*[A-Za-z0-9]+(?:[-.:/][A-Za-z0-9]+)+/g, (m) => `<span class="nb">${m}</span>`);
  }

  /* The Wi-Fi's name stays on one line beside the doctor; one too long for its step (32
     characters) breaks anywhere rather than leave the panel */
  function fitSsid(panel) {
    const steps = panel.querySelector(".join-steps");
    if (!steps) return;
    steps.classList.remove("squeeze");
    if (steps.scrollWidth > steps.clientWidth + 1) steps.classList.add("squeeze");
  }

  function drawDoctor(s) {
    const lobby = app.querySelector(".lobby");
    const d = s.join && s.join.doctor;
    const nobody = !s.party.roster.length;
    if (s.join && !qrShownAt) qrShownAt = performance.now();
    let due = false;
    if (d && d.after > 0 && nobody && !doctorClosed) {
      const left = qrShownAt + d.after * 1000 - performance.now();
      due = left <= 0;
      if (!due && !doctorTimer) doctorTimer = setTimeout(() => { doctorTimer = 0; render(); }, left + 50);
    }
    lobby.classList.toggle("show-doctor", due);
    const slot = app.querySelector(".doctor-slot");
    const checks = app.querySelector(".doctor-checks");
    if (!due) { PH.patch(slot, ""); PH.patch(checks, ""); return; }
    const html = `<div class="doctor tv">
        <div class="doctor-head"><h2>${keepWhole(esc(t("doctor.title")))}</h2>
          ${s.host ? `<button type="button" class="small" data-doctor-close data-testid="doctor-close">${esc(t("doctor.dismiss"))}</button>` : ""}</div>
        <p class="lead">${keepWhole(esc(t("doctor.lead")))}</p>${causesHtml(s)}</div>`;
    const sig = [PH.lang, html, slot.clientWidth, slot.clientHeight].join("|");
    if (slot.dataset.sig !== sig) {
      slot.dataset.sig = sig;
      slot.innerHTML = html;
      fitText(slot.firstChild, DOCTOR_SIZES);
      slot.querySelectorAll("[data-doctor-close]").forEach((b) => { b.onclick = () => { doctorClosed = true; render(); }; });
    }
    fitSsid(app.querySelector(".join-panel"));
    const checksInner = checksHtml(s);
    const checksSig = [PH.lang, checksInner, checks.clientWidth, checks.clientHeight].join("|");
    if (checks.dataset.sig !== checksSig) {
      checks.dataset.sig = checksSig;
      checks.innerHTML = checksInner;
      if (checks.firstChild) fitText(checks.firstChild, DOCTOR_SIZES);
    }
  }

  /* no state at all: this screen cannot reach the host either (a TV page on another device) */
  setTimeout(() => {
    if (PH.last) return;
    app.dataset.screen = "doctor";
    app.innerHTML = `<div class="doctor tv offline" data-testid="doctor"><div class="doctor-head"><h2>${keepWhole(esc(t("doctor.title_offline")))}</h2></div>
      <p class="lead">${keepWhole(esc(t("doctor.lead")))}</p>${causesHtml(null)}</div>`;
    screen = "doctor";
  }, OFFLINE_AFTER);

  /* Party-level notices (a save that fails, a party that could not be restored): a strip under
     the top bar, in the lobby and in a game, until the server stops sending them. It takes
     its room from the page instead of covering the QR code, Start or the game. */
  function renderAlerts(s) {
    const el = document.getElementById("alerts");
    const list = s.alerts || [];
    const text = (a) => {
      const p = Object.assign({}, a.params);
      if (p.reason) p.reason = t("alert.reason." + p.reason);
      return t("alert." + a.code, p);
    };
    const html = list.map((a) => `<p class="alert ${a.code === "save_failed" ? "warn" : "info"}" data-code="${esc(a.code)}">
      <span class="sign" aria-hidden="true">${a.code === "save_failed" ? "⚠" : "ℹ"}</span><span>${esc(text(a))}</span></p>`).join("");
    PH.patch(el, html);
    el.hidden = !list.length;
  }


  /* ----- The host menu: one quiet button in the top bar opens a panel with the host's tools
     (each seat's kick and promote, the join address and its picker, the language, the coach's
     skip), so the shared screen shows names, not red buttons. A dialog: focus moves into it and
     Tab / Shift+Tab stay inside it; Esc, the close button or a click outside it closes it (Esc
     and the close button give focus back to the menu button) and drops a kick confirm left
     armed. In the lobby it opens over the left column (QR code and how-to; its own copy of the
     join address is inside), so the game tiles and Start stay visible and clickable. A
     take-over request is not here: it stays a prompt over everything (seats.js). ----- */
  const menuButton = document.getElementById("host-menu-button");
  const menu = document.getElementById("host-menu");
  let menuOpen = false;
  let kickAsk = null; /* the seat whose kick waits for "yes" */

  function coachRunning(s) {
    return !!(s.party.phase === "game" && s.game && s.game.coach && !s.party.over);
  }

  function menuPlayersHtml(s) {
    if (!s.party.roster.length) return `<p class="empty">${esc(t("lobby.empty"))}</p>`;
    return `<ul class="menu-roster" data-testid="menu-roster">${s.party.roster.map((r) => {
      const name = esc(r.name);
      const ask = kickAsk === r.seat;
      return `<li class="${r.connected ? "" : "away"}" data-seat="${esc(r.seat)}">
        ${PH.markOf(s, r.seat)}<span class="who">${name}</span>
        ${r.host ? `<span class="tag host">${esc(t("roster.host"))}</span>` : ""}
        ${r.spectator ? `<span class="tag">${esc(t("roster.spectator"))}</span>` : ""}
        ${r.connected ? "" : `<span class="tag away">${esc(t("roster.away"))}</span>`}
        ${ask ? `<span class="ask" role="group" aria-label="${esc(t("roster.kick_confirm", { name: r.name }))}">
            <span class="ask-text">${esc(t("roster.kick_confirm", { name: r.name }))}</span>
            <button class="danger-solid" type="button" data-kick-yes="${esc(r.seat)}" data-focus="kick-yes:${esc(r.seat)}" data-testid="kick-yes">${esc(t("roster.kick"))}</button>
            <button type="button" data-kick-no data-focus="kick-no:${esc(r.seat)}" data-testid="kick-no">${esc(t("menu.kick_no"))}</button></span>`
          : `<span class="tools">
            <button type="button" data-promote="${esc(r.seat)}" data-focus="promote:${esc(r.seat)}"
              aria-label="${esc(t("list.label", { label: t(r.host ? "roster.demote" : "roster.promote") }))}${name}">${esc(t(r.host ? "roster.demote" : "roster.promote"))}</button>
            <button type="button" class="danger" data-kick-ask="${esc(r.seat)}" data-focus="kick:${esc(r.seat)}"
              aria-label="${esc(t("list.label", { label: t("roster.kick") }))}${name}">${esc(t("roster.kick"))}</button></span>`}
      </li>`;
    }).join("")}</ul>`;
  }

  function menuJoinHtml(s) {
    if (!s.join) return "";
    return `<p class="menu-url" data-testid="menu-join-url">${esc(s.join.url)}</p>
      <p class="menu-room">${esc(t("app.room"))} <b>${esc(s.party.room)}</b></p>${addressPicker(s)}`;
  }

  /* The Wi-Fi card (this host TV only: its state has "wifi"). What is typed stays through
     redraws (kept in wifiDraft); the password field is never filled from the state. */
  const wifiDraft = { ssid: null, password: "" };
  function menuWifiHtml(s) {
    const w = s.wifi;
    return `<section class="menu-part menu-wifi"><h3>${esc(t("wifi.menu"))}</h3>
      <p class="menu-note">${esc(t("wifi.menu_note"))}</p>
      <div class="fields"><label>${esc(t("wifi.ssid"))}<input type="text" maxlength="32" autocomplete="off" spellcheck="false"
        data-wifi-ssid data-focus="wifi-ssid" data-testid="wifi-ssid-input"></label>
      <label>${esc(t("wifi.password"))}<input type="password" maxlength="64" autocomplete="new-password"
        data-wifi-password data-focus="wifi-password" data-testid="wifi-password-input"></label></div>
      <div class="row"><button type="button" data-wifi-save data-focus="wifi-save" data-testid="wifi-save">${esc(t("wifi.show"))}</button>
        ${w ? `<button type="button" data-wifi-clear data-focus="wifi-clear" data-testid="wifi-clear">${esc(t("wifi.clear"))}</button>
        <span class="menu-now">${esc(t("wifi.now", { ssid: w.ssid }))}</span>` : ""}</div></section>`;
  }
  function wireWifi(el, s) {
    const ssid = el.querySelector("[data-wifi-ssid]");
    const pass = el.querySelector("[data-wifi-password]");
    if (!ssid) return;
    ssid.value = wifiDraft.ssid !== null ? wifiDraft.ssid : (s.wifi ? s.wifi.ssid : "");
    pass.value = wifiDraft.password;
    ssid.oninput = () => { wifiDraft.ssid = ssid.value; };
    pass.oninput = () => { wifiDraft.password = pass.value; };
    const save = el.querySelector("[data-wifi-save]");
    save.onclick = () => {
      Promise.resolve(PH.host("wifi", { ssid: ssid.value.trim(), password: pass.value })).then((r) => {
        if (r && r.ok) { wifiDraft.ssid = null; wifiDraft.password = ""; }
      });
    };
    const clear = el.querySelector("[data-wifi-clear]");
    if (clear) clear.onclick = () => { wifiDraft.ssid = null; wifiDraft.password = ""; PH.host("wifi", { ssid: "", password: "" }); };
  }

  function menuHtml(s) {
    const coach = coachRunning(s) && !s.party.paused
      ? `<section class="menu-part"><h3>${esc(t("menu.game"))}</h3>
          <button type="button" data-coach-skip data-focus="coach-skip" data-testid="coach-skip">${esc(t("coach.skip"))}</button></section>` : "";
    return `<div class="menu-head"><h2 id="host-menu-title">${esc(t("menu.open"))}</h2>
        <button type="button" class="menu-close" data-menu-close data-focus="close" data-testid="host-menu-close">${esc(t("menu.close"))}</button></div>
      <section class="menu-part"><h3>${esc(t("menu.players"))}</h3>${menuPlayersHtml(s)}</section>
      ${coach}
      <section class="menu-part"><h3>${esc(t("menu.join"))}</h3>${menuJoinHtml(s)}</section>
      ${"wifi" in s ? menuWifiHtml(s) : ""}
      <section class="menu-part"><h3>${esc(t("menu.language"))}</h3>
        <button class="lang-switch" type="button" data-focus="lang" data-testid="lang"></button></section>`;
  }

  /* Redraw the panel keeping the focused button focused (matched by data-focus). */
  function drawMenu(s) {
    const active = menu.contains(document.activeElement) ? document.activeElement : null;
    const key = active && active.dataset.focus;
    if (PH.patch(menu, menuHtml(s), (el) => {
      PH.wireHost(el, s);
      wireWifi(el, s);
      PH.langButton();
      el.querySelectorAll("[data-kick-ask]").forEach((b) => {
        b.onclick = () => { kickAsk = b.dataset.kickAsk; drawMenu(PH.last); focusIn(`[data-focus="kick-no:${kickAsk}"]`); };
      });
      el.querySelectorAll("[data-kick-no]").forEach((b) => {
        b.onclick = () => { const seat = kickAsk; kickAsk = null; drawMenu(PH.last); focusIn(`[data-focus="kick:${seat}"]`); };
      });
      PH.guard(el.querySelectorAll("[data-kick-yes]"), (b) => { kickAsk = null; return PH.host("kick", { seat: b.dataset.kickYes }); }, { key: "kick" });
      el.querySelectorAll("[data-menu-close]").forEach((b) => { b.onclick = () => setMenu(false); });
    }) && key) {
      const again = menu.querySelector(`[data-focus="${CSS.escape(key)}"]`);
      (again || menu).focus({ preventScroll: true });
    }
  }
  function focusIn(selector) {
    const el = menu.querySelector(selector);
    if (el) el.focus({ preventScroll: true });
  }

  /* `refocus`: give the focus back to the menu button (not after a click elsewhere: that click
     puts the focus where it lands) */
  function setMenu(open, refocus = true) {
    menuOpen = open && !!(PH.last && PH.last.host);
    kickAsk = null;
    menu.hidden = !menuOpen;
    menuButton.setAttribute("aria-expanded", String(menuOpen));
    if (PH.last && PH.last.host) drawMenu(PH.last); /* a kick confirm never waits in the closed panel */
    if (menuOpen) menu.focus({ preventScroll: true });
    else if (refocus && (menu.contains(document.activeElement) || document.activeElement === document.body)) menuButton.focus({ preventScroll: true });
  }
  menuButton.onclick = () => setMenu(!menuOpen);
  /* the panel's controls in Tab order (the hidden and the disabled ones are skipped by Tab) */
  function menuStops() {
    return [...menu.querySelectorAll("button, select, input, [href], [tabindex]:not([tabindex='-1'])")]
      .filter((el) => !el.disabled && el.getClientRects().length);
  }
  document.addEventListener("keydown", (e) => {
    if (!menuOpen) return;
    if (e.key === "Escape") { e.preventDefault(); setMenu(false); return; }
    if (e.key !== "Tab" || document.querySelector("#claims:not([hidden])")) return;
    const stops = menuStops();
    if (!stops.length) return;
    const at = stops.indexOf(document.activeElement);
    /* from the last control on to the first, from the first (or the panel itself) back to the
       last, and from anywhere outside back in */
    if (at === -1 || (e.shiftKey ? at === 0 : at === stops.length - 1)) {
      e.preventDefault();
      (e.shiftKey ? stops[stops.length - 1] : stops[0]).focus({ preventScroll: true });
    }
  });
  /* a click (or tap) outside the open panel closes it; the click itself still does what it does
     (e.g. Start). The menu button toggles by itself; a take-over prompt keeps the panel. */
  document.addEventListener("pointerdown", (e) => {
    if (!menuOpen || menu.contains(e.target) || menuButton.contains(e.target)) return;
    if (e.target.closest && e.target.closest(".claims")) return;
    setMenu(false, false);
  }, true);

  /* The top bar: the room code (small), and the menu button for the host or the language switch
     for a TV page without host powers. */
  function drawBar(s) {
    document.querySelectorAll(".tvbar .room").forEach((el) => {
      PH.patch(el, `${esc(t("app.room"))} <b data-testid="room-code">${esc(s.party.room)}</b>`);
    });
    menuButton.hidden = !s.host;
    menuButton.textContent = t("menu.open");
    const barLang = document.getElementById("barlang");
    if (PH.patch(barLang, s.host ? "" : `<button class="lang-switch" data-testid="lang" type="button"></button>`)) PH.langButton();
    if (!s.host && menuOpen) setMenu(false);
    /* drawn while closed too (hidden), so it is up to date the moment it opens */
    if (s.host) drawMenu(s);
  }

  function render() {
    const s = PH.last;
    if (!s) return;
    drawBar(s);
    renderAlerts(s);
    hostBar(s);
    if (s.party.phase === "game" && s.game) renderGame(s);
    else if (s.party.summary && PH.night) { screen = "summary"; PH.night.tv(app, s); } /* おひらき */
    else renderLobby(s);
    menu.classList.toggle("in-lobby", screen === "lobby");
  }
})();
