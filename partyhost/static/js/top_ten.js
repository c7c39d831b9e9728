/* Top Ten: phone, TV and lobby renderers of the views partyhost/games/top_ten.py computes.
 * Rules live on the server; this file only draws, keeps the reveal's moment of suspense, and
 * sends taps. Tokens are drawn in SVG (no emoji font needed), sounds come from PH.beep. */
"use strict";

(() => {
  const { t, esc } = PH;
  /* How long the drum rolls before a revealed number shows (ms). */
  const SUSPENSE_MS = 1100;
  /* A peeked number hides again by itself after this long (ms). */
  const PEEK_MS = 5000;

  // --- drawings --------------------------------------------------------------------------------

  /* A unicorn token: a pale face with a golden horn, closed eyes and pink cheeks. */
  const UNICORN = `<svg viewBox="0 0 40 40" class="tok uni" aria-hidden="true">
    <circle cx="20" cy="22" r="16" fill="#f6ecff" stroke="#b48cf0" stroke-width="2.5"/>
    <path d="M16 9 L20 -1 L24 9 Z" fill="#ffd54a" stroke="#d19b00" stroke-width="1.2" transform="translate(0 4)"/>
    <path d="M17.5 8.5 L22.5 7 M18.5 5.5 L21.6 4.6" stroke="#d19b00" stroke-width="1.1" transform="translate(0 4)"/>
    <path d="M8 11 L12 6 L14 13 Z M32 11 L28 6 L26 13 Z" fill="#f6ecff" stroke="#b48cf0" stroke-width="1.5"/>
    <path d="M12 22 q3 3 6 0 M22 22 q3 3 6 0" fill="none" stroke="#4a3570" stroke-width="2" stroke-linecap="round"/>
    <circle cx="11.5" cy="27.5" r="2.6" fill="#ffb3cf"/><circle cx="28.5" cy="27.5" r="2.6" fill="#ffb3cf"/>
    <path d="M17 30 q3 2 6 0" fill="none" stroke="#4a3570" stroke-width="1.6" stroke-linecap="round"/></svg>`;
  /* A poop token: three brown coils with a curl on top and two eyes. */
  const POOP = `<svg viewBox="0 0 40 40" class="tok poo" aria-hidden="true">
    <ellipse cx="20" cy="32" rx="16" ry="6.5" fill="#8a5a2b" stroke="#5b3a1a" stroke-width="1.5"/>
    <ellipse cx="20" cy="24" rx="12" ry="5.5" fill="#9c6833" stroke="#5b3a1a" stroke-width="1.5"/>
    <ellipse cx="20" cy="16.5" rx="8" ry="4.5" fill="#ad773d" stroke="#5b3a1a" stroke-width="1.5"/>
    <path d="M20 12 q6 -3 1 -9 q1 5 -4 6" fill="#ad773d" stroke="#5b3a1a" stroke-width="1.3"/>
    <circle cx="16" cy="24" r="2.2" fill="#fff"/><circle cx="24" cy="24" r="2.2" fill="#fff"/>
    <circle cx="16.4" cy="24.4" r="1" fill="#222"/><circle cx="24.4" cy="24.4" r="1" fill="#222"/></svg>`;
  const CROWN = `<svg viewBox="0 0 24 16" class="crown" aria-hidden="true"><path d="M2 14 L3 4 L8 9 L12 2 L16 9 L21 4 L22 14 Z" fill="#ffd54a" stroke="#b98900" stroke-width="1.2"/></svg>`;
  /* speaking: a speech bubble; gesture: a figure with raised arms */
  const MODE_ICON = {
    speak: `<svg viewBox="0 0 24 24" class="mi" aria-hidden="true"><path d="M3 4h18v12H10l-5 4v-4H3z" fill="currentColor"/></svg>`,
    gesture: `<svg viewBox="0 0 24 24" class="mi" aria-hidden="true"><circle cx="12" cy="4.5" r="2.6" fill="currentColor"/><path d="M12 9v6.5M12 15.5l-4 6M12 15.5l4 6M12 10.5 5.5 5M12 10.5 18.5 5" stroke="currentColor" stroke-width="2.4" fill="none" stroke-linecap="round"/></svg>`,
  };

  function tokensHtml(unicorns, poops, flipIndex) {
    const u = Array.from({ length: unicorns }, () => UNICORN).join("");
    const p = Array.from({ length: poops }, (_, i) => (i === flipIndex ? POOP.replace('class="tok poo"', 'class="tok poo flip"') : POOP)).join("");
    return `<div class="tt-tokens" data-testid="tokens" role="img" data-unicorns="${unicorns}" data-poops="${poops}"
      aria-label="${esc(t("top_ten.tally", { unicorns, poops }))}">
      <span class="zone uni ${u ? "" : "empty"}" title="${esc(t("top_ten.unicorns_title"))}">${u || "<i></i>"}</span><span class="zone poo ${p ? "" : "empty"}" title="${esc(t("top_ten.poops_title"))}">${p || "<i></i>"}</span></div>`;
  }

  // --- the reveal's moment of suspense ---------------------------------------------------------

  /* Reveals are shown one at a time, each after SUSPENSE_MS of drum roll. ``shown.count`` is how
     many of this round's reveals the page shows; a page that (re)loads shows what is already
     revealed at once. */
  const shown = { key: null, count: 0, timer: null, fresh: -1, drum: null };

  function drumRoll() {
    clearInterval(shown.drum);
    let i = 0;
    shown.drum = setInterval(() => {
      PH.beep(i % 2 ? 95 : 80, 45, "triangle");
      if (++i >= Math.floor(SUSPENSE_MS / 75)) clearInterval(shown.drum);
    }, 75);
  }

  /* The TV's coach strip waits while a reveal is under the drum (coach.js): "Out of order: a
     unicorn flipped" must not come before the number does. */
  PH.coachHold = PH.coachHold || {};
  PH.coachHold.top_ten = (s) => {
    const g = s.game;
    return !!(g && g.reveals && shown.key === `${s.party.serial}:${g.round}` && g.reveals.length > shown.count);
  };

  function track(s, g, role) {
    const key = `${s.party.serial}:${g.round}`;
    if (shown.key !== key) {
      shown.key = key;
      clearTimeout(shown.timer);
      shown.timer = null;
      shown.count = g.reveals.length;
      shown.fresh = -1;
    }
    if (g.reveals.length < shown.count) shown.count = g.reveals.length;
    if (g.reveals.length > shown.count && !shown.timer) {
      if (role === "tv") drumRoll();
      shown.timer = setTimeout(() => {
        shown.timer = null;
        const r = PH.last && PH.last.game && PH.last.game.reveals ? PH.last.game.reveals[shown.count] : null;
        shown.count += 1;
        shown.fresh = shown.count - 1;
        if (r && role === "tv") {
          PH.sound.cue(r.mistake ? "miss" : "reveal");
        }
        if (r && role === "phone" && r.mistake) PH.buzz([200, 80, 200]);
        PH.refresh();
      }, SUSPENSE_MS);
    }
    /* what to draw: the reveals shown so far, the one under the drum, and the tokens as they
       were before the hidden reveals */
    const hidden = g.reveals.slice(shown.count);
    const back = hidden.filter((r) => r.mistake).length;
    const fresh = shown.fresh;
    shown.fresh = -1; /* the pop animation plays on one drawing only */
    return {
      reveals: g.reveals.slice(0, shown.count),
      drum: hidden.length ? hidden[0] : null,
      fresh,
      unicorns: g.unicorns + back,
      poops: g.poops - back,
      flip: fresh >= 0 && g.reveals[fresh] && g.reveals[fresh].mistake ? g.poops - back - 1 : -1,
      phase: hidden.length && (g.phase === "round_over" || g.phase === "over") ? "order" : g.phase,
    };
  }

  /* End-of-game sound on the TV, once per game. */
  let endPlayed = null;
  function endSound(s, g, d) {
    if (d.phase !== "over") return;
    const key = s.party.serial;
    if (endPlayed === key) return;
    const first = endPlayed === null && !shown.timer && d.fresh < 0;
    endPlayed = key;
    if (first && g.last_event && g.last_event.kind !== "over" && g.last_event.kind !== "lost") return;
    PH.sound.cue(g.rating === "lost" ? "loss" : "win");
  }

  // --- shared pieces -----------------------------------------------------------------------------

  const nameOf = (s, seat) => PH.nameOf(s, seat);
  const colour = (s, seat) => PH.colorOf(s, seat);

  function themeHtml(theme, big) {
    if (!theme) return "";
    return `<div class="tt-theme ${big ? "big" : ""}" data-testid="tt-theme">
      <div class="tt-title"><span class="tt-mode ${esc(theme.mode)}">${MODE_ICON[theme.mode] || ""}${esc(t("top_ten.mode." + theme.mode))}</span>
        <h2 data-testid="tt-title">${esc(theme.title)}</h2></div>
      <div class="tt-poles"><div class="pole low"><b>1</b><span data-testid="tt-low">${esc(theme.low)}</span></div>
        <div class="scale" aria-hidden="true"></div>
        <div class="pole high"><span data-testid="tt-high">${esc(theme.high)}</span><b>10</b></div></div>
    </div>`;
  }

  function tilesHtml(s, g, d, slots) {
    const tiles = d.reveals.map((r, i) => `<li class="tile ${r.mistake ? "bad" : "good"} ${i === d.fresh ? "pop" : ""}" data-testid="tt-tile"
        data-seat="${esc(r.seat)}" style="--c:${colour(s, r.seat)}"><b>${r.number}</b><span>${esc(nameOf(s, r.seat))}</span>${r.mistake ? `<i class="drop" title="${esc(t("top_ten.mistake"))}">▼</i>` : ""}</li>`);
    if (d.drum) tiles.push(`<li class="tile drum" data-testid="tt-drum" style="--c:${colour(s, d.drum.seat)}"><b>?</b><span>${esc(nameOf(s, d.drum.seat))}</span></li>`);
    const left = Math.max(0, slots - tiles.length);
    for (let i = 0; i < left; i++) tiles.push(`<li class="tile empty"><b></b><span></span></li>`);
    return `<ol class="tt-reveals" data-testid="tt-reveals">${tiles.join("")}</ol>`;
  }

  function ratingHtml(g, testid) {
    return `<div class="tt-rating ${esc(g.rating)}" data-testid="${testid}" data-rating="${esc(g.rating)}">
      <strong>${esc(t("top_ten.rating." + g.rating))}</strong>
      <span>${esc(t("top_ten.tally", { unicorns: g.unicorns, poops: g.poops }))}</span></div>`;
  }

  function historyHtml(s, g) {
    if (!g.history.length) return "";
    return `<ol class="tt-history" data-testid="tt-history">${g.history.map((h) => `<li>
      <span class="r">${h.round}</span><span class="th">${esc(h.theme ? h.theme.title : "")}</span>
      <span class="seq">${h.reveals.map((r) => `${PH.markOf(s, r.seat)}<b class="${r.mistake ? "bad" : ""}" style="--c:${colour(s, r.seat)}" title="${esc(nameOf(s, r.seat))}">${r.number}</b>`).join("")}</span>
      <span class="m ${h.mistakes ? "bad" : ""}">${esc(t("top_ten.mistakes", { count: h.mistakes }))}</span></li>`).join("")}</ol>`;
  }

  /* an answer beside its name; an empty one was said out loud (or shown, for a gesture theme) */
  function answerText(p, g) {
    if (!p.answered) return `<em class="thinking">${esc(t("top_ten.not_answered"))}</em>`;
    const gesture = g && g.theme && g.theme.mode === "gesture";
    return p.answer ? `<q>${esc(p.answer)}</q>` : `<em>${esc(t(gesture ? "top_ten.said_gesture" : "top_ten.said_out_loud"))}</em>`;
  }

  // --- TV --------------------------------------------------------------------------------------

  /* The reveal's spotlight beside the theme (which shrinks meanwhile): the number just revealed
     is the largest thing on the screen, with its player's name; a mistake says so in words
     (「ミス!」) with the poop token that turns. Under the drum roll it shows "?". */
  function spotHtml(s, d) {
    const latest = d.reveals[d.reveals.length - 1];
    const r = d.drum || latest;
    if (!r) return "";
    const fresh = !d.drum && d.fresh === d.reveals.length - 1;
    const cls = d.drum ? "drum" : `${r.mistake ? "miss" : "good"}${fresh ? " pop" : ""}`;
    return `<div class="tt-spot ${cls}" data-testid="tt-spot" data-seat="${esc(r.seat)}" style="--c:${colour(s, r.seat)}">
      <b class="n" data-testid="tt-spot-number">${d.drum ? "?" : r.number}</b>
      <span class="who">${PH.markOf(s, r.seat)}${esc(nameOf(s, r.seat))}</span>
      ${!d.drum && r.mistake ? `<span class="miss-word" data-testid="tt-miss">${fresh ? POOP.replace('class="tok poo"', 'class="tok poo flip"') : POOP}${esc(t("reveal.miss"))}</span>` : ""}
    </div>`;
  }

  /* While numbers are revealed the theme stands beside the spotlight, as tall as the middle of
     the screen: its words grow (badge, title and poles together) to the largest size that keeps
     the box inside the middle and every word inside the box, the title under half the revealed
     number's size and no block of words taller than it (that number stays the largest type on
     the screen). Done again when the
     middle's size changes (another TV size, a redraw). */
  let fitWatch = null; /* {observer, centre}: one observer, moved to each new middle (a redraw
                          replaces it), so observers never pile up on old ones */
  function fitRevealTheme(el) {
    const centre = el.querySelector(".tt.tv.revealing .tt-centre");
    const theme = centre && centre.querySelector(".tt-theme.big");
    const number = centre && centre.querySelector(".tt-spot .n");
    if (!theme || !number) return;
    const title = theme.querySelector(".tt-title h2");
    const cap = parseFloat(getComputedStyle(number).fontSize) * 0.48, tall = number.offsetHeight;
    const fits = () => theme.scrollWidth <= theme.clientWidth + 1 && theme.scrollHeight <= theme.clientHeight + 1
      && centre.scrollHeight <= centre.clientHeight + 1 && theme.offsetHeight <= centre.clientHeight + 1
      && parseFloat(getComputedStyle(title).fontSize) <= cap
      && [...theme.querySelectorAll(".tt-title h2, .tt-poles span")].every((w) => w.offsetHeight < tall);
    theme.style.fontSize = "";
    let lo = 1, hi = 2.6;
    for (let i = 0; i < 7; i++) {
      const mid = (lo + hi) / 2;
      theme.style.fontSize = mid + "em";
      if (fits()) lo = mid; else hi = mid;
    }
    theme.style.fontSize = lo > 1.01 ? lo + "em" : "";
    if (window.ResizeObserver && (!fitWatch || fitWatch.centre !== centre)) {
      if (fitWatch) fitWatch.observer.disconnect();
      /* the size just fitted: the observer's first call (on observe) does not fit it again */
      let size = centre.clientWidth + "x" + centre.clientHeight;
      const observer = new ResizeObserver(() => {
        const now = centre.clientWidth + "x" + centre.clientHeight;
        if (now !== size && centre.isConnected) { size = now; fitRevealTheme(el); }
      });
      observer.observe(centre);
      fitWatch = { observer, centre };
    }
  }

  function tv(root, s) {
    const g = s.game;
    const d = track(s, g, "tv");
    endSound(s, g, d);
    const away = new Set(s.party.roster.filter((r) => !r.connected).map((r) => r.seat));
    const revealedNum = new Map(d.reveals.map((r) => [r.seat, r]));
    const answerers = g.players.filter((p) => p.answerer).length;
    const done = g.players.filter((p) => p.answerer && p.answered).length;
    const capName = nameOf(s, g.captain);

    let centre = "";
    if (d.phase === "choose") {
      centre = `<div class="tt-choosing" data-testid="tt-choosing"><div class="cardback"></div><p>${esc(t("top_ten.choosing", { name: capName }))}</p></div>`;
    } else if (d.phase === "over") {
      centre = `${ratingHtml(g, "tt-result")}${historyHtml(s, g)}`;
    } else {
      centre = themeHtml(g.theme, true);
    }
    const revealing = (d.phase === "order" || d.phase === "round_over") && (d.drum || d.reveals.length);
    if (revealing) centre += spotHtml(s, d);

    let note = "";
    const capWaits = g.players.some((p) => p.seat === g.captain && p.answerer && !p.answered);
    if (d.phase === "answer") note = `${esc(t(capWaits ? "top_ten.captain_first_note" : "top_ten.answers_in", { done, total: answerers }))} · ${esc(t("top_ten.answer_rule"))}`;
    else if (d.phase === "order") note = d.drum ? "" : g.pending ? esc(t("top_ten.pointing", { name: nameOf(s, g.pending) })) : esc(t("top_ten.ordering", { name: capName }));
    else if (d.phase === "round_over") note = `${esc(t("top_ten.round_over", { round: g.round }))} · ${esc(t("top_ten.next_wait", { name: nameOf(s, g.next_captain) }))}`;
    else if (d.phase === "over") note = esc(t("top_ten.next_by_host"));
    if (g.last_event && g.last_event.kind === "left") note = `${esc(t("top_ten.left", { name: nameOf(s, g.last_event.seat) }))}${note ? " · " + note : ""}`;
    if (g.last_event && g.last_event.kind === "captain_passed" && d.phase !== "over") {
      note = `${esc(t("top_ten.captain_passed", { name: nameOf(s, g.last_event.seat), next: capName }))}${note ? " · " + note : ""}`;
    }
    /* the captain's phone is away: the host can hand this round's captaincy to the next seat */
    const capAway = away.has(g.captain) && ["choose", "answer", "order"].includes(g.phase);
    if (capAway) note = [esc(t("top_ten.captain_away", { name: capName })), note].filter(Boolean).join(" · ");
    const hostNext = s.host && d.phase === "round_over"
      ? `<button class="small" data-tt-host-next="1" data-testid="tt-host-next">${esc(t("top_ten.host_next"))}</button>`
      : s.host && capAway ? `<button class="small" data-tt-pass="1" data-testid="tt-pass-captain">${esc(t("top_ten.pass_captain", { name: nameOf(s, g.next_captain) }))}</button>` : "";

    const players = g.players.map((p) => {
      const r = revealedNum.get(p.seat);
      const isCap = p.seat === g.captain;
      const cls = [p.answered ? "answered" : "", g.pending === p.seat && !d.drum ? "pending" : "", d.drum && d.drum.seat === p.seat ? "drumming" : "",
        r ? "revealed" : "", away.has(p.seat) ? "away" : "", isCap ? "captain" : "", p.answerer ? "" : "no-number"].join(" ");
      return `<li class="tt-p ${cls}" data-seat="${esc(p.seat)}" data-testid="tt-player-${esc(p.seat)}" style="--c:${colour(s, p.seat)}">
        <span class="who">${isCap ? CROWN : ""}<span class="nm">${esc(nameOf(s, p.seat))}</span>${away.has(p.seat) ? `<span class="tag away">${esc(t("roster.away"))}</span>` : ""}${p.answered && p.answerer ? `<span class="ok" title="${esc(t("top_ten.answered"))}">✔</span>` : ""}${r ? `<span class="num ${r.mistake ? "bad" : ""}">${r.number}</span>` : ""}</span>
        <span class="ans" data-testid="tt-answer-${esc(p.seat)}">${p.answerer ? (g.phase === "choose" ? "" : answerText(p, g)) : isCap ? `<em>${esc(t("top_ten.captain"))}</em>` : ""}</span>
      </li>`;
    }).join("");

    PH.patch(root, `<div class="tt tv phase-${d.phase}${revealing ? " revealing" : ""}" data-testid="tt-tv" data-lang="${esc(PH.lang)}">
      <header class="tt-head">
        <span class="tt-round" data-testid="tt-round">${esc(t("top_ten.round_of", { round: g.round, rounds: g.rounds }))}</span>
        <span class="tt-captain" data-testid="tt-captain">${CROWN}${esc(t("top_ten.captain_is", { name: capName }))}</span>
        ${tokensHtml(d.unicorns, d.poops, d.flip)}
        <span class="tt-tokens-rule" data-testid="tokens-rule">${esc(t("top_ten.tokens_rule"))}</span>
      </header>
      <section class="tt-centre">${centre}</section>
      ${d.phase === "order" || d.phase === "round_over" || (d.phase === "over" && g.reveals.length && !g.history.length) ? tilesHtml(s, g, d, answerers) : ""}
      <ul class="tt-players seat-list n${g.players.length}">${players}</ul>
      <p class="tt-note" data-testid="tt-note">${note}${hostNext}</p>
    </div>`, (el) => {
      /* The answers take the lines the screen has room for: when the theme (a long title on two
         lines) no longer fits above them, they keep to four lines, then two, and then the title
         gets smaller. */
      const middle = el.querySelector(".tt-centre");
      const ttv = el.querySelector(".tt.tv");
      let step = "";
      for (const next of ["mid", "tight", "tighter"]) {
        if (middle.scrollHeight <= middle.clientHeight + 1) break;
        if (step) ttv.classList.remove(step);
        ttv.classList.add((step = next));
      }
      fitRevealTheme(el);
      PH.guard(el.querySelector("[data-tt-host-next]"), () => PH.hostAct("next_round", { round: g.round }), { key: "top_ten-host-next" });
      PH.guard(el.querySelector("[data-tt-pass]"), () => PH.hostAct("pass_captain", { round: g.round }), { key: "top_ten-pass" });
    });
  }

  // --- phone -----------------------------------------------------------------------------------

  const peek = { key: null, open: false, timer: null };
  let choice = { key: null, index: null };
  let composing = false; /* an IME conversion in the answer field */

  function peekHtml(g) {
    if (g.number == null) return "";
    return `<button type="button" class="tt-peek ${peek.open ? "open" : ""}" data-testid="peek" aria-pressed="${peek.open}">
      ${peek.open
        ? `<small>${esc(t("top_ten.your_number"))}</small><b data-testid="my-number">${g.number}</b><small>${esc(t("top_ten.tap_to_hide"))}</small>`
        : `<span class="back" aria-hidden="true"></span><strong>${esc(t("top_ten.tap_to_peek"))}</strong><small>${esc(t("top_ten.peek_hint"))}</small>`}
    </button>`;
  }

  /* The answer form, mounted into its slot once per round and mode ("new": answer now; "write":
     write down an answer said out loud), so what is typed (and an IME conversion) survives every
     state; a language switch redraws it, keeping the text. */
  function answerForm(slot, s, g, me, mode) {
    const gesture = g.theme && g.theme.mode === "gesture";
    const form = PH.mount(slot, `top_ten-answer:${s.party.serial}:${g.round}:${mode}`, `<div class="tt-form">
      ${mode === "write" ? `<p class="tt-mine small">${esc(t("list.label", { label: t("top_ten.you_answered") }))}${esc(t(gesture ? "top_ten.said_gesture" : "top_ten.said_out_loud"))}</p>` : ""}
      <form class="tt-answer" data-testid="answer-form" autocomplete="off">
        <p class="small tt-form-note"></p>
        <input data-testid="answer-input" maxlength="60" enterkeyhint="send" autocomplete="off"
               placeholder="${esc(t("top_ten.answer_placeholder"))}">
        <div class="row"><button type="submit" class="primary" data-testid="answer-send">${esc(t(mode === "write" ? "top_ten.write_it" : "top_ten.send"))}</button>
        ${mode === "new" ? `<button type="button" data-testid="out-loud">${esc(t(gesture ? "top_ten.did_gesture" : "top_ten.out_loud"))}</button>` : ""}</div>
      </form></div>`, (el) => {
      const input = el.querySelector("input");
      composing = false;
      input.addEventListener("compositionstart", () => { composing = true; });
      input.addEventListener("compositionend", () => { composing = false; });
      /* an IME's Enter confirms a conversion: it must not submit */
      input.addEventListener("keydown", (e) => { if (e.key === "Enter" && (e.isComposing || e.keyCode === 229 || composing)) e.preventDefault(); });
      /* Enter in the field clicks the send button; the guard sends (one answer, not two) */
      el.querySelector("form").addEventListener("submit", (e) => e.preventDefault());
      PH.guard(el.querySelectorAll("button"), (b) => {
        if (composing) return null;
        const text = b.dataset.testid === "out-loud" ? "" : input.value.trim();
        if (mode === "write" && !text) return null;
        return PH.act({ type: "answer", round: PH.last.game.round, text });
      });
    });
    const waitCaptain = mode === "new" && g.captain !== me && g.players.some((p) => p.seat === g.captain && p.answerer && !p.answered);
    form.el.querySelector(".tt-form-note").textContent = waitCaptain ? t("top_ten.captain_first_note") : t("top_ten.answer_rule");
    form.el.querySelectorAll("button").forEach((b) => { b.disabled = waitCaptain; });
    form.el.querySelector("form").classList.toggle("waiting", waitCaptain);
  }

  function phoneMain(s, g, d, me, mine) {
    const isCap = g.captain === me;
    const capName = nameOf(s, g.captain);
    const answerers = g.players.filter((p) => p.answerer);
    if (d.phase === "choose") {
      if (!isCap) return `<p class="waiting" data-testid="tt-wait">${esc(t("top_ten.choosing", { name: capName }))}</p>`;
      const key = `${s.party.serial}:${g.round}`;
      if (choice.key !== key) choice = { key, index: null };
      const sides = [0, 1].map((side) => `<div class="tt-side"><h4>${esc(t(side ? "top_ten.side_back" : "top_ten.side_front"))}</h4>
        ${[0, 1].map((k) => {
          const i = side * 2 + k, th = g.choices[i];
          return `<button type="button" class="tt-choice ${choice.index === i ? "on" : ""}" data-choice="${i}" data-testid="choice-${i}">
            <strong>${esc(th.title)}</strong><span class="poles"><i class="lo">1 ${esc(th.low)}</i><i class="hi">${esc(th.high)} 10</i></span>
            <em>${MODE_ICON[th.mode] || ""}${esc(t("top_ten.mode." + th.mode))}</em></button>`;
        }).join("")}</div>`).join("");
      return `<h3>${esc(t("top_ten.choose_title"))}</h3>${sides}
        <button class="primary big sticky-primary" data-testid="choose" ${choice.index == null ? "disabled" : ""}>${esc(t("top_ten.choose_confirm"))}</button>`;
    }
    if (d.phase === "over") {
      return `${ratingHtml(g, "tt-phone-result")}${historyHtml(s, g)}${s.host ? "" : `<p class="note">${esc(t("top_ten.next_by_host"))}</p>`}`;
    }
    const tiles = tilesHtml(s, g, d, answerers.length);
    if (d.phase === "answer") {
      const done = answerers.filter((p) => p.answered).length;
      const list = `<ul class="tt-list">${answerers.map((p) => `<li class="${p.answered ? "answered" : ""}">${PH.markOf(s, p.seat)}
        <span class="who">${p.seat === g.captain ? CROWN : ""}${esc(nameOf(s, p.seat))}</span><span class="ans">${answerText(p, g)}</span></li>`).join("")}</ul>`;
      const close = isCap && (!mine || !mine.answerer || mine.answered)
        ? `<button data-testid="close-answers">${esc(t("top_ten.close_answers"))}</button>` : "";
      return `<p class="small" data-testid="tt-answers-in">${esc(t("top_ten.answers_in", { done, total: answerers.length }))}</p>${list}${close ? `<div class="row">${close}</div>` : ""}`;
    }
    if (d.phase === "order") {
      if (!isCap) return `<p class="waiting" data-testid="tt-wait">${esc(g.pending ? t("top_ten.pointing", { name: nameOf(s, g.pending) }) : t("top_ten.ordering", { name: capName }))}</p>${tiles}`;
      const done = new Set(g.reveals.map((r) => r.seat));
      const left = answerers.filter((p) => !done.has(p.seat));
      const pending = g.pending;
      return `<h3>${esc(t("top_ten.order_title"))}</h3>${tiles}
        ${pending ? `<div class="tt-pending" data-testid="pending">
            <button class="primary huge" data-testid="confirm" data-seat="${esc(pending)}">${esc(t("top_ten.confirm", { name: nameOf(s, pending) }))}</button>
            <button data-testid="undo">↩ ${esc(t("top_ten.undo"))}</button></div>`
          : `<p class="small">${esc(t("top_ten.pick_hint"))}</p>`}
        <ul class="tt-pickers">${left.map((p) => `<li><button type="button" class="tt-pick ${pending === p.seat ? "on" : ""}" data-pick="${esc(p.seat)}"
            data-testid="pick-${esc(p.seat)}" style="--c:${colour(s, p.seat)}" ${pending ? "disabled" : ""}>
            <b>${esc(nameOf(s, p.seat))}${p.seat === me ? ` <small>${esc(t("list.paren", { text: t("common.you") }))}</small>` : ""}</b><span>${answerText(p, g)}</span></button></li>`).join("")}</ul>`;
    }
    /* round over */
    const next = g.next_captain === me
      ? `<button class="primary big" data-testid="next-round">${esc(t("top_ten.next_round"))}</button>`
      : `<p class="waiting" data-testid="tt-wait">${esc(t("top_ten.next_wait", { name: nameOf(s, g.next_captain) }))}</p>`;
    return `<p class="event">${esc(t("top_ten.round_over", { round: g.round }))}</p>${tiles}${next}`;
  }

  function phone(root, s) {
    const g = s.game;
    const d = track(s, g, "phone");
    const me = s.me && s.me.playing ? s.me.seat : null;
    const mine = me ? g.players.find((p) => p.seat === me) : null;
    const sc = PH.mount(root, "top_ten-phone", `<div class="tt phone"><div class="tt-top" data-part="top"></div><div class="tt-peek-slot" data-part="peek"></div>
        <div class="tt-form-slot" data-part="form"></div><div class="tt-main" data-part="main"></div></div>`);
    const isCap = g.captain === me;
    sc.el.dataset.lang = PH.lang;
    sc.el.classList.toggle("ordering", isCap && d.phase === "order");
    sc.el.classList.toggle("compact", d.phase === "order" || d.phase === "round_over");
    sc.draw("top", `<div class="tt-status"><span data-testid="tt-round">${esc(t("top_ten.round_of", { round: g.round, rounds: g.rounds }))}</span>
        ${tokensHtml(d.unicorns, d.poops, d.flip)}</div>
      ${d.phase === "over" ? "" : `<p class="tt-cap ${isCap ? "me" : ""}" data-testid="tt-captain">${CROWN}${esc(isCap ? t("top_ten.you_captain") : t("top_ten.captain_is", { name: nameOf(s, g.captain) }))}</p>`}
      ${d.phase !== "choose" && d.phase !== "over" ? themeHtml(g.theme, false) : ""}`);

    /* own number: hidden until tapped, hides again */
    const pkey = `${s.party.serial}:${g.round}:${g.number}`;
    if (peek.key !== pkey) { peek.key = pkey; peek.open = false; clearTimeout(peek.timer); }
    const showPeek = me && d.phase !== "choose" && d.phase !== "over";
    sc.draw("peek", showPeek ? (g.number != null ? peekHtml(g)
      : mine && !mine.answerer && isCap ? `<p class="note" data-testid="no-number">${esc(t("top_ten.no_number"))}</p>` : "") : "", (el) => {
      const pk = el.querySelector("[data-testid=peek]");
      if (pk) pk.onclick = () => {
        peek.open = !peek.open;
        clearTimeout(peek.timer);
        if (peek.open) peek.timer = setTimeout(() => { peek.open = false; PH.refresh(); }, PEEK_MS);
        PH.refresh();
      };
    });

    /* the answer form: a new answer while answering, or writing down one said out loud */
    let mode = null;
    if (mine && mine.answerer && !mine.answered && g.phase === "answer") mode = "new";
    else if (mine && mine.answerer && mine.answered && mine.answer === "" && ["answer", "order", "round_over"].includes(g.phase)) mode = "write";
    if (mode) answerForm(sc.part("form"), s, g, me, mode);
    else {
      sc.draw("form", mine && mine.answered && mine.answer && d.phase !== "over"
        ? `<p class="tt-mine" data-testid="my-answer">${esc(t("list.label", { label: t("top_ten.you_answered") }))}<q>${esc(mine.answer)}</q></p>` : "");
    }

    /* a host phone (the host may play across the room from the TV) has the TV's moves for a
       captain whose phone is away: draw the next card, or hand the round to the next seat */
    const away = new Set(s.party.roster.filter((r) => !r.connected).map((r) => r.seat));
    let hostMove = "";
    if (s.host && d.phase === "round_over" && g.next_captain !== me && away.has(g.next_captain)) {
      hostMove = `<button class="small" data-tt-host="next_round" data-testid="tt-host-next">${esc(t("top_ten.host_next"))}</button>`;
    } else if (s.host && ["choose", "answer", "order"].includes(g.phase) && g.captain !== me && away.has(g.captain)) {
      hostMove = `<p class="small">${esc(t("top_ten.captain_away", { name: nameOf(s, g.captain) }))}</p>
        <button class="small" data-tt-host="pass_captain" data-testid="tt-pass-captain">${esc(t("top_ten.pass_captain", { name: nameOf(s, g.next_captain) }))}</button>`;
    }
    const main = me ? phoneMain(s, g, d, me, mine)
      : `${d.phase === "over" ? ratingHtml(g, "tt-phone-result") : tilesHtml(s, g, d, g.players.filter((p) => p.answerer).length)}`;
    sc.draw("main", main + (hostMove ? `<div class="tt-host-move" data-testid="tt-host-move">${hostMove}</div>` : ""), (el) => {
      /* the round is read when a button is tapped, not when it was drawn; every send is guarded */
      const round = () => PH.last.game.round;
      el.querySelectorAll("[data-choice]").forEach((b) => {
        b.onclick = () => {
          choice.index = Number(b.dataset.choice); PH.refresh();
          /* the chosen theme and the button that takes it come on screen together */
          PH.keepInView(document.querySelector(`[data-choice="${choice.index}"]`), document.querySelector(".tt [data-testid=choose]"));
        };
      });
      PH.guard(el.querySelector("[data-testid=choose]"), () => (choice.index != null ? PH.act({ type: "choose", round: round(), theme: choice.index }) : null), { key: "top_ten-choose" });
      PH.guard(el.querySelector("[data-testid=close-answers]"), () => PH.act({ type: "close_answers", round: round() }), { key: "top_ten-close" });
      PH.guard(el.querySelectorAll("[data-pick]"), (b) => PH.act({ type: "pick", round: round(), seat: b.dataset.pick }), { key: "top_ten-pick" });
      const confirmBtn = el.querySelector("[data-testid=confirm]");
      PH.guard(confirmBtn, () => PH.act({ type: "confirm", round: round(), seat: confirmBtn.dataset.seat }), { key: "top_ten-confirm" });
      PH.guard(el.querySelector("[data-testid=undo]"), () => PH.act({ type: "undo", round: round() }), { key: "top_ten-undo" });
      PH.guard(el.querySelector("[data-testid=next-round]"), () => PH.act({ type: "next_round", round: round() }), { key: "top_ten-next" });
      const hb = el.querySelector("[data-tt-host]");
      PH.guard(hb, () => PH.hostAct(hb.dataset.ttHost, { round: round() }), { key: "top_ten-host-move" });
    });
  }


  // --- lobby options ---------------------------------------------------------------------------

  function lobby(root, s) {
    const o = Object.assign({ first_captain: "random", rounds: "five", themes: "auto" }, s.party.options || {});
    /* "auto": the language most seated phones use (the server's Party.table_lang), named here */
    const autoLabel = t("deck.auto", { lang: t("top_ten.opt.lang." + (s.party.table_lang || "ja")) });
    const themesLabel = o.themes === "auto" ? autoLabel : t("top_ten.opt.lang." + o.themes);
    const roster = s.party.roster;
    const capName = o.first_captain === "random" ? t("top_ten.opt.random") : PH.nameOf(s, o.first_captain);
    if (!s.host) {
      PH.patch(root, `<p class="tt-opts-line small" data-testid="tt-options">${esc(t("list.label", { label: t("top_ten.opt.first_captain") }))}${esc(capName)} ·
        ${esc(t("top_ten.opt.rounds." + o.rounds))} · ${esc(t("list.label", { label: t("top_ten.opt.themes") }))}${esc(themesLabel)}</p>`);
      return;
    }
    /* the controls are built once (again when the page's language changes); their values follow
       the options below, except the select being used */
    /* each option with its one-line explanation under it (the TV and the host's phone) */
    const help = (name, label) => PH.optHelp("top_ten", name, null, label);
    PH.mount(root, "top_ten-options:" + PH.lang, `<div class="tt-opts" data-testid="tt-options" data-lang="${esc(PH.lang)}">
        <div class="opt"><label title="${esc(t("top_ten.opt.first_hint"))}">${esc(t("top_ten.opt.first_captain"))} <select data-opt="first_captain" data-testid="opt-first-captain"></select></label>${help("first_captain", "top_ten.opt.first_captain")}</div>
        <div class="opt"><label>${esc(t("top_ten.opt.rounds"))} <select data-opt="rounds" data-testid="opt-rounds">
          <option value="five">${esc(t("top_ten.opt.rounds.five"))}</option><option value="players">${esc(t("top_ten.opt.rounds.players"))}</option></select></label>${help("rounds", "top_ten.opt.rounds")}</div>
        <div class="opt"><label>${esc(t("top_ten.opt.themes"))} <select data-opt="themes" data-testid="opt-themes">
          <option value="auto" data-testid="opt-themes-auto"></option><option value="ja">${esc(t("top_ten.opt.lang.ja"))}</option><option value="en">${esc(t("top_ten.opt.lang.en"))}</option></select></label>${help("themes", "top_ten.opt.themes")}</div>
      </div>`, () => {
      root.querySelectorAll("select[data-opt]").forEach((sel) => {
        sel.onchange = () => {
          const next = {};
          root.querySelectorAll("select[data-opt]").forEach((x) => { next[x.dataset.opt] = x.value; });
          PH.setOptions(next);
        };
      });
    });
    const cap = root.querySelector("[data-opt=first_captain]");
    const want = [["random", t("top_ten.opt.random")], ...roster.map((r) => [r.seat, r.name])];
    if (o.first_captain !== "random" && !roster.some((r) => r.seat === o.first_captain)) want.push([o.first_captain, capName]);
    const sig = JSON.stringify(want);
    if (cap.dataset.sig !== sig && document.activeElement !== cap) {
      cap.dataset.sig = sig;
      cap.innerHTML = want.map(([v, label]) => `<option value="${esc(v)}">${esc(label)}</option>`).join("");
    }
    const auto = root.querySelector("[data-testid=opt-themes-auto]");
    if (auto.textContent !== autoLabel) auto.textContent = autoLabel;
    root.querySelectorAll("select[data-opt]").forEach((sel) => {
      if (document.activeElement !== sel && sel.value !== o[sel.dataset.opt]) sel.value = o[sel.dataset.opt];
    });
  }

  PH.games.top_ten = { phone, tv, lobby, tokensHtml };
})();
