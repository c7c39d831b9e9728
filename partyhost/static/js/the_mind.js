/* The Mind: phone and TV renderers of the views that partyhost/games/the_mind.py computes.
 * Rules live on the server; this file only draws and sends taps. */
"use strict";

(() => {
  const { t, esc } = PH;
  /* After a play the button shows the next card; a second tap of the same double-tap must not
     play it. The button stays locked this long after each play (ms). (While a play is on its
     way, the kit's guard holds the button of that card, redrawn or not.) */
  const PLAY_LOCK_MS = 700;
  /* kept in localStorage (wall clock), so a second tab on the same phone honours it too */
  const lockLeft = () => Number(PH.store.get("playLockUntil") || 0) - Date.now();

  function hearts(n, sym, empty, cls) {
    const icons = n > 0 ? Array.from({ length: n }, () => sym).join("") : `<i class="none">${empty}</i>`;
    return `<span class="${cls}" data-testid="${cls}" role="img" aria-label="${esc(t("the_mind." + cls))} ${n}">${icons}<b>${n}</b></span>`;
  }

  function status(g) {
    return `<div class="mind-status">
      <span class="lvl" data-testid="level">${esc(t("the_mind.level_of", { level: g.level, levels: g.levels }))}</span>
      ${hearts(g.lives, "♥", "♡", "lives")}${hearts(g.shuriken, "✦", "✧", "shuriken")}
    </div>`;
  }

  function eventText(g, s) {
    const e = g.last_event;
    if (!e) return "";
    const name = (seat) => PH.nameOf(s, seat);
    const cards = (list) => PH.list((list || []).map((d) => t("the_mind.card_of", { card: d.card, name: name(d.seat) })));
    switch (e.kind) {
      case "start": return t("the_mind.event.start");
      case "mistake":
        return t("the_mind.event.mistake", { card: e.card }) + (e.discarded && e.discarded.length ? " — " + t("the_mind.event.mistake_detail", { cards: cards(e.discarded) }) : "");
      case "stop": return e.by ? t("the_mind.event.stop", { name: name(e.by) }) : t("the_mind.event.stop_restart");
      case "shuriken": return t("the_mind.event.shuriken") + (e.discarded && e.discarded.length ? " — " + cards(e.discarded) : "");
      case "shuriken_proposed": return t("the_mind.proposal", { name: name(e.by) });
      case "shuriken_declined": return t("the_mind.event.shuriken_declined");
      case "shuriken_lapsed": return t("the_mind.event.shuriken_lapsed");
      case "left": return t("the_mind.event.left", { name: name(e.seat) });
      case "waiting": return t("the_mind.event.waiting", { people: PH.people(s, e.seats) });
      case "back": return t("the_mind.event.back", { name: name(e.seat) });
      case "continued_without": return t("the_mind.event.continued_without", { name: name(e.seat) });
      case "level_complete": {
        /* a mistake, shuriken or departure that emptied the last hands is told first */
        const cause = e.cause && e.cause.kind !== "play" ? eventText({ last_event: e.cause }, s) + " → " : "";
        let r = cause + t("the_mind.event.level_complete", { level: e.level });
        if (e.reward) r += " " + t(e.reward === "life" ? "the_mind.event.reward_life" : "the_mind.event.reward_shuriken") + (e.capped ? " " + t("the_mind.event.reward_capped") : "");
        return r;
      }
      case "won": return t("the_mind.won");
      case "lost": return (e.cause ? eventText({ last_event: e.cause }, s) + " → " : "") + t("the_mind.lost");
      default: return "";
    }
  }

  function proposalBox(g, s, phone) {
    const p = g.proposal;
    if (!p) return "";
    const agreed = PH.list(p.agreed.map((x) => PH.nameOf(s, x)));
    const mine = phone && s.me && s.me.playing;
    const done = mine && p.agreed.includes(s.me.seat);
    return `<div class="proposal" data-testid="proposal">
      <p>${esc(t("the_mind.proposal", { name: PH.nameOf(s, p.by) }))}</p>
      <p class="small">${esc(t("the_mind.agreed", { names: agreed }))} · ${PH.countdown(p.deadline, { testid: "vote-countdown" })}</p>
      ${mine && !done ? `<div class="row"><button class="primary" data-vote="1" data-testid="agree">${esc(t("the_mind.agree"))}</button>
        <button data-vote="0" data-testid="decline">${esc(t("the_mind.decline"))}</button></div>` : ""}
    </div>`;
  }

  /* The level chart: every card of the level in the order and at the time it was played
     (x = seconds of play, y = card value); discards drawn hollow. */
  /* The chart's drawing follows the shape of the room it gets on the TV (measured after each
     draw), so its numbers stay as large as that room allows. */
  let chartAspect = 2.6;

  function chartSvg(chart, s) {
    const cards = chart.cards || [];
    const H = 380, W = Math.round(H * chartAspect), L = 60, R = 30, T = 56, B = 44;
    const maxT = Math.max(1, ...cards.map((c) => c.t || 0)) * 1.05;
    const x = (tt) => L + (W - L - R) * (tt / maxT);
    const y = (v) => T + (H - T - B) * (1 - (v - 1) / 99);
    const plays = cards.filter((c) => c.kind === "play");
    const path = plays.map((c, i) => `${i ? "L" : "M"}${x(c.t).toFixed(1)},${y(c.card).toFixed(1)}`).join(" ");
    const ticks = [];
    const step = maxT > 60 ? 10 : maxT > 20 ? 5 : maxT > 8 ? 2 : 1;
    for (let v = 0; v <= maxT; v += step) ticks.push(`<line x1="${x(v)}" y1="${H - B}" x2="${x(v)}" y2="${H - B + 5}" stroke="#778"/><text x="${x(v)}" y="${H - 12}" class="ax">${v}${esc(t("the_mind.chart_time"))}</text>`);
    /* Each card's number goes in the first free place around its dot: above, below, right, left,
       the corners, then the same a step further out (with a thin line back to the dot). A place
       is free when the number's box (its font's full height) touches no dot, no number placed
       before and no axis label, and stays inside the chart; cards played a moment apart (72 and
       74) stay readable. With no free place, the one that overlaps least. */
    const ASC = 31, DESC = 8, DOT = 16; /* the numbers' font box (26px type) and a dot's half-size, drawing units */
    const boxes = cards.map((c) => { const cx = x(c.t), cy = y(c.card); return { l: cx - DOT, r: cx + DOT, t: cy - DOT, b: cy + DOT }; });
    const used = [];
    for (let v = 0; v <= maxT; v += step) {
      const w = String(v).length * 13 + 26;
      used.push({ l: x(v) - w / 2, r: x(v) + w / 2, t: H - 12 - 24, b: H - 12 + 6 });
    }
    used.push({ l: 0, r: L - 4, t: y(100) - 22, b: y(100) + 10 }, { l: 0, r: L - 4, t: y(1) - 22, b: y(1) + 10 });
    const clash = (a, z) => Math.max(0, Math.min(a.r, z.r) - Math.max(a.l, z.l)) * Math.max(0, Math.min(a.b, z.b) - Math.max(a.t, z.t));
    const labelAt = (c) => {
      const cx = x(c.t), cy = y(c.card), w = String(c.card).length * 16 + 4, h = ASC + DESC, gap = 3;
      const tries = [];
      for (const far of [0, 18, 36, 54]) {
        const d = DOT + gap + far;
        const dirs = [[0, -1], [0, 1], [1, 0], [-1, 0], [1, -1], [-1, -1], [1, 1], [-1, 1]];
        for (const [dx, dy] of dirs) {
          const mx = cx + dx * (d + w / 2), my = cy + dy * (d + h / 2);
          tries.push({ box: { l: mx - w / 2, r: mx + w / 2, t: my - h / 2, b: my + h / 2 }, lx: mx, ly: my - h / 2 + ASC, far });
        }
      }
      const cost = (tr) => tr.box.l < 0 || tr.box.r > W || tr.box.t < 0 || tr.box.b > H ? Infinity
        : boxes.reduce((n, z) => n + clash(tr.box, z), 0) + used.reduce((n, z) => n + clash(tr.box, z), 0);
      const best = tries.find((tr) => cost(tr) === 0) || tries.reduce((a, b2) => (cost(b2) < cost(a) ? b2 : a));
      used.push(best.box);
      return best;
    };
    const dots = cards.map((c) => {
      const col = PH.colorOf(s, c.seat);
      const hollow = c.kind !== "play";
      /* every card at its own time: discards share the time of the play or shuriken that
         caused them, and their different values keep them apart vertically */
      const cx = x(c.t), cy = y(c.card);
      const at = labelAt(c);
      const title = hollow ? t("the_mind.chart_" + (c.reason || "mistake")) : PH.nameOf(s, c.seat);
      const lead = at.far ? `<line x1="${cx.toFixed(1)}" y1="${cy.toFixed(1)}" x2="${at.lx.toFixed(1)}" y2="${(at.ly - ASC / 2).toFixed(1)}" stroke="${col}" stroke-width="1.5" opacity=".6" class="lead"/>` : "";
      return `<g class="pt"><title>${esc(title)}</title>${lead}<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="13" fill="${hollow ? "none" : col}" stroke="${col}" stroke-width="4" ${hollow ? 'stroke-dasharray="5 4"' : ""}/>
        <text x="${cx.toFixed(1)}" y="${(cy + 6).toFixed(1)}" class="mk" fill="${hollow ? col : "#14161f"}">${PH.shapeOf(c.seat)}</text>
        <text x="${at.lx.toFixed(1)}" y="${at.ly.toFixed(1)}" class="lbl" fill="${col}">${c.card}</text></g>`;
    }).join("");
    return `<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" data-testid="chart">
      <line x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}" stroke="#778"/>
      <line x1="${L}" y1="${T}" x2="${L}" y2="${H - B}" stroke="#778"/>
      <text x="${L - 8}" y="${y(100) + 5}" class="ax" text-anchor="end">100</text>
      <text x="${L - 8}" y="${y(1) + 5}" class="ax" text-anchor="end">1</text>
      ${ticks.join("")}<path d="${path}" fill="none" stroke="#ccd" stroke-width="2" opacity=".5"/>${dots}</svg>`;
  }

  function chartStrip(chart, s) {
    let prev = 0;
    return `<ol class="strip">${(chart.cards || []).map((c) => {
      const gap = (c.t - prev); prev = c.t;
      return `<li class="${c.kind}" style="border-color:${PH.colorOf(s, c.seat)}"><b data-mark="${PH.shapeOf(c.seat)}">${c.card}</b><span>${esc(PH.nameOf(s, c.seat))}</span><i>+${gap.toFixed(1)}${esc(t("the_mind.chart_time"))}</i></li>`;
    }).join("")}</ol>`;
  }

  function chartPanel(g, s) {
    if (!g.chart) return "";
    const legend = `<p class="legend">${g.players.map((p) => `<span>${PH.markOf(s, p.seat)}${esc(PH.nameOf(s, p.seat))}</span>`).join("")}</p>`;
    return `<section class="chart-panel" data-testid="chart-panel"><h2>${esc(t("the_mind.chart", { level: g.chart.level }))}</h2>${legend}
      ${chartSvg(g.chart, s)}</section>`;
  }

  /* Play is stopped for a phone that dropped (g.waiting): whom the table waits for, and for the
     host a button per seat to go on without them (their cards set aside, no life lost). */
  function awayBox(g, s) {
    const waiting = g.waiting || [];
    if (!waiting.length || g.phase === "won" || g.phase === "lost") return "";
    return `<div class="away-wait" data-testid="away-wait" role="status">
      <p>${esc(t("the_mind.waiting_tv", { people: PH.people(s, waiting) }))}</p><p class="small">${esc(t("the_mind.waiting_hint"))}</p>
      ${s.host ? `<div class="row">${waiting.map((x) => `<button data-without="${esc(x)}" data-testid="continue-without">${esc(t("the_mind.continue_without", { name: PH.nameOf(s, x) }))}</button>`).join("")}</div>` : ""}
    </div>`;
  }
  function wireAway(el, g) {
    PH.guard(el.querySelectorAll("[data-without]"), (b) => PH.host("game", { action: { type: "continue_without", level: g.level, seat: b.dataset.without } }),
      { key: "the_mind-without:" + g.level });
  }

  function waitingFor(g, s) {
    const names = g.players.filter((p) => !p.ready).map((p) => PH.nameOf(s, p.seat));
    return names.length ? t("the_mind.waiting_for", { names: PH.list(names) }) : "";
  }

  /* Vibrate when something happens to this phone's holder. */
  function feel(g, s) {
    PH.react("the_mind.phone", s, g.last_event, (e) => {
      const me = s.me && s.me.seat;
      if (e.kind === "mistake") PH.buzz((e.discarded || []).some((d) => d.seat === me) ? [300, 100, 300] : [200]);
      else if (e.kind === "start") PH.buzz(60);
      else if (e.kind === "shuriken_proposed") PH.buzz([80, 60, 80]);
      else if (e.kind === "level_complete" || e.kind === "won") PH.buzz([50, 50, 50, 50, 150]);
      else if (e.kind === "lost") PH.buzz([400]);
    });
  }

  function phone(root, s) {
    const g = s.game;
    const hand = g.hand || [];
    const me = g.players.find((p) => p.seat === (s.me && s.me.seat));
    const playing = !!(s.me && s.me.playing && me);
    feel(g, s);
    const ev = g.phase === "won" || g.phase === "lost" || (g.proposal && g.last_event && g.last_event.kind === "shuriken_proposed")
      || (g.waiting || []).length ? "" : eventText(g, s); /* the waiting box says it (awayBox) */
    let body = "";
    if (g.phase === "won" || g.phase === "lost") {
      /* the shared headline above (PH.reveal) says みんなの勝ち/負け: this line says how */
      const said = PH.reveal && PH.reveal.said(s);
      body = `<div class="result ${g.phase}${said ? " detail" : ""}" data-testid="result">${esc(t(g.phase === "won" ? (said ? "the_mind.won_how" : "the_mind.won") : "the_mind.lost"))}</div>
        ${g.phase === "lost" && g.last_event && g.last_event.cause ? `<p class="event mistake">${esc(eventText({ last_event: g.last_event.cause }, s))}</p>` : ""}
        ${s.host ? "" : `<p class="note">${esc(t("the_mind.next_by_host"))}</p>`}`;
    } else if (playing) {
      const lowest = hand.length ? hand[0] : null;
      const handHtml = `<div class="hand" data-testid="hand">${hand.map((c) => `<span class="chip">${c}</span>`).join("")}</div>`;
      if (g.phase === "ready") {
        body = `${lowest != null ? `<div class="bigcard dim" data-testid="lowest">${lowest}</div>` : `<p class="note">${esc(t("the_mind.no_cards"))}</p>`}
          ${handHtml}
          <button class="primary huge ${me.ready ? "done" : ""}" data-testid="ready" data-ready="${me.ready ? 0 : 1}">${esc(t(me.ready ? "the_mind.ready_done" : "the_mind.ready"))}</button>
          <p class="note">${esc(t("the_mind.ready_hint"))}<br>${esc(waitingFor(g, s))}</p>
          <p class="mind-rule" data-testid="no-talking">${esc(t("the_mind.rule.silence"))}</p>`;
      } else {
        const wait = lockLeft();
        if (wait > 0) setTimeout(PH.refresh, wait + 20);
        const blocked = g.proposal || wait > 0 || !PH.connected;
        body = lowest != null
          ? `<p class="small">${esc(t("the_mind.your_lowest"))}</p>
             <button class="bigcard play ${wait > 0 ? "cooling" : ""}" data-testid="play" data-card="${lowest}" ${blocked ? "disabled" : ""}>${lowest}<small>${esc(t("the_mind.play"))}</small></button>
             ${handHtml}`
          : `<p class="note" data-testid="empty-hand">${esc(t("the_mind.no_cards"))}</p>`;
        body += `<div class="row"><button data-testid="stop" data-stop="1">${esc(t("the_mind.stop"))}</button></div>`;
      }
      if (!g.proposal && g.shuriken > 0) body += `<div class="row"><button data-testid="propose" data-propose="1">✦ ${esc(t("the_mind.propose"))}</button></div>
        <p class="small mind-rule-note" data-testid="shuriken-rule">${esc(t("the_mind.rule.shuriken"))}</p>`;
    } else {
      /* a spectator: the table as the TV shows it, small */
      body = `<p class="small">${esc(t("the_mind.pile"))}</p>
        <div class="bigcard dim">${g.pile.length ? g.pile[g.pile.length - 1].card : "–"}</div>
        <ul class="roster">${g.players.map((p) => `<li>${PH.markOf(s, p.seat)}
          <span class="who">${esc(PH.nameOf(s, p.seat))}</span><span>${esc(t("the_mind.cards_left", { count: p.cards }))}</span></li>`).join("")}</ul>`;
    }
    PH.patch(root, `<div class="mind phone">${status(g)}
      ${ev ? `<p class="event ${g.last_event.kind}" data-testid="event">${esc(ev)}</p>` : ""}
      ${proposalBox(g, s, true)}${awayBox(g, s)}${body}
      ${(g.phase === "won" || g.phase === "lost") && g.chart ? chartStrip(g.chart, s) : ""}</div>`, (el) => {
      /* every send is guarded (a double tap sends once); a play also by its card, so the button
         of a card on its way stays off even when another player's card redraws the screen */
      const play = el.querySelector("[data-testid=play]");
      if (play) PH.guard(play, () => {
        if (lockLeft() > 0) return null;
        PH.store.set("playLockUntil", String(Date.now() + PLAY_LOCK_MS));
        return PH.act({ type: "play", level: g.level, card: Number(play.dataset.card) });
      }, { key: "the_mind-play:" + play.dataset.card });
      const ready = el.querySelector("[data-ready]");
      PH.guard(ready, () => PH.act({ type: "ready", level: g.level, ready: ready.dataset.ready === "1" }), { key: "the_mind-ready" });
      PH.guard(el.querySelector("[data-stop]"), () => PH.act({ type: "stop", level: g.level }), { key: "the_mind-stop" });
      PH.guard(el.querySelector("[data-propose]"), () => PH.act({ type: "propose_shuriken", level: g.level }), { key: "the_mind-propose" });
      PH.guard(el.querySelectorAll("[data-vote]"), (b) => PH.act({ type: "vote_shuriken", proposal: g.proposal.id, agree: b.dataset.vote === "1" }),
        { key: "the_mind-vote:" + (g.proposal && g.proposal.id) });
      wireAway(el, g);
    });
  }

  function sound(g, s) {
    PH.react("the_mind.tv", s, g.last_event, (e) => {
      if (e.kind === "play") PH.beep(520 + (g.pile.length ? g.pile[g.pile.length - 1].card * 4 : 0), 120);
      else if (e.kind === "mistake") PH.sound.cue("miss");
      else if (e.kind === "lost") PH.sound.cue("loss");
      else if (e.kind === "level_complete") PH.sound.cue("level");
      else if (e.kind === "won") PH.sound.cue("win"); /* the game's own fanfare, not the level chime */
      else if (e.kind === "start") PH.beep(880, 90);
    });
  }

  /* The win: "全レベル突破!" over a row of every level, all lit, the last one crowned. */
  function winHtml(g) {
    const levels = Array.from({ length: g.level }, (_, i) => `<li class="${i + 1 === g.level ? "last" : ""}">${i + 1}</li>`).join("");
    return `<div class="result won stage-win" data-testid="tv-result" data-stage="win">
      <span class="win-title" data-testid="tv-win">${esc(t("the_mind.won"))}</span>
      <ol class="win-levels" aria-label="${esc(t("the_mind.level_of", { level: g.level, levels: g.levels }))}">${levels}</ol></div>`;
  }

  function tv(root, s, redraw) {
    const g = s.game;
    if (!redraw) sound(g, s);
    const top = g.pile.length ? g.pile[g.pile.length - 1] : null;
    const showChart = g.chart && ((g.phase === "ready" && !g.pile.length && !g.discards.length) || g.phase === "won" || g.phase === "lost");
    const ev = eventText(g, s);
    const away = new Set(s.party.roster.filter((r) => !r.connected).map((r) => r.seat));
    const revealed = new Map((g.revealed || []).map((r) => [r.seat, r.cards]));
    const players = g.players.map((p) => `
      <li class="${p.ready && g.phase === "ready" ? "ready" : ""} ${away.has(p.seat) ? "away" : ""}" data-seat="${esc(p.seat)}">
        ${PH.markOf(s, p.seat)}<span class="who" style="color:${PH.colorOf(s, p.seat)}">${esc(PH.nameOf(s, p.seat))}</span>
        ${away.has(p.seat) ? `<span class="tag away">${esc(t("the_mind.away"))}</span>` : ""}
        ${revealed.has(p.seat)
          ? `<span class="hand" title="${esc(t("the_mind.revealed"))}">${revealed.get(p.seat).map((c) => `<span class="chip">${c}</span>`).join("") || "–"}</span>`
          : `<span class="backs" data-testid="count-${esc(p.seat)}">${Array.from({ length: Math.min(p.cards, 12) }, () => "<i></i>").join("")}<b>${p.cards}</b></span>`}
        ${g.phase === "ready" ? `<span class="rd">${p.ready ? "✔" : "…"}</span>` : ""}
      </li>`).join("");
    const center = showChart ? chartPanel(g, s) : `
      <div class="pile">
        <div class="topcard ${top ? "" : "empty"}" data-testid="pile-top" style="${top ? `border-color:${PH.colorOf(s, top.seat)}` : ""}"><span>${top ? top.card : ""}</span></div>
        <p class="by">${top ? esc(PH.nameOf(s, top.seat)) : esc(t("the_mind.pile_empty"))}</p>
        <ol class="pilerow">${g.pile.map((c) => `<li style="border-color:${PH.colorOf(s, c.seat)}" data-mark="${PH.shapeOf(c.seat)}" title="${esc(PH.nameOf(s, c.seat))}">${c.card}</li>`).join("")}</ol>
      </div>`;
    const over = g.phase === "won" || g.phase === "lost";
    const why = g.phase === "lost" && g.last_event && g.last_event.cause ? eventText({ last_event: g.last_event.cause }, s) : "";
    /* a game won has its own staging (every level lit, a fanfare); a level cleared is a banner */
    const banner = g.phase === "won" ? winHtml(g)
      : over
      ? `<div class="result ${g.phase}" data-testid="tv-result">${esc(t("the_mind.lost"))}${why ? `<small>${esc(why)}</small>` : ""}</div>`
      : g.last_event && g.last_event.kind === "level_complete" && g.phase === "ready" && !(g.waiting || []).length && !g.proposal
      ? `<p class="event big level_complete stage-level" data-testid="tv-level-clear">${esc(ev)}</p>`
      : (g.waiting || []).length ? awayBox(g, s)
      : g.proposal ? proposalBox(g, s, false)
      : ev ? `<p class="event big ${g.last_event.kind}" data-testid="tv-event">${esc(ev)}</p>` : "<div></div>";
    const footer = `${g.phase === "ready" ? `<p class="note">${esc(t("the_mind.ready_hint"))} <b class="tv-silence" data-testid="tv-no-talking">${esc(t("the_mind.rule.silence"))}</b></p>` : ""}
      ${g.discards.length ? `<div class="discards" data-testid="discards"><span>${esc(t("list.label", { label: t("the_mind.discards") }))}</span>${g.discards.map((d) => `<span class="chip x" style="border-color:${PH.colorOf(s, d.seat)}; --mc:${PH.colorOf(s, d.seat)}" data-mark="${PH.shapeOf(d.seat)}" title="${esc(PH.nameOf(s, d.seat))}">${d.card}</span>`).join("")}</div>` : ""}`;
    /* exactly five rows: status, banner, centre (pile or chart), players, footer */
    PH.patch(root, `<div class="mind tv phase-${g.phase}">
      ${status(g)}
      ${banner}
      ${center}
      <ul class="players">${players}</ul>
      <div class="footer">${footer}</div>
    </div>`, (el) => {
      wireAway(el, g);
      const svg = el.querySelector(".chart");
      if (!svg || redraw) return;
      const box = svg.getBoundingClientRect();
      const aspect = Math.min(6, Math.max(1.4, box.width / Math.max(1, box.height)));
      if (Math.abs(aspect - chartAspect) / chartAspect > 0.08) { chartAspect = aspect; tv(root, s, true); }
    });
  }

  PH.games.the_mind = { phone, tv };
})();
