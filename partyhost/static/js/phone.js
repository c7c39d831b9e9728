/* Phone page: join, lobby, then the private view of the current game. */
"use strict";

(() => {
  const { t, esc } = PH;
  const app = document.getElementById("app");
  let welcome = null;
  let kicked = false;
  let screen = "";

  PH.langButton();
  PH.connect("phone");
  PH.on("welcome", (w) => { welcome = w; if (w.seat) { kicked = false; claimOffer = null; } render(); });
  PH.on("kicked", () => { kicked = true; welcome = null; screen = ""; });
  PH.on("state", () => render());
  PH.on("conn", () => render());
  /* A language switch redraws the join form too, keeping what was typed. */
  let draftName = null;
  PH.on("lang", () => { if (screen === "join") screen = ""; });

  function setScreen(name, html) {
    screen = name;
    app.innerHTML = html;
    app.dataset.screen = name;
  }

  /* the name of a seat whose phone is away: this page may ask the host for it (seats.js) */
  let claimOffer = null;
  function renderJoin(reason) {
    const note = (reason === "kicked" ? `<p class="note">${esc(t("kicked.body"))}</p>`
      : reason === "rejoin" ? `<p class="note">${esc(t("join.rejoin"))}</p>` : "")
      + PH.claimNote(PH.last, welcome, claimOffer);
    if (screen === "join") {
      const n = app.querySelector(".join-note");
      if (n) PH.patch(n, note, PH.wireClaimNote);
      return;
    }
    setScreen("join", `
      <section class="card join">
        <h1>${esc(t("join.title"))}</h1>
        <div class="join-note"></div>
        <form id="join-form" autocomplete="off">
          <label for="name">${esc(t("join.name"))}</label>
          <input id="name" name="name" data-testid="name" maxlength="16" enterkeyhint="go"
                 placeholder="${esc(t("join.placeholder"))}" value="${esc(draftName ?? PH.store.get("name") ?? "")}">
          <button type="submit" class="primary big" data-testid="join">${esc(t("join.button"))}</button>
        </form>
      </section>`);
    const form = app.querySelector("#join-form");
    const input = app.querySelector("#name");
    let composing = false;
    input.addEventListener("input", () => { draftName = input.value; });
    input.addEventListener("compositionstart", () => { composing = true; });
    input.addEventListener("compositionend", () => { composing = false; });
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      if (composing) return; /* an IME's Enter confirms a conversion; it must not submit */
      const name = input.value.trim();
      if (!name) { PH.toast(t("err.name_empty"), true); return; }
      PH.store.set("name", name);
      const btn = form.querySelector("button");
      btn.disabled = true;
      const r = await PH.send("join", { name, lang: PH.lang });
      btn.disabled = false;
      claimOffer = r && r.code === "name_taken_away" ? name : null;
      renderJoin("");
    });
    PH.patch(app.querySelector(".join-note"), note, PH.wireClaimNote);
  }

  function rosterHtml(s, hostTools) {
    return `<ul class="roster" data-testid="roster">${s.party.roster.map((r) => `
      <li class="${r.connected ? "" : "away"}">
        ${PH.markOf(s, r.seat)}
        <span class="who">${esc(r.name)}${s.me && r.seat === s.me.seat ? ` <em>${esc(t("list.paren", { text: t("common.you") }))}</em>` : ""}</span>
        ${r.host ? `<span class="tag">${esc(t("roster.host"))}</span>` : ""}
        ${r.spectator ? `<span class="tag">${esc(t("roster.spectator"))}</span>` : ""}
        ${r.connected ? "" : `<span class="tag away">${esc(t("roster.away"))}</span>`}
        ${hostTools && s.me && r.seat !== s.me.seat ? `<button class="small" data-kick="${esc(r.seat)}">${esc(t("roster.kick"))}</button>` : ""}
      </li>`).join("")}</ul>`;
  }



  function renderLobby(s) {
    const g = s.party.games.find((x) => x.key === s.party.game_key);
    const count = s.party.roster.length;
    const present = s.party.roster.filter((r) => r.connected).length;
    const canStart = g && (count > g.max ? present >= g.min : count >= g.min);
    const hostTools = s.host;
    setScreen("lobby", `
      <section class="card">
        <h1 data-testid="welcome">${esc(t("lobby.welcome", { name: s.me.name }))}</h1>
        ${hostTools ? `<p class="tag host">${esc(t("host.you_are_host"))}</p>` : ""}
        ${s.party.ended && s.party.ended.reason !== "finished" ? `<p class="event" data-testid="ended">${esc(t("lobby.ended." + s.party.ended.reason))}</p>` : ""}
        <p class="game-name">${esc(t("list.label", { label: t("lobby.game") }))}<strong>${esc(t(s.party.game_key + ".name"))}</strong></p>
        ${PH.record ? PH.record.phone(s) : ""}
        ${hostTools ? `<div class="pick">${s.party.games.map((x) => `<button class="${x.key === s.party.game_key ? "on" : ""}" data-choose="${esc(x.key)}">${esc(t(x.key + ".name"))}</button>`).join("")}</div>
          <button class="primary big" data-host="start" data-testid="start" ${canStart ? "" : "disabled"}>${esc(t("lobby.start"))}</button>
          ${!canStart && g ? `<p class="note">${esc(t("lobby.need", { game: t(g.key + ".name"), min: g.min, max: g.max, count }))}</p>`
            : g && count > g.max ? `<p class="note">${esc(t("lobby.sitout", { count: count - g.max }))}</p>` : ""}`
          : `<p class="waiting" data-testid="waiting">${esc(t("lobby.waiting"))}</p>`}
        ${hostTools && PH.night ? PH.night.lobbyPhone(s) : ""}
        ${PH.coach ? PH.coach.lobby(s) : ""}
        <div class="game-options-here"></div>
        <h2>${esc(t("list.count", { label: t("lobby.players"), count }))}</h2>
        ${rosterHtml(s, hostTools)}
      </section>`);
    PH.wireHost(app, s);
    if (PH.night) PH.night.wire(app, s);
    /* the game's own options panel keeps its element (and what is typed in it) across redraws */
    if (!options || options.dataset.game !== s.party.game_key) {
      options = document.createElement("div");
      options.className = "game-options";
      options.dataset.testid = "game-options";
      options.dataset.game = s.party.game_key;
    }
    app.querySelector(".game-options-here").replaceWith(options);
    PH.lobbyOptions(options, s);
  }
  let options = null;

  function hostBar(s) {
    if (!s.host || s.party.paused) return "";
    const buttons = s.party.over
      ? `<button class="primary small" data-host="restart" data-testid="again">${esc(t("host.again"))}</button>
         <button class="small" data-host="end">${esc(t("host.lobby"))}</button>`
      : `<button class="small" data-host="pause" data-testid="pause">${esc(t("host.pause"))}</button>
         <button class="small" data-host="end" data-testid="end">${esc(t("host.end"))}</button>`;
    return `<div class="hostrow top"><span class="tag host">${esc(t("roster.host"))}</span>${buttons}
      <details><summary>${esc(t("lobby.players"))}</summary>${rosterHtml(s, true)}</details></div>`;
  }

  function renderGame(s) {
    const game = PH.games[s.game.game];
    if (screen !== "game") setScreen("game", `<div class="host-slot"></div><div class="banner-slot"></div><div id="game-root"></div><div class="howto-here"></div><div class="pause-slot"></div>`);
    const spectating = !s.me.playing;
    /* a finished game: the player's own result first (「あなたの勝ち!」 on a winner's phone) */
    PH.patch(app.querySelector(".banner-slot"), spectating
      ? `<p class="spectator" data-testid="spectator">${esc(t("spectator.banner"))}</p>` : PH.reveal ? PH.reveal.phone(s) : "");
    app.querySelector(".pause-slot").innerHTML = s.party.paused ? PH.pausedHtml(s, "") : "";
    const hostSlot = app.querySelector(".host-slot");
    const open = !!hostSlot.querySelector("details[open]");
    hostSlot.innerHTML = hostBar(s);
    if (open && hostSlot.querySelector("details")) hostSlot.querySelector("details").open = true;
    PH.wireHost(app, s);
    if (game) game.phone(app.querySelector("#game-root"), s);
    if (PH.howto) PH.howto.spectator(app.querySelector(".howto-here"), spectating ? s : null);
  }

  function render() {
    const s = PH.last;
    /* the label small above the code: at 360 px 「ルーム」/"Room" and the code no longer break
       onto two lines of the same size beside the ? and language buttons */
    document.querySelectorAll(".room").forEach((el) => {
      PH.patch(el, s ? `<small>${esc(t("app.room"))}</small> <b>${esc(s.party.room)}</b>` : "");
    });
    if (!s) return;
    if (!s.me) {
      PH.wake.update(false);
      renderJoin(kicked ? "kicked" : welcome && welcome.reason === "unknown_token" ? "rejoin" : "");
      return;
    }
    const inGame = s.party.phase === "game" && s.game;
    PH.wake.update(!!(inGame && !s.party.over && s.me.playing));
    if (inGame) renderGame(s);
    else if (s.party.summary && PH.night) { screen = "summary"; PH.night.phone(app, s); } /* おひらき */
    else renderLobby(s);
  }
})();
