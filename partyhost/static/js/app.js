/* partyhost shared client: connection, catalogue, messages, wake lock, vibration.
 * Every page (TV and phone) uses this. No external URL, no framework. */
"use strict";

const PH = (() => {
  const catalogues = JSON.parse(document.getElementById("catalogues").textContent);
  const params = new URLSearchParams(location.search);
  const store = {
    get(k) { try { return localStorage.getItem("ph." + k); } catch (e) { return null; } },
    set(k, v) { try { v == null ? localStorage.removeItem("ph." + k) : localStorage.setItem("ph." + k, v); } catch (e) { /* private mode */ } },
  };
  let lang = params.get("lang") || store.get("lang") || document.documentElement.lang || "ja";
  if (!catalogues[lang]) lang = "ja";
  document.documentElement.lang = lang; /* a phone that chose English keeps lang="en" after a reload */

  function t(key, p) {
    const s = (catalogues[lang] && catalogues[lang][key]) || catalogues.en[key] || key;
    return s.replace(/\{(\w+)\}/g, (m, k) => (p && k in p ? String(p[k]) : m));
  }
  function esc(s) {
    return String(s == null ? "" : s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  }
  /* Unique message ids without crypto.randomUUID (missing on plain-http LAN pages). */
  let counter = 0;
  function uid() {
    const a = new Uint32Array(2);
    crypto.getRandomValues(a);
    return a[0].toString(36) + a[1].toString(36) + "-" + (++counter);
  }

  const listeners = { state: [], welcome: [], kicked: [], result: [], conn: [], lang: [] };
  function on(ev, fn) { listeners[ev].push(fn); }
  function fire(ev, data) { for (const fn of listeners[ev]) fn(data); }

  let socket = null;
  let role = "phone";
  const pending = new Map();
  let last = null;

  function connect(asRole) {
    role = asRole;
    socket = io({
      auth: (cb) => cb({ role, token: store.get("token"), lang, key: params.get("key") || undefined }),
      reconnectionDelay: 500,
      reconnectionDelayMax: 3000,
    });
    socket.on("connect", () => fire("conn", true));
    socket.on("disconnect", () => fire("conn", false));
    socket.on("welcome", (w) => {
      if (w.token) store.set("token", w.token);
      if (role === "phone" && w.reason === "unknown_token") store.set("token", null);
      fire("welcome", w);
    });
    socket.on("kicked", () => { store.set("token", null); fire("kicked", {}); });
    socket.on("state", (s) => {
      s.receivedAt = Date.now(); /* wall clock: it keeps running while a phone sleeps */
      last = s;
      fire("state", s);
    });
    socket.on("result", (r) => {
      const p = pending.get(r.id);
      pending.delete(r.id);
      if (!r.ok) { toast(r.message || r.code, true); buzz([60, 40, 60]); }
      if (p) p(r);
      fire("result", r);
    });
    /* A phone that wakes from a lock screen or comes back from another app reconnects at once
       instead of waiting for the back-off timer. */
    window.addEventListener("storage", (e) => {
      if (e.key === "ph.token" && e.newValue && socket) { socket.disconnect(); socket.connect(); }
    });
    const nudge = () => {
      if (!socket || socket.connected) return;
      /* Never call socket.connect() while a connection is being set up: a second CONNECT
         packet makes the server drop the namespace. Only skip the back-off wait when the
         manager is closed (vendored client 4.8.4: Manager._readyState), or reconnect a
         socket the server let go. */
      if (!socket.active) socket.connect();
      else if (socket.io._readyState === "closed") socket.io.open();
    };
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") nudge(); });
    window.addEventListener("pageshow", nudge);
    window.addEventListener("online", nudge);
    window.addEventListener("focus", nudge);
    return socket;
  }

  function send(kind, payload) {
    const msg = Object.assign({ id: uid() }, payload || {});
    /* Never queue a tap while offline: the client would send it on reconnect, seconds later,
       at a moment the player did not choose (in The Mind the moment is the move). */
    if (!socket || !socket.connected) {
      toast(t("conn.not_sent"), true);
      buzz([60, 40, 60]);
      return Promise.resolve({ id: msg.id, ok: false, code: "offline" });
    }
    return new Promise((resolve) => {
      pending.set(msg.id, resolve);
      socket.emit(kind, msg);
    });
  }
  /* The server's game clock now, estimated from the last state (its "now" plus the local time
     since it arrived). Sent with each action as "at", so a tap held up by a Wi-Fi stall is
     refused instead of played seconds later. */
  function serverNow() {
    return last ? last.now + (Date.now() - last.receivedAt) / 1000 : 0;
  }
  function act(action) {
    return send("act", Object.assign({ game: last ? last.party.serial : 0, at: serverNow() }, action));
  }
  /* Game-changing host buttons name the game they were pressed for ("serial"). */
  const SERIAL_OPS = ["start", "restart", "end", "pause", "resume", "game"];
  function host(op, extra) {
    const msg = Object.assign({ op }, extra || {});
    if (SERIAL_OPS.includes(op) && last) msg.serial = last.party.serial;
    return send("host", msg);
  }

  function setLang(next) {
    lang = next;
    store.set("lang", next);
    document.documentElement.lang = next;
    if (socket && socket.connected) socket.emit("lang", { id: uid(), lang: next });
    fire("lang", next);
    if (last) fire("state", last);
  }

  /* Draw the last state again (a lock that ran out, a countdown). */
  function refresh() { if (last) fire("state", last); }

  /* Countdowns: any element with data-deadline (server game-clock seconds) shows the seconds
     left, from the state's "now" plus the local time since that state arrived. */
  setInterval(() => {
    if (!last) return;
    const now = serverNow();
    document.querySelectorAll("[data-deadline]").forEach((el) => {
      const left = Math.max(0, Math.ceil(Number(el.dataset.deadline) - now));
      el.textContent = t(el.dataset.label || "mind.vote_left", { seconds: left });
    });
  }, 250);

  let toastTimer = null;
  function toast(text, isError) {
    const el = document.getElementById("toast");
    if (!el) return;
    el.textContent = text;
    el.className = "toast show" + (isError ? " error" : "");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { el.className = "toast"; }, 3500);
  }

  function buzz(pattern) {
    try { if (navigator.vibrate) navigator.vibrate(pattern); } catch (e) { /* not allowed yet */ }
  }

  /* Keep the phone awake during a game. The Wake Lock API exists only in a secure context;
     on a plain-http LAN page the known fallback is a muted, looping, inline video started
     from a tap. */
  const wake = (() => {
    let want = false, lock = null, video = null;
    async function lockNow() {
      if (!want) return;
      if ("wakeLock" in navigator) {
        try { if (!lock) { lock = await navigator.wakeLock.request("screen"); lock.addEventListener("release", () => { lock = null; }); } return; }
        catch (e) { /* fall through to the video */ }
      }
      if (!video) {
        video = document.createElement("video");
        video.setAttribute("playsinline", "");
        video.setAttribute("muted", "");
        video.muted = true;
        video.loop = true;
        video.className = "wake-video";
        for (const [src, type] of [["/static/wake/wake.mp4", "video/mp4"], ["/static/wake/wake.webm", "video/webm"]]) {
          const s = document.createElement("source"); s.src = src; s.type = type; video.appendChild(s);
        }
        document.body.appendChild(video);
      }
      if (video.paused) { try { await video.play(); } catch (e) { /* needs a tap */ } }
    }
    function awake() { return !!lock || (video && !video.paused); }
    function update(shouldBeAwake) {
      want = shouldBeAwake;
      if (want) lockNow();
      else {
        if (lock) { lock.release().catch(() => {}); lock = null; }
        if (video && !video.paused) video.pause();
      }
      const hint = document.getElementById("wake-hint");
      if (hint) { hint.hidden = !want || awake() || "wakeLock" in navigator; hint.textContent = t("wake.tap"); }
    }
    document.addEventListener("pointerdown", () => { if (want) lockNow().then(() => update(want)); }, true);
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible" && want) lockNow(); });
    return { update, awake };
  })();

  /* Short sounds made with Web Audio: nothing to download. */
  let audio = null;
  function beep(freq, ms, type) {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const o = audio.createOscillator(), g = audio.createGain();
      o.type = type || "sine"; o.frequency.value = freq;
      g.gain.setValueAtTime(0.0001, audio.currentTime);
      g.gain.exponentialRampToValueAtTime(0.25, audio.currentTime + 0.01);
      g.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + ms / 1000);
      o.connect(g).connect(audio.destination);
      o.start(); o.stop(audio.currentTime + ms / 1000 + 0.02);
    } catch (e) { /* no audio */ }
  }

  /* Names of seats that have left stay known (party.names), so a chart never shows "?". */
  function nameOf(view, seat) {
    const r = view && view.party.roster.find((x) => x.seat === seat);
    if (r) return r.name;
    return (view && view.party.names && view.party.names[seat]) || "?";
  }
  /* A seat keeps its colour for the whole party, whoever leaves. */
  /* nine clearly different hues (a late joiner must not look like seat 1) */
  const COLORS = ["#f2b134", "#4fc3f7", "#ef6f6c", "#8bd17c", "#c792ea", "#ff7ab6", "#2ec4b6", "#d7dbe8", "#b08968"];
  function colorOf(view, seat) {
    const n = parseInt(String(seat || "").replace(/\D/g, ""), 10);
    return COLORS[((isNaN(n) ? 1 : n) - 1) % COLORS.length];
  }

  /* The pause screen covers the game; a host's Resume/End buttons (and ``extra``, e.g. the
     roster) sit on it, so the host can always go on. */
  function pausedHtml(s, extra) {
    return `<div class="paused" data-testid="paused"><h2>${esc(t("paused.title"))}</h2>
      <p>${esc(t(s.host ? "paused.host" : "paused.body"))}</p>
      ${s.host ? `<div class="row"><button class="primary big" data-host="resume" data-testid="resume">${esc(t("host.resume"))}</button>
        <button data-host="end" data-testid="end">${esc(t("host.end"))}</button></div>${extra || ""}` : ""}</div>`;
  }

  /* Host controls in any part of a page (TV or host phone): data-host buttons (disabled once
     pressed, so a double press sends once), kick, promote, game choice, the QR address. */
  function wireHost(root, s) {
    root.querySelectorAll("[data-host]").forEach((b) => {
      b.onclick = () => {
        if (b.dataset.host === "end" && !s.party.over && !confirm(t("host.end_confirm"))) return;
        b.disabled = true; /* a double click must not send twice; the next state redraws it */
        PH.host(b.dataset.host).then((r) => { if (!r.ok) b.disabled = false; });
      };
    });
    root.querySelectorAll("[data-kick]").forEach((b) => {
      b.onclick = () => {
        if (confirm(t("roster.kick_confirm", { name: PH.nameOf(s, b.dataset.kick) }))) PH.host("kick", { seat: b.dataset.kick });
      };
    });
    root.querySelectorAll("[data-promote]").forEach((b) => { b.onclick = () => PH.host("promote", { seat: b.dataset.promote }); });
    root.querySelectorAll("[data-choose]").forEach((b) => { b.onclick = () => PH.host("choose", { game: b.dataset.choose }); });
    const sel = root.querySelector("select[data-testid=address]");
    if (sel) sel.onchange = () => PH.host("address", { index: Number(sel.value) });
  }
  /* The lobby's game options: the chosen game's ``lobby(root, s)`` draws them (host or not; it
     should offer controls only when ``s.host``), or the panel stays empty. */
  function lobbyOptions(root, s) {
    const game = PH.games[s.party.game_key];
    if (root.dataset.game !== s.party.game_key) { root.dataset.game = s.party.game_key; root.innerHTML = ""; }
    if (game && game.lobby) game.lobby(root, s);
    else root.innerHTML = "";
  }
  /* Host only: store new lobby options for the chosen game (checked against its OPTIONS schema). */
  /* Host only: an in-game host move (the game's HOST_ACTIONS), e.g. overruling a table vote. */
  function hostAct(type, fields) {
    return host("game", { action: Object.assign({ type }, fields || {}) });
  }
  function setOptions(options) {
    return host("choose", { game: last.party.game_key, options });
  }
  function langButton() {
    document.querySelectorAll(".lang-switch").forEach((b) => {
      b.textContent = lang === "ja" ? "English" : "日本語";
      b.onclick = () => { setLang(lang === "ja" ? "en" : "ja"); langButton(); };
    });
  }

  function connBadge(ok) {
    document.querySelectorAll(".conn").forEach((el) => {
      el.textContent = ok ? "●" : t("conn.offline");
      el.className = "conn " + (ok ? "ok" : "bad");
      el.title = ok ? t("conn.online") : t("conn.offline");
    });
  }
  on("conn", connBadge);

  return {
    t, esc, uid, on, connect, send, act, host, toast, buzz, beep, wake, store, nameOf, colorOf, refresh, pausedHtml, wireHost,
    lobbyOptions, setOptions, hostAct,
    langButton, get lang() { return lang; }, get last() { return last; }, get socket() { return socket; },
    get connected() { return !!(socket && socket.connected); }, serverNow,
    games: {},
  };
})();
