/* Word Basket: phone and TV renderers of the views that partyhost/games/word_basket.py computes.
 *
 * The server decides every play. The phone also reads the typed word itself (the same steps as
 * partyhost/lexicon/kana.py: NFKC, katakana → hiragana, length, first and last kana) so it can
 * light up the cards the word fits at once, and say why when none does. A word typed in kanji is
 * looked up on the server ("lookup" action); its reading is shown before any card can be played.
 */
"use strict";

(() => {
  const { t, esc } = PH;

  /* ---------- reading a word (mirror of partyhost/lexicon/kana.py; the server has the last word) ---------- */
  const LONG = "ー";
  const MARKS = /[\u3099\u309a]/g;
  const DROP = new Set("・゠=");
  const DASHES = new Set("-‐‑‒–—―−~〜");
  const SMALL = "ぁぃぅぇぉゃゅょっゎゕゖ", LARGE = "あいうえおやゆよつわかけ";
  const VOWELS = {
    "あ": "あかさたなはまやらわぁゃゎゕ", "い": "いきしちにひみりゐぃ", "う": "うくすつぬふむゆるぅゅっゔ",
    "え": "えけせてねへめれゑぇゖ", "お": "おこそとのほもよろをぉょ",
  };
  const VOWEL = {};
  for (const [v, ks] of Object.entries(VOWELS)) for (const k of ks) VOWEL[k] = v;
  const isHira = (c) => c >= "\u3041" && c <= "\u3096";
  /* a kanji (or 々): only such a word may have a dictionary reading (as the server's _has_kanji) */
  const KANJI = /[\u3005\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u{20000}-\u{3134f}]/u;

  function plain(k) { return k.normalize("NFD").replace(MARKS, "").normalize("NFC"); }
  function large(k) { const i = SMALL.indexOf(k); return i < 0 ? k : LARGE[i]; }

  function normalize(text) {
    let kept = "";
    for (const ch of text.normalize("NFKC")) {
      if (/\s/.test(ch) || DROP.has(ch) || /\p{Cf}/u.test(ch)) continue;
      kept += DASHES.has(ch) ? LONG : ch;
    }
    let out = [];
    for (const ch of kept.normalize("NFC")) {
      const c = ch.codePointAt(0);
      /* ァ‥ヶ and ヽヾ → hiragana; ヷヸヹヺ have none and stay (not kana: the server says so too) */
      const h = (c >= 0x30a1 && c <= 0x30f6) || c === 0x30fd || c === 0x30fe ? String.fromCodePoint(c - 0x60) : ch;
      if ((h === "ゝ" || h === "ゞ") && out.length && isHira(plain(out[out.length - 1]))) {
        const base = plain(out[out.length - 1]);
        out.push(h === "ゝ" ? base : (base + "\u3099").normalize("NFC"));
      } else out.push(h);
    }
    return out.join("");
  }

  /* {kana, length, first, last, endsN} or {error: code, params} (codes as the server's) */
  function reading(text) {
    const k = normalize(text);
    if (!k) return { error: "word_empty", params: {} };
    const units = [];
    for (const ch of k) {
      if (ch === "\u3099" || ch === "\u309a") {
        if (!units.length) return { error: "word_not_kana", params: { char: ch } };
        units[units.length - 1] += ch;
      } else if (isHira(ch) || ch === LONG) units.push(ch);
      else return { error: "word_not_kana", params: { char: ch } };
    }
    if (units[0] === LONG) return { error: "word_not_kana", params: { char: LONG } };
    if (units.length > 30) return { error: "word_too_long", params: { max: 30, length: units.length } };
    let end = units.length - 1;
    while (units[end] === LONG) end--;
    const base = plain(units[end]);
    const last = units[units.length - 1] === LONG ? (VOWEL[base] || base) : plain(large(base));
    return { kana: k, length: units.length, first: plain(units[0]), last, endsN: last === "ん" };
  }

  const cardLabel = (c) => (c.kind === "kana" ? c.kana : c.kind === "number" ? (c.number === 7 ? "7+" : String(c.number)) : c.row + t("word_basket.ui.row_suffix"));
  function fieldLabel(f) {
    if (!f) return "";
    if (f.kana) return f.kana;
    if (f.row) return f.row + t("word_basket.ui.row_suffix");
    return t("word_basket.ui.field_any");
  }

  /* Why ``card`` cannot take reading ``r`` on ``field`` (null when it fits): the checks and
     codes of WordBasket.fit_error, in the same order. */
  function fitError(g, me, hand, card, r, field) {
    if (r.endsN) return { code: "word_ends_n", params: { word: r.kana } };
    const lastCard = hand.length === 1;
    const min = lastCard ? me.min_last : me.min;
    if (r.length < min) return { code: lastCard ? "last_word_too_short" : "word_too_short", params: { min, length: r.length } };
    if (field.kana) {
      if (r.first !== plain(field.kana)) return { code: "wrong_start", params: { field: field.kana, first: r.first } };
    } else if (field.row) {
      if (!(g.rows[field.row] || "").includes(r.first)) return { code: "wrong_start_row", params: { row: field.row, first: r.first } };
    }
    if (card.kind === "kana" && r.last !== card.kana) return { code: "wrong_end", params: { card: card.kana, last: r.last } };
    if (card.kind === "row" && !(card.kana || g.rows[card.row] || "").includes(r.last)) return { code: "wrong_end_row", params: { row: card.row, last: r.last } };
    if (card.kind === "number") {
      const n = card.number;
      if ((n === 7 && r.length < 7) || (n !== 7 && r.length !== n)) return { code: "wrong_length", params: { card: cardLabel(card), length: r.length } };
    }
    /* words, not readings: 白紙 then 博士 (both はくし) is no repeat (WordBasket.same_word) */
    const otherWriting = r.surface && g.last_surface && KANJI.test(r.surface) && r.surface !== g.last_surface;
    if (g.last_word && g.last_word === r.kana && !otherWriting) return { code: "word_repeated", params: { word: r.kana } };
    return null;
  }

  /* ---------- shared pieces ---------- */
  const name = (s, seat) => PH.nameOf(s, seat);
  const who = (s, seat) => `${PH.markOf(s, seat)}<b class="who" style="color:${PH.colorOf(s, seat)}">${esc(name(s, seat))}</b>`;

  function eventText(e, s) {
    if (!e) return "";
    const n = (seat) => name(s, seat);
    switch (e.kind) {
      case "start": return t("word_basket.ui.ev.start", { field: fieldLabel(e.field) });
      case "play": return t(e.unknown ? "word_basket.ui.ev.play_unknown" : "word_basket.ui.ev.play", { name: n(e.seat), word: e.word });
      case "reach": return t("word_basket.ui.ev.reach", { name: n(e.seat) });
      case "race": return t(e.tie ? "word_basket.ui.ev.race_tie" : "word_basket.ui.ev.race", { winner: n(e.winner), loser: n(e.loser), ms: msText(e.margin_ms) });
      case "reset": return t("word_basket.ui.ev.reset", { name: n(e.seat), count: e.count, draw: e.draw, field: fieldLabel(e.field) });
      case "reshuffle": return t("word_basket.ui.ev.reshuffle", { field: fieldLabel(e.field) });
      case "penalty":
        return e.reason === "reach" ? t("word_basket.ui.ev.penalty_reach", { name: n(e.seat), by: n(e.by) })
          : t("word_basket.ui.ev.penalty_rejected", { name: n(e.seat) });
      case "challenge": return t("word_basket.ui.ev.challenge", { by: n(e.by), word: e.word });
      case "vote_result":
        return t(e.outcome === "accept" ? "word_basket.ui.ev.accepted" : "word_basket.ui.ev.rejected", { word: e.word }) + (e.overruled ? " " + t("word_basket.ui.ev.overruled") : "");
      case "win_pending": return t("word_basket.ui.ev.win_pending", { name: n(e.seat) });
      case "won": return t("word_basket.ui.won", { name: n(e.seat) });
      case "left": return t("word_basket.ui.ev.left", { name: n(e.seat) });
      default: return "";
    }
  }
  const msText = (ms) => (ms < 1 ? "<1" : String(ms)); /* the server rounds to whole ms */
  const lastEvent = (g) => (g.events && g.events.length ? g.events[g.events.length - 1] : null);

  /* The card face: kana, row wild or number wild. */
  function face(c) {
    if (c.kind === "kana") return `<span class="k">${esc(c.kana)}</span>`;
    if (c.kind === "row") return `<span class="k">${esc(c.row)}<i>${esc(t("word_basket.ui.row_suffix"))}</i></span><small>${esc(c.kana)}</small>`;
    return `<span class="k num">${c.number === 7 ? "7+" : c.number}</span><small>${esc(t(c.number === 7 ? "word_basket.ui.num_more" : "word_basket.ui.num_exact", { n: c.number }))}</small>`;
  }

  /* A word shown big (the vote's subject) gets smaller type when long, so that even 30 kana take
     two lines and leave the TV's field card its room. */
  const lengthClass = (word) => { const n = [...(word || "")].length; return n > 20 ? "xlong" : n > 12 ? "long" : ""; };

  /* The table vote on a challenged word: the kit's box, the word (and its reading) as subject;
     phones add the ballots, the host the overrule (mode: "phone", "tv" or "watch"). */
  function voteBox(g, s, mode) {
    const v = g.vote;
    if (!v) return "";
    const subj = v.subject || {};
    const reading = subj.reading && subj.reading !== subj.word ? `<span class="rd">${esc(subj.reading)}</span>` : "";
    return PH.voteBox(s, v, { mode, cls: "wb-vote", subject: `<p class="ask">${esc(t("word_basket.ui.vote_q", { by: name(s, v.by), name: name(s, v.seat) }))}</p>
      <p class="w ${lengthClass(subj.word)}"><span data-testid="vote-word">${esc(subj.word || "")}</span>${reading}</p>` });
  }

  function pendingBox(g, s) {
    const p = g.pending_win;
    if (!p) return "";
    const why = p.needs.includes("reach") ? "word_basket.ui.pending_reach" : "word_basket.ui.pending_word";
    return `<div class="wb-pending" data-testid="pending-win">${esc(t(why, { name: name(s, p.seat) }))}
      ${PH.countdown(p.until, { label: "word_basket.ui.pending_left" })}</div>`;
  }

  /* A near-race: shown while the field its winner made is still the field. */
  function raceNote(g, s) {
    const r = g.race;
    if (!r || g.field.serial !== r.field + 1) return "";
    /* tie: closer than the phones' clocks can tell (docs/fair_first_card.md): no margin shown */
    return `<div class="wb-race" data-testid="race">${esc(t(r.tie ? "word_basket.ui.race_tie" : "word_basket.ui.race", { winner: name(s, r.winner), loser: name(s, r.loser), ms: msText(r.margin_ms) }))}
      <small>${esc(t("word_basket.ui.race_words", { winner_word: r.winner_word, loser_word: r.loser_word }))}</small></div>`;
  }

  function winnerBox(g, s, testid) {
    if (g.phase !== "over" || !g.winner) return "";
    return `<div class="result won wb-won" data-testid="${testid}">★ ${esc(t("word_basket.ui.won", { name: name(s, g.winner) }))}</div>`;
  }

  /* The phone's small field card: a kana, a row (with its kana: any of them may start a word), or any. */
  function fieldMini(g) {
    const f = g.field;
    const cls = f.kana ? "" : f.row ? "is-row" : "any";
    return `<div class="field-mini ${cls}" data-testid="phone-field"><small>${esc(t("word_basket.ui.field"))}</small><span>${esc(fieldLabel(f))}</span>${f.row ? `<small>${esc(g.rows[f.row] || "")}</small>` : ""}</div>`;
  }

  /* ---------- the phone ---------- */
  const P = {
    screen: null, input: null, composing: false, reading: null /* chosen reading of a kanji word */,
    lookupSent: "", lookupTimer: null, resetMode: false, graceTimer: null,
    play: null /* the hand's guarded send (a tap, or Enter in the field) */,
    s: null, game: null /* s.party.serial of the game drawn */,
  };
  PH.on("conn", () => { P.lookupSent = ""; }); /* a lookup lost with the connection is asked again */

  function typed() { return P.input ? P.input.value : ""; }

  /* What the typed text reads as: {r} (a kana reading), {pending} (lookup on its way),
     {error: code, params}, or {} when nothing is typed. */
  function currentReading(g) {
    const text = typed().trim();
    if (!text) return {};
    const r = reading(text);
    if (!r.error) return { r };
    if (r.error !== "word_not_kana") return r;
    const key = text.normalize("NFKC").trim();
    if (!KANJI.test(key)) return r; /* latin letters, symbols: "type the reading in kana" */
    const lk = g.lookup;
    if (!lk || lk.text !== key) return { pending: true, key };
    if (!lk.readings.length) return { error: "reading_unknown", params: { word: key } };
    if (!lk.readings.includes(P.reading)) P.reading = lk.readings[0];
    return { r: Object.assign(reading(P.reading), { surface: key }), readings: lk.readings, kanji: true };
  }

  function requestLookup(key) {
    clearTimeout(P.lookupTimer);
    P.lookupTimer = setTimeout(() => {
      if (P.composing || P.lookupSent === key || typed().normalize("NFKC").trim() !== key) return;
      P.lookupSent = key;
      PH.act({ type: "lookup", text: key });
    }, 250);
  }

  /* The fit of every card of the hand for what is typed: {fits: Set(ids), reason, cur}. */
  function fits(s) {
    const g = s.game;
    const hand = g.hand || [];
    const me = g.players.find((p) => p.seat === g.me);
    const cur = currentReading(g);
    const out = { fits: new Set(), reason: "", cur };
    if (!cur.r || !me) {
      /* mid-conversion text (romaji, kanji candidates) is not judged until the IME confirms it */
      if (cur.error && !P.composing) out.reason = t("word_basket.err.wb_" + cur.error, cur.params);
      if (cur.pending) requestLookup(cur.key);
      return out;
    }
    const errors = hand.map((c) => [c, fitError(g, me, hand, c, cur.r, g.field)]);
    for (const [c, e] of errors) if (!e) out.fits.add(c.id);
    if (!out.fits.size && hand.length) {
      const codes = new Set(errors.map(([, e]) => e.code));
      const rep = errors.find(([, e]) => e.code === "word_repeated");
      const pick = rep ? rep[1] : codes.size === 1 ? errors[0][1] : null;
      out.reason = pick ? t("word_basket.err.wb_" + pick.code, pick.params) : t("word_basket.ui.no_card_fits", { last: cur.r.last, length: cur.r.length });
    }
    return out;
  }

  /* The phone's screen: the word field lives in the skeleton (never redrawn while a game lasts),
     everything around it is a part the kit redraws when it changes. */
  const skeleton = () => `<div class="wb phone">
      <div class="wb-top" data-testid="wb-top" data-part="top"></div>
      <div class="wb-banner" data-part="banner"></div>
      <div class="wb-actions wb-alerts" data-testid="wb-alerts" data-part="alerts"></div>
      <div class="wb-entry">
        <div class="wb-fitstrip" data-testid="fit-strip" data-part="strip" hidden></div>
        <input class="wb-word" data-testid="word" lang="ja" maxlength="40" autocomplete="off" autocorrect="off"
               autocapitalize="off" spellcheck="false" enterkeyhint="send" placeholder="${esc(t("word_basket.ui.word_placeholder"))}">
        <div class="wb-hint" data-testid="fit-hint" aria-live="polite" data-part="hint"></div>
      </div>
      <div class="wb-hand" data-testid="hand" data-part="hand"></div>
      <div class="wb-actions" data-part="actions"></div>
      <div class="wb-log" data-part="log"></div>
    </div>`;

  function build(el) {
    P.input = el.querySelector(".wb-word");
    P.composing = false;
    const inp = P.input;
    inp.addEventListener("compositionstart", () => { P.composing = true; });
    inp.addEventListener("compositionend", () => { P.composing = false; if (P.s) drawHand(P.s); });
    inp.addEventListener("input", () => { if (P.s) drawHand(P.s); keepTyping(); });
    /* typing: the page keeps the strip of cards that fit (see drawHand), the field and its hint
       inside the visual viewport, above the on-screen keyboard */
    inp.addEventListener("focus", keepTyping);
    inp.addEventListener("keydown", (e) => {
      if (e.key !== "Enter") return;
      /* an IME's Enter confirms a conversion: it must never play a card */
      if (e.isComposing || e.keyCode === 229 || P.composing) return;
      e.preventDefault();
      if (!P.s) return;
      const f = fits(P.s);
      const ids = [...f.fits];
      const card = ids.length === 1 && P.screen.part("hand").querySelector(`[data-card="${ids[0]}"]`);
      if (card && P.play) P.play(card);
      else if (ids.length > 1) PH.toast(t("word_basket.ui.tap_one"));
      else if (f.reason) PH.toast(f.reason, true);
    });
  }

  /* While the field has the focus: the strip, the field and the hint on screen, above the
     keyboard (the visual viewport shrinks when it opens; PH.keepInView scrolls the page). */
  const typing = () => !!P.input && document.activeElement === P.input;
  let typingFrame = 0;
  function keepTyping() {
    if (!typing() || !P.screen || typingFrame) return;
    typingFrame = requestAnimationFrame(() => {
      typingFrame = 0;
      const strip = P.screen && P.screen.part("strip");
      if (typing()) PH.keepInView(strip && !strip.hidden ? strip : P.input, P.screen.part("hint"));
    });
  }
  if (window.visualViewport) {
    window.visualViewport.addEventListener("resize", keepTyping);
    window.visualViewport.addEventListener("scroll", keepTyping);
  }

  /* Play the card of button b with the typed word: the request (the hand's guard holds every
     card until the answer), or null when there is nothing to send. */
  function play(b) {
    const g = P.s.game;
    if (g.phase !== "play") return null;
    const cur = currentReading(g);
    if (!cur.r) return null;
    const hand = g.hand || [];
    const action = { type: "play", field: g.field.serial, card: Number(b.dataset.card), word: typed().trim() };
    if (cur.kanji) action.reading = P.reading;
    b.classList.add("sending");
    return PH.act(action).then((r) => {
      /* "ok" also answers a play that lost a near-race (it bounced back to the hand): the word is
         cleared and the success buzz given only once a state shows the card left the hand */
      if (r.ok) { P.sent = { card: action.card, field: action.field, word: action.word }; settlePlay(P.s && P.s.game); }
      return r;
    });
  }

  /* A play the server took: the next state says whether the card entered the basket (success:
     clear the word, short buzz) or came back from a near-race this phone lost (keep the word;
     feel() tells the holder who won, by how much). */
  function settlePlay(g) {
    const sent = P.sent;
    if (!sent || !g || !g.hand) return;
    const lost = g.race && g.race.loser === g.me && g.race.field === sent.field;
    if (lost) { P.sent = null; return; }
    if (g.hand.some((c) => c.id === sent.card) && g.field.serial === sent.field) return; /* not in yet */
    if (g.hand.some((c) => c.id === sent.card)) { P.sent = null; return; } /* back in hand (rejected later) */
    P.sent = null;
    if (typed().trim() === sent.word) P.input.value = "";
    P.reading = null;
    PH.buzz(40);
  }

  function drawTop(s) {
    const g = s.game;
    const me = g.players.find((p) => p.seat === g.me);
    const top = g.chain.length ? g.chain[g.chain.length - 1] : null;
    const fresh = top && top.field === g.field.serial;
    const html = `${fieldMini(g)}
      <div class="facts">
        ${fresh ? `<p class="lastword">${who(s, top.seat)} <span class="w">${esc(top.word)}</span>${top.reading !== top.word ? `<span class="rd">${esc(top.reading)}</span>` : ""}${top.unknown && !top.status ? ' <span class="q">?</span>' : ""}</p>` : ""}
        <p class="small">${esc(t("word_basket.ui.deck", { count: g.deck }))}${me ? " · " + esc(t("word_basket.ui.my_cards", { count: me.cards })) : ""}
          ${me && me.reach ? ` <span class="reach-tag">${esc(t("word_basket.ui.reach"))}</span>` : ""}
          ${me && me.handicap !== "normal" ? ` · ${esc(t("word_basket.ui.hc_short_" + me.handicap))}` : ""}</p>
      </div>`;
    P.screen.draw("top", html);
  }

  function drawBanner(s) {
    const g = s.game;
    const e = lastEvent(g);
    /* at the end the shared headline above (PH.reveal) says who won: here only the ranking */
    const said = g.phase === "over" && PH.reveal && PH.reveal.said(s);
    const html = g.phase === "over" ? (said ? "" : winnerBox(g, s, "result")) + rankingHtml(g, s)
      : voteBox(g, s, "phone") || pendingBox(g, s) || raceNote(g, s)
      || (e && e.kind !== "play" ? `<p class="event wb-ev ${e.kind}" data-testid="event">${esc(eventText(e, s))}</p>` : "");
    P.screen.draw("banner", html); /* a vote box wires itself */
  }

  function drawHand(s) {
    const g = s.game;
    const hand = g.hand || [];
    const live = g.phase === "play" && !g.pending_win;
    const handEl = P.screen.part("hand");
    const over = g.phase === "over";
    P.input.disabled = over;
    P.screen.el.querySelector(".wb-entry").hidden = over;
    handEl.hidden = over;
    P.screen.part("strip").hidden = true; /* shown below while typing */
    if (over) return;
    if (P.resetMode) {
      /* drawn by the kit like every other drawing, so that leaving this mode redraws the playing
         hand (else the pick buttons stayed, and a tap reset the whole hand) */
      const picks = hand.map((c) => `<button class="wbcard k-${c.kind}" data-top="${c.id}" data-testid="card-${c.id}" ${c.kind === "number" ? "disabled" : ""}>${face(c)}</button>`).join("");
      handEl.className = "wb-hand picking";
      P.screen.draw("hint", `<p class="reset-ask">${esc(t("word_basket.ui.reset_pick"))}</p>`);
      P.screen.draw("hand", picks, (el) => PH.guard(el.querySelectorAll("[data-top]"), (b) => {
        P.resetMode = false;
        /* the field now, not when these buttons were drawn (another card may have come in) */
        const sent = PH.act({ type: "reset", field: P.s.game.field.serial, top: Number(b.dataset.top) });
        render(P.s);
        return sent;
      }, { key: "wb-reset" }));
      return;
    }
    const f = fits(s);
    let hintHtml = "";
    if (f.cur.readings) {
      hintHtml = `<p class="reading" data-testid="reading">${esc(t("word_basket.ui.reading"))} ${f.cur.readings.map((r) =>
        `<button class="rdchip ${r === P.reading ? "on" : ""}" data-reading="${esc(r)}">${esc(r)}</button>`).join("")}</p>`;
    } else if (f.cur.pending) hintHtml = `<p class="small" data-testid="reading-wait">${esc(t("word_basket.ui.looking_up"))}</p>`;
    else if (f.cur.r) hintHtml = `<p class="small">${esc(t("word_basket.ui.length", { length: f.cur.r.length, last: f.cur.r.last }))}</p>`;
    else if (!f.cur.error && g.phase === "vote") hintHtml = `<p class="small">${esc(t("word_basket.ui.vote_pause"))}</p>`;
    else if (!f.cur.error && live) hintHtml = `<p class="small">${esc(t(g.field.kana || g.field.row ? "word_basket.ui.start_with" : "word_basket.ui.start_any", { field: fieldLabel(g.field) }))}</p>`;
    if (f.reason) hintHtml += `<p class="why" data-testid="why">${esc(f.reason)}</p>`;
    else if (f.fits.size && !live) hintHtml += `<p class="held">${esc(t(g.phase === "vote" ? "word_basket.ui.vote_pause" : "word_basket.ui.pending_pause"))}</p>`;
    else if (f.fits.size === 1) hintHtml += `<p class="ok" data-testid="enter-plays">${esc(t("word_basket.ui.enter_plays"))}</p>`;
    else if (f.fits.size) hintHtml += `<p class="ok">${esc(t("word_basket.ui.tap_fit"))}</p>`;
    P.screen.draw("hint", hintHtml, (el) => el.querySelectorAll("[data-reading]").forEach((b) => {
      b.onmousedown = (e) => e.preventDefault();
      b.onclick = () => { P.reading = b.dataset.reading; drawHand(P.s); };
    }));
    /* the strip: while a word is typed, the cards it fits, small, right above the field (they
       stay in view above the keyboard; a tap plays). It follows the text, not the focus: a blur
       (the keyboard closing as a button below is tapped) must not move that button */
    const strip = P.screen.part("strip");
    strip.hidden = !typed().trim();
    const fitting = hand.filter((c) => f.fits.has(c.id));
    P.screen.draw("strip", strip.hidden ? "" : fitting.length
      ? fitting.map((c) => `<button class="wbcard fit k-${c.kind}" data-card="${c.id}" data-testid="strip-card-${c.id}" ${live ? "" : "disabled"}>${face(c)}</button>`).join("")
      : `<span class="none">${esc(t("word_basket.ui.fit_none"))}</span>`, (el) => {
      const buttons = el.querySelectorAll("[data-card]");
      buttons.forEach((b) => { b.onmousedown = (e) => e.preventDefault(); }); /* the keyboard stays open */
      PH.guard(buttons, play, { key: "wb-play" });
    });
    handEl.className = "wb-hand" + (f.cur.r ? " judging" : "") + (hand.length > 6 ? " many" : "") + (live ? "" : " held");
    const cards = hand.map((c) => {
      const fit = f.fits.has(c.id);
      return `<button class="wbcard k-${c.kind} ${fit ? "fit" : ""}" data-card="${c.id}" data-testid="card-${c.id}"
        ${live && fit ? "" : "disabled"}>${face(c)}</button>`;
    }).join("");
    P.screen.draw("hand", cards, (el) => {
      const buttons = el.querySelectorAll("[data-card]");
      buttons.forEach((b) => { b.onmousedown = (e) => e.preventDefault(); }); /* keep the keyboard open for the next word */
      P.play = PH.guard(buttons, play, { key: "wb-play" });
    });
  }

  function drawActions(s) {
    const g = s.game;
    const hand = g.hand || [];
    const me = g.players.find((p) => p.seat === g.me);
    const live = g.phase === "play";
    const btn = [];
    /* what answers someone else's play (a challenge, a missing リーチ pointed out) lasts seconds:
       it goes above the word field, on the first screen of a 360x740 phone (below the hand it
       was off screen while the coach said "do it now") */
    const alerts = [];
    if (g.phase !== "over") {
      if (P.resetMode) btn.push(`<button data-do="cancel" data-testid="reset-cancel">${esc(t("word_basket.ui.cancel"))}</button>`);
      else if (live && !g.pending_win && hand.length) btn.push(`<button data-do="reset" data-testid="reset">${esc(t("word_basket.ui.reset"))}</button>`);
      /* リーチ is one tap right when the play leaves one card, as quick as saying it (RULES.md
         "Reach"): a big button first in the row, no box to tick before playing */
      if (me && hand.length === 1 && !me.reach) btn.unshift(`<button class="primary wb-reach-now" data-do="reach" data-testid="reach">${esc(t("word_basket.ui.reach_now"))}</button>`);
      const ch = g.challengeable;
      if (live && ch && ch.seat !== g.me) alerts.push(`<button class="warn" data-do="challenge" data-testid="challenge">${esc(t("word_basket.ui.challenge", { word: ch.word }))}</button>`);
      if (live) {
        const now = PH.serverNow();
        for (const p of g.players) {
          if (p.seat === g.me) continue;
          const pw = g.pending_win && g.pending_win.seat === p.seat && g.pending_win.needs.includes("reach");
          /* the grace: the point-out shows once the player has had the time to tap リーチ */
          if (!pw && p.point_out_from && now < p.point_out_from) {
            clearTimeout(P.graceTimer);
            P.graceTimer = setTimeout(PH.refresh, (p.point_out_from - now) * 1000 + 50);
            continue;
          }
          if ((p.cards === 1 && !p.reach) || pw) alerts.push(`<button class="warn" data-point="${esc(p.seat)}" data-testid="point-out-${esc(p.seat)}">${esc(t("word_basket.ui.point_out", { name: name(s, p.seat) }))}</button>`);
        }
      }
    }
    P.screen.draw("alerts", alerts.join(""), wireActions);
    P.screen.draw("actions", btn.join(""), wireActions);
  }

  function wireActions(el) {
    {
      const on = (sel, fn) => { const b = el.querySelector(sel); if (b) b.onclick = fn; };
      on("[data-do=cancel]", () => { P.resetMode = false; render(P.s); });
      /* every button that sends is guarded: a double tap sends once */
      PH.guard(el.querySelector("[data-do=reset]"), () => {
        const h = P.s.game.hand || [];
        if (h.every((c) => c.kind === "number")) {
          return PH.ask({ title: t("word_basket.ui.reset_numbers"), ok: t("word_basket.ui.reset") })
            .then((yes) => (yes ? PH.act({ type: "reset", field: P.s.game.field.serial }) : null));
        }
        P.resetMode = true;
        render(P.s);
        return null;
      });
      PH.guard(el.querySelector("[data-do=reach]"), () => PH.act({ type: "reach" }), { key: "wb-reach" });
      PH.guard(el.querySelector("[data-do=challenge]"), () => {
        const c = P.s.game.challengeable;
        return c ? PH.act({ type: "challenge", field: c.field }) : null;
      }, { key: "wb-challenge" });
      el.querySelectorAll("[data-point]").forEach((b) => {
        PH.guard(b, () => PH.act({ type: "point_out", seat: b.dataset.point }), { key: "wb-point:" + b.dataset.point });
      });
    }
  }

  function drawLog(s) {
    const g = s.game;
    const rows = g.chain.slice(g.phase === "over" ? -12 : -4).reverse().map((c) => `<li class="${c.status || ""}">${who(s, c.seat)} <span class="w">${esc(c.word)}</span>
      ${c.reading !== c.word ? `<span class="rd">${esc(c.reading)}</span>` : ""}<span class="lbl">${esc(c.label)}</span></li>`).join("");
    P.screen.draw("log", rows ? `<ol class="wb-chain mini">${rows}</ol>` : "");
  }

  /* Tell this phone's holder what happened to them (toasts in their language, vibration). */
  function feel(g, s) {
    PH.react("word_basket.phone", s, g.events, (e) => {
      if (e.kind === "race" && e.loser === g.me) {
        PH.toast(t(e.tie ? "word_basket.ui.race_lost_tie" : "word_basket.ui.race_lost", { winner: name(s, e.winner), ms: msText(e.margin_ms) }), true);
        PH.buzz([60, 40, 60]);
      } else if (e.kind === "penalty" && e.seat === g.me) {
        PH.toast(eventText(e, s), true);
        PH.buzz([300, 100, 300]);
      } else if (e.kind === "challenge" && e.seat !== g.me) PH.buzz([80, 60, 80]);
      else if (e.kind === "won") PH.buzz(e.seat === g.me ? [50, 50, 50, 50, 300] : [200]);
    });
  }

  function render(s) {
    P.s = s;
    settlePlay(s.game);
    drawTop(s);
    drawBanner(s);
    drawHand(s);
    drawActions(s);
    drawLog(s);
  }

  function phone(root, s) {
    const g = s.game;
    if (!g.hand || !s.me || !s.me.playing) { spectator(root, s); return; }
    /* one skeleton per game: play again builds a new one, so nothing typed for the last game stays */
    P.screen = PH.mount(root, "word_basket:" + s.party.serial, skeleton(), build);
    if (P.screen.fresh && P.game !== s.party.serial) {
      P.game = s.party.serial;
      P.reading = null; P.resetMode = false;
    }
    if (P.resetMode && (g.phase !== "play" || g.pending_win)) P.resetMode = false;
    feel(g, s);
    render(s);
  }

  function spectator(root, s) {
    const g = s.game;
    PH.patch(root, `<div class="wb phone spectating">
      <div class="wb-top">${fieldMini(g)}
        <div class="facts"><p class="small">${esc(t("word_basket.ui.deck", { count: g.deck }))}</p></div></div>
      ${winnerBox(g, s, "result") || voteBox(g, s, "watch")}${rankingHtml(g, s)}
      ${chainList(g, s, 6)}${playersList(g, s)}</div>`);
  }

  /* ---------- the TV ---------- */
  function chainList(g, s, count) {
    const items = g.chain.slice(-count).reverse();
    if (!items.length) return `<p class="note wb-empty">${esc(t("word_basket.ui.chain_empty"))}</p>`;
    return `<ol class="wb-chain" data-testid="chain">${items.map((c, i) => `
      <li class="${c.status || ""} ${i === 0 ? "latest" : ""}" data-n="${c.n}" style="border-left-color:${PH.colorOf(s, c.seat)}">
        <span class="w">${esc(c.word)}</span>
        ${c.reading !== c.word ? `<span class="rd">${esc(c.reading)}</span>` : ""}
        <span class="lbl">${esc(c.label)}</span>
        ${c.unknown && !c.status ? `<span class="q" title="${esc(t("word_basket.ui.unknown"))}">?</span>` : ""}
        ${c.status === "accepted" ? `<span class="st ok">✓</span>` : c.status === "rejected" ? `<span class="st ng">✗</span>` : ""}
        ${who(s, c.seat)}
      </li>`).join("")}</ol>`;
  }

  function playersList(g, s) {
    const away = new Set(s.party.roster.filter((r) => !r.connected).map((r) => r.seat));
    /* an away seat says so in words (app.css frames it; nothing of it fades below 4.5:1) */
    return `<ul class="wb-players seat-list" data-testid="players">${g.players.map((p) => `
      <li class="${p.reach ? "reaching" : ""} ${away.has(p.seat) ? "away" : ""} ${g.winner === p.seat ? "winner" : ""}" data-seat="${esc(p.seat)}">
        ${PH.markOf(s, p.seat)}<span class="who" style="color:${PH.colorOf(s, p.seat)}">${esc(name(s, p.seat))}</span>
        ${away.has(p.seat) ? `<span class="tag away">${esc(t("roster.away"))}</span>` : ""}
        <span class="backs" data-testid="count-${esc(p.seat)}">${Array.from({ length: Math.min(p.cards, 10) }, () => "<i></i>").join("")}<b>${p.cards}</b></span>
        ${p.reach ? `<span class="reach-tag">${esc(t("word_basket.ui.reach"))}</span>` : ""}
        ${p.handicap !== "normal" ? `<span class="tag">${esc(t("word_basket.ui.hc_short_" + p.handicap))}</span>` : ""}
      </li>`).join("")}</ul>`;
  }

  /* The TV sounds the newest event of each state (several at once would play over each other). */
  function sound(g, s) {
    PH.react("word_basket.tv", s, lastEvent(g), (e) => {
      if (e.kind === "play") PH.beep(660, 90);
      else if (e.kind === "race") { PH.beep(660, 60); setTimeout(() => PH.beep(440, 90), 80); }
      else if (e.kind === "challenge") PH.beep(330, 200, "triangle");
      else if (e.kind === "penalty") PH.beep(140, 300, "sawtooth");
      else if (e.kind === "won") PH.sound.cue("win");
    });
  }

  /* The game's end (TV and phones): the game's own ranking (`g.places`, from its outcome: the
     winner, then the others by cards left, ties sharing a place), drawn as it is with each
     player's cards left; "" while the game runs. */
  function rankingHtml(g, s) {
    if (!g.places) return "";
    const cards = new Map(g.players.map((p) => [p.seat, p.cards]));
    const rows = PH.reveal.placed(g.places).map((r) => ({ ...r, value: cards.has(r.seat) ? cards.get(r.seat) : "" }));
    return PH.reveal.ranking(s, rows, t("word_basket_reveal.cards_left"));
  }

  function tv(root, s) {
    const g = s.game;
    sound(g, s);
    const f = g.field;
    const e = lastEvent(g);
    const byText = f.how === "play" ? t("word_basket.ui.by_play", { name: name(s, f.by) })
      : f.how === "reset" ? t("word_basket.ui.by_reset", { name: name(s, f.by) }) : f.how === "turn" ? t("word_basket.ui.by_turn") : "";
    const bigField = `<div class="wb-field">
      <div class="fieldcard ${f.row ? "is-row" : ""} ${f.kana || f.row ? "" : "any"}" data-testid="field" style="${f.by ? `border-color:${PH.colorOf(s, f.by)}` : ""}">
        <span class="k">${esc(f.kana || f.row || t("word_basket.ui.field_any"))}${f.row ? `<i>${esc(t("word_basket.ui.row_suffix"))}</i>` : ""}</span>${f.row ? `<small>${esc(g.rows[f.row] || "")}</small>` : ""}</div>
      <p class="by">${esc(byText)}</p></div>`;
    const banner = winnerBox(g, s, "tv-result") || voteBox(g, s, "tv") || pendingBox(g, s) || raceNote(g, s)
      || (e ? `<p class="event big wb-ev ${e.kind}" data-testid="tv-event">${esc(eventText(e, s))}</p>` : "<div></div>");
    const ch = g.challengeable;
    const mode = g.options && g.options.word_mode;
    PH.patch(root, `<div class="wb tv phase-${g.phase}">
      <div class="wb-status">
        <span data-testid="deck">${esc(t("word_basket.ui.deck", { count: g.deck }))}</span>
        <span>${esc(t("word_basket.ui.basket", { count: g.basket }))}</span>
        ${g.reshuffles ? `<span>${esc(t("word_basket.ui.reshuffles", { count: g.reshuffles }))}</span>` : ""}
        <span class="mode">${esc(t("word_basket.ui.mode_" + (mode || "vote")))}</span>
      </div>
      <div class="wb-banner">${banner}</div>
      ${bigField}
      <div class="wb-right">
        ${ch && g.phase === "play" ? `<p class="challengeable" data-testid="challengeable">${esc(t("word_basket.ui.can_challenge", { word: ch.word }))}</p>` : ""}
        ${rankingHtml(g, s)}${chainList(g, s, 7)}
      </div>
      ${playersList(g, s)}
    </div>`, (el) => {
      /* older words that do not fit the room left (a vote box takes some) are left out whole,
         rather than cut in half at the edge */
      const box = el.querySelector(".wb-right");
      if (!box) return;
      const bottom = box.getBoundingClientRect().bottom;
      el.querySelectorAll(".wb-chain li").forEach((li) => { if (li.getBoundingClientRect().bottom > bottom + 0.5) li.hidden = true; });
    });
  }

  /* ---------- lobby options: word mode, handicaps (controls for the host only) ---------- */
  const LEVELS = ["easy", "normal", "hard"];
  const onTv = () => document.body.classList.contains("tv");
  /* The handicap choice for one player's handicap, as a select (the host) */
  const hcSelect = (r, cur) => `<select data-hc="${esc(r.seat)}" data-testid="hc-${esc(r.seat)}" aria-label="${esc(t("list.label", { label: t("word_basket.ui.opt_handicap") }))}${esc(r.name)}">${LEVELS.map((l) =>
    `<option value="${l}" ${cur === l ? "selected" : ""}>${esc(t("word_basket.ui.hc_" + l))}</option>`).join("")}</select>`;
  /* Save a handicap chosen in one of the selects under `el` (the options, or the TV's players list) */
  function wireHandicaps(el) {
    el.querySelectorAll("[data-hc]").forEach((sel) => {
      sel.onchange = () => {
        const now = PH.last.party.options || {};
        const next = Object.assign({}, now.handicaps || {});
        if (sel.value === "normal") delete next[sel.dataset.hc]; else next[sel.dataset.hc] = sel.value;
        PH.setOptions(Object.assign({}, now, { handicaps: next }));
      };
    });
  }
  /* The TV lobby: each player's handicap sits in that player's row of the players list (a select
     for the host, a tag when it is not normal for anyone else), not in a second list of the names */
  function lobbyRow(s, r) {
    const cur = ((s.party.options || {}).handicaps || {})[r.seat] || "normal";
    if (s.host) return `<span class="wb-row-hc">${hcSelect(r, cur)}</span>`;
    /* as in play: 「ハンデ：やさしい」, so the word is not read as a description of the person */
    return cur === "normal" ? "" : `<span class="tag">${esc(t("word_basket.ui.hc_short_" + cur))}</span>`;
  }

  /* The handicap levels with what each asks, one after another (the TV's legend, the phone's list) */
  function levelsLegend(levels) {
    return levels.map((l) => esc(t("word_basket.ui.handicap_" + l))).join(" · ");
  }

  function lobby(root, s) {
    const o = s.party.options || {};
    const mode = o.word_mode || "vote";
    const hc = o.handicaps || {};
    const modes = ["vote", "strict", "free"];
    const levels = LEVELS;
    if (!s.host) {
      const special = onTv() ? [] : s.party.roster.filter((r) => hc[r.seat] && hc[r.seat] !== "normal");
      PH.patch(root, `<div class="wb-lobby"><p><span class="small">${esc(t("word_basket.ui.opt_mode"))}</span> <b data-testid="opt-mode">${esc(t("word_basket.ui.mode_" + mode))}</b></p>
        ${special.length ? `<p class="small">${esc(PH.list(special.map((r) => t("word_basket.ui.hc_of", { name: r.name, level: t("word_basket.ui.handicap_" + hc[r.seat]) }))))}</p>` : ""}</div>`);
      return;
    }
    const wasOpen = !!root.querySelector("details[open]");
    const vs = o.vote_seconds || 20, rw = o.reach_window || 10;
    const choice = (attr, values, cur, label, name) => `<div class="opt"><label class="small">${esc(t(label))}
      <select data-${attr} data-testid="opt-${attr}">${values.map((v) => `<option value="${v}" ${v === cur ? "selected" : ""}>${esc(t("word_basket.ui.seconds", { seconds: v }))}</option>`).join("")}</select></label>${PH.optHelp("word_basket", name, null, label)}</div>`;
    /* the kit redraws it only when it changed (a select being used stays open) */
    PH.patch(root, `<div class="wb-lobby host">
      <p class="small">${esc(t("word_basket.ui.opt_mode"))}</p>
      <div class="seg" data-testid="opt-mode">${modes.map((m) => `<button class="${m === mode ? "on" : ""}" data-mode="${m}" data-testid="mode-${m}">${esc(t("word_basket.ui.mode_" + m))}</button>`).join("")}</div>
      ${PH.optHelp("word_basket", "word_mode", "word_basket.ui.mode_help_" + mode, "word_basket.ui.opt_mode")}
      <div class="times">${choice("vote-seconds", [...new Set([10, 20, 30, 60, vs])].sort((a, b) => a - b), vs, "word_basket.ui.opt_vote_seconds", "vote_seconds")}
        ${choice("reach-window", [...new Set([5, 10, 15, 20, rw])].sort((a, b) => a - b), rw, "word_basket.ui.opt_reach_window", "reach_window")}</div>
      ${!s.party.roster.length ? "" : onTv()
        ? `<p class="small legend" data-testid="hc-legend"><span class="hc-head">${esc(t("list.label", { label: t("word_basket.ui.opt_handicap") }))}</span>${levelsLegend(levels)}</p>${PH.optHelp("word_basket", "handicaps", null, "word_basket.ui.opt_handicap")}`
        : `<details ${wasOpen || Object.values(hc).some((v) => v !== "normal") ? "open" : ""}><summary class="small">${esc(t("word_basket.ui.opt_handicap"))}${PH.optHelp("word_basket", "handicaps", null, "word_basket.ui.opt_handicap")}</summary>
        <p class="small legend">${levelsLegend(levels)}</p>
        <ul class="hc">${s.party.roster.map((r) => `<li><span class="who">${esc(r.name)}</span>
          ${hcSelect(r, hc[r.seat] || "normal")}</li>`).join("")}</ul></details>`}
    </div>`, (el) => {
      const now = () => PH.last.party.options || {}; /* the options when a control is used */
      const save = (patch) => PH.setOptions(Object.assign({}, now(), patch));
      el.querySelectorAll("[data-mode]").forEach((b) => { b.onclick = () => save({ word_mode: b.dataset.mode }); });
      const vsSel = el.querySelector("[data-vote-seconds]"), rwSel = el.querySelector("[data-reach-window]");
      vsSel.onchange = () => save({ vote_seconds: Number(vsSel.value) });
      rwSel.onchange = () => save({ reach_window: Number(rwSel.value) });
      wireHandicaps(el);
    });
  }

  PH.games.word_basket = { phone, tv, lobby, lobbyRow, wireLobbyRows: wireHandicaps, reading, fitError };
})();
