/* Diabolo: phone and TV renderers of the views partyhost/games/diabolo.py computes.
 * Rules live on the server; the phone only helps spell a claim (taps, or a typed word and the
 * cards it will take) and names those cards in the action. */
"use strict";

(() => {
  const { t, esc } = PH;
  const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".split("");

  /* ---------- spelling, as the server folds it (latin.fold) ---------- */
  /* NFKC, not NFC: full-width ｈａｎｇ from a Japanese IME is HANG, as on the server */
  function fold(word, lang) {
    let s = String(word || "").normalize("NFKC").replace(/\s+/g, "");
    s = s.toUpperCase(); /* "ß".toUpperCase() is already "SS" */
    if (lang === "de") s = s.replace(/Ä/g, "AE").replace(/Ö/g, "OE").replace(/Ü/g, "UE").replace(/ẞ/g, "SS");
    return s;
  }

  /* The way to spell ``word`` from ``cards`` that takes the most cards (then fewest jokers,
     then the earliest cards of the row): the same search as diabolo.best_assignment. */
  function bestAssignment(word, cards) {
    if (!word || !/^[A-Z]+$/.test(word)) return null;
    const byFace = new Map(); const jok = { 1: [], 2: [] };
    for (const c of cards) {
      if (c.joker) jok[c.joker].push(c);
      else { if (!byFace.has(c.face)) byFace.set(c.face, []); byFace.get(c.face).push(c); }
    }
    const faces = [...byFace.keys()].sort();
    const idx = new Map(faces.map((f, i) => [f, i]));
    const memo = new Map();
    const n = word.length;
    function solve(pos, left, j1, j2) {
      if (pos === n) return [0, 0, []];
      const key = pos + "|" + left.join(",") + "|" + j1 + "|" + j2;
      if (memo.has(key)) return memo.get(key);
      let best = null;
      for (const size of [1, 2]) {
        const piece = word.slice(pos, pos + size);
        if (piece.length !== size) continue;
        const opts = [];
        const i = idx.get(piece);
        if (i !== undefined && left[i] > 0) opts.push([i, 0]);
        if (size === 1 && j1 > 0) opts.push([null, 1]);
        if (size === 2 && j2 > 0) opts.push([null, 2]);
        for (const [ii, joker] of opts) {
          let l2 = left;
          if (ii !== null) { l2 = left.slice(); l2[ii] -= 1; }
          const rest = solve(pos + size, l2, j1 - (joker === 1 ? 1 : 0), j2 - (joker === 2 ? 1 : 0));
          if (!rest) continue;
          const cand = [rest[0] + 1, rest[1] - (joker ? 1 : 0), [[piece, joker]].concat(rest[2])];
          if (!best || cand[0] > best[0] || (cand[0] === best[0] && cand[1] > best[1])) best = cand;
        }
      }
      memo.set(key, best);
      return best;
    }
    const found = solve(0, faces.map((f) => byFace.get(f).length), jok[1].length, jok[2].length);
    if (!found) return null;
    const used = new Map(); const usedJ = { 1: 0, 2: 0 };
    return found[2].map(([piece, joker]) => {
      let card;
      if (joker) card = jok[joker][usedJ[joker]++];
      else { const k = used.get(piece) || 0; used.set(piece, k + 1); card = byFace.get(piece)[k]; }
      return { id: card.id, face: card.face, joker: card.joker, as: piece };
    });
  }

  /* ---------- shared bits ---------- */
  /* a countdown element, filled now (app.js keeps it ticking every 250 ms) */
  function cd(deadline, label, extra) {
    const left = Math.max(0, Math.ceil(Number(deadline) - PH.serverNow()));
    return `<span ${extra || ""} data-deadline="${deadline}" data-label="${label}">${esc(t(label, { seconds: left }))}</span>`;
  }
  const name = (s, seat) => PH.nameOf(s, seat);
  const faceHtml = (c) => (c.joker ? `<span class="trident ${c.joker === 2 ? "double" : ""}">${c.joker === 2 ? "ΨΨ" : "Ψ"}</span>` : esc(c.face));
  function cardHtml(c, extra, attrs) {
    return `<span class="dcard ${c.joker ? "joker" : ""} ${c.face.length === 2 && !c.joker ? "pair" : ""} ${extra || ""}" ${attrs || ""}>${faceHtml(c)}</span>`;
  }
  function claimCards(claim) {
    return `<span class="claim-cards">${claim.cards.map((c) => `<span class="dcard mini ${c.face !== c.as ? "joker" : ""}">${esc(c.as)}${c.face !== c.as ? "<sub>Ψ</sub>" : ""}</span>`).join("")}</span>`;
  }
  function roundText(g) {
    return g.rounds ? t("dia.round_of", { round: g.round, rounds: g.rounds }) : t("dia.round", { round: g.round });
  }
  function tempoText(g) {
    if (!g.deck_left || (g.phase !== "turning" && g.phase !== "vote" && g.phase !== "picking")) return "";
    return g.auto ? t("dia.tempo", { seconds: g.interval }) : t("dia.paused_turning");
  }
  function countdown(g) {
    if (g.phase !== "turning") return "";
    if (g.end_at != null) return cd(g.end_at, "dia.ends_in", 'class="cd end" data-testid="ends-in"');
    if (g.next_turn_at != null) return cd(g.next_turn_at, "dia.next_in", 'class="cd"');
    return "";
  }
  function eventText(g, s) {
    const e = g.last_event;
    if (!e) return "";
    const c = g.claim;
    switch (e.kind) {
      case "claim_taken": return t("dia.claim_taken", { name: name(s, e.seat), word: e.word, count: e.count });
      case "claim_vote": return t("dia.claim_vote", { name: name(s, e.seat), word: e.word });
      case "claim_rejected": return t("dia.claim_rejected", { name: name(s, e.seat), word: e.word });
      case "picked": return c ? t("dia.claim_rejected", { name: name(s, c.seat), word: c.word }) : "";
      case "deal": return t("dia.dealer", { name: name(s, e.dealer) });
      case "round_end": return t("dia.round_end", { round: e.round });
      case "over": return t("dia.final");
      default: return "";
    }
  }
  function pickedList(g, s, picks) {
    return Object.entries(picks || {}).map(([seat, p]) =>
      p.from === "table" ? t("dia.picked", { name: name(s, seat), face: p.face === "?" || p.face === "??" ? "Ψ" : p.face })
      : p.from === "deck" ? t("dia.picked_deck", { name: name(s, seat) }) : t("dia.picked_none", { name: name(s, seat) })).join(" · ");
  }
  function voteBox(g, s, phone) {
    const v = g.vote;
    if (!v || !g.claim) return "";
    const me = s.me && s.me.seat;
    const mine = phone && v.voters.includes(me);
    const my = v.ballots[me];
    return `<div class="dia-vote" data-testid="vote" data-vote="${v.id}">
      <p class="q">${esc(t("dia.claim_vote", { name: name(s, g.claim.seat), word: g.claim.word }))}</p>
      ${claimCards(g.claim)}
      <p class="small">${esc(t("dia.tally", v.count))} · ${cd(v.closes, "dia.vote_left")}</p>
      ${mine ? `<div class="row"><button class="${my === "accept" ? "primary" : ""}" data-ballot="accept" data-testid="accept">${esc(t("dia.accept"))}</button>
        <button class="${my === "reject" ? "primary" : ""}" data-ballot="reject" data-testid="reject">${esc(t("dia.reject"))}</button></div>` : ""}
      ${s.host ? `<div class="row host"><button class="small" data-overrule="accept" data-testid="overrule-accept">${esc(t("dia.host_accept"))}</button>
        <button class="small" data-overrule="reject" data-testid="overrule-reject">${esc(t("dia.host_reject"))}</button></div>` : ""}
    </div>`;
  }
  function wireVote(root) {
    /* Each ballot names the vote it was drawn for, and the buttons stay disabled until the answer
       (the next state redraws them), so a double tap or a tap on a vote that just closed can
       never count for the next vote. */
    const box = root.querySelector("[data-vote]");
    const voteId = box ? Number(box.dataset.vote) : 0;
    const ballots = [...root.querySelectorAll("[data-ballot]")];
    ballots.forEach((b) => {
      b.onclick = () => {
        ballots.forEach((x) => { x.disabled = true; });
        PH.act({ type: "vote", vote: voteId, ballot: b.dataset.ballot }).then((r) => { if (!r.ok) ballots.forEach((x) => { x.disabled = false; }); });
      };
    });
    root.querySelectorAll("[data-overrule]").forEach((b) => {
      b.onclick = () => { b.disabled = true; PH.hostAct("overrule", { vote: voteId, outcome: b.dataset.overrule }).then((r) => { if (!r.ok) b.disabled = false; }); };
    });
  }
  function scoresTable(g, s) {
    const rounds = g.results;
    const head = rounds.map((r) => `<th title="${esc(name(s, r.dealer))}">${r.round}</th>`).join("");
    const rows = g.players.map((p) => `<tr class="${g.winners.includes(p.seat) ? "win" : ""}">
        <th style="color:${PH.colorOf(s, p.seat)}">${esc(name(s, p.seat))}</th>
        ${rounds.map((r) => `<td class="${r.tiles.includes(p.seat) ? "tile" : ""}">${r.cards[p.seat] != null ? r.cards[p.seat] : "–"}</td>`).join("")}
        <td class="tot" data-testid="total-${esc(p.seat)}">${g.victory_tiles ? "★".repeat(p.tiles) || "0" : p.total}</td></tr>`).join("");
    return `<table class="dia-scores" data-testid="scores"><thead><tr><th></th>${head}<th>${esc(g.victory_tiles ? "★" : "Σ")}</th></tr></thead><tbody>${rows}</tbody></table>`;
  }
  function endPanel(g, s) {
    const last = g.results[g.results.length - 1];
    const tiles = last && last.tiles.length ? `<p class="tilewin">${esc(t("dia.tile_won", { names: last.tiles.map((x) => name(s, x)).join(", ") }))}</p>` : "";
    return `<div class="dia-end" data-testid="round-end">
      ${g.phase === "over" ? `<div class="result won" data-testid="winner">${esc(t("dia.winner", { names: g.winners.map((x) => name(s, x)).join(", ") }))}</div>`
        : `<h2>${esc(t("dia.round_end", { round: g.round }))}</h2>`}
      ${tiles}${scoresTable(g, s)}
      <div class="possible" data-testid="possible"><span>${esc(t("dia.possible"))}:</span>
        ${g.possible.length ? g.possible.map((w) => `<b>${esc(w)}</b>`).join("") : `<i>${esc(t("dia.none_possible"))}</i>`}</div>
    </div>`;
  }

  /* ---------- phone ---------- */
  let sel = [];           /* tapped cards in spelling order: [{id, as}] */
  let jokerFor = null;    /* the joker card waiting for its letter(s): {id, joker, have} */
  let composeRound = 0;
  let sending = false;
  let lastBuzz = null;
  let lastTurnTap = 0;
  const TURN_GAP_MS = 300; /* a double tap, as phones count one */

  function available(g) {
    const held = g.claim && g.claim.status === "vote" ? new Set(g.claim.cards.map((c) => c.id)) : new Set();
    return g.table.filter((c) => !held.has(c.id));
  }
  function typedWord(root) { const i = root.querySelector("[data-testid=word]"); return i ? i.value : ""; }
  /* What a send would claim now: {word, cards:[{id, as}]} or null. */
  function plan(root, g) {
    const typed = typedWord(root).trim();
    if (typed) {
      const word = fold(typed, g.lang);
      const a = bestAssignment(word, available(g));
      return { word, typed: true, cards: a ? a.map((c) => (c.joker ? { id: c.id, as: c.as } : { id: c.id })) : null };
    }
    if (!sel.length) return null;
    const byId = new Map(g.table.map((c) => [c.id, c]));
    return { word: sel.map((x) => x.as || byId.get(x.id).face).join(""), typed: false, cards: sel.map((x) => (x.as ? { id: x.id, as: x.as } : { id: x.id })) };
  }

  function skeleton(root) {
    root.innerHTML = `<div class="dia phone">
      <div class="dia-status" data-testid="status"></div>
      <div class="dia-event-slot"></div>
      <div class="dia-dealer-slot"></div>
      <div class="dia-vote-slot"></div>
      <div class="dia-row-slot"></div>
      <div class="dia-compose" data-testid="compose">
        <div class="dia-spell" data-testid="spell"></div>
        <div class="dia-joker" data-testid="joker-picker" hidden></div>
        <input data-testid="word" autocomplete="off" autocapitalize="characters" spellcheck="false" enterkeyhint="send">
        <p class="small dia-preview" data-testid="preview"></p>
        <div class="row"><button class="primary big" data-testid="send">${esc(t("dia.send"))}</button></div>
        <div class="row"><button class="small" data-testid="undo">${esc(t("dia.back"))}</button><button class="small" data-testid="clear">${esc(t("dia.clear"))}</button></div>
      </div>
      <div class="dia-bottom"></div>
    </div>`;
    const input = root.querySelector("[data-testid=word]");
    input.addEventListener("input", () => { if (input.value) { sel = []; jokerFor = null; } PH.refresh(); });
    input.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" || e.isComposing || e.keyCode === 229) return;
      e.preventDefault();
      root.querySelector("[data-testid=send]").click();
    });
    root.querySelector("[data-testid=clear]").onclick = () => { sel = []; jokerFor = null; input.value = ""; PH.refresh(); };
    root.querySelector("[data-testid=undo]").onclick = () => { if (jokerFor) jokerFor = null; else sel.pop(); PH.refresh(); };
    root.querySelector("[data-testid=send]").onclick = () => {
      const s = PH.last; const g = s && s.game;
      if (!g || sending) return;
      const p = plan(root, g);
      if (!p) return;
      if (!p.cards) { PH.toast(t("dia.cannot_spell"), true); PH.buzz([60, 40, 60]); return; }
      sending = true;
      PH.act({ type: "claim", round: g.round, word: p.word, cards: p.cards }).then((r) => {
        sending = false;
        if (r.ok) { sel = []; jokerFor = null; input.value = ""; }
        PH.refresh();
      });
    };
  }

  function phone(root, s) {
    const g = s.game;
    if (!root.querySelector(".dia.phone")) skeleton(root);
    const me = s.me && s.me.seat;
    const mine = g.players.find((p) => p.seat === me);
    const playing = !!(s.me && s.me.playing && mine);
    const dealer = g.dealer === me;
    /* a new round, or a card of my spelling gone from the table: start the word again */
    const onTable = new Set(g.table.map((c) => c.id));
    if (composeRound !== g.round || sel.some((x) => !onTable.has(x.id))) { sel = []; jokerFor = null; }
    if (composeRound !== g.round) { const i = root.querySelector("[data-testid=word]"); if (i) i.value = ""; composeRound = g.round; }
    if (jokerFor && !onTable.has(jokerFor.id)) jokerFor = null;
    feel(g, s);

    const status = root.querySelector(".dia-status");
    status.innerHTML = `<span data-testid="round">${esc(roundText(g))}</span>
      <span>${esc(t("dia.dealer", { name: name(s, g.dealer) }))}</span>
      <span data-testid="deck-left">${esc(g.deck_left ? t("dia.deck_left", { count: g.deck_left }) : t("dia.deck_out"))}</span>
      ${mine ? `<span class="mine" data-testid="my-cards">${esc(t("dia.cards", { count: mine.cards }))}${mine.min > 3 ? ` <i class="tag">${esc(t("dia.handicap_tag"))}</i>` : ""}</span>` : ""}
      ${countdown(g)}`;
    const ev = eventText(g, s);
    root.querySelector(".dia-event-slot").innerHTML = ev && ["turning", "picking"].includes(g.phase)
      ? `<p class="event ${esc(g.last_event.kind)}" data-testid="event">${esc(ev)}</p>` : "";

    /* the dealer's tempo */
    const dealerSlot = root.querySelector(".dia-dealer-slot");
    const dealerHtml = playing && dealer && g.phase === "turning" && g.deck_left ? `<div class="dia-dealer" data-testid="dealer">
        <p class="small">${esc(t("dia.you_deal"))} · ${esc(tempoText(g))}</p>
        <div class="row">
          <button class="${g.auto ? "" : "primary"}" data-auto="${g.auto ? 0 : 1}" data-testid="auto">${esc(t(g.auto ? "dia.pause" : "dia.start"))}</button>
          <button data-turn="1" data-testid="turn">${esc(t("dia.turn_now"))}</button>
        </div>
        <div class="row tempo">
          <button class="small" data-tempo="${Math.min(20, g.interval + 1)}" data-testid="slower">${esc(t("dia.slower"))}</button>
          <b class="interval" data-testid="interval">${g.interval}s</b>
          <button class="small" data-tempo="${Math.max(1, g.interval - 1)}" data-testid="faster">${esc(t("dia.faster"))}</button>
        </div></div>` : "";
    if (dealerSlot.dataset.html !== dealerHtml) {
      dealerSlot.dataset.html = dealerHtml;
      dealerSlot.innerHTML = dealerHtml;
      const auto = dealerSlot.querySelector("[data-auto]");
      if (auto) auto.onclick = () => PH.act({ type: "auto", round: g.round, on: auto.dataset.auto === "1" });
      const turn = dealerSlot.querySelector("[data-turn]");
      /* one card per tap: a finger's double tap (two taps ~100 ms apart, the second sent after
         the first card's state came back) must not turn two, so taps closer than TURN_GAP_MS
         count once */
      if (turn) turn.onclick = () => {
        const at = Date.now();
        if (at - lastTurnTap < TURN_GAP_MS) return;
        lastTurnTap = at;
        const gg = PH.last.game;
        PH.act({ type: "turn", round: gg.round, turned: gg.turned });
      };
      dealerSlot.querySelectorAll("[data-tempo]").forEach((b) => { b.onclick = () => PH.act({ type: "tempo", seconds: Number(b.dataset.tempo) }); });
    }

    root.querySelector(".dia-vote-slot").innerHTML = g.phase === "vote" ? voteBox(g, s, true) : "";
    wireVote(root.querySelector(".dia-vote-slot"));

    /* the face-up row: tap to spell, or to pick after a rejected word */
    const picking = g.phase === "picking" && g.picking && playing;
    const myPick = picking && g.picking.pickers.includes(me) && !(me in g.picking.picked);
    const p = g.phase === "turning" && playing ? plan(root, g) : null;
    const order = new Map();
    if (p && p.cards) p.cards.forEach((c, i) => order.set(c.id, i + 1));
    const held = g.claim && g.claim.status === "vote" ? new Set(g.claim.cards.map((c) => c.id)) : new Set();
    const canTap = playing && (g.phase === "turning" || myPick);
    const ended = g.phase === "scored" || g.phase === "over";
    root.querySelector(".dia-row-slot").innerHTML = ended ? "" : `
      ${myPick ? `<p class="event picking" data-testid="pick-prompt">${esc(t("dia.pick_prompt"))} ${cd(g.picking.deadline, "dia.pick_left")}</p>` : ""}
      ${picking && !myPick ? `<p class="note">${esc(t("dia.pick_wait"))} · ${esc(pickedList(g, s, g.picking.picked))}</p>` : ""}
      <div class="dia-row ${canTap ? "tappable" : ""} ${g.table.length > 30 ? "many" : g.table.length > 18 ? "more" : ""}" data-testid="row">${g.table.length ? g.table.map((c) => `<button class="dcard ${c.joker ? "joker" : ""} ${c.face.length === 2 && !c.joker ? "pair" : ""} ${order.has(c.id) ? "sel" : ""} ${held.has(c.id) ? "held" : ""}"
          data-card="${c.id}" data-face="${esc(c.face)}" ${canTap && !held.has(c.id) ? "" : "disabled"}>${faceHtml(c)}${order.has(c.id) ? `<i>${order.get(c.id)}</i>` : ""}</button>`).join("")
        : `<p class="note">${esc(t("dia.empty_row"))}</p>`}</div>`;
    root.querySelectorAll(".dia-row [data-card]").forEach((b) => {
      b.onclick = () => {
        const id = Number(b.dataset.card);
        const gg = PH.last.game;
        if (gg.phase === "picking") { PH.act({ type: "pick", round: gg.round, card: id }); return; }
        const card = gg.table.find((c) => c.id === id);
        if (!card) return;
        const input = root.querySelector("[data-testid=word]");
        if (input.value) input.value = ""; /* tapping takes over from typing */
        const at = sel.findIndex((x) => x.id === id);
        if (at >= 0) { sel.splice(at, 1); PH.refresh(); return; } /* tap again: take it out */
        if (card.joker) jokerFor = { id, joker: card.joker, have: "" };
        else sel.push({ id });
        PH.refresh();
      };
    });

    /* the word being built */
    const compose = root.querySelector(".dia-compose");
    compose.hidden = !(playing && g.phase === "turning");
    if (!compose.hidden) {
      const byId = new Map(g.table.map((c) => [c.id, c]));
      const spell = root.querySelector(".dia-spell");
      const pieces = p && p.cards ? p.cards.map((c) => ({ face: byId.get(c.id).face, as: c.as || byId.get(c.id).face, joker: byId.get(c.id).joker })) : [];
      spell.innerHTML = pieces.length
        ? pieces.map((c) => `<span class="dcard mini ${c.joker ? "joker" : ""}">${esc(c.as)}${c.joker ? "<sub>Ψ</sub>" : ""}</span>`).join("")
        : `<span class="small">${esc(t("dia.tap_hint"))}</span>`;
      const preview = root.querySelector(".dia-preview");
      const min = mine ? mine.min : 3;
      preview.textContent = !p ? t("dia.min_cards", { min })
        : !p.cards ? t("dia.cannot_spell")
        : `${p.word} · ${t("dia.will_take", { count: p.cards.length })}${p.cards.length < min ? " · " + t("dia.min_cards", { min }) : ""}`;
      preview.className = "small dia-preview" + (p && (!p.cards || p.cards.length < min) ? " bad" : "");
      root.querySelector("[data-testid=send]").disabled = !p || !p.cards || p.cards.length < min || sending || !!jokerFor;
      /* the skeleton's words follow a language switch */
      root.querySelector("[data-testid=word]").placeholder = t("dia.type_word");
      root.querySelector("[data-testid=send]").textContent = t("dia.send");
      root.querySelector("[data-testid=undo]").textContent = t("dia.back");
      root.querySelector("[data-testid=clear]").textContent = t("dia.clear");
      const jp = root.querySelector(".dia-joker");
      jp.hidden = !jokerFor;
      if (jokerFor) {
        const key = jokerFor.id + ":" + jokerFor.have + ":" + PH.lang; /* a language switch redraws it too */
        if (jp.dataset.key !== key) {
          jp.dataset.key = key;
          jp.innerHTML = `<p>${esc(jokerFor.joker === 2 ? t("dia.joker_pick2", { have: jokerFor.have ? jokerFor.have + "_" : "__" }) : t("dia.joker_pick"))}</p>
            <div class="letters">${LETTERS.map((l) => `<button data-letter="${l}">${l}</button>`).join("")}</div>
            <button class="small" data-testid="joker-cancel">${esc(t("dia.cancel"))}</button>`;
          jp.querySelectorAll("[data-letter]").forEach((b) => {
            b.onclick = () => {
              if (!jokerFor) return;
              jokerFor.have += b.dataset.letter;
              if (jokerFor.have.length >= jokerFor.joker) { sel.push({ id: jokerFor.id, as: jokerFor.have }); jokerFor = null; }
              PH.refresh();
            };
          });
          jp.querySelector("[data-testid=joker-cancel]").onclick = () => { jokerFor = null; PH.refresh(); };
        }
      } else jp.dataset.key = "";
    }

    /* pass, scores, the next deal */
    const bottom = root.querySelector(".dia-bottom");
    let html = "";
    if (playing && g.phase === "turning" && !g.deck_left) {
      html += `<div class="row"><button data-pass="1" data-testid="pass" ${mine.passed ? "disabled" : ""}>${esc(t(mine.passed ? "dia.passed" : "dia.pass"))}</button></div>`;
    }
    if (g.phase === "scored" || g.phase === "over") {
      html += endPanel(g, s);
      if (g.phase === "scored") {
        const mayDeal = playing && (g.next_dealer === me || g.next_dealer == null);
        html += mayDeal ? `<button class="primary big" data-deal="1" data-testid="deal">${esc(t("dia.deal"))}</button>`
          : `<p class="note">${esc(t("dia.wait_deal", { name: name(s, g.next_dealer) }))}</p>`;
      }
    } else {
      html += `<ul class="dia-players">${g.players.map((pl) => `<li style="border-color:${PH.colorOf(s, pl.seat)}"><span>${esc(name(s, pl.seat))}</span><b>${pl.cards}</b></li>`).join("")}</ul>`;
    }
    if (bottom.dataset.html !== html) {
      bottom.dataset.html = html;
      bottom.innerHTML = html;
      const pass = bottom.querySelector("[data-pass]");
      if (pass) pass.onclick = () => { pass.disabled = true; PH.act({ type: "pass", round: PH.last.game.round }); };
      const deal = bottom.querySelector("[data-deal]");
      if (deal) deal.onclick = () => { deal.disabled = true; PH.act({ type: "deal", round: PH.last.game.round + 1 }).then((r) => { if (!r.ok) deal.disabled = false; }); };
    }
  }

  function feel(g, s) {
    const e = g.last_event;
    if (!e || lastBuzz === e.n) return;
    const first = lastBuzz === null;
    lastBuzz = e.n;
    if (first) return;
    if (e.kind === "claim_vote" || e.kind === "claim_rejected") PH.buzz([80, 60, 80]);
    else if (e.kind === "claim_taken") PH.buzz(e.seat === (s.me && s.me.seat) ? [60, 40, 160] : 40);
    else if (e.kind === "round_end" || e.kind === "over") PH.buzz([50, 50, 150]);
  }

  /* ---------- TV ---------- */
  let lastSound = null;
  function sound(g) {
    const e = g.last_event;
    if (!e || lastSound === e.n) return;
    const first = lastSound === null;
    lastSound = e.n;
    if (first) return;
    if (e.kind === "turn") PH.beep(660, 60);
    else if (e.kind === "claim_taken") { PH.beep(523, 100); setTimeout(() => PH.beep(784, 160), 100); }
    else if (e.kind === "claim_vote") PH.beep(440, 200, "triangle");
    else if (e.kind === "claim_rejected") PH.beep(150, 400, "sawtooth");
    else if (e.kind === "round_end" || e.kind === "over") { PH.beep(523, 150); setTimeout(() => PH.beep(659, 150), 150); setTimeout(() => PH.beep(784, 300), 300); }
  }

  function tv(root, s) {
    const g = s.game;
    sound(g);
    const held = g.claim && g.claim.status === "vote" ? new Set(g.claim.cards.map((c) => c.id)) : new Set();
    const away = new Set(s.party.roster.filter((r) => !r.connected).map((r) => r.seat));
    const e = g.last_event;
    const freshClaim = g.claim && e && ["claim_taken", "claim_vote", "claim_rejected", "picked"].includes(e.kind);
    const banner = g.phase === "vote" ? voteBox(g, s, false)
      : freshClaim ? `<div class="dia-claim ${esc(g.claim.status)}" data-testid="tv-claim"><p>${esc(eventText(g, s))}</p>${claimCards(g.claim)}
          ${g.phase === "picking" ? `<p class="small">${esc(pickedList(g, s, g.picking.picked))} ${cd(g.picking.deadline, "dia.pick_left")}</p>`
            : e.kind === "picked" ? `<p class="small">${esc(pickedList(g, s, e.picks))}</p>` : ""}</div>`
      : g.phase === "turning" && !g.table.length && !g.auto ? `<p class="event big">${esc(t("dia.waiting_dealer"))}</p>`
      : "";
    const center = g.phase === "scored" || g.phase === "over" ? endPanel(g, s)
      : `<div class="dia-row tv n${Math.min(g.table.length, 40) > 24 ? "-many" : g.table.length > 14 ? "-more" : ""}" data-testid="tv-row">${g.table.map((c, i) => cardHtml(c, (held.has(c.id) ? "lifted" : "") + (i === g.table.length - 1 && e && e.kind === "turn" ? " new" : ""), `data-card="${c.id}"`)).join("")}</div>`;
    const players = g.players.map((p) => `<li class="${g.dealer === p.seat ? "dealer" : ""} ${away.has(p.seat) ? "away" : ""} ${p.passed ? "passed" : ""}" data-testid="player-${esc(p.seat)}">
        <span class="who" style="color:${PH.colorOf(s, p.seat)}">${g.dealer === p.seat ? "🂠 " : ""}${esc(name(s, p.seat))}</span>
        <b class="n" data-testid="count-${esc(p.seat)}">${p.cards}</b>
        <span class="small">${esc(g.victory_tiles ? t("dia.tiles", { count: p.tiles }) : t("dia.total", { total: p.total }))}</span>
        ${p.min > 3 ? `<i class="tag">${esc(t("dia.handicap_tag"))}</i>` : ""}${p.passed && g.phase === "turning" ? `<i class="tag">${esc(t("dia.passed"))}</i>` : ""}</li>`).join("");
    root.innerHTML = `<div class="dia tv phase-${g.phase}">
      <div class="dia-status tv">
        <span class="rnd" data-testid="tv-round">${esc(roundText(g))}</span>
        <span>${esc(t("dia.dealer", { name: name(s, g.dealer) }))}</span>
        ${tempoText(g) ? `<span data-testid="tv-tempo">${esc(tempoText(g))}</span>` : ""}
        <span class="deck" data-testid="tv-deck">${esc(g.deck_left ? t("dia.deck_left", { count: g.deck_left }) : t("dia.deck_out"))}</span>
        ${countdown(g)}
        ${s.host && g.phase === "turning" && g.deck_left ? `<span class="hostturn">
          <button class="small" data-host-auto="${g.auto ? 0 : 1}" data-testid="tv-auto">${esc(t(g.auto ? "dia.host_pause" : "dia.host_start"))}</button>
          <button class="small" data-host-turn="1" data-testid="tv-turn">${esc(t("dia.host_turn"))}</button></span>` : ""}
        ${g.phase === "scored" ? `<span data-testid="tv-next-dealer">${esc(g.next_dealer ? t("dia.wait_deal", { name: name(s, g.next_dealer) }) : t("dia.deal"))}</span>` : ""}
        ${s.host && g.phase === "scored" ? `<span class="hostturn"><button class="small" data-host-deal="1" data-testid="tv-deal">${esc(t("dia.host_deal"))}</button></span>` : ""}
      </div>
      <div class="dia-banner">${banner}</div>
      <div class="dia-center">${center}</div>
      ${g.phase === "scored" || g.phase === "over" ? "" : `<ul class="players dia-players-tv">${players}</ul>`}
    </div>`;
    wireVote(root);
    /* the host stands in for a dealer whose phone is gone */
    const hauto = root.querySelector("[data-host-auto]");
    if (hauto) hauto.onclick = () => { hauto.disabled = true; PH.hostAct("auto", { on: hauto.dataset.hostAuto === "1" }); };
    /* … and deals the next round when that dealer's phone is gone (else the table is stuck) */
    const hdeal = root.querySelector("[data-host-deal]");
    if (hdeal) hdeal.onclick = () => { hdeal.disabled = true; PH.hostAct("deal", { round: PH.last.game.round + 1 }).then((r) => { if (!r.ok) hdeal.disabled = false; }); };
    const hturn = root.querySelector("[data-host-turn]");
    if (hturn) hturn.onclick = () => { hturn.disabled = true; PH.hostAct("turn", { turned: PH.last.game.turned }); };
  }

  /* ---------- lobby options ---------- */
  function lobby(root, s) {
    const o = Object.assign({ lang: "de", interval: 4, end_seconds: 20, handicap: [], victory_tiles: false, tile_handicap: 10 }, s.party.options || {});
    if (!s.host) {
      root.innerHTML = `<p class="small dia-opts-ro">${esc(t("dia.opt.lang"))}: ${esc(t("dia.opt." + o.lang))} · ${esc(t("dia.opt.interval"))}: ${o.interval}
        ${o.victory_tiles ? " · " + esc(t("dia.opt.victory_tiles")) + ` (${o.tile_handicap})` : ""}</p>`;
      return;
    }
    const seats = s.party.roster.map((r) => r.seat).join(",");
    if (root.dataset.built !== seats) {
      root.dataset.built = seats;
      root.innerHTML = `<div class="dia-opts" data-testid="dia-options">
        <label>${esc(t("dia.opt.lang"))} <select data-opt="lang" data-testid="opt-lang"><option value="de">${esc(t("dia.opt.de"))}</option><option value="en">${esc(t("dia.opt.en"))}</option></select></label>
        <label>${esc(t("dia.opt.interval"))} <input type="number" min="1" max="20" step="1" data-opt="interval" data-testid="opt-interval"></label>
        <label>${esc(t("dia.opt.end_seconds"))} <input type="number" min="5" max="120" step="1" data-opt="end_seconds"></label>
        <label class="check"><input type="checkbox" data-opt="victory_tiles" data-testid="opt-tiles"> ${esc(t("dia.opt.victory_tiles"))}</label>
        <label class="tiles-only">${esc(t("dia.opt.tile_handicap"))} <input type="number" min="0" max="30" step="1" data-opt="tile_handicap"></label>
        ${s.party.roster.length ? `<fieldset><legend>${esc(t("dia.opt.handicap"))}</legend>${s.party.roster.map((r) => `<label class="check"><input type="checkbox" data-handicap="${esc(r.seat)}"> ${esc(r.name)}</label>`).join("")}</fieldset>` : ""}
      </div>`;
      const save = () => {
        const next = {};
        root.querySelectorAll("[data-opt]").forEach((el) => {
          const k = el.dataset.opt;
          if (el.type === "checkbox") next[k] = el.checked;
          else if (el.type === "number") { const v = Number(el.value); if (el.value !== "" && !isNaN(v)) next[k] = Math.min(Number(el.max), Math.max(Number(el.min), Math.round(v))); }
          else next[k] = el.value;
        });
        next.handicap = [...root.querySelectorAll("[data-handicap]")].filter((el) => el.checked).map((el) => el.dataset.handicap);
        PH.setOptions(next);
      };
      root.querySelectorAll("input, select").forEach((el) => { el.onchange = save; });
    }
    root.querySelectorAll("[data-opt]").forEach((el) => {
      if (el === document.activeElement) return;
      const v = o[el.dataset.opt];
      if (el.type === "checkbox") el.checked = !!v; else el.value = String(v);
    });
    root.querySelectorAll("[data-handicap]").forEach((el) => { if (el !== document.activeElement) el.checked = o.handicap.includes(el.dataset.handicap); });
    root.querySelector(".tiles-only").hidden = !o.victory_tiles;
  }

  PH.games.diabolo = { phone, tv, lobby, fold, bestAssignment };
})();
