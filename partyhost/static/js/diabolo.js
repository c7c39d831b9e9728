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
  const name = (s, seat) => PH.nameOf(s, seat);
  const faceHtml = (c) => (c.joker ? `<span class="trident ${c.joker === 2 ? "double" : ""}">${c.joker === 2 ? "ΨΨ" : "Ψ"}</span>` : esc(c.face));
  function cardHtml(c, extra, attrs) {
    return `<span class="dcard ${c.joker ? "joker" : ""} ${c.face.length === 2 && !c.joker ? "pair" : ""} ${extra || ""}" ${attrs || ""}>${faceHtml(c)}</span>`;
  }
  function claimCards(claim) {
    return `<span class="claim-cards">${claim.cards.map((c) => `<span class="dcard mini ${c.face !== c.as ? "joker" : ""}">${esc(c.as)}${c.face !== c.as ? "<sub>Ψ</sub>" : ""}</span>`).join("")}</span>`;
  }
  function roundText(g) {
    return g.rounds ? t("diabolo.round_of", { round: g.round, rounds: g.rounds }) : t("diabolo.round", { round: g.round });
  }
  function tempoText(g) {
    if (!g.deck_left || (g.phase !== "turning" && g.phase !== "vote" && g.phase !== "picking")) return "";
    return g.auto ? t("diabolo.tempo", { seconds: g.interval }) : t("diabolo.paused_turning");
  }
  function countdown(g) {
    if (g.phase !== "turning") return "";
    if (g.end_at != null) return PH.countdown(g.end_at, { label: "diabolo.ends_in", cls: "end", testid: "ends-in" });
    if (g.next_turn_at != null) return PH.countdown(g.next_turn_at, { label: "diabolo.next_in" });
    return "";
  }
  function eventText(g, s) {
    const e = g.last_event;
    if (!e) return "";
    const c = g.claim;
    switch (e.kind) {
      case "claim_taken": return t("diabolo.claim_taken", { name: name(s, e.seat), word: e.word, count: e.count });
      case "claim_vote": return t("diabolo.claim_vote", { name: name(s, e.seat), word: e.word });
      case "claim_rejected": return t("diabolo.claim_rejected", { name: name(s, e.seat), word: e.word });
      case "picked": return c ? t("diabolo.claim_rejected", { name: name(s, c.seat), word: c.word }) : "";
      case "deal": return t("diabolo.dealer", { name: name(s, e.dealer) });
      case "auto": return e.away ? t("diabolo.auto_away", { name: name(s, e.away) }) : "";
      case "round_end": return t("diabolo.round_end", { round: e.round });
      case "over": return t("diabolo.final");
      default: return "";
    }
  }
  function pickedList(g, s, picks) {
    return PH.list(Object.entries(picks || {}).map(([seat, p]) =>
      p.from === "table" ? t("diabolo.picked", { name: name(s, seat), face: p.face === "?" || p.face === "??" ? "Ψ" : p.face })
      : p.from === "deck" ? t("diabolo.picked_deck", { name: name(s, seat) }) : t("diabolo.picked_none", { name: name(s, seat) })));
  }
  /* The table vote on a word the list does not know: the kit's box (ballots and overrule carry
     the vote id that was drawn), the word and its cards as subject. mode: "phone" or "tv". */
  /* A Ψ card reads as a Greek letter until someone says what it is: while one lies face up, the
     TV says it (and the same for ΨΨ). */
  function jokerNote(g) {
    const kinds = new Set((g.table || []).filter((c) => c.joker).map((c) => c.joker));
    return [...kinds].sort().map((k) => `<p class="dia-joker-note" data-testid="joker-note-${k}">${esc(t(k === 2 ? "diabolo.joker2_intro" : "diabolo.joker_intro"))}</p>`).join("");
  }
  /* The game's word language, named wherever a table might forget it (German by default). */
  const langName = (g) => t("diabolo.opt." + ((g && g.lang) || "de"));
  function voteBox(g, s, mode) {
    if (!g.vote || !g.claim) return "";
    return PH.voteBox(s, g.vote, { mode, cls: "dia-vote",
      subject: `<p class="ask">${esc(t("diabolo.claim_vote", { name: name(s, g.claim.seat), word: g.claim.word }))}</p>
        <p class="ask vote-lang" data-testid="vote-lang">${esc(t("diabolo.vote_lang", { word: g.claim.word, lang: langName(g) }))}</p>${claimCards(g.claim)}` });
  }
  /* The scores by round; at the game's end it is the game's own ranking (`g.places`, from its
     outcome: best total, or most tiles, first; equal standing shares a place), drawn as it is,
     each row with its place number. */
  function scoresTable(g, s) {
    const rounds = g.results;
    const ranked = !!g.places;
    const bySeat = new Map(g.players.map((p) => [p.seat, p]));
    const order = ranked ? PH.reveal.placed(g.places).filter((r) => bySeat.has(r.seat)) : g.players.map((p) => ({ seat: p.seat }));
    const players = order.map((r) => ({ ...bySeat.get(r.seat), place: r.place }));
    const head = rounds.map((r) => `<th title="${esc(name(s, r.dealer))}">${r.round}</th>`).join("");
    const me = s.me && s.me.seat;  /* a phone's own row says あなた/you (PH.reveal.youTag) */
    const rows = players.map((p) => `<tr class="${g.winners.includes(p.seat) ? "win" : ""}${me && p.seat === me ? " me" : ""}" data-seat="${esc(p.seat)}"${ranked ? ` data-place="${p.place}"` : ""}>
        ${ranked ? `<td class="pl" data-testid="place-${esc(p.seat)}"><span class="pn">${p.place}</span></td>` : ""}
        <th style="color:${PH.colorOf(s, p.seat)}">${PH.markOf(s, p.seat)}${esc(name(s, p.seat))}${me && p.seat === me ? PH.reveal.youTag() : ""}</th>
        ${rounds.map((r) => `<td class="${r.tiles.includes(p.seat) ? "tile" : ""}">${r.cards[p.seat] != null ? r.cards[p.seat] : "–"}</td>`).join("")}
        <td class="tot" data-testid="total-${esc(p.seat)}">${g.victory_tiles ? "★".repeat(p.tiles) || "0" : p.total}</td></tr>`).join("");
    return `<table class="dia-scores ${ranked ? "ranked" : ""}" data-testid="scores"><thead><tr>${ranked ? `<th>${esc(t("reveal.ranking"))}</th>` : ""}<th></th>${head}<th>${esc(g.victory_tiles ? "★" : t("diabolo.total_head"))}</th></tr></thead><tbody>${rows}</tbody></table>`;
  }
  /* `headline`: false on a phone whose shared result line (PH.reveal) already says who won */
  function endPanel(g, s, headline = true) {
    const last = g.results[g.results.length - 1];
    const tiles = last && last.tiles.length ? `<p class="tilewin">${esc(t("diabolo.tile_won", { names: PH.list(last.tiles.map((x) => name(s, x))) }))}</p>` : "";
    return `<div class="dia-end" data-testid="round-end">
      ${g.phase === "over" ? (headline ? `<div class="result won" data-testid="winner">${esc(t("diabolo.winner", { names: PH.list(g.winners.map((x) => name(s, x))) }))}</div>` : "")
        : `<h2>${esc(t("diabolo.round_end", { round: g.round }))}</h2>`}
      ${tiles}${scoresTable(g, s)}
      <div class="possible" data-testid="possible"><span>${esc(t("diabolo.possible_label"))}</span>
        ${g.possible.length ? g.possible.map((w) => `<b>${esc(w)}</b>`).join("") : `<i>${esc(t("diabolo.none_possible"))}</i>`}</div>
    </div>`;
  }

  /* ---------- phone ---------- */
  let sel = [];           /* tapped cards in spelling order: [{id, as}] */
  let jokerFor = null;    /* the joker card waiting for its letter(s): {id, joker, have} */
  let composeRound = 0;
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

  /* The phone's screen: the word field and its buttons live in the skeleton (one per game; a
     language switch rebuilds it, keeping what was typed), the rest are parts the kit redraws. */
  const skeleton = () => `<div class="dia phone">
      <div class="dia-status" data-testid="status" data-part="status"></div>
      <div class="dia-event-slot" data-part="event"></div>
      <div class="dia-dealer-slot" data-part="dealer"></div>
      <div class="dia-vote-slot" data-part="vote"></div>
      <div class="dia-row-slot" data-part="row"></div>
      <div class="dia-compose" data-testid="compose">
        <div class="dia-spell" data-testid="spell" data-part="spell"></div>
        <div class="dia-joker" data-testid="joker-picker" data-part="joker" hidden></div>
        <input data-testid="word" autocomplete="off" autocapitalize="characters" spellcheck="false" enterkeyhint="send" placeholder="${esc(t("diabolo.type_word_lang", { lang: langName(PH.last && PH.last.game) }))}">
        <p class="small dia-preview" data-testid="preview"></p>
        <div class="row send-row sticky-primary"><button class="primary big" data-testid="send">${esc(t("diabolo.send"))}</button></div>
        <div class="row undo-row"><button class="small" data-testid="undo">${esc(t("diabolo.back"))}</button><button class="small" data-testid="clear">${esc(t("diabolo.clear"))}</button></div>
      </div>
      <div class="dia-bottom" data-part="bottom"></div>
    </div>`;

  function build(root) {
    const input = root.querySelector("[data-testid=word]");
    input.addEventListener("input", () => { if (input.value) { sel = []; jokerFor = null; } PH.refresh(); });
    input.addEventListener("keydown", (e) => {
      if (e.key !== "Enter" || e.isComposing || e.keyCode === 229) return;
      e.preventDefault();
      root.querySelector("[data-testid=send]").click();
    });
    root.querySelector("[data-testid=clear]").onclick = () => { sel = []; jokerFor = null; input.value = ""; PH.refresh(); };
    root.querySelector("[data-testid=undo]").onclick = () => { if (jokerFor) jokerFor = null; else sel.pop(); PH.refresh(); };
    PH.guard(root.querySelector("[data-testid=send]"), () => {
      const s = PH.last; const g = s && s.game;
      if (!g) return null;
      const p = plan(root, g);
      if (!p) return null;
      if (!p.cards) { PH.toast(t("diabolo.cannot_spell"), true); PH.buzz([60, 40, 60]); return null; }
      return PH.act({ type: "claim", round: g.round, word: p.word, cards: p.cards }).then((r) => {
        if (r.ok) { sel = []; jokerFor = null; input.value = ""; }
        return r;
      });
    });
  }

  function phone(root, s) {
    const g = s.game;
    const sc = PH.mount(root, "diabolo:" + s.party.serial, skeleton(), () => build(root));
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

    sc.draw("status", `<span data-testid="round">${esc(roundText(g))}</span>
      <span>${esc(t("diabolo.dealer", { name: name(s, g.dealer) }))}</span>
      <span data-testid="deck-left">${esc(g.deck_left ? t("diabolo.deck_left", { count: g.deck_left }) : t("diabolo.deck_out"))}</span>
      ${mine ? `<span class="mine" data-testid="my-cards">${esc(t("diabolo.cards", { count: mine.cards }))}${mine.min > 3 ? ` <i class="tag">${esc(t("diabolo.handicap_tag"))}</i>` : ""}</span>` : ""}
      ${countdown(g)}`);
    const ev = eventText(g, s);
    sc.draw("event", ev && ["turning", "picking"].includes(g.phase)
      ? `<p class="event ${esc(g.last_event.kind)}" data-testid="event">${esc(ev)}</p>` : "");

    /* the dealer's tempo */
    const dealerHtml = playing && dealer && g.phase === "turning" && g.deck_left ? `<div class="dia-dealer" data-testid="dealer">
        <p class="small">${esc(t("diabolo.you_deal"))} · ${esc(tempoText(g))}</p>
        <div class="row">
          <button class="${g.auto ? "" : "primary"}" data-auto="${g.auto ? 0 : 1}" data-testid="auto">${esc(t(g.auto ? "diabolo.pause" : "diabolo.start"))}</button>
          <button data-turn="1" data-testid="turn">${esc(t("diabolo.turn_now"))}</button>
        </div>
        <div class="row tempo">
          <button class="small" data-tempo="${Math.min(20, g.interval + 1)}" data-testid="slower">${esc(t("diabolo.slower"))}</button>
          <b class="interval" data-testid="interval">${esc(t("diabolo.interval", { seconds: g.interval }))}</b>
          <button class="small" data-tempo="${Math.max(1, g.interval - 1)}" data-testid="faster">${esc(t("diabolo.faster"))}</button>
        </div></div>` : "";
    sc.draw("dealer", dealerHtml, (el) => {
      const auto = el.querySelector("[data-auto]");
      PH.guard(auto, () => PH.act({ type: "auto", round: PH.last.game.round, on: auto.dataset.auto === "1" }), { key: "dia-auto" });
      /* one card per tap: the guard holds the button until the card's state came back, and a
         finger's double tap (two taps ~100 ms apart, the second after that state) must not turn
         two either, so taps closer than TURN_GAP_MS count once */
      PH.guard(el.querySelector("[data-turn]"), () => {
        const at = Date.now();
        if (at - lastTurnTap < TURN_GAP_MS) return null;
        lastTurnTap = at;
        const gg = PH.last.game;
        return PH.act({ type: "turn", round: gg.round, turned: gg.turned });
      }, { key: "dia-turn" });
      el.querySelectorAll("[data-tempo]").forEach((b) => { b.onclick = () => PH.act({ type: "tempo", seconds: Number(b.dataset.tempo) }); });
    });

    sc.draw("vote", g.phase === "vote" ? voteBox(g, s, "phone") : ""); /* the kit wires its ballots */

    /* the face-up row: tap to spell, or to pick after a rejected word */
    const picking = g.phase === "picking" && g.picking && playing;
    const myPick = picking && g.picking.pickers.includes(me) && !(me in g.picking.picked);
    const p = g.phase === "turning" && playing ? plan(root, g) : null;
    const order = new Map();
    if (p && p.cards) p.cards.forEach((c, i) => order.set(c.id, i + 1));
    const held = g.claim && g.claim.status === "vote" ? new Set(g.claim.cards.map((c) => c.id)) : new Set();
    const canTap = playing && (g.phase === "turning" || myPick);
    const ended = g.phase === "scored" || g.phase === "over";
    sc.draw("row", ended ? "" : `
      ${myPick ? `<p class="event picking" data-testid="pick-prompt">${esc(t("diabolo.pick_prompt"))} ${PH.countdown(g.picking.deadline)}</p>` : ""}
      ${picking && !myPick ? `<p class="note">${esc(t("diabolo.pick_wait"))} · ${esc(pickedList(g, s, g.picking.picked))}</p>` : ""}
      <div class="dia-row ${canTap ? "tappable" : ""} ${g.table.length > 30 ? "many" : g.table.length > 18 ? "more" : ""}" data-testid="row">${g.table.length ? g.table.map((c) => `<button class="dcard ${c.joker ? "joker" : ""} ${c.face.length === 2 && !c.joker ? "pair" : ""} ${order.has(c.id) ? "sel" : ""} ${held.has(c.id) ? "held" : ""}"
          data-card="${c.id}" data-face="${esc(c.face)}" ${canTap && !held.has(c.id) ? "" : "disabled"}>${faceHtml(c)}${order.has(c.id) ? `<i>${order.get(c.id)}</i>` : ""}</button>`).join("")
        : `<p class="note">${esc(t("diabolo.empty_row"))}</p>`}</div>`, (el) => PH.guard(el.querySelectorAll("[data-card]"), (b) => {
      /* a tap spells (nothing sent), or picks a card after a rejected word (one request) */
      const id = Number(b.dataset.card);
      const gg = PH.last.game;
      if (gg.phase === "picking") return PH.act({ type: "pick", round: gg.round, card: id });
      const card = gg.table.find((c) => c.id === id);
      if (!card) return null;
      const input = root.querySelector("[data-testid=word]");
      if (input.value) input.value = ""; /* tapping takes over from typing */
      const at = sel.findIndex((x) => x.id === id);
      if (at >= 0) sel.splice(at, 1); /* tap again: take it out */
      else if (card.joker) jokerFor = { id, joker: card.joker, have: "" };
      else sel.push({ id });
      PH.refresh();
      /* the letters just opened: they and 宣言! come on screen together */
      if (jokerFor && jokerFor.id === id) PH.keepInView(sc.part("joker"), root.querySelector(".send-row"));
      return null;
    }, { key: "dia-pick" }));

    /* the word being built */
    const compose = root.querySelector(".dia-compose");
    compose.hidden = !(playing && g.phase === "turning");
    if (!compose.hidden) {
      const byId = new Map(g.table.map((c) => [c.id, c]));
      const pieces = p && p.cards ? p.cards.map((c) => ({ face: byId.get(c.id).face, as: c.as || byId.get(c.id).face, joker: byId.get(c.id).joker })) : [];
      sc.draw("spell", pieces.length
        ? pieces.map((c) => `<span class="dcard mini ${c.joker ? "joker" : ""}">${esc(c.as)}${c.joker ? "<sub>Ψ</sub>" : ""}</span>`).join("")
        : `<span class="small">${esc(t("diabolo.tap_hint"))}</span>`);
      const preview = root.querySelector(".dia-preview");
      const min = mine ? mine.min : 3;
      preview.textContent = !p ? t("diabolo.min_cards", { min })
        : !p.cards ? t("diabolo.cannot_spell")
        : `${p.word} · ${t("diabolo.will_take", { count: p.cards.length })}${p.cards.length < min ? " · " + t("diabolo.min_cards", { min }) : ""}`;
      preview.className = "small dia-preview" + (p && (!p.cards || p.cards.length < min) ? " bad" : "");
      /* (while a claim is on its way the kit holds this button, whatever is set here) */
      root.querySelector("[data-testid=send]").disabled = !p || !p.cards || p.cards.length < min || !!jokerFor;
      sc.part("joker").hidden = !jokerFor;
      compose.classList.toggle("joker-open", !!jokerFor); /* the letters take the typing's room */
      compose.classList.toggle("armed", !!(jokerFor || p)); /* a word under way: 宣言! stays on screen */
      sc.draw("joker", !jokerFor ? "" : `<p>${esc(jokerFor.joker === 2 ? t("diabolo.joker_pick2", { have: jokerFor.have ? jokerFor.have + "_" : "__" }) : t("diabolo.joker_pick"))}</p>
        <div class="letters">${LETTERS.map((l) => `<button data-letter="${l}">${l}</button>`).join("")}</div>
        <button class="small" data-testid="joker-cancel">${esc(t("diabolo.cancel"))}</button>`, (el) => {
        el.querySelectorAll("[data-letter]").forEach((b) => {
          b.onclick = () => {
            if (!jokerFor) return;
            jokerFor.have += b.dataset.letter;
            if (jokerFor.have.length >= jokerFor.joker) { sel.push({ id: jokerFor.id, as: jokerFor.have }); jokerFor = null; }
            PH.refresh();
          };
        });
        const cancel = el.querySelector("[data-testid=joker-cancel]");
        if (cancel) cancel.onclick = () => { jokerFor = null; PH.refresh(); };
      });
    }

    /* pass, scores, the next deal */
    let html = "";
    if (playing && g.phase === "turning" && !g.deck_left) {
      html += `<div class="row"><button data-pass="1" data-testid="pass" ${mine.passed ? "disabled" : ""}>${esc(t(mine.passed ? "diabolo.passed" : "diabolo.pass"))}</button></div>`;
    }
    if (g.phase === "scored" || g.phase === "over") {
      html += endPanel(g, s, !(g.phase === "over" && PH.reveal && PH.reveal.said(s)));
      if (g.phase === "scored") {
        const mayDeal = playing && (g.next_dealer === me || g.next_dealer == null);
        html += mayDeal ? `<button class="primary big" data-deal="1" data-testid="deal">${esc(t("diabolo.deal"))}</button>`
          : `<p class="note">${esc(t("diabolo.wait_deal", { name: name(s, g.next_dealer) }))}</p>`;
      }
    } else {
      /* an away seat says so in words, as on the TV (app.css .seat-list frames it) */
      const away = new Set(s.party.roster.filter((r) => !r.connected).map((r) => r.seat));
      html += `<ul class="dia-players seat-list">${g.players.map((pl) => `<li class="${away.has(pl.seat) ? "away" : ""}" data-seat="${esc(pl.seat)}" style="border-color:${PH.colorOf(s, pl.seat)}">${PH.markOf(s, pl.seat)}<span>${esc(name(s, pl.seat))}</span>${away.has(pl.seat) ? `<span class="tag away">${esc(t("roster.away"))}</span>` : ""}<b>${pl.cards}</b></li>`).join("")}</ul>`;
    }
    sc.draw("bottom", html, (el) => {
      PH.guard(el.querySelector("[data-pass]"), () => PH.act({ type: "pass", round: PH.last.game.round }), { key: "dia-pass" });
      PH.guard(el.querySelector("[data-deal]"), () => PH.act({ type: "deal", round: PH.last.game.round + 1 }), { key: "dia-deal" });
    });
  }

  function feel(g, s) {
    PH.react("diabolo.phone", s, g.last_event, (e) => {
      if (e.kind === "claim_vote" || e.kind === "claim_rejected") PH.buzz([80, 60, 80]);
      else if (e.kind === "claim_taken") PH.buzz(e.seat === (s.me && s.me.seat) ? [60, 40, 160] : 40);
      else if (e.kind === "round_end" || e.kind === "over") PH.buzz([50, 50, 150]);
    });
  }

  /* ---------- TV ---------- */
  function sound(g, s) {
    PH.react("diabolo.tv", s, g.last_event, (e) => {
      if (e.kind === "turn") PH.beep(660, 60);
      else if (e.kind === "claim_taken") { PH.beep(523, 100); setTimeout(() => PH.beep(784, 160), 100); }
      else if (e.kind === "claim_vote") PH.beep(440, 200, "triangle");
      else if (e.kind === "claim_rejected") PH.beep(150, 400, "sawtooth");
      else if (e.kind === "round_end") PH.sound.cue("level");
      else if (e.kind === "over") PH.sound.cue("win");
    });
  }

  /* The round's claim log beside the row: who took which word and how many cards (newest first),
     rejected words struck through, the round's best claim (the most cards; the first of equals)
     starred. It stays up through the round's scores. */
  function logHtml(g, s) {
    const log = g.log || [];
    const best = g.log_best == null ? -1 : g.log_best;  /* the game says which claim is best */
    const items = log.map((c, i) => `<li class="${esc(c.status)}${i === best ? " best" : ""}" data-testid="log-claim" data-seat="${esc(c.seat)}">
        ${PH.markOf(s, c.seat)}<span class="who" style="color:${PH.colorOf(s, c.seat)}">${esc(name(s, c.seat))}</span>
        <span class="w">${esc(c.word)}</span><b>${c.status === "taken" ? "+" + c.count : esc(t("diabolo_reveal.rejected"))}</b></li>`).reverse();
    const shown = items.slice(0, 9);
    return `<aside class="dia-log" data-testid="claim-log"><h3>${esc(t("diabolo_reveal.log_title", { round: g.round }))}</h3>
      ${shown.length ? `<ol>${shown.join("")}</ol>${items.length > shown.length ? `<p class="more" data-extra="${items.length - shown.length}">${esc(t("diabolo_reveal.more", { count: items.length - shown.length }))}</p>` : ""}`
        : `<p class="small">${esc(t("diabolo_reveal.log_empty"))}</p>`}
      ${best >= 0 ? `<p class="best-note">★ ${esc(t("diabolo_reveal.log_best"))}</p>` : ""}</aside>`;
  }

  function tv(root, s) {
    const g = s.game;
    sound(g, s);
    const held = g.claim && g.claim.status === "vote" ? new Set(g.claim.cards.map((c) => c.id)) : new Set();
    const away = new Set(s.party.roster.filter((r) => !r.connected).map((r) => r.seat));
    const e = g.last_event;
    const freshClaim = g.claim && e && ["claim_taken", "claim_vote", "claim_rejected", "picked"].includes(e.kind);
    const banner = g.phase === "vote" ? voteBox(g, s, "tv")
      /* while the others pick, two lines: what happens (the cards below spell the word, the log
         beside names its player) and how many have picked, whatever the names' length */
      : freshClaim ? `<div class="dia-claim ${esc(g.claim.status)}" data-testid="tv-claim"><p>${esc(g.phase === "picking" ? t("diabolo.pick_everyone") : eventText(g, s))}</p>${claimCards(g.claim)}
          ${g.phase === "picking" ? `<p class="small" data-testid="tv-pick-progress">${esc(t("diabolo.pick_progress", { picked: Object.keys(g.picking.picked || {}).length, total: (g.picking.pickers || []).length }))} ${PH.countdown(g.picking.deadline)}</p>`
            : e.kind === "picked" ? `<p class="small">${esc(pickedList(g, s, e.picks))}</p>` : ""}</div>`
      : g.phase === "turning" && !g.table.length && !g.auto ? `<p class="event big">${esc(t("diabolo.waiting_dealer"))}</p>`
      : "";
    const center = g.phase === "scored" || g.phase === "over" ? endPanel(g, s)
      : `<div class="dia-row tv n${Math.min(g.table.length, 40) > 24 ? "-many" : g.table.length > 14 ? "-more" : ""}" data-testid="tv-row">${g.table.map((c, i) => cardHtml(c, (held.has(c.id) ? "lifted" : "") + (i === g.table.length - 1 && e && e.kind === "turn" ? " new" : ""), `data-card="${c.id}"`)).join("")}</div>${jokerNote(g)}`;
    const players = g.players.map((p) => `<li class="${g.dealer === p.seat ? "dealer" : ""} ${away.has(p.seat) ? "away" : ""} ${p.passed ? "passed" : ""}" data-testid="player-${esc(p.seat)}">
        ${PH.markOf(s, p.seat)}<span class="who" style="color:${PH.colorOf(s, p.seat)}">${g.dealer === p.seat ? "🂠 " : ""}${esc(name(s, p.seat))}</span>
        ${away.has(p.seat) ? `<span class="tag away">${esc(t("roster.away"))}</span>` : ""}
        <b class="n" data-testid="count-${esc(p.seat)}">${p.cards}</b>
        <span class="small">${esc(g.victory_tiles ? t("diabolo.tiles", { count: p.tiles }) : t("diabolo.total", { total: p.total }))}</span>
        ${p.min > 3 ? `<i class="tag">${esc(t("diabolo.handicap_tag"))}</i>` : ""}${p.passed && g.phase === "turning" ? `<i class="tag">${esc(t("diabolo.passed"))}</i>` : ""}</li>`).join("");
    PH.patch(root, `<div class="dia tv phase-${g.phase}${g.phase === "over" ? "" : " with-log"}">
      <div class="dia-status tv">
        <span class="rnd" data-testid="tv-round">${esc(roundText(g))}</span>
        <span class="lang" data-testid="tv-lang">${esc(t("diabolo.tv_lang", { lang: langName(g) }))}</span>
        <span>${esc(t("diabolo.dealer", { name: name(s, g.dealer) }))}</span>
        ${tempoText(g) ? `<span data-testid="tv-tempo">${esc(tempoText(g))}</span>` : ""}
        <span class="deck" data-testid="tv-deck">${esc(g.deck_left ? t("diabolo.deck_left", { count: g.deck_left }) : t("diabolo.deck_out"))}</span>
        ${countdown(g)}
        ${s.host && g.phase === "turning" && g.deck_left ? `<span class="hostturn">
          <button class="small" data-host-auto="${g.auto ? 0 : 1}" data-testid="tv-auto">${esc(t(g.auto ? "diabolo.host_pause" : "diabolo.host_start"))}</button>
          <button class="small" data-host-turn="1" data-testid="tv-turn">${esc(t("diabolo.host_turn"))}</button></span>` : ""}
        ${g.phase === "scored" ? `<span data-testid="tv-next-dealer">${esc(g.next_dealer ? t("diabolo.wait_deal", { name: name(s, g.next_dealer) }) : t("diabolo.deal"))}</span>` : ""}
        ${s.host && g.phase === "scored" ? `<span class="hostturn"><button class="small" data-host-deal="1" data-testid="tv-deal">${esc(t("diabolo.host_deal"))}</button></span>` : ""}
      </div>
      <div class="dia-banner">${banner}</div>
      <div class="dia-center">${center}</div>${g.phase === "over" ? "" : logHtml(g, s)}
      ${g.phase === "scored" || g.phase === "over" ? "" : `<ul class="players dia-players-tv">${players}</ul>`}
    </div>`, (el) => {
      /* the host stands in for a dealer whose phone is gone (the vote box wires itself) */
      const hauto = el.querySelector("[data-host-auto]");
      PH.guard(hauto, () => PH.hostAct("auto", { on: hauto.dataset.hostAuto === "1" }), { key: "dia-host-auto" });
      /* … and deals the next round when that dealer's phone is gone (else the table is stuck) */
      PH.guard(el.querySelector("[data-host-deal]"), () => PH.hostAct("deal", { round: PH.last.game.round + 1 }), { key: "dia-host-deal" });
      PH.guard(el.querySelector("[data-host-turn]"), () => PH.hostAct("turn", { turned: PH.last.game.turned }), { key: "dia-host-turn" });
      /* the log keeps the newest claims that fit its room; the older ones are counted */
      const log = el.querySelector(".dia-log ol");
      if (log) {
        const items = [...log.children];
        let hidden = 0;
        const box = el.querySelector(".dia-log");
        for (let i = items.length - 1; i > 0 && box.scrollHeight > box.clientHeight + 1; i--) { items[i].hidden = true; hidden += 1; }
        const more = box.querySelector(".more") || box.appendChild(Object.assign(document.createElement("p"), { className: "more" }));
        more.hidden = !hidden && !box.dataset.more;
        if (hidden) more.textContent = t("diabolo_reveal.more", { count: hidden + Number(more.dataset.extra || 0) });
      }
    });
  }

  /* ---------- lobby options ---------- */
  function lobby(root, s) {
    const o = Object.assign({ lang: "de", interval: 4, end_seconds: 20, handicap: [], victory_tiles: false, tile_handicap: 10 }, s.party.options || {});
    if (!s.host) {
      PH.patch(root, `<p class="small dia-opts-ro">${esc(t("list.label", { label: t("diabolo.opt.lang") }))}${esc(t("diabolo.opt." + o.lang))} · ${esc(t("list.label", { label: t("diabolo.opt.interval_label") }))}${esc(t("diabolo.interval", { seconds: o.interval }))}
        ${o.victory_tiles ? " · " + esc(t("diabolo.opt.victory_tiles")) + esc(t("list.paren", { text: o.tile_handicap })) : ""}</p>`);
      return;
    }
    /* the controls are built once per roster (and language); their values follow the options
       below, except the one being edited */
    /* each option with its one-line explanation under it (the TV and the host's phone) */
    const help = (name, label) => PH.optHelp("diabolo", name, null, label);
    PH.mount(root, "diabolo-options:" + PH.lang + JSON.stringify(s.party.roster.map((r) => [r.seat, r.name])), `<div class="dia-opts" data-testid="dia-options">
        <div class="opt"><label>${esc(t("diabolo.opt.lang"))} <select data-opt="lang" data-testid="opt-lang"><option value="de">${esc(t("diabolo.opt.de"))}</option><option value="en">${esc(t("diabolo.opt.en"))}</option></select></label>${help("lang", "diabolo.opt.lang")}</div>
        <div class="opt"><label>${esc(t("diabolo.opt.interval"))} <input type="number" min="1" max="20" step="1" data-opt="interval" data-testid="opt-interval"></label>${help("interval", "diabolo.opt.interval_label")}</div>
        <div class="opt"><label>${esc(t("diabolo.opt.end_seconds"))} <input type="number" min="5" max="120" step="1" data-opt="end_seconds"></label>${help("end_seconds", "diabolo.opt.end_seconds")}</div>
        <div class="opt"><label class="check"><input type="checkbox" data-opt="victory_tiles" data-testid="opt-tiles"> ${esc(t("diabolo.opt.victory_tiles"))}</label>${help("victory_tiles", "diabolo.opt.victory_tiles")}</div>
        <div class="opt tiles-only"><label>${esc(t("diabolo.opt.tile_handicap"))} <input type="number" min="0" max="30" step="1" data-opt="tile_handicap"></label>${help("tile_handicap", "diabolo.opt.tile_handicap")}</div>
        ${s.party.roster.length ? `<fieldset><legend>${esc(t("diabolo.opt.handicap"))}</legend>${help("handicap", "diabolo.opt.handicap")}${s.party.roster.map((r) => `<label class="check"><input type="checkbox" data-handicap="${esc(r.seat)}"> ${esc(r.name)}</label>`).join("")}</fieldset>` : ""}
      </div>`, () => {
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
    });
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
