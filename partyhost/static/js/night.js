/* おひらき (the night summary) and the lobby's momentum (もう一度, the suggested next game).
 *
 * The server computes everything (partyhost/night.py): party.summary = {games, titles, podium}
 * while the host's おひらき is up, and party.momentum = {again, present, next} in the lobby.
 * This file draws them:
 *   PH.night.tv(app, s)       the TV's full-screen summary (fits the screen, never scrolls)
 *   PH.night.phone(app, s)    a phone's summary, with "save as image" (a canvas drawn here → PNG)
 *   PH.night.lobbyTv(s)       HTML for the TV lobby's momentum row (host buttons + suggestion)
 *   PH.night.lobbyPhone(s)    the same for a host phone's lobby
 *   PH.night.wire(root, s)    wires the buttons of either (もう一度 is a ``data-host`` button:
 *                             PH.wireHost sends it, once however often it is tapped)
 */
"use strict";

(() => {
  const { t, esc } = PH;

  /* A title's params as words: a ``*seat`` param is a name, a ``{key}`` param a catalogue key. */
  function params(s, p) {
    const out = {};
    for (const [k, v] of Object.entries(p || {})) {
      out[k] = v && typeof v === "object" && v.key ? t(v.key, v.params) : /seat$/.test(k) ? PH.nameOf(s, v) : v;
    }
    return out;
  }
  const titleOf = (s, x) => t(x.key, params(s, x.params));
  const whyOf = (s, x) => t(x.why, params(s, x.params));
  const rowOf = (s, seat) => (s.party.scoreboard || []).find((r) => r.seat === seat);
  /* a place counts the seats ahead (10, 10, 8 points → 1st, 1st, 3rd), as the TV's rankings do */
  const placeAt = (sum, i) => 1 + sum.podium.slice(0, i).reduce((n, pl) => n + pl.length, 0);
  const placeOf = (sum, seat) => {
    const i = sum.podium.findIndex((pl) => pl.includes(seat));
    return i < 0 ? 0 : placeAt(sum, i);
  };
  /* a place in words ("1位" / "#1"): no emoji, a TV may have no font for them */
  const placeText = (place) => t("night.place", { place });

  /* ---------- the TV ---------- */

  function podiumHtml(s, sum) {
    if (!sum.podium.length) return "";
    const blocks = [1, 0, 2].filter((i) => sum.podium[i]).map((i) => {
      const seats = sum.podium[i];
      const row = rowOf(s, seats[0]);
      return `<div class="step p${i + 1}" data-place="${i + 1}">
        <div class="who">${seats.map((seat) => `<span>${PH.markOf(s, seat)} ${esc(PH.nameOf(s, seat))}</span>`).join("")}</div>
        <div class="block"><b>${esc(placeText(placeAt(sum, i)))}</b> ${esc(t("record.points", { points: row ? row.points : 0 }))}</div></div>`;
    });
    return `<div class="podium" data-testid="podium">${blocks.join("")}</div>`;
  }

  function titlesHtml(s, sum) {
    return `<ol class="night-titles" data-testid="titles">${sum.titles.map((x) => {
      const row = rowOf(s, x.seat);
      return `<li data-seat="${esc(x.seat)}" data-kind="${esc(x.kind)}">
        <span class="nm">${PH.markOf(s, x.seat)} ${esc(PH.nameOf(s, x.seat))}</span>
        <span class="pts">${row ? esc(t("record.points", { points: row.points })) : ""}</span>
        <strong class="ttl">${esc(titleOf(s, x))}</strong>
        <span class="why">${esc(whyOf(s, x))}</span></li>`;
    }).join("")}</ol>`;
  }

  /* The games in the order played; ``hl(i)`` says how many highlights game i shows and
     ``from`` is the first game shown (the ones before it are counted in one line). */
  function gamesHtml(s, from, hl) {
    const list = s.party.record || [];
    return `<ol class="night-games-list">${from > 0 ? `<li class="rec-more">${esc(t("record.more", { count: from }))}</li>` : ""}
      ${list.slice(from).map((e, j) => {
        const i = from + j;
        const r = e.result || {};
        return `<li class="ng" data-testid="summary-game"><div class="rec-line"><span class="rec-n">${i + 1}</span>
          <strong class="rec-name">${esc(t(e.game + ".name"))}</strong>
          <span class="rec-result ${r.coop ? (r.won ? "good" : "bad") : ""}">${esc(PH.record.resultText(e))}</span></div>
          ${(e.highlights || []).slice(0, hl(i)).map((h) => `<p class="rec-hl">★ ${esc(PH.record.highlightText(e, h))}</p>`).join("")}</li>`;
      }).join("")}</ol>`;
  }

  const fits = (el) => el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1;

  function tv(app, s) {
    const sum = s.party.summary;
    const sig = [PH.lang, innerWidth, innerHeight, s.host, JSON.stringify(sum), JSON.stringify(s.party.record),
      JSON.stringify(s.party.scoreboard), JSON.stringify(s.party.roster.map((r) => r.name))].join("|");
    if (app.dataset.screen === "summary" && app.dataset.sig === sig) return;
    app.dataset.screen = "summary";
    app.dataset.sig = sig;
    app.innerHTML = `<div class="night tv" data-testid="summary">
      <header class="night-head"><h1>${esc(t("night.heading"))}</h1>
        <span class="night-count">${esc(t("night.count", { games: sum.games, players: sum.titles.length }))}</span>
        ${s.host ? `<button class="small" data-night-back data-testid="summary-back">${esc(t("night.back"))}</button>` : ""}</header>
      <div class="night-body"><section class="night-people"></section>
        <section class="night-games"><h2>${esc(t("night.games"))}</h2><div class="ng-box"></div></section></div>
      <p class="night-thanks">${esc(t("night.thanks"))}</p></div>`;
    wire(app, s);
    /* the people: the podium and every title; more players step to two columns, then denser */
    const people = app.querySelector(".night-people");
    const many = sum.titles.length > 5;
    for (const layout of many ? ["cols", "cols tight", "cols tight flat"] : ["", "tight", "tight flat"]) {
      people.className = "night-people " + layout;
      people.innerHTML = `<h2>${esc(t("night.titles"))}</h2>${layout.includes("flat") ? "" : podiumHtml(s, sum)}${titlesHtml(s, sum)}`;
      if (fits(people)) break;
    }
    /* the games: every game with its highlights; then fewer highlights (the newest games keep
       theirs longest); then the oldest games are counted in one line */
    const box = app.querySelector(".ng-box");
    const n = (s.party.record || []).length;
    const tries = [[0, () => 2], [0, () => 1]];
    for (let k = n - 1; k >= 0; k--) tries.push([0, (i) => (i >= n - k ? 1 : 0)]);
    for (let from = 1; from < n; from++) tries.push([from, () => 0]);
    for (const [from, hl] of tries) {
      box.innerHTML = gamesHtml(s, from, hl);
      if (fits(box)) break;
    }
  }

  /* ---------- the phone ---------- */

  function phone(app, s) {
    const sum = s.party.summary;
    const sig = [PH.lang, s.host, JSON.stringify(sum), JSON.stringify(s.party.record), JSON.stringify(s.party.scoreboard)].join("|");
    if (app.dataset.screen === "summary" && app.dataset.sig === sig) return;
    app.dataset.screen = "summary";
    app.dataset.sig = sig;
    const mine = s.me && sum.titles.find((x) => x.seat === s.me.seat);
    const row = s.me && rowOf(s, s.me.seat);
    app.innerHTML = `<section class="card night phone" data-testid="summary">
      <h1>${esc(t("night.heading"))}</h1>
      <p class="night-count">${esc(t("night.count", { games: sum.games, players: sum.titles.length }))}</p>
      ${mine ? `<div class="mine" data-testid="my-title"><p class="lbl">${esc(t("night.your_title"))}</p>
        <p class="ttl">${esc(titleOf(s, mine))}</p><p class="why">${esc(whyOf(s, mine))}</p>
        ${row ? `<p class="pts">${esc(t("record.you", { points: row.points, games: row.games }))}</p>` : ""}</div>` : ""}
      <div class="night-actions"><button class="primary big" data-night-save data-testid="save-image">${esc(t("night.save"))}</button>
        ${s.host ? `<button data-night-back data-testid="summary-back">${esc(t("night.back"))}</button>` : ""}</div>
      <div class="night-preview" data-testid="image-preview"></div>
      <h2>${esc(t("night.titles"))}</h2>${titlesHtml(s, sum)}
      <h2>${esc(t("night.games"))}</h2>${gamesHtml(s, 0, () => 1)}
    </section>`;
    wire(app, s);
  }

  /* ---------- the image: drawn in the page (no fonts or files from anywhere) ---------- */

  const FONT = `"Hiragino Sans", "Noto Sans CJK JP", "Noto Sans JP", "Yu Gothic", Meiryo, system-ui, sans-serif`;

  /* what a line may break after: one CJK character (Japanese has no spaces), or a Latin word with
     the spaces after it (an English line breaks between words, never inside "summary") */
  const UNITS = /[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]|[^\s\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]+\s*|\s+/gu;

  /** Lines of ``text`` no wider than ``width`` at the context's font, at most ``max`` lines, the
   *  last one ending in … when cut. Japanese breaks between any two characters, Latin words at
   *  their spaces; a word wider than a whole line breaks anywhere. */
  function wrap(ctx, text, width, max) {
    const lines = [];
    let line = "";
    const units = (text.match(UNITS) || [])
      .flatMap((u) => (ctx.measureText(u.trimEnd()).width > width ? Array.from(u) : [u]));
    for (const u of units) {
      if (ctx.measureText((line + u).trimEnd()).width > width && line.trim()) {
        lines.push(line.trimEnd());
        line = u.trimStart();
        if (lines.length === max) break;
      } else line += u;
    }
    line = line.trimEnd();
    if (lines.length < max && line) lines.push(line);
    else if (lines.length === max && line) lines[max - 1] = lines[max - 1].replace(/.$/u, "…");
    return lines;
  }

  /** The summary as a 1080-px-wide portrait picture (its height follows the night): header,
   *  this player's title, every title with its points, the games with their results and a
   *  highlight each. Returns the canvas. */
  function drawImage(s) {
    const sum = s.party.summary;
    const record = s.party.record || [];
    const W = 1080, PAD = 60, INNER = W - 2 * PAD;
    const canvas = document.createElement("canvas");
    const ctx = canvas.getContext("2d");
    const css = getComputedStyle(document.documentElement);
    const col = (name, dflt) => css.getPropertyValue(name).trim() || dflt;
    const C = { bg: col("--bg", "#14161f"), panel: col("--panel", "#1f2230"), ink: col("--ink", "#f4f4f8"),
      muted: col("--muted", "#a4a8bc"), accent: col("--accent", "#f2b134"), good: col("--good", "#5fd38d"), bad: col("--bad", "#ef6f6c") };
    const games = record.slice(-12);
    /* two passes: measure (no drawing) to learn the height, then draw */
    const pass = (draw) => {
      let y = PAD;
      let on = draw;
      const text = (str, x, size, color, weight, maxW, maxLines) => {
        ctx.font = `${weight || 400} ${size}px ${FONT}`;
        const lines = wrap(ctx, String(str), maxW || INNER, maxLines || 1);
        for (const l of lines) {
          if (on) { ctx.fillStyle = color; ctx.fillText(l, x, y + size); }
          y += Math.round(size * 1.3);
        }
        return lines.length;
      };
      text("partyhost", PAD, 30, C.muted, 700);
      text(t("night.heading"), PAD, 58, C.accent, 800, INNER, 2);
      text(`${t("night.count", { games: sum.games, players: sum.titles.length })} · ${t("app.room")} ${s.party.room}`, PAD, 30, C.muted);
      y += 20;
      const mine = s.me && sum.titles.find((x) => x.seat === s.me.seat);
      if (mine) {
        const h0 = y;
        const block = () => {
          y += 16;
          text(`${PH.nameOf(s, mine.seat)} — ${t("night.your_title")}`, PAD, 32, C.muted, 700);
          text(titleOf(s, mine), PAD, 64, C.ink, 800, INNER, 2);
          text(whyOf(s, mine), PAD, 34, C.ink, 400, INNER, 2);
          y += 16;
        };
        const was = on;
        on = false; block(); on = was; /* measure, draw the panel behind, then the words */
        if (on) {
          ctx.fillStyle = C.panel; ctx.fillRect(PAD - 24, h0, INNER + 48, y - h0);
          ctx.fillStyle = C.accent; ctx.fillRect(PAD - 24, h0, 8, y - h0);
        }
        y = h0;
        block();
        y += 30;
      }
      text(t("night.titles"), PAD, 40, C.accent, 800);
      y += 6;
      for (const x of sum.titles) {
        const row = rowOf(s, x.seat);
        const place = placeOf(sum, x.seat);
        const name = `${place ? placeText(place) + "  " : ""}${PH.nameOf(s, x.seat)}${row ? "  " + t("record.points", { points: row.points }) : ""}`;
        if (on) { ctx.fillStyle = PH.colorOf(s, x.seat); ctx.fillRect(PAD, y + 8, 14, 30); }
        text(name, PAD + 30, 32, C.ink, 700, INNER - 30);
        text(`${titleOf(s, x)} — ${whyOf(s, x)}`, PAD + 30, 28, C.muted, 400, INNER - 30, 2);
        y += 12;
      }
      y += 20;
      text(t("night.games"), PAD, 40, C.accent, 800);
      y += 6;
      if (record.length > games.length) text(t("record.more", { count: record.length - games.length }), PAD, 26, C.muted);
      games.forEach((e, j) => {
        const r = e.result || {};
        const i = record.length - games.length + j + 1;
        text(`${i}. ${t(e.game + ".name")}   ${PH.record.resultText(e)}`, PAD, 32, r.coop ? (r.won ? C.good : C.bad) : C.ink, 700);
        const h = (e.highlights || [])[0];
        if (h) text(`★ ${PH.record.highlightText(e, h)}`, PAD + 30, 26, C.muted, 400, INNER - 30, 2);
        y += 10;
      });
      y += 20;
      text(t("night.thanks"), PAD, 36, C.accent, 700);
      return y + PAD;
    };
    canvas.width = W;
    canvas.height = pass(false);
    ctx.fillStyle = C.bg;
    ctx.fillRect(0, 0, W, canvas.height);
    ctx.textBaseline = "alphabetic";
    pass(true);
    return canvas;
  }

  let previewUrl = null;
  function saveImage(app, s) {
    let canvas;
    try { canvas = drawImage(s); } catch (e) { PH.toast(t("night.save_failed"), true); return; }
    canvas.toBlob((blob) => {
      if (!blob) { PH.toast(t("night.save_failed"), true); return; }
      if (previewUrl) URL.revokeObjectURL(previewUrl);
      previewUrl = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = previewUrl;
      a.download = `partyhost-${s.party.room}-${(s.me && s.me.name) || "night"}.png`.replace(/[\\/:*?"<>|\s]+/g, "_");
      document.body.appendChild(a);
      a.click();
      a.remove();
      /* iOS may open the picture instead of saving it: the preview stays for a long press */
      const preview = app.querySelector(".night-preview");
      if (preview) preview.innerHTML = `<p class="hint">${esc(t("night.save_hint"))}</p><img alt="${esc(t("night.heading"))}" src="${previewUrl}">`;
      PH.toast(t("night.saved"));
    }, "image/png");
  }

  /* ---------- the lobby: もう一度, the next game, おひらき ---------- */

  function momentumHtml(s, phone) {
    const m = s.party.momentum;
    if (!m || !s.host || !m.again) return ""; /* after a game: nothing before the first */
    const next = m.next && m.next.game !== m.again ? m.next : null;
    const rule = next ? t(next.fresh ? "night.next_rule" : "night.next_rule_played", { count: m.present }) : "";
    return `<div class="momentum ${phone ? "phone" : "tv"}" data-testid="momentum">
      ${m.again ? `<button class="small primary" data-host="again" data-testid="again-game">${esc(t("night.again", { game: t(m.again + ".name") }))}</button>` : ""}
      ${next ? `<button class="small" data-choose-next="${esc(next.game)}" data-testid="next-game" title="${esc(rule)}">${esc(t("night.next", { game: t(next.game + ".name") }))}</button>` : ""}
      ${m.again ? `<button class="small night-open" data-night-open data-testid="ohiraki">${esc(t("night.open"))}</button>` : ""}
      ${next ? `<p class="rule" data-testid="next-rule">${esc(rule)}</p>` : ""}</div>`;
  }

  function wire(root, s) {
    root.querySelectorAll("[data-night-open]").forEach((b) => {
      b.onclick = () => PH.ask({ title: t("night.confirm"), ok: t("night.open") })
        .then((yes) => { if (yes) PH.host("ohiraki", { on: true }); });
    });
    /* the suggested next game: the host's choice, as a game tile is (its own attribute, so
       [data-choose=…] names the tile only) */
    root.querySelectorAll("[data-choose-next]").forEach((b) => { b.onclick = () => PH.host("choose", { game: b.dataset.chooseNext }); });
    root.querySelectorAll("[data-night-back]").forEach((b) => { b.onclick = () => PH.host("ohiraki", { on: false }); });
    root.querySelectorAll("[data-night-save]").forEach((b) => { b.onclick = () => saveImage(root, PH.last || s); });
  }

  /* a TV window resized (or a browser moved to the big screen): the summary fits itself again */
  addEventListener("resize", () => {
    const app = document.getElementById("app");
    if (document.body.classList.contains("tv") && app && app.dataset.screen === "summary" && PH.last && PH.last.party.summary) tv(app, PH.last);
  });

  PH.night = {
    tv, phone, drawImage, wire, wrap,
    lobbyTv: (s) => momentumHtml(s, false),
    lobbyPhone: (s) => momentumHtml(s, true),
  };
})();
