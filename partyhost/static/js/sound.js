/* Sound: a few cues synthesized in the page with Web Audio (no sound files, nothing fetched).
 *
 * PH.sound.cue(name) plays one of CUES ("level", "win", "loss", "miss", "reveal", "turn",
 * "tick"); PH.beep (app.js) goes through here too, so every game sound obeys the switch.
 *
 * The switch: one button in the top bar of the TV and of each phone, remembered in
 * localStorage ("ph.sound": "on" | "off"). The TV is on unless switched off; a phone is off until
 * its player switches it on (a phone's sounds are quiet, and only stand in for vibration where
 * the browser has none: iOS Safari has no navigator.vibrate).
 *
 * A TV whose audio is locked by the browser's autoplay rule (its AudioContext stays
 * "suspended" until someone touches the page) shows a notice in its top bar, 「音を出すにはタップ」;
 * one tap on it (or anywhere) resumes the context and the notice goes.
 *
 * Sounds never carry meaning alone: every cue has its words or picture on screen.
 */
"use strict";

PH.sound = (() => {
  const { t } = PH;
  const tv = document.body.classList.contains("tv");
  const hasVibrate = typeof navigator.vibrate === "function";
  let on = (PH.store.get("sound") || (tv ? "on" : "off")) === "on";
  let ctx = null;

  function context() {
    if (!ctx) {
      const Ctor = window.AudioContext || window.webkitAudioContext;
      if (!Ctor) return null;
      try { ctx = new Ctor(); } catch (e) { return null; }
      ctx.onstatechange = notice;
    }
    return ctx;
  }

  /* one note: frequency (Hz), start offset and length (s), wave shape, peak gain */
  function note(freq, at, len, type, peak) {
    const c = context();
    if (!c || c.state !== "running") return;
    const start = c.currentTime + at;
    const o = c.createOscillator(), g = c.createGain();
    o.type = type || "sine";
    o.frequency.value = freq;
    g.gain.setValueAtTime(0.0001, start);
    g.gain.exponentialRampToValueAtTime(peak, start + 0.012);
    g.gain.exponentialRampToValueAtTime(0.0001, start + len);
    o.connect(g).connect(c.destination);
    o.start(start);
    o.stop(start + len + 0.03);
  }

  /* [frequency, start, length, wave] per note; a phone plays them at a quarter of the level */
  const CUES = {
    /* a level cleared (The Mind) or a round won: three rising notes */
    level: [[523, 0, 0.15], [659, 0.15, 0.15], [784, 0.3, 0.3]],
    /* a game won: a fanfare, longer and fuller than a level clear, ending on a held chord */
    win: [[523, 0, 0.12, "triangle"], [523, 0.13, 0.12, "triangle"], [523, 0.26, 0.12, "triangle"], [659, 0.4, 0.3, "triangle"],
      [587, 0.72, 0.12, "triangle"], [659, 0.86, 0.12, "triangle"], [784, 1.0, 0.9, "triangle"], [1047, 1.0, 0.9], [659, 1.0, 0.9]],
    /* a game lost: two falling low notes */
    loss: [[220, 0, 0.3, "square"], [165, 0.28, 0.6, "square"]],
    /* a mistake: a low buzz that drops */
    miss: [[150, 0, 0.25, "sawtooth"], [100, 0.23, 0.5, "sawtooth"]],
    /* something turns over: a short rising pair */
    reveal: [[784, 0, 0.12], [1047, 0.11, 0.26]],
    /* it is your turn (phones): two quick high blips */
    turn: [[880, 0, 0.08], [1175, 0.1, 0.1]],
    /* a short tick (a phone's stand-in for a short vibration) */
    tick: [[1320, 0, 0.05]],
  };

  /** Play cue `name` (see CUES) when sound is on; a phone plays it quietly. */
  function cue(name) {
    if (!on || !CUES[name]) return;
    const peak = tv ? 0.22 : 0.06;
    for (const [f, at, len, type] of CUES[name]) note(f, at, len, type, peak);
  }

  /** One tone (the old PH.beep): frequency in Hz, length in ms, wave shape. */
  function tone(freq, ms, type) {
    if (!on) return;
    note(freq, 0, ms / 1000, type, tv ? 0.22 : 0.06);
  }

  /** Vibrate where the phone can; else, when the player has switched sound on, a quiet sound:
   *  one tick for a single pulse, the "turn" blips for a pattern. */
  function buzz(pattern) {
    if (hasVibrate) {
      try { navigator.vibrate(pattern); } catch (e) { /* not allowed yet */ }
      return;
    }
    cue(Array.isArray(pattern) && pattern.length > 1 ? "turn" : "tick");
  }

  /* ---------- the switch and the locked-audio notice ---------- */

  function set(next) {
    on = !!next;
    PH.store.set("sound", on ? "on" : "off");
    if (on) unlock();
    draw();
  }

  function unlock() {
    const c = context();
    if (c && c.state !== "running") c.resume().catch(() => {}).then(notice);
  }

  /* a speaker drawn in SVG (no emoji font needed): with sound waves when on, crossed when off */
  const SPEAKER = `<path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>`;
  const ICON_ON = `<svg viewBox="0 0 24 24" class="spk" aria-hidden="true">${SPEAKER}<path d="M15 9.5q2 2.5 0 5M17.5 7q4 5 0 10" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>`;
  const ICON_OFF = `<svg viewBox="0 0 24 24" class="spk" aria-hidden="true">${SPEAKER}<path d="M15.5 9.5l5 5M20.5 9.5l-5 5" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>`;

  function draw() {
    document.querySelectorAll(".sound-switch").forEach((b) => {
      b.innerHTML = (on ? ICON_ON : ICON_OFF) + (tv ? "" : `<span>${PH.esc(t(on ? "sound.phone_on" : "sound.phone_off"))}</span>`);
      b.setAttribute("aria-pressed", String(on));
      const label = t(on ? "sound.on" : "sound.off");
      b.title = label;
      b.setAttribute("aria-label", label);
    });
    notice();
  }

  /* The TV's notice: only while sound is on and the context is not running. */
  let box = null;
  function notice() {
    if (!tv) return;
    const locked = on && ctx && ctx.state !== "running" && ctx.state !== "closed";
    if (locked && !box) {
      /* in the top bar, beside the switch: it never covers the game or a button */
      box = document.createElement("button");
      box.type = "button";
      box.className = "sound-unlock";
      box.dataset.testid = "sound-unlock";
      box.onclick = unlock;
      const sw = document.querySelector(".tvbar .sound-switch");
      if (sw) sw.before(box); else document.body.appendChild(box);
    }
    if (box && !locked) { box.remove(); box = null; } /* gone, not hidden: no empty button in the bar */
    if (box) box.innerHTML = `${ICON_ON}<span>${PH.esc(t("sound.unlock"))}</span>`;
  }

  /* The TV's switch sits in its top bar; a phone's (whose top bar is full) in a row under the
     page, with its words. */
  function mount() {
    if (document.querySelector(".sound-switch")) return;
    const b = document.createElement("button");
    b.type = "button";
    b.className = "sound-switch";
    b.dataset.testid = "sound-switch";
    b.onclick = () => set(!on);
    const bar = document.querySelector(".tvbar");
    if (tv && bar) bar.insertBefore(b, bar.querySelector(".lang-switch"));
    else {
      const row = document.createElement("div");
      row.className = "sound-row";
      row.appendChild(b);
      const app = document.getElementById("app");
      if (app) app.after(row); else document.body.appendChild(row);
    }
    draw();
  }

  mount();
  PH.on("lang", draw);
  /* The TV opens its audio at once, to learn whether the browser locked it (then the notice
     shows); a phone opens it on its first tap. Any tap on the page is a chance to unlock. */
  if (tv && on) { context(); setTimeout(notice, 0); }
  for (const ev of ["pointerdown", "click", "touchend", "keydown"]) document.addEventListener(ev, () => { if (on) unlock(); }, true);

  /* every game's PH.beep and PH.buzz go through the switch */
  PH.beep = tone;
  PH.buzz = buzz;

  return {
    cue, tone, buzz, set, CUES,
    get on() { return on; },
    /** The AudioContext's state ("running", "suspended"…), or "none" before one exists. */
    get state() { return ctx ? ctx.state : "none"; },
  };
})();
