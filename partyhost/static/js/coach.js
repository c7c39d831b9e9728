/* The first-round coach (はじめてモード), generic for every game: the TV's strip ("now" and
 * "next"), each phone's tip for its role, the host's skip, and the lobby switch. It draws only
 * what the server put in the view (game.coach, game.guide: i18n keys and params decided by each
 * game's rules module), so a phone never learns more than its own view.
 *
 * A text is {key, params}: a param whose name ends in "seat" is a seat id shown as its name, a
 * param that is {key, params?} is itself a text (a team, a word language), {seat} is a seat's
 * name, {join: [...], sep?} a list joined with the catalogue text sep (or as PH.list lists), a code such as
 * "3-1-4" is drawn unbroken. The how-to's rules in use are drawn with the same text().
 * Loaded on every page after app.js; it draws after the page has drawn each state. */
"use strict";

(() => {
  const { t, esc } = PH;
  const tv = document.body.classList.contains("tv");

  /* One param's value: a text ({key, params?}), a seat ({seat}: its name), a list ({join, sep}),
     or a plain value (games/base.py: msg, seat_name, joined). */
  function value(v, s) {
    if (v && typeof v === "object") {
      if (v.key) return text(v, s);
      if (typeof v.seat === "string") return PH.nameOf(s, v.seat);
      if (Array.isArray(v.join)) {
        const items = v.join.map((x) => value(x, s));
        return v.sep ? items.join(t(v.sep)) : PH.list(items);
      }
    }
    return v;
  }

  function text(m, s) {
    if (!m) return "";
    const p = {};
    for (const [k, v] of Object.entries(m.params || {})) {
      if (v && typeof v === "object") p[k] = value(v, s);
      else if (/seat$/.test(k) && typeof v === "string") p[k] = PH.nameOf(s, v);
      // a code such as 3-1-4 stays on one line (word joiners; a phone broke it after a hyphen)
      else if (typeof v === "string" && /^\d(-\d)+$/.test(v)) p[k] = v.replace(/-/g, "\u2060-\u2060");
      else p[k] = v;
    }
    return t(m.key, p);
  }

  /* The lobby's switch (host: a button; everyone else: what the next game will do). */
  function lobby(s) {
    const on = !!s.party.coach;
    const state = t(on ? "coach.on" : "coach.off");
    const control = s.host
      ? `<button class="coach-toggle ${on ? "on" : ""}" type="button" data-coach-set="${on ? "off" : "on"}"
           aria-pressed="${on}" data-testid="coach-switch">${esc(state)}</button>`
      : `<strong data-testid="coach-switch">${esc(state)}</strong>`;
    return `<div class="coach-lobby" data-coach="${on ? "on" : "off"}"><span>${esc(t("coach.switch"))}</span>${control}</div>`;
  }

  /* The help sheet's "what you can do now" line for this screen (empty outside a game). */
  function guide(s) {
    return s && s.game && s.game.guide ? text(s.game.guide.now, s) : "";
  }

  /* on from the first step to the end screen (issue 27: it stopped after the first round) */
  function running(s) {
    return !!(s && s.party.phase === "game" && s.game && s.game.coach);
  }

  /* ----- TV: a strip between the top bar and the game, taking its room from the page; the
     host's skip is in the TV's host menu (tv.js; the click is handled below), so the strip is
     only words ----- */
  function drawStrip(s) {
    let el = document.getElementById("coach-strip");
    if (!el) {
      const main = document.getElementById("app");
      if (!main) return;
      el = document.createElement("section");
      el.id = "coach-strip";
      el.className = "coach-strip";
      el.dataset.testid = "coach-strip";
      el.setAttribute("aria-live", "polite");
      el.setAttribute("aria-label", t("coach.title"));
      main.parentNode.insertBefore(el, main);
    }
    const strip = running(s) ? s.game.coach.strip : null;
    /* a game staging a reveal (Top Ten's drum roll) holds the strip as it was, so its words do
       not tell the table the outcome before the screen shows it */
    const hold = strip && PH.coachHold && PH.coachHold[s.party.game_key];
    if (hold && el.dataset.html && hold(s)) return;
    const before = el.offsetHeight;
    if (!strip) { el.hidden = true; el.innerHTML = ""; el.dataset.html = ""; delete el.dataset.step; }
    else {
      el.hidden = false;
      el.dataset.step = strip.step;
      const html = `<p class="coach-now" data-testid="coach-now"><b>${esc(t("coach.now"))}</b>${esc(text(strip.now, s))}</p>
        <p class="coach-next" data-testid="coach-next"><b>${esc(t("coach.next"))}</b>${esc(text(strip.next, s))}</p>`;
      if (el.dataset.html !== html) { el.dataset.html = html; el.innerHTML = html; }
    }
    /* the strip takes its room from the game, which the page drew (and fitted to the screen)
       before it: when the strip's height changed, the page draws the state again in the room
       now left (once: the same state draws the same strip) */
    if (el.offsetHeight !== before) queueMicrotask(PH.refresh);
  }

  /* ----- phone: the tip for this seat's role, each one shown once ----- */
  let current = null; /* the tip id on screen now */
  /* per party and game: a game the host coaches again (the lobby switch) teaches again */
  function seenKey(s) { return "coach.seen." + s.party.room + "." + s.party.serial; }
  /* the store is read (and parsed) once per party and game, then kept: drawTip runs on every
     state, several a second in a real-time game */
  let seenCache = { key: null, list: [] };
  function seen(s) {
    const key = seenKey(s);
    if (seenCache.key !== key) {
      let list;
      try { list = JSON.parse(PH.store.get(key) || "[]"); } catch (e) { list = []; }
      seenCache = { key, list: Array.isArray(list) ? list : [] };
    }
    return seenCache.list;
  }
  function markSeen(s, id) {
    const list = seen(s);
    if (!list.includes(id)) {
      list.push(id);
      if (list.length > 100) list.splice(0, list.length - 100);
      PH.store.set(seenKey(s), JSON.stringify(list));
    }
  }

  function drawTip(s) {
    const app = document.getElementById("app");
    const root = app && app.querySelector("#game-root");
    let el = app && app.querySelector("#coach-tip");
    if (!root || !running(s)) { if (el) el.remove(); current = null; return; }
    if (!el) {
      el = document.createElement("section");
      el.id = "coach-tip";
      el.className = "coach-tip-slot";
      root.parentNode.insertBefore(el, root);
    }
    const coach = s.game.coach;
    const tip = coach.tip;
    if (!tip || tip.id !== current) current = null;
    if (tip && current === null && !seen(s).includes(tip.id)) {
      current = tip.id;
      markSeen(s, tip.id); /* shown once: after a reload or when it goes away, it does not come back */
    }
    const parts = [];
    /* the seat's own "what to do now", on every step while the coach is on; a tip on screen
       (each shows once) says it for that moment, so the line steps aside for it */
    if (coach.line && !(current && tip)) {
      parts.push(`<p class="coach-line" data-testid="coach-line"><b>${esc(t("coach.now"))}</b>${esc(text(coach.line, s))}</p>`);
    }
    if (current && tip) {
      parts.push(`<div class="coach-tip" data-testid="coach-tip" data-tip="${esc(tip.id)}" role="status">
        <span class="coach-badge">${esc(t("coach.tip_label"))}</span>
        <p>${esc(text(tip, s))}</p>
        <button class="coach-ok" type="button" data-coach-ok data-testid="coach-ok">${esc(t("coach.ok"))}</button></div>`);
    }
    if (s.host && !s.party.over) {
      parts.push(`<button class="coach-skip" type="button" data-coach-skip data-testid="coach-skip">${esc(t("coach.skip"))}</button>`);
    }
    const html = parts.join("");
    if (el.dataset.html !== html) { el.dataset.html = html; el.innerHTML = html; }
    el.hidden = !parts.length;
  }

  function draw() {
    const s = PH.last;
    if (!s) return;
    if (tv) drawStrip(s);
    else if (s.me) drawTip(s);
  }

  document.addEventListener("click", (e) => {
    const target = e.target instanceof Element ? e.target : null;
    if (!target) return;
    const set = target.closest("[data-coach-set]");
    if (set) { PH.host("coach", { on: set.dataset.coachSet === "on" }); return; }
    if (target.closest("[data-coach-skip]")) { PH.host("coach", { on: false }); return; }
    if (target.closest("[data-coach-ok]")) {
      current = null;
      draw();
    }
  });

  /* after the page's own drawing of the same state (tv.js / phone.js listen after this file) */
  PH.on("state", () => queueMicrotask(draw));
  PH.on("lang", () => queueMicrotask(draw));

  PH.coach = { text, lobby, guide };
})();
