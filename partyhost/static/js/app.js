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
    const own = catalogues[lang] && catalogues[lang][key];
    const s = plurals(own ? lang : "en", own || catalogues.en[key] || key, p);
    /* a placeholder the template follows with さん ({name}さん) takes none after a name that
       already ends in an honorific (「ゆうきさん」 stays 「ゆうきさん」, never 「ゆうきさんさん」) */
    return s.replace(/\{(\w+)\}(さん)?/g, (m, k, san, at) => (p && k in p
      ? nested(s, at, String(p[k])) + (san && !honored(p[k]) ? san : "") : m));
  }
  /* A number that decides a word's form: {count, plural, one {# card} other {# cards}} (the
     subset of ICU MessageFormat partyhost/i18n.py's plurals() reads: "=N" first, then the
     language's CLDR category from the browser's Intl.PluralRules, then "other"; # is the number).
     A block whose number is missing keeps "other" with {count} for #. */
  const pluralRules = {};
  function plurals(language, s, p) {
    const start = /\{(\w+), *plural, */g;
    let out = "", i = 0, m;
    while ((m = start.exec(s))) {
      let depth = 1, j = start.lastIndex;
      while (depth && j < s.length) { if (s[j] === "{") depth++; else if (s[j] === "}") depth--; j++; }
      const body = s.slice(start.lastIndex, j - 1), branches = {};
      const sel = /\s*(=\d+|zero|one|two|few|many|other)\s*\{/y;
      for (let k = 0; k < body.length && body.slice(k).trim();) {
        sel.lastIndex = k;
        const b = sel.exec(body);
        if (!b) break;
        let d = 1, e = sel.lastIndex;
        while (d && e < body.length) { if (body[e] === "{") d++; else if (body[e] === "}") d--; e++; }
        branches[b[1]] = body.slice(sel.lastIndex, e - 1);
        k = e;
      }
      const v = p ? p[m[1]] : undefined;
      const n = typeof v === "number" ? v : typeof v === "string" && /^\d+(\.\d+)?$/.test(v) ? Number(v) : null;
      let text = branches.other || "";
      if (n !== null) {
        if (!pluralRules[language]) { try { pluralRules[language] = new Intl.PluralRules(language); } catch (e) { pluralRules[language] = { select: () => "other" }; } }
        text = branches["=" + n] != null ? branches["=" + n] : branches[pluralRules[language].select(n)] != null ? branches[pluralRules[language].select(n)] : text;
      }
      out += s.slice(i, m.index) + text.replace(/#/g, n !== null ? String(n) : "{" + m[1] + "}");
      i = j;
      start.lastIndex = j;
    }
    return out + s.slice(i);
  }
  /* Japanese honorifics a typed name may already end with; the same list as partyhost/i18n.py's
     HONORIFICS */
  const HONORIFICS = ["さん", "ちゃん", "くん", "君", "様", "さま", "氏"];
  /* Whether `name` already ends in an honorific (「ゆうきさん」, 「あきちゃん」): the page adds no さん after it. */
  function honored(name) {
    const n = String(name == null ? "" : name).trim();
    return HONORIFICS.some((h) => n.endsWith(h));
  }
  /* A value set between 「」 has its own 「」 turned to 『』, as Japanese writes a quote inside a
     quote (「タマの『ねこ』」); the same rule as partyhost/i18n.py's message(). */
  function nested(template, at, value) {
    const before = template.slice(0, at);
    return before.split("「").length > before.split("」").length ? value.replace(/「/g, "『").replace(/」/g, "』") : value;
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
  /* wire.HELD_PARTS: parts of party a state carries only when they changed for this socket */
  const HELD = ["games", "roster", "names", "record", "scoreboard", "howto", "momentum", "summary"];

  function connect(asRole) {
    role = asRole;
    /* Back within 2 s of a Wi-Fi outage's end (issue 26, measured in tests/test_netlab_play.py):
       the server's 2 s / 4 s heartbeat makes a dead link known within 6 s; then a new attempt
       after 0.25 s and every 0.4 s (±30 %), each given up after 1 s (a SYN lost while the link is
       down is retried by the phone's TCP only after 1 s and then 2 s more: a fresh attempt is
       sooner). Chromium in the lab: back 0.8-1.4 s after the link returned (with 0.5 s / 1.5 s
       per attempt 1.2-2.2 s; with the old 3 s / 20 s and a 10/20 s heartbeat, 5 s). */
    socket = io({
      auth: (cb) => cb({ role, token: store.get("token"), lang, key: params.get("key") || undefined }),
      reconnectionDelay: 250,
      reconnectionDelayMax: 400,
      randomizationFactor: 0.3,
      timeout: 1000,
    });
    socket.on("connect", () => { clock.reset(); clock.start(8); fire("conn", true); });
    socket.on("synced", (a) => clock.answer(a));
    socket.on("disconnect", () => {
      /* an answer lost with the connection never comes: every request still waiting is
         answered "offline" (no toast: the badge says so), so no button stays held */
      for (const [id, resolve] of pending) resolve({ id, ok: false, code: "offline" });
      pending.clear();
      forgetEvents();
      fire("conn", false);
    });
    socket.on("welcome", (w) => {
      if (w.token) store.set("token", w.token);
      if (role === "phone" && w.reason === "unknown_token") store.set("token", null);
      fire("welcome", w);
    });
    socket.on("kicked", () => { store.set("token", null); fire("kicked", {}); });
    socket.on("state", (s) => {
      s.receivedAt = Date.now(); /* wall clock: it keeps running while a phone sleeps */
      /* The parts of the party view in wire.HELD_PARTS (catalogue, roster, names, record,
         scoreboard, howto, momentum, summary) come only when they differ from what this socket
         holds (always in the first state after a (re)connect): keep them. */
      if (last) for (const k of HELD) if (!(k in s.party)) s.party[k] = last.party[k];
      last = s;
      if (firstSerial === null) firstSerial = s.party.serial;
      const due = afterState.splice(0);
      draw(s);
      due.forEach((fn) => fn());
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
    /* Reconnect at once when the page comes back (unlocked, another app left, Wi-Fi back)
       instead of waiting out the back-off timer (up to 0.52 s, and taps are refused meanwhile).
       Only the client's public API: `socket.active` (false once the server let the socket go:
       no automatic reconnection), the engine's documented `readyState` (an attempt is under
       way while it is "opening", or "open" with the namespace still connecting: leave it alone,
       a second CONNECT would make the server drop the namespace), and
       `socket.disconnect(); socket.connect()`, which cancels the pending back-off timer and
       opens a new connection while keeping automatic reconnection on for later outages. */
    const nudge = () => {
      if (!socket || socket.connected) return;
      if (!socket.active) { socket.connect(); return; }
      const engine = socket.io.engine;
      if (engine && (engine.readyState === "opening" || engine.readyState === "open")) return;
      socket.disconnect();
      socket.connect();
    };
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") nudge(); });
    window.addEventListener("pageshow", nudge);
    window.addEventListener("online", nudge);
    window.addEventListener("focus", nudge);
    return socket;
  }

  /* How long a request waits for its answer (ms) before it counts as unanswered. Answers come
     in milliseconds; only a dropped message waits this long. */
  const ANSWER_WAIT_MS = 8000;
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
      /* Every request settles: a message the server dropped unanswered (over the per-phone rate
         limit, or lost with a dying connection) is given up after ANSWER_WAIT_MS, so no button
         stays held by it. */
      const timer = setTimeout(() => {
        if (pending.get(msg.id) !== settle) return;
        pending.delete(msg.id);
        resolve({ id: msg.id, ok: false, code: "no_answer" });
      }, ANSWER_WAIT_MS);
      const settle = (r) => { clearTimeout(timer); resolve(r); };
      pending.set(msg.id, settle);
      socket.emit(kind, msg);
    });
  }
  /* Clock sync (issue 26, partyhost/clocksync.py; pyclient.ClockPinger is the same in Python):
     "sync" pings, each answer a sample of the host clock on this phone's clock, the one with the
     smallest round trip in the last 16 kept. During a burst each answer is echoed at once by the
     next ping, so the host measures the round trip on its own clock (it bounds how early a tap
     may be dated). A burst of 8 on every (re)connect, then a short one every 10 s. */
  const clock = {
    samples: [], n: 0, burst: 0, sent: new Map(), lag: 0, timer: null,
    now: () => Date.now() / 1000, /* wall clock: it keeps running while a phone sleeps */
    reset() { this.samples = []; this.sent.clear(); },
    start(burst) {
      this.burst = burst;
      this.ping(null);
      clearInterval(this.timer);
      this.timer = setInterval(() => { if (socket && socket.connected) this.start(1); }, 10000);
    },
    ping(echo) {
      const n = ++this.n, c = this.now();
      this.sent.set(n, c);
      if (this.sent.size > 16) this.sent.delete(this.sent.keys().next().value);
      socket.emit("sync", echo === null ? { n, c } : { n, c, echo });
    },
    answer(a) {
      const t3 = this.now();
      if (!a || typeof a.s !== "number") return;
      const t0 = this.sent.get(a.n);
      this.sent.delete(a.n);
      if (t0 !== undefined && t3 >= t0 && t3 - t0 <= 1) {
        this.samples.push({ rtt: t3 - t0, offset: (t0 + t3) / 2 - a.s });
        if (this.samples.length > 16) this.samples.shift();
        this.lag = a.g;
      }
      if (this.burst > 0) { this.burst--; this.ping(a.s); }
    },
    /* this phone's clock less the host's, from the min-RTT sample (null before one) */
    offset() {
      if (!this.samples.length) return null;
      return this.samples.reduce((b, x) => (x.rtt < b.rtt ? x : b)).offset;
    },
  };
  /* The server's game clock now: from clock sync, else from the last state (its "now" plus the
     local time since it arrived, late by that state's trip). Sent with each action as "at", so a
     tap held up by a Wi-Fi stall is refused instead of played seconds later. */
  function serverNow() {
    const offset = clock.offset();
    if (offset !== null) return clock.now() - offset - clock.lag;
    return last ? last.now + (Date.now() - last.receivedAt) / 1000 : 0;
  }
  /* "tc": this phone's clock at the tap; the host maps it through its own estimate of this
     phone's clock and orders racing moves by it (docs/fair_first_card.md). */
  function act(action) {
    const stamps = { game: last ? last.party.serial : 0, at: serverNow() };
    if (clock.offset() !== null) stamps.tc = clock.now();
    return send("act", Object.assign(stamps, action));
  }
  /* Game-changing host buttons name the game they were pressed for ("serial"). */
  const SERIAL_OPS = ["start", "restart", "again", "end", "pause", "resume", "game"];
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
    if (last) draw(last);
  }

  /* Draw the last state again (a lock that ran out, a tap that changed what a screen shows). */
  function refresh() { if (last) draw(last); }
  /* Every drawing of a state goes through here: the pages draw it, then the buttons of requests
     still on their way are held again (see guard). */
  function draw(s) {
    fire("state", s);
    holdFlights();
    carried = [];
  }

  /* The toast is a live region: it holds only the message on show (emptied first, so the same
     refusal twice is announced twice) and is emptied when it hides, so a screen reader never
     finds or repeats a stale message. */
  let toastTimer = null;
  let toastFrame = 0;
  function toast(text, isError) {
    const el = document.getElementById("toast");
    if (!el) return;
    el.textContent = "";
    clearTimeout(toastFrame);
    toastFrame = setTimeout(() => { el.textContent = text; }, 30);
    el.className = "toast show" + (isError ? " error" : "");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { el.className = "toast"; el.textContent = ""; }, 3500);
  }

  function buzz(pattern) {
    try { if (navigator.vibrate) navigator.vibrate(pattern); } catch (e) { /* not allowed yet */ }
  }

  /* Keep the phone awake during a game. The Wake Lock API comes first where it exists (only in
     a secure context); on a plain-http LAN page the known fallback is a muted, looping, inline
     video started from a tap. The clip is played from memory (a Blob URL fetched once while the
     host is reachable): a clip streamed from the host fails for good when its loop restarts
     during a host outage (WebKit: MEDIA_ERR_NETWORK, stuck at 0 s, yet `paused` stays false).
     A health check watches the video's time: a video that should play but stalls or fails is
     reloaded from memory and played again, or, when that needs a tap, the tap hint shows. */
  const wake = (() => {
    const CLIPS = [["/static/wake/wake.mp4", "video/mp4"], ["/static/wake/wake.webm", "video/webm"]];
    const CHECK_MS = 1500; /* how often the health check looks (the clip loops every 4 s) */
    let want = false, lock = null, video = null, healthy = false, lastTime = -1, blobs = null;
    /* The clips as Blob URLs: fetched once; a failed fetch (host away) is tried again later. */
    function loadClips() {
      if (blobs) return blobs;
      blobs = Promise.all(CLIPS.map(([src, type]) => fetch(src).then((r) => {
        if (!r.ok) throw new Error(src + ": " + r.status);
        return r.blob();
      }).then((b) => [URL.createObjectURL(b), type]))).catch(() => { blobs = null; return null; });
      return blobs;
    }
    async function makeVideo() {
      const clips = await loadClips();
      if (!clips || video) return;
      video = document.createElement("video");
      video.setAttribute("playsinline", "");
      video.setAttribute("muted", "");
      video.muted = true;
      video.loop = true;
      video.className = "wake-video";
      video.dataset.testid = "wake-video";
      video.setAttribute("aria-hidden", "true"); /* a 1-px keep-awake trick, nothing to read */
      for (const [src, type] of clips) {
        const el = document.createElement("source"); el.src = src; el.type = type; video.appendChild(el);
      }
      document.body.appendChild(video);
    }
    /* Play the video. A play from a tap, or one that starts a paused video, counts as healthy at
       once (`trust`); a restart by the health check does not: only time that moves clears it. */
    async function play(trust) {
      lastTime = -1;
      try {
        await video.play();
        if (trust) { healthy = true; strikes = 0; }
      } catch (e) { healthy = false; /* needs a tap: the hint shows */ }
    }
    async function lockNow(tap) {
      if (!want) return;
      if ("wakeLock" in navigator) {
        try { if (!lock) { lock = await navigator.wakeLock.request("screen"); lock.addEventListener("release", () => { lock = null; }); } return; }
        catch (e) { /* fall through to the video */ }
      }
      if (!video) await makeVideo();
      if (!video || !want) return;
      const failed = !!video.error;
      if (failed) video.load();
      if (tap || failed || video.paused) await play(true);
    }
    /* The health check: a video that should be playing must have moved since the last look.
       A stalled, paused or failed one is reloaded from memory and played again; after two
       looks without progress the page asks for a tap. */
    let strikes = 0;
    function check() {
      if (!want || lock || !video || document.visibilityState !== "visible") { lastTime = -1; return; }
      const now = video.currentTime;
      const bad = !!video.error || video.paused || (lastTime >= 0 && now === lastTime);
      lastTime = now;
      if (!bad) { strikes = 0; healthy = true; }
      else {
        strikes += 1;
        if (strikes >= 2) healthy = false;
        if (video.error) video.load();
        play(false).then(showHint);
      }
      showHint();
    }
    setInterval(check, CHECK_MS);
    function awake() { return !!lock || (!!video && !video.paused && !video.error && healthy); }
    function showHint() {
      const hint = document.getElementById("wake-hint");
      if (hint) { hint.hidden = !want || awake(); hint.textContent = t("wake.tap"); }
    }
    function update(shouldBeAwake) {
      want = shouldBeAwake;
      if (want) lockNow().then(showHint);
      else {
        if (lock) { lock.release().catch(() => {}); lock = null; }
        if (video && !video.paused) video.pause();
      }
      showHint();
    }
    /* phone pages fetch the clips at once, while the host is surely there */
    if (document.body.classList.contains("phone")) loadClips();
    /* a tap anywhere (a touch's pointerdown is no user activation on iOS: its click is) */
    for (const ev of ["pointerdown", "click"]) document.addEventListener(ev, () => { if (want) lockNow(true).then(showHint); }, true);
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible" && want) lockNow().then(showHint); });
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
  /* A list for display, in the page's language: the catalogue's ``list.sep`` (「、」 in Japanese:
     「ゆうき、けん、あき」), else the browser's list format ("Aki, Ben, and Cy"; ", " where there is
     no Intl.ListFormat). Every game joins names and words through this, never with a literal ", ". */
  function list(items) {
    const xs = (items || []).map((x) => String(x));
    const sep = t("list.sep");
    if (sep && sep !== "list.sep") return xs.join(sep);
    try { return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(xs); } catch (e) { return xs.join(", "); }
  }
  /* Seats as people inside a sentence: each name with its honorific (「ゆうきさん、けんさん」),
     listed as ``list`` does. A label (``{name}: …``, a roster) uses the bare names. */
  function people(view, seats) {
    return list((seats || []).map((x) => t("list.person", { name: nameOf(view, x) })));
  }
  /* A seat keeps its colour and its shape for the whole party, whoever leaves. The nine colours
     live in app.css (--seat-1 … --seat-9: distinct under colour-vision deficiencies, checked by
     tests/test_seat_palette.py); the shapes are the second mark, so colour never identifies a
     player alone (JIS symbols: every Japanese font has them). */
  const SEAT_COUNT = 9;
  const MARKS = ["●", "▲", "■", "◆", "★", "▼", "◎", "♣", "♠"];
  const colours = [];
  function seatIndex(seat) {
    const n = parseInt(String(seat || "").replace(/\D/g, ""), 10);
    return ((isNaN(n) ? 1 : n) - 1) % SEAT_COUNT;
  }
  function colorOf(view, seat) {
    const i = seatIndex(seat);
    if (!colours[i]) colours[i] = getComputedStyle(document.documentElement).getPropertyValue("--seat-" + (i + 1)).trim() || "#ccc";
    return colours[i];
  }
  /* The seat's shape, in its colour, hidden from screen readers (the name is read). */
  function markOf(view, seat) {
    return `<i class="seat-mark" aria-hidden="true" style="color:${colorOf(view, seat)}">${MARKS[seatIndex(seat)]}</i>`;
  }
  function shapeOf(seat) { return MARKS[seatIndex(seat)]; }

  /* The pause screen covers the game; a host's Resume/End buttons (and ``extra``, e.g. the
     roster) sit on it, so the host can always go on. */
  function pausedHtml(s, extra) {
    return `<div class="paused" data-testid="paused"><h2>${esc(t("paused.title"))}</h2>
      <p>${esc(t(s.host ? "paused.host" : "paused.body"))}</p>
      ${s.host ? `<div class="row"><button class="primary big" data-host="resume" data-testid="resume">${esc(t("host.resume"))}</button>
        <button data-host="end" data-testid="end">${esc(t("host.end"))}</button></div>${extra || ""}` : ""}</div>`;
  }

  /**
   * Ask a yes/no question in the page (issue 27: the browser's confirm() box was not ours: its
   * words, its look, and a kiosk TV or a phone may block it). A modal ``<dialog>`` (the
   * browser's own: focus stays inside, the page behind is inert), labelled by its question;
   * focus starts on the safe answer; Escape or "Cancel" says no. Buttons at least 44 px high.
   *
   * @param {{title: string, body?: string, ok: string, cancel?: string, danger?: boolean}} q -
   *   texts already in the page's language (``cancel`` defaults to ``common.cancel``)
   * @returns {Promise<boolean>} true for ``ok``, false for cancel, Escape or another question
   */
  let asking = null; /* the open question's "say no" (one at a time) */
  function ask(q) {
    if (asking) asking();
    return new Promise((resolve) => {
      const before = document.activeElement;
      const d = document.createElement("dialog");
      d.className = "ask";
      d.setAttribute("role", "dialog");
      d.setAttribute("aria-modal", "true");
      d.setAttribute("aria-labelledby", "ask-title");
      if (q.body) d.setAttribute("aria-describedby", "ask-body");
      d.dataset.testid = "ask";
      d.innerHTML = `<h2 id="ask-title">${esc(q.title)}</h2>${q.body ? `<p id="ask-body">${esc(q.body)}</p>` : ""}
        <div class="ask-row"><button type="button" data-ask="no" data-testid="ask-no">${esc(q.cancel || t("common.cancel"))}</button>
        <button type="button" class="${q.danger ? "danger-fill" : "primary"}" data-ask="yes" data-testid="ask-yes">${esc(q.ok)}</button></div>`;
      let done = false;
      const finish = (yes) => {
        if (done) return;
        done = true;
        asking = null;
        if (d.open) d.close();
        d.remove();
        if (before && before.isConnected && typeof before.focus === "function") before.focus();
        resolve(yes);
      };
      asking = () => finish(false);
      d.addEventListener("cancel", (e) => { e.preventDefault(); finish(false); }); /* Escape */
      d.addEventListener("click", (e) => {
        const b = e.target instanceof Element ? e.target.closest("[data-ask]") : null;
        if (b) finish(b.dataset.ask === "yes");
      });
      document.body.appendChild(d);
      if (typeof d.showModal === "function") d.showModal(); else d.setAttribute("open", "");
      d.querySelector("[data-ask=no]").focus();
    });
  }

  /* Host controls in any part of a page (TV or host phone): data-host buttons (disabled once
     pressed, so a double press sends once), kick, promote, game choice, the QR address. */
  function wireHost(root, s) {
    root.querySelectorAll("[data-host]").forEach((b) => {
      guard(b, () => {
        if (b.dataset.host === "end" && !s.party.over) {
          /* the group stays disabled while the question is open; "no" sends nothing */
          return ask({ title: t("host.end_confirm"), body: t("host.end_note"), ok: t("host.end"), danger: true })
            .then((yes) => (yes ? PH.host("end") : null));
        }
        return PH.host(b.dataset.host);
      }, { key: "host:" + b.dataset.host });
    });
    root.querySelectorAll("[data-kick]").forEach((b) => {
      b.onclick = () => {
        const seat = b.dataset.kick;
        ask({ title: t("roster.kick_confirm", { name: PH.nameOf(s, seat) }), ok: t("roster.kick"), danger: true })
          .then((yes) => { if (yes) PH.host("kick", { seat }); });
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
  /* The one-line explanation under a lobby option (issue 27: victory tiles, the quick players,
     the handicaps, the timer were never explained): the catalogue's <game>.opt_help.<name>, or
     ``key`` when the game already has its own words for it. Drawn on the TV and the host's phone. */
  function optHelp(game, name, key, label) {
    const k = key || `${game}.opt_help.${name}`;
    return t(k) === k ? "" : `<small class="opt-help" data-testid="opt-help-${esc(name)}" data-option="${esc(name)}"${
      label ? ` data-label="${esc(t(label))}"` : ""}>${esc(t(k))}</small>`;
  }
  /* The TV's side column has no room for a line under every option beside nine names: there
     the explanations take turns in one line under the options (``line``), each with its option's
     name, HELP_MS each; an option the host just changed is explained at once. */
  const HELP_MS = 9000;
  const helpLine = { timer: null, at: 0, sig: "", options: "", line: null, root: null };
  function helpItems() {
    return helpLine.root ? [...helpLine.root.querySelectorAll(".opt-help")].filter((el) => !el.closest("[hidden]")) : [];
  }
  function showHelp(name) {
    const line = helpLine.line, items = helpItems();
    clearTimeout(helpLine.timer);
    if (!line || !line.isConnected) return;
    if (name) { const i = items.findIndex((el) => el.dataset.option === name); if (i >= 0) helpLine.at = i; }
    if (!items.length) { line.hidden = true; line.innerHTML = ""; return; }
    const el = items[helpLine.at % items.length];
    line.hidden = false;
    line.dataset.option = el.dataset.option;
    line.innerHTML = `${el.dataset.label ? `<b>${esc(t("list.label", { label: el.dataset.label }))}</b>` : ""}${esc(el.textContent)}`;
    if (items.length > 1) helpLine.timer = setTimeout(() => { helpLine.at = (helpLine.at + 1) % items.length; showHelp(); }, HELP_MS);
  }
  function optHelpLine(line, root, s) {
    helpLine.line = line; helpLine.root = root;
    const items = helpItems();
    const sig = [PH.lang, s.party.game_key, ...items.map((el) => el.dataset.option + el.textContent)].join("|");
    /* the options with the schema's defaults filled in, so a default stored or left out is no change */
    const info = (s.party.games || []).find((g) => g.key === s.party.game_key);
    const props = (info && info.options && info.options.properties) || {};
    const now = {};
    for (const k of Object.keys(props)) if ("default" in props[k]) now[k] = props[k].default;
    Object.assign(now, s.party.options || {});
    const before = helpLine.options ? JSON.parse(helpLine.options) : null;
    helpLine.options = JSON.stringify(now);
    const changed = before && sig.startsWith(PH.lang + "|" + s.party.game_key + "|")
      ? Object.keys(now).find((k) => JSON.stringify(before[k]) !== JSON.stringify(now[k])) : null;
    if (sig === helpLine.sig && !changed) return;
    if (!helpLine.sig.startsWith(PH.lang + "|" + s.party.game_key + "|")) helpLine.at = 0;
    helpLine.sig = sig;
    showHelp(changed || null);
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

  /* ===========================================================================================
   * The kit: what every game's screens are made of. A game script keeps its own drawing; these
   * do the rest the same way for every game.
   *   mount, patch — draw a screen and its parts without losing focus, typed text or a pressed button
   *   react        — run something (a sound, a vibration) once per new game event
   *   guard        — a button, or a group of buttons, that sends one request per tap, never two
   *   countdown    — a live "12 s left" element
   *   voteBox      — the one table vote (Word Basket's challenge, Diabolo's unknown word)
   * =========================================================================================== */

  /* ---------- drawing ---------- */

  /* What the kit last drew into an element: {html} (patch) or {key, lang} (mount). */
  const drawn = new WeakMap();
  const FIELDS = "input, textarea, select";
  const fieldName = (f) => f.getAttribute("name") || f.id || f.getAttribute("data-testid") || "";

  /* Typed fields that a language switch's rebuild took away with the part they were in: the field
     of the same name drawn next, in this same drawing, gets them back (a form mounted in a part). */
  let carried = [];

  /* Replace el's content with html. What the person typed into a field, and the field they were
     in (with the caret), is carried over to the field of the same name (name, id or data-testid)
     in the new content. Returns what found no field there. */
  function replaceKeeping(el, html) {
    const active = document.activeElement;
    const kept = [];
    el.querySelectorAll(FIELDS).forEach((f) => {
      const name = fieldName(f);
      if (!name) return;
      const check = f.type === "checkbox" || f.type === "radio";
      const typed = f.tagName !== "SELECT" && (check ? f.checked !== f.defaultChecked : f.value !== f.defaultValue);
      if (!typed && f !== active) return;
      let start = null, end = null;
      try { start = f.selectionStart; end = f.selectionEnd; } catch (e) { /* not a text field */ }
      kept.push({ name, typed, check, value: f.value, checked: f.checked, focused: f === active, start, end });
    });
    el.innerHTML = html;
    return restore(el, kept);
  }
  /* Put kept fields back into the fields of the same name in el; returns those not found. */
  function restore(el, kept) {
    if (!kept.length) return kept;
    const fresh = [...el.querySelectorAll(FIELDS)];
    return kept.filter((k) => {
      const f = fresh.find((x) => fieldName(x) === k.name);
      if (!f) return true;
      if (k.typed) { if (k.check) f.checked = k.checked; else f.value = k.value; }
      if (k.focused && !f.disabled) {
        f.focus({ preventScroll: true });
        try { if (k.start != null) f.setSelectionRange(k.start, k.end); } catch (e) { /* not a text field */ }
      }
      return false;
    });
  }

  /* After the kit drew into el: countdowns show their time at once, vote boxes are wired. */
  function settle(el) {
    tick(el);
    wireVotes(el);
  }

  /**
   * A screen built by {@link mount}: its root element and its named parts.
   * @typedef {object} Screen
   * @property {Element} el - the skeleton's first element
   * @property {boolean} fresh - true when this call (re)built the skeleton
   * @property {function(string): ?Element} part - the element marked `data-part="<name>"`
   * @property {function(string, string, function(Element)=): boolean} draw -
   *   `draw(name, html, wire)` is {@link patch} on that part
   */

  /**
   * Build a screen's skeleton into `root` once per `key`, then leave it alone.
   *
   * Use it for whatever holds a text field or a form: the skeleton (and the field, its text, its
   * caret, an IME conversion under way) survives every later state; only its parts are redrawn,
   * with {@link patch}. A new `key` (another game, a new round, another mode) builds it afresh,
   * empty. A language switch builds it again in the new language and carries over what was typed
   * and which field had the focus (fields are matched by name, id or data-testid).
   *
   * @param {Element} root - the element to draw into (e.g. the game root the page hands over)
   * @param {string} key - what this skeleton is for; the same key keeps it
   * @param {string} html - the skeleton; mark the parts to redraw with `data-part="<name>"`
   * @param {function(Element)=} build - called once per build with the skeleton's first element:
   *   add the listeners of the fields and buttons that live in the skeleton here
   * @returns {Screen}
   */
  function mount(root, key, html, build) {
    const had = drawn.get(root);
    const same = !!(had && had.key === key && root.firstChild);
    const fresh = !same || had.lang !== lang;
    if (fresh) {
      if (same) carried = carried.concat(replaceKeeping(root, html)); /* only the language changed: keep what was typed */
      else {
        root.innerHTML = html;
        carried = restore(root, carried);
      }
      drawn.set(root, { key, lang });
      settle(root);
      if (build) build(root.firstElementChild || root);
    }
    const part = (name) => root.querySelector(`[data-part="${name}"]`);
    return { el: root.firstElementChild, fresh, part, draw: (name, html2, wire) => patch(part(name), html2, wire) };
  }

  /**
   * Draw `html` into `el`, only when it differs from what the kit last drew there.
   *
   * Guarantees: an unchanged part is not touched (focus, typed text, a running animation, a
   * finger on a button all survive a state that did not change it); a changed part keeps the text
   * typed into its fields and the focused field (see {@link mount}); countdowns in it show their
   * time at once; vote boxes in it are wired; then `wire(el)` runs, once for this drawing — wire
   * the new buttons there (with {@link guard} where a tap sends).
   *
   * @param {?Element} el - the element (nothing happens when it is missing)
   * @param {string} html - its new content
   * @param {function(Element)=} wire - called with `el` after each drawing
   * @returns {boolean} whether it drew
   */
  function patch(el, html, wire) {
    if (!el) return false;
    const had = drawn.get(el);
    if (had && had.html === html && (el.firstChild || !html)) return false;
    replaceKeeping(el, html);
    carried = restore(el, carried);
    drawn.set(el, { html });
    settle(el);
    if (wire) wire(el);
    return true;
  }

  /* ---------- once per event ---------- */

  const reactions = new Map(); /* scope → {serial, n}: the newest event a reaction has seen */
  let firstSerial = null; /* the game serial of the first state since the page (re)connected */
  /* A reconnect is a fresh look: nothing that happened while the page was away is reacted to. */
  function forgetEvents() { reactions.clear(); firstSerial = null; }

  /**
   * Run `fn` once for each game event newer than the last one this `scope` has seen.
   *
   * Events are the game's own records with a serial `n` (`last_event`, `event` or a list of
   * `events`). Guarantees: each event is reacted to at most once per scope, however often the
   * state is drawn again (a redraw, a language switch, a reconnect's full state, the old state
   * drawn again while offline); a page that opens
   * (or reconnects) onto a game under way reacts only to what happens from then on; a page that
   * watched a game start reacts to its first events too; a new game (a new `party.serial`) starts
   * over.
   *
   * @param {string} scope - names this reaction, e.g. "the_mind.tv"; one memory per scope
   * @param {object} s - the state being drawn (its `party.serial` tells the games apart)
   * @param {?(object|object[])} events - the newest event, or a list of events, or nothing
   * @param {function(object): void} fn - called with each new event, oldest first
   * @returns {number} how many events it reacted to
   */
  function react(scope, s, events, fn) {
    /* Between a disconnect and the new connection's first state, what is drawn is the old state
       (a redraw, the offline badge): no new look, nothing to react to, nothing remembered. */
    if (firstSerial === null) return 0;
    const list = (Array.isArray(events) ? events : events ? [events] : [])
      .filter((e) => e && typeof e.n === "number").sort((a, b) => a.n - b.n);
    const serial = s && s.party ? s.party.serial : 0;
    let seen = reactions.get(scope);
    if (!seen || seen.serial !== serial) {
      const newest = list.length ? list[list.length - 1].n : 0;
      seen = { serial, n: !seen && serial === firstSerial ? newest : 0 };
      reactions.set(scope, seen);
    }
    let count = 0;
    for (const e of list) {
      if (e.n <= seen.n) continue;
      seen.n = e.n; /* before fn: a redraw from inside fn cannot react again */
      count += 1;
      fn(e);
    }
    return count;
  }

  /* ---------- one request per tap ---------- */

  /* key → [groups]: requests on their way, and the button groups held for each */
  const flights = new Map();
  const afterState = []; /* run after the next state from the server has been drawn */
  let flightCount = 0;
  let refreshQueued = false;
  function holdGroup(group) { group.buttons.forEach((b) => { b.disabled = true; }); }
  function holdFlights() { for (const groups of flights.values()) groups.forEach(holdGroup); }
  function land(key) {
    const groups = flights.get(key);
    if (!groups) return;
    flights.delete(key);
    for (const g of groups) g.buttons.forEach((b, i) => { b.disabled = g.drawnDisabled[i]; });
    /* a screen that sets its buttons itself on each drawing sets them again */
    if (!refreshQueued) { refreshQueued = true; queueMicrotask(() => { refreshQueued = false; refresh(); }); }
  }
  const SETTLE_MS = 1500; /* a success whose state never comes (nothing changed) releases after this */

  /**
   * Make a button, or a group of buttons, send one request per tap.
   *
   * A tap calls `send(button)`; when it returns a request (a promise of the server's answer, as
   * `PH.act`, `PH.hostAct`, `PH.host` and `PH.send` do), every button of the group is disabled at
   * once. A refusal (or a lost connection) enables them again as they were drawn; on success they
   * stay disabled until the next state has been drawn (which usually redraws them), so a double tap
   * sends once. While the request is on its way the group stays disabled through every redraw, and
   * with a `key`, a group drawn anew under the same key is disabled too (e.g. the ballots of one
   * vote, redrawn by someone else's ballot).
   *
   * @param {Element|Iterable<Element>} buttons - the group (missing elements are skipped)
   * @param {function(Element): ?Promise<object>} send - sends for the tapped button; return
   *   null/undefined to send nothing (nothing to send yet); a promise that resolves to null
   *   (PH.ask said no) releases the group
   * @param {{key?: string}=} opts - `key`: a name shared by the groups of one request
   * @returns {function(Element=): Promise<?object>} `run(button)`: the same as a tap on `button`
   *   (for Enter in a field); resolves with the answer, or null when nothing was sent
   */
  function guard(buttons, send, opts) {
    const list = buttons instanceof Element ? [buttons] : [...(buttons || [])].filter(Boolean);
    const group = { buttons: list, drawnDisabled: list.map((b) => b.disabled) };
    const key = opts && opts.key != null ? "k:" + opts.key : "g:" + (++flightCount);
    if (flights.has(key)) { flights.get(key).push(group); holdGroup(group); }
    const run = (button) => {
      if (flights.has(key)) return Promise.resolve(null);
      const request = send(button || list[0]);
      if (!request || typeof request.then !== "function") return Promise.resolve(null);
      flights.set(key, [group]);
      holdGroup(group);
      return request.then((r) => {
        if (r && r.ok) {
          const timer = setTimeout(() => land(key), SETTLE_MS);
          afterState.push(() => { clearTimeout(timer); land(key); });
        } else land(key);
        return r;
      });
    };
    list.forEach((b) => {
      b.onclick = (e) => {
        if (e) e.preventDefault(); /* a submit button: the guard sends, not the form */
        run(b);
      };
    });
    return run;
  }

  /* ---------- countdowns ---------- */

  /* Fill every countdown in scope (the page by default) with the seconds left. */
  function tick(scope) {
    if (!last) return;
    const now = serverNow();
    (scope || document).querySelectorAll("[data-deadline]").forEach((el) => {
      const left = Math.max(0, Math.ceil(Number(el.dataset.deadline) - now));
      const text = t(el.dataset.label || "common.seconds_left", { seconds: left });
      if (el.textContent !== text) el.textContent = text;
    });
  }
  setInterval(() => tick(), 250);

  /**
   * A countdown element: the seconds left until `deadline`, kept up to date four times a second
   * from the server's clock (so a phone that slept catches up when it wakes).
   *
   * Its HTML does not change while it counts (the text is filled in after drawing), so a part
   * holding it is not redrawn each second by {@link patch}.
   *
   * @param {?number} deadline - server game-clock seconds; nothing is drawn when it is null
   * @param {{label?: string, testid?: string, cls?: string}=} opts - `label`: a catalogue key
   *   with `{seconds}` (default `common.seconds_left`: "残り{seconds}秒"); `testid`; `cls`: more
   *   classes (the element always has class `cd`)
   * @returns {string} HTML of one `<span>`
   */
  function countdown(deadline, opts) {
    if (deadline == null) return "";
    const o = opts || {};
    return `<span class="cd${o.cls ? " " + esc(o.cls) : ""}" data-deadline="${Number(deadline)}"${o.label ? ` data-label="${esc(o.label)}"` : ""}${
      o.testid ? ` data-testid="${esc(o.testid)}"` : ""}></span>`;
  }

  /* ---------- the table vote ---------- */

  /**
   * The one table-vote box (a `TableVote` view: `id`, `subject`, `voters`, `ballots`, `count`,
   * `closes`, `decided`): the game's subject line, the tally, a countdown, this phone's ballots
   * (when it may vote) and the host's overrule.
   *
   * The vote id is baked into the box: a ballot sends `{type: "vote", vote: id, ballot}` and an
   * overrule `overrule {vote: id, outcome}` for the vote that was drawn, never a later one. Both
   * button pairs are guarded ({@link guard}): disabled from the tap until the answer. Drawn with
   * {@link patch} or {@link mount}, it is wired by itself. The chosen ballot is marked with ✓ and
   * aria-pressed, not by colour alone.
   *
   * Test ids: `vote`, `tally-accept`, `tally-reject`, `vote-countdown`, `ballot-accept`,
   * `ballot-reject`, `overrule-accept`, `overrule-reject`.
   *
   * @param {object} s - the state (for this seat and host powers)
   * @param {?object} v - the game's vote view; nothing is drawn when it is null
   * @param {{subject: string, mode?: string, cls?: string}} opts - `subject`: HTML of what is
   *   voted on (the game's words); `mode`: "phone" (ballots for a voter, the host's overrule),
   *   "tv" (the host's overrule) or "watch" (nothing to press); `cls`: the game's own class
   * @returns {string} HTML
   */
  function voteBox(s, v, opts) {
    if (!v) return "";
    const o = opts || {};
    const mode = o.mode || "tv";
    const me = s.me && s.me.seat;
    const c = v.count || { accept: 0, reject: 0, waiting: 0 };
    const open = v.decided == null;
    const mine = (v.ballots || {})[me];
    const voter = mode === "phone" && open && (v.voters || []).includes(me);
    const ballot = (b) => `<button class="${b === "accept" ? "yes" : "no"}${mine === b ? " on" : ""}" data-ballot="${b}"
        data-testid="ballot-${b}" aria-pressed="${mine === b}">${mine === b ? "✓ " : ""}${esc(t("vote." + b))}</button>`;
    const overrule = (b) => `<button class="small" data-overrule="${b}" data-testid="overrule-${b}"
        aria-label="${esc(t("vote.overrule") + " " + t("vote." + b))}">${esc(t("vote." + b))}</button>`;
    return `<div class="vote-box${o.cls ? " " + esc(o.cls) : ""}" data-testid="vote" data-vote-id="${Number(v.id)}">
      ${o.subject || ""}
      <p class="tally"><span class="yes">${esc(t("vote.accept"))} <b data-testid="tally-accept">${c.accept}</b></span>
        <span class="no">${esc(t("vote.reject"))} <b data-testid="tally-reject">${c.reject}</b></span>
        <span class="wait">${esc(t("vote.waiting", { count: c.waiting }))}</span>
        ${open ? countdown(v.closes, { testid: "vote-countdown" }) : ""}</p>
      ${voter ? `<div class="ballot">${ballot("accept")}${ballot("reject")}</div>` : ""}
      ${mode === "phone" && v.subject && v.subject.seat === me ? `<p class="small yours">${esc(t("vote.yours"))}</p>` : ""}
      ${mode !== "watch" && s.host && open && !(mode === "phone" && v.subject && v.subject.seat === me) ? `<div class="overrule"><span>${esc(t("vote.overrule"))}</span>${overrule("accept")}${overrule("reject")}</div>` : ""}
    </div>`;
  }

  /* Wire the vote boxes drawn into el: ballots and overrules name the vote they were drawn for. */
  function wireVotes(el) {
    el.querySelectorAll("[data-vote-id]").forEach((box) => {
      const id = Number(box.dataset.voteId);
      guard(box.querySelectorAll("[data-ballot]"), (b) => PH.act({ type: "vote", vote: id, ballot: b.dataset.ballot }), { key: "ballot:" + id });
      guard(box.querySelectorAll("[data-overrule]"), (b) => PH.hostAct("overrule", { vote: id, outcome: b.dataset.overrule }), { key: "overrule:" + id });
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

  /* Scroll the page as little as needed so that everything from the top of ``first`` to the
     bottom of ``last`` is on screen: below the phone's sticky top bar and above the bottom of
     the visual viewport (which an on-screen keyboard shortens). When the range is taller than
     that, ``last`` (the button or field the player is about to use) wins. */
  function keepInView(first, last) {
    if (!first || !last) return;
    const vv = window.visualViewport;
    const bar = document.querySelector("body.phone .bar");
    const top = Math.max(vv ? vv.offsetTop : 0, bar ? bar.getBoundingClientRect().bottom : 0) + 4;
    const bottom = (vv ? vv.offsetTop + vv.height : window.innerHeight) - 4;
    /* where they lie in the page (a sticky button is measured where it would be unstuck) */
    const place = (el, side) => { const was = el.style.position; el.style.position = "static";
      const r = el.getBoundingClientRect()[side]; el.style.position = was; return r; };
    const a = place(first, "top"), b = place(last, "bottom");
    let dy = 0;
    if (b > bottom) dy = b - bottom;
    if (a - dy < top && b - (a - top) <= bottom) dy = a - top;
    if (Math.abs(dy) >= 1) window.scrollBy(0, dy);
  }

  return {
    t, honored, esc, uid, on, connect, send, act, host, toast, ask, buzz, beep, wake, store, nameOf, list, people, colorOf, markOf, shapeOf, refresh, pausedHtml, wireHost,
    lobbyOptions, optHelp, optHelpLine, showHelp, setOptions, hostAct,
    mount, patch, react, guard, countdown, voteBox,
    langButton, get lang() { return lang; }, get last() { return last; }, get socket() { return socket; },
    get connected() { return !!(socket && socket.connected); }, serverNow, keepInView,
    games: {},
  };
})();
