/* 今夜の記録 (tonight's record): the finished games of this party, each with its result and
 * highlights, and the party score across them. The server writes an entry when a game ends
 * (partyhost/party.py Party.settle) and sends the list and the score with every state
 * (party.record, party.scoreboard); this file only draws them.
 *
 * Hooks: tv.js calls PH.record.tv(el, s) for the lobby panel (it takes the how-to's place once a
 * game has been played); phone.js puts PH.record.phone(s) (the player's own line) in its lobby.
 */
"use strict";

(() => {
  const { t, esc } = PH;

  /* A seat as its name at the time of that game (a seat that left keeps its name there). */
  function nameIn(entry, seat) {
    const p = entry.players.find((x) => x.seat === seat);
    return p ? p.name : PH.nameOf(PH.last, seat);
  }

  /** A highlight's words: params ending in ``seat`` are names, ``{key}`` params are catalogue
   *  keys, the rest as they are. */
  function highlightText(entry, h) {
    const p = {};
    for (const [k, v] of Object.entries(h.params || {})) {
      p[k] = v && typeof v === "object" && v.key ? t(v.key) : /seat$/.test(k) ? nameIn(entry, v) : v;
    }
    return t(h.key, p);
  }

  /** The result in a few words: a cooperative game cleared or lost (with The Mind's level or
   *  Top Ten's rating), else the winners: the game's own word for them (``detail.label``, e.g.
   *  a team) or up to two names (a draw when everyone shares the first place). */
  function resultText(entry) {
    if (entry.ended) return t("record.ended." + entry.ended); /* ended early: no result, no points */
    const r = entry.result;
    if (!r) return "";
    if (r.coop) return t(r.won ? "record.won_coop" : "record.lost_coop");
    const first = (r.places && r.places[0]) || [];
    if (r.places && r.places.length === 1 && first.length > 1) return t("record.draw");
    const label = r.detail && r.detail.label;
    if (label && label.key) return t("record.winner", { names: t(label.key, label.params) });
    const names = first.slice(0, 2).map((seat) => nameIn(entry, seat));
    return t("record.winner", { names: first.length > 2 ? t("record.and_more", { names: PH.list(names), count: first.length - 2 }) : PH.list(names) });
  }

  function durationText(sec) {
    if (typeof sec !== "number") return "";
    return sec >= 60 ? t("record.minutes", { min: Math.round(sec / 60) }) : t("record.seconds", { sec: Math.round(sec) });
  }

  function entryHtml(entry, i) {
    const r = entry.result || {};
    const cls = entry.ended ? "early" : r.coop ? (r.won ? "good" : "bad") : "";
    return `<li class="rec-game${entry.ended ? " ended" : ""}" data-testid="record-game" data-game="${esc(entry.game)}" data-serial="${esc(entry.serial)}">
      <div class="rec-line"><span class="rec-n">${i}</span><strong class="rec-name">${esc(t(entry.game + ".name"))}</strong>
        <span class="rec-time">${esc(durationText(entry.duration))}</span>
        <span class="rec-result ${cls}" data-testid="record-result">${esc(resultText(entry))}</span></div>
      ${(entry.highlights || []).map((h) => `<p class="rec-hl" data-testid="record-highlight">★ ${esc(highlightText(entry, h))}</p>`).join("")}</li>`;
  }

  function scoreHtml(s) {
    const rows = s.party.scoreboard || [];
    if (!rows.length) return "";
    return `<div class="rec-score" data-testid="scoreboard"><h3>${esc(t("record.scoreboard"))}</h3>
      <ol class="rec-rows">${rows.map((r) => `<li data-seat="${esc(r.seat)}">${PH.markOf(s, r.seat)}
        <span class="who">${esc(r.name)}</span><strong>${esc(t("record.points", { points: r.points }))}</strong></li>`).join("")}</ol></div>`;
  }

  /** Draw the record into the TV lobby's ``el``: the newest game first, and as many games as fit
   *  (the rest counted in one line), beside the party score. ``extra`` is HTML for the header
   *  (tv.js's button back to the how-to). Never scrolls: older games give way first. */
  function tv(el, s, extra) {
    const list = s.party.record || [];
    const newest = list.map((e, i) => [e, i + 1]).reverse();
    const draw = (n) => {
      const hidden = newest.length - n;
      return `<div class="record tv" data-testid="record">
        <header class="rec-head"><h2>${esc(t("record.title"))}</h2><span class="rec-count">${esc(t("record.games", { count: list.length }))}</span>${extra || ""}</header>
        <div class="rec-body"><ol class="rec-games">${newest.slice(0, n).map(([e, i]) => entryHtml(e, i)).join("")}
          ${hidden > 0 ? `<li class="rec-more">${esc(t("record.more", { count: hidden }))}</li>` : ""}</ol>${scoreHtml(s)}</div>
        ${(s.party.scoreboard || []).length ? `<p class="rec-rule" data-testid="score-rule">${esc(t("record.scoring"))}</p>` : ""}</div>`;
    };
    for (let n = newest.length; n >= 1; n--) {
      el.innerHTML = draw(n);
      if (!el.clientHeight) break; /* not laid out yet: drawn again once it has a size */
      const body = el.querySelector(".rec-body");
      if (body.scrollHeight <= body.clientHeight + 1 && el.scrollHeight <= el.clientHeight + 1) break;
    }
  }

  /** The phone's own line: this player's party score, and how their last game went. */
  function phone(s) {
    if (!s.me || !(s.party.record || []).length) return "";
    const mine = [...s.party.record].reverse().find((e) => e.players.some((p) => p.seat === s.me.seat));
    if (!mine) return "";
    /* only games ended early so far: no row on the score yet, 0 points in 0 games */
    const row = (s.party.scoreboard || []).find((r) => r.seat === s.me.seat) || { points: 0, games: 0 };
    let last = "";
    const r = mine.result;
    const game = t(mine.game + ".name");
    if (mine.ended) last = t("record.your_ended", { game });
    else if (r && r.coop) last = t(r.won ? "record.your_coop_won" : "record.your_coop_lost", { game });
    else if (r && r.places) {
      /* places count the seats ahead (10, 10, 8 → 1st, 1st, 3rd), as the TV's rankings do;
         in a team game (a labelled winner) a place is a team, so the losing team is 2nd */
      const at = r.places.findIndex((pl) => pl.includes(s.me.seat));
      const teams = !!(r.detail && r.detail.label);
      const place = at < 0 ? 0 : teams ? at + 1 : 1 + r.places.slice(0, at).reduce((n, pl) => n + pl.length, 0);
      if (place > 0) last = t("record.your_place", { game, place });
    }
    return `<div class="record-mine" data-testid="record-mine"><h2>${esc(t("record.title"))}</h2>
      <p class="mine-score"><strong>${esc(row.games ? t("record.you", { points: row.points, games: row.games }) : t("record.you_none"))}</strong></p>
      ${last ? `<p class="mine-last" data-testid="record-mine-last">${esc(last)}</p>` : ""}</div>`;
  }

  PH.record = { tv, phone, highlightText, resultText };
})();
