/* How to play: the TV lobby's 遊び方 panel, the phones' help sheet (a 遊び方 button in the top bar
 * on every screen) and the how-to a spectator or late joiner reads while waiting.
 *
 * The words are in the catalogues (partyhost/i18n/<game>_howto.<lang>.json, keys
 * <game>.howto.goal/have/turn/end/forbidden/special[_label]/example and <game>.howto.v.* for the
 * rules in use); the worked example of each game is drawn here with that game's own card classes
 * (its stylesheet is loaded on every page). The rules in use are the party view's ``howto``
 * lines, computed by the server from each game's rules (Game.howto_facts) for the lobby's options
 * and player count (or, during a game, for the game being played): this page only draws them, and
 * the panel changes with every option.
 *
 * "What you can do now" comes from the game view's ``guide`` ({now: {key, params}}), computed by
 * the server; the sheet shows it when present and hides the section otherwise.
 *
 * Hooks: tv.js calls PH.howto.lobby(el, s) and PH.howto.tileNote(s, key); phone.js calls
 * PH.howto.spectator(el, s). The phone's button and sheet wire themselves to PH.on("state"). */
"use strict";

PH.howto = (() => {
  const { t, esc } = PH;
  const SECTIONS = ["goal", "have", "turn", "end", "forbidden", "special"];
  /* a key the catalogue has (t() answers the key itself when it is missing) */
  const has = (key) => t(key) !== key;

  /* ---------------- the chosen game's options (for Diabolo's word language) ---------------- */

  function gameInfo(s, key) {
    return (s.party.games || []).find((x) => x.key === key) || { min: 1, max: 99, options: {} };
  }
  /* The lobby's options of game ``key``, the schema's defaults filled in. */
  function options(s, key) {
    const info = gameInfo(s, key);
    const out = {};
    const props = (info.options && info.options.properties) || {};
    for (const name of Object.keys(props)) if ("default" in props[name]) out[name] = props[name].default;
    return Object.assign(out, s.party.options || {});
  }
  const inGameView = (s, key) => (s.party.phase === "game" && s.game && s.game.game === key ? s.game : null);

  /* The words a game's text needs ({lang}: Diabolo's word language). */
  function textParams(s, key) {
    if (key === "diabolo") return { lang: t("diabolo.opt." + diaboloLang(s)) };
    return {};
  }
  function diaboloLang(s) {
    const g = inGameView(s, "diabolo");
    return (g && g.lang) || options(s, "diabolo").lang;
  }

  /* ---------------- the rules in use: computed by the server ---------------- */

  /** The lines of "rules in use" for game ``key`` in state ``s``: the party view's ``howto``
   *  (the player count, then the game's ``howto_facts``: texts the server computed from the
   *  game's own rules, for the lobby's options and players or for the game being played). */
  function variants(s, key) {
    const h = s.party.howto;
    if (!h || h.game !== key) return [];
    return h.lines.map((m) => PH.coach.text(m, s));
  }

  /** Every player count's own rules (the party view's ``howto.counts``: the game's
   *  ``howto_counts`` on the server), as rows ``{min, max, label, text, now}``; ``now`` marks the
   *  row of the count that would play (or plays) now, in words too, never by colour alone. */
  function byCount(s, key) {
    const h = s.party.howto;
    if (!h || h.game !== key || !Array.isArray(h.counts)) return [];
    return h.counts.map((r) => {
      const label = r.min === r.max ? t("howto.count_one", { count: r.min }) : t("howto.count_range", { min: r.min, max: r.max });
      const text = r.lines.map((m) => PH.coach.text(m, s)).join(t("howto.sep.facts"));
      return { min: r.min, max: r.max, label: t("list.label", { label }), text, now: h.count >= r.min && h.count <= r.max };
    });
  }

  /* ---------------- the worked examples, with each game's own card faces ---------------- */

  const card = (cls, inner) => `<span class="${cls}">${inner}</span>`;
  const EXAMPLES = {
    decrypto() {
      const kws = [1, 2, 3, 4].map((i) => `<li><b>${i}</b> ${esc(t("decrypto.howto.ex.kw." + i))}</li>`).join("");
      const code = [3, 1, 4];
      return `<div class="dc howto-ex-dc">
        <div class="ex-col"><p class="ex-label">${esc(t("decrypto.howto.ex.keywords"))}</p><ol class="ex-kws">${kws}</ol></div>
        <div class="ex-col"><p class="ex-label">${esc(t("decrypto.howto.ex.code"))}</p>
          <div class="dc-code small">${code.map((d) => `<span>${d}</span>`).join("")}</div></div>
        <div class="ex-col"><p class="ex-label">${esc(t("decrypto.howto.ex.clues"))}</p>
          <ol class="dc-clues">${[1, 2, 3].map((i) => `<li><span class="n">${code[i - 1]}</span><span class="c">${esc(t("decrypto.howto.ex.clue." + i))}</span></li>`).join("")}</ol></div>
      </div>`;
    },
    top_ten() {
      const tiles = [[2, 1], [6, 2], [9, 3]].map(([n, i]) => `<li class="tile" style="--c:${PH.colorOf(null, "s" + i)}"><b>${n}</b><span>${esc(t("top_ten.howto.ex.a." + i))}</span></li>`).join("");
      const game = PH.games.top_ten;
      const tokens = game && game.tokensHtml ? game.tokensHtml(3, 1, -1) : "";
      return `<div class="tt howto-ex-tt">
        <p class="ex-theme">${esc(t("top_ten.howto.ex.theme"))}</p>
        <div class="tt-poles"><span class="pole low"><span>${esc(t("top_ten.howto.ex.low"))}</span></span><span class="scale"></span>
          <span class="pole high"><span>${esc(t("top_ten.howto.ex.high"))}</span></span></div>
        <div class="ex-row"><ol class="tt-reveals">${tiles}</ol>${tokens}</div></div>`;
    },
    word_basket() {
      return `<div class="wb howto-ex-wb">
        <div class="ex-col"><p class="ex-label">${esc(t("word_basket.howto.ex.field"))}</p>
          <div class="field-mini"><span>さ</span></div></div>
        <div class="ex-arrow" aria-hidden="true">→</div>
        <div class="ex-col ex-word"><p class="ex-label">&nbsp;</p><p class="ex-big">さくらん<b>ぼ</b></p></div>
        <div class="ex-col"><p class="ex-label">${esc(t("word_basket.howto.ex.hand"))}</p>
          <div class="ex-hand">${card("wbcard k-kana fit", `<span class="k">ぼ</span>`)}${card("wbcard k-row", `<span class="k">か<i>${esc(t("word_basket.ui.row_suffix"))}</i></span><small>かきくけこ</small>`)}${
            card("wbcard k-number", `<span class="k num">5</span><small>${esc(t("word_basket.ui.num_exact", { n: 5 }))}</small>`)}</div></div>
      </div>`;
    },
    the_mind() {
      const strip = [[12, "a"], [30, "b"], [55, "a"], [97, "b"]].map(([n, who]) =>
        `<li style="border-color:${PH.colorOf(null, who === "a" ? "s1" : "s2")}">${n}<span>${esc(t("the_mind.howto.ex." + who))}</span></li>`).join("");
      return `<div class="mind howto-ex-mind">
        <p class="ex-label">${esc(t("the_mind.howto.ex.pile"))} →</p><ol class="strip">${strip}</ol></div>`;
    },
    diabolo(s) {
      const de = diaboloLang(s) !== "en";
      const row = de ? ["T", "Ψ", "S", "CH", "E", "N"] : ["C", "Ψ", "T", "ST", "O", "R"];
      const take = de ? [["T"], ["I", 1], ["S"], ["CH"]] : [["C"], ["A", 1], ["T"]];
      const face = (f) => (f === "Ψ" ? `<span class="dcard mini joker"><span class="trident">Ψ</span></span>`
        : `<span class="dcard mini ${f.length === 2 ? "pair" : ""}">${esc(f)}</span>`);
      return `<div class="dia howto-ex-dia">
        <div class="ex-col"><p class="ex-label">${esc(t("diabolo.howto.ex.row"))}</p><div class="ex-cards">${row.map(face).join("")}</div></div>
        <div class="ex-arrow" aria-hidden="true">→</div>
        <div class="ex-col"><p class="ex-label">${esc(t("diabolo.howto.ex.claim"))}</p><div class="ex-cards">${take.map(([f, j]) =>
          `<span class="dcard mini ${j ? "joker" : ""} ${f.length === 2 ? "pair" : ""}">${esc(f)}${j ? "<sub>Ψ</sub>" : ""}</span>`).join("")}</div></div>
      </div>`;
    },
  };

  /* ---------------- the blocks every view is made of ---------------- */

  function label(key, id) {
    return id === "special" && has(key + ".howto.special_label") ? t(key + ".howto.special_label") : t("howto." + id);
  }
  /** The how-to of game ``key`` as blocks ``[{id, html}]``: the rules sections, the rules in use
   *  (``variants``) and the worked example. */
  function blocks(s, key) {
    const p = textParams(s, key);
    const out = [];
    for (const id of SECTIONS) {
      const k = `${key}.howto.${id}`;
      if (!has(k)) continue;
      out.push({ id, label: label(key, id), text: t(k, p),
        html: `<section class="howto-block b-${id}" data-block="${id}"><h3>${esc(label(key, id))}</h3><p>${esc(t(k, p))}</p></section>` });
    }
    const lines = variants(s, key);
    out.push({ id: "variants", html: `<section class="howto-block b-variants" data-block="variants" data-testid="howto-variants">
      <h3>${esc(t("howto.variants"))}</h3><ul>${lines.map((l) => `<li>${esc(l)}</li>`).join("")}</ul></section>` });
    const rows = byCount(s, key);
    if (rows.length) {
      out.push({ id: "counts", html: `<section class="howto-block b-counts" data-block="counts" data-testid="howto-counts">
        <h3>${esc(t("howto.by_count"))}</h3><ul>${rows.map((r) => `<li class="${r.now ? "now" : ""}" data-min="${r.min}" data-max="${r.max}"${r.now ? ' aria-current="true"' : ""}>${
          `<b>${esc(r.label)}</b>${esc(r.text)}`}${r.now ? `${PH.lang === "ja" ? "" : " "}<strong class="count-now">${esc(t("howto.count_now"))}</strong>` : ""}</li>`).join("")}</ul></section>` });
    }
    const ex = EXAMPLES[key];
    const caption = key === "diabolo" && diaboloLang(s) === "en" ? "diabolo.howto.example_en" : `${key}.howto.example`;
    if (ex && has(caption)) {
      out.push({ id: "example", html: `<section class="howto-block b-example" data-block="example" data-testid="howto-example">
        <h3>${esc(t("howto.example"))}</h3><div class="howto-ex">${ex(s)}</div><p>${esc(t(caption, p))}</p></section>` });
    }
    return out;
  }

  /* ---------------- the TV lobby's panel: pages that fit, turning by themselves ---------------- */

  /* How long a page stays: time to read it from the sofa (Japanese ~8 characters a second, English
     ~18), between 10 and 30 s; a page the host jumped to stays a minute. */
  const pageMs = (pg) => Math.min(30000, Math.max(10000, 4000 + (PH.lang === "ja" ? 125 : 55) * pg.textContent.replace(/\s+/g, "").length));
  const HOLD_MS = 60000;
  const panel = { sig: "", page: 0, pages: 0, timer: null, variants: "", game: "" };

  function showPage(el, n, hold) {
    const pages = el.querySelectorAll(".howto-page");
    if (!pages.length) return;
    panel.page = ((n % pages.length) + pages.length) % pages.length;
    pages.forEach((pg, i) => { pg.hidden = i !== panel.page; });
    el.querySelectorAll("[data-howto-page]").forEach((b, i) => {
      b.classList.toggle("on", i === panel.page);
      b.setAttribute("aria-current", i === panel.page ? "true" : "false");
      b.textContent = i === panel.page ? "●" : "○";
    });
    const box = el.querySelector(".howto");
    if (box) box.dataset.page = String(panel.page + 1);
    clearTimeout(panel.timer);
    if (pages.length > 1) panel.timer = setTimeout(() => { if (el.isConnected) showPage(el, panel.page + 1); }, hold ? HOLD_MS : pageMs(pages[panel.page]));
  }

  /* A rules section's text in sentences, so a page can end mid-section: after 。！？ with its
     closing quotes or brackets (never inside 「宣言！」。), or after . ! ? (and their closing
     quotes) followed by a space, but not after "e.g." / "i.e.": a cut inside "Claim!". put a space
     into the quotation, and a page once began with the "; of 'marked "?"; anyone…'. */
  const sentences = (text) => text.split(/(?<=[。！？][」』）)"”’]*)(?![」』）)"”’。、！？])|(?<!\b(?:e\.g|i\.e))(?<=[.!?][)"”’]*)\s+/).map((x) => x.trim()).filter(Boolean);
  const sectionHtml = (b, part, first) => `<section class="howto-block b-${b.id}${first ? "" : " cont"}" data-block="${b.id}">${
    `<h3>${esc(first ? b.label : t("howto.cont", { label: b.label }))}</h3>`}<p>${esc(part.join(PH.lang === "ja" ? "" : " "))}</p></section>`;

  /* Split the blocks into pages that each fit the panel's page area. Blocks keep their order; a
     rules section that does not fit in what is left of a page is cut between sentences and goes on
     at the top of the next page (when at least one sentence fits); a block taller than a whole page
     gets its type stepped down on that page (never below the sofa's minimum, --howto-min). */
  function paginate(area, list) {
    area.innerHTML = `<section class="howto-page measuring"></section>`;
    const probe = area.firstElementChild;
    const pad = getComputedStyle(area);
    const room = area.clientHeight - parseFloat(pad.paddingTop) - parseFloat(pad.paddingBottom) - 1;
    const gap = parseFloat(getComputedStyle(probe).rowGap) || 0;
    const height = (html) => { probe.innerHTML = html; return probe.firstElementChild.getBoundingClientRect().height; };
    const pages = [];
    let cur = [], used = 0;
    const place = (html, h) => { used += (cur.length ? gap : 0) + h; cur.push(html); };
    const flush = () => { if (cur.length) pages.push(cur); cur = []; used = 0; };
    for (const b of list) {
      if (!b.text) {
        const h = height(b.html);
        if (cur.length && used + gap + h > room) flush();
        place(b.html, h);
        continue;
      }
      let rest = sentences(b.text), first = true;
      while (rest.length) {
        const left = room - used - (cur.length ? gap : 0);
        let n = rest.length;
        while (n > 0 && height(sectionHtml(b, rest.slice(0, n), first)) > left) n -= 1;
        if (n === 0) {
          if (cur.length) { flush(); continue; }
          n = 1; /* one sentence taller than a page: it takes the page, its type steps down */
        }
        place(sectionHtml(b, rest.slice(0, n), first), height(sectionHtml(b, rest.slice(0, n), first)));
        rest = rest.slice(n);
        first = false;
        if (rest.length) flush();
      }
    }
    flush();
    area.innerHTML = pages.map((items, n) => `<section class="howto-page" data-n="${n + 1}">${items.join("")}</section>`).join("");
    area.querySelectorAll(".howto-page").forEach((pg) => {
      const min = parseFloat(getComputedStyle(pg).getPropertyValue("--howto-min")) || 0;
      let size = parseFloat(getComputedStyle(pg).fontSize);
      for (let i = 0; i < 12 && pg.scrollHeight > room + 1 && size * 0.96 >= min; i++) {
        size *= 0.96;
        pg.style.fontSize = size + "px";
      }
    });
    return pages.length;
  }

  /** Draw the how-to panel of the chosen game into the TV lobby's ``el`` (called on each state;
   *  redraws only when its words, the options or the panel's size change). */
  function lobby(el, s) {
    const key = s.party.game_key;
    const info = gameInfo(s, key);
    if (!info || !has(key + ".howto.goal")) { el.innerHTML = ""; panel.sig = ""; return; }
    /* the slot's size settles after the page's other parts (the QR code, the side column): lay
       the pages out again whenever it changes */
    if (!el.dataset.observed && window.ResizeObserver) {
      el.dataset.observed = "1";
      new ResizeObserver(() => { if (el.isConnected && PH.last && PH.last.party.phase !== "game") lobby(el, PH.last); }).observe(el);
    }
    const list = blocks(s, key);
    const vhtml = (list.find((b) => b.id === "variants") || {}).html || "";
    const sig = [PH.lang, key, el.clientWidth, el.clientHeight, list.map((b) => b.html).join("")].join("|");
    if (sig === panel.sig && el.querySelector(".howto")) return;
    const sameGame = panel.game === key && panel.lang === PH.lang;
    const optionsChanged = sameGame && panel.variants && panel.variants !== vhtml;
    panel.sig = sig; panel.game = key; panel.variants = vhtml; panel.lang = PH.lang;
    el.innerHTML = `<div class="howto tv" data-testid="howto" data-game="${esc(key)}">
      <header class="howto-head"><h2>${esc(t("howto.title", { game: t(key + ".name") }))}</h2>
        <nav class="howto-dots" aria-label="${esc(t("howto.next_page"))}"></nav></header>
      <div class="howto-area"></div></div>`;
    const area = el.querySelector(".howto-area");
    const dots = el.querySelector(".howto-dots");
    /* a title too long for one line beside the dots ("How to play Word Basket" at 1280x720)
       steps down to .85 of its size (still above the TV's body size); past that it wraps */
    const head = el.querySelector(".howto-head h2");
    const oneLine = () => head.getBoundingClientRect().height < 1.5 * parseFloat(getComputedStyle(head).lineHeight);
    const drawDots = (count) => {
      dots.innerHTML = count > 1 ? Array.from({ length: count }, (_, i) => `<button type="button" class="howto-dot" data-howto-page="${i}"
        aria-label="${esc(t("howto.page", { n: i + 1, total: count }))}">○</button>`).join("") : "";
      head.style.fontSize = "";
      for (let f = 0.95; f > 0.84 && !oneLine(); f -= 0.05) head.style.fontSize = (1.05 * f).toFixed(3) + "em";
    };
    /* the dots take their room in the header first, so the pages are cut for the room left */
    drawDots(list.length);
    const cutFor = area.clientHeight;
    let n = paginate(area, list);
    drawDots(n);
    if (area.clientHeight !== cutFor) { n = paginate(area, list); drawDots(n); }
    panel.pages = n;
    dots.querySelectorAll("[data-howto-page]").forEach((b) => { b.onclick = () => showPage(el, Number(b.dataset.howtoPage), true); });
    /* an option changed: turn to the page that shows the rules in use, so the host sees it */
    let page = sameGame ? Math.min(panel.page, n - 1) : 0;
    if (optionsChanged) {
      const at = [...area.querySelectorAll(".howto-page")].findIndex((pg) => pg.querySelector("[data-block=variants]"));
      if (at >= 0) page = at;
    }
    showPage(el, page);
  }

  /** What the chosen game's lobby tile adds under its name (Diabolo: its word language). */
  function tileNote(s, key) {
    if (key !== "diabolo" || s.party.game_key !== key) return "";
    return `<span class="tile-note" data-testid="tile-lang">${esc(t("diabolo.lang_word", { lang: t("diabolo.opt." + diaboloLang(s)) }))}</span>`;
  }

  /* ---------------- phones: the 遊び方 button, the sheet, the spectator's copy ---------------- */

  function nowHtml(s) {
    /* the game's guide line, its params resolved as the coach resolves them (a seat → its name) */
    const line = PH.coach ? PH.coach.guide(s) : "";
    if (!line) return "";
    return `<section class="howto-block b-now" data-testid="howto-now"><h3>${esc(t("howto.now"))}</h3><p>${esc(line)}</p></section>`;
  }
  const gameKey = (s) => (s.party.phase === "game" && s.game ? s.game.game : s.party.game_key);

  let sheetOpen = false;
  function sheetHtml(s) {
    const key = gameKey(s);
    return `<div class="howto-sheet-box" role="dialog" aria-modal="true" aria-labelledby="howto-sheet-title">
      <header><h2 id="howto-sheet-title">${esc(t("howto.title", { game: t(key + ".name") }))}</h2>
        <button type="button" class="howto-close" data-testid="howto-close" data-howto-close="1">✕ ${esc(t("howto.close"))}</button></header>
      <div class="howto-sheet-body" data-testid="howto-sheet-body">${nowHtml(s)}${blocks(s, key).map((b) => b.html).join("")}</div></div>`;
  }
  function sheetEl() {
    let el = document.getElementById("howto-sheet");
    if (!el) {
      el = document.createElement("div");
      el.id = "howto-sheet";
      el.className = "howto-sheet";
      el.dataset.testid = "howto-sheet";
      el.hidden = true;
      /* one tap closes: the close button, or anywhere outside the sheet */
      el.addEventListener("click", (e) => { if (e.target === el || e.target.closest("[data-howto-close]")) close(); });
      document.body.appendChild(el);
    }
    return el;
  }
  function open() {
    const s = PH.last;
    if (!s) return;
    sheetOpen = true;
    const el = sheetEl();
    PH.patch(el, sheetHtml(s));
    el.hidden = false;
    document.body.classList.add("howto-open");
    const c = el.querySelector(".howto-close");
    if (c) c.focus();
  }
  function close() {
    sheetOpen = false;
    const el = document.getElementById("howto-sheet");
    if (el) el.hidden = true;
    document.body.classList.remove("howto-open");
    const b = document.querySelector("[data-testid=howto-button]");
    if (b) b.focus();
  }
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && sheetOpen) close(); });

  /* The button sits in the phone's top bar, on every screen once the phone has a seat. */
  function phoneButton(s) {
    const bar = document.querySelector("body.phone .bar");
    if (!bar) return;
    let b = bar.querySelector("[data-testid=howto-button]");
    const show = !!(s && s.me && s.party && has(gameKey(s) + ".howto.goal"));
    if (!b && show) {
      b = document.createElement("button");
      b.type = "button";
      b.className = "howto-button";
      b.dataset.testid = "howto-button";
      b.onclick = open;
      bar.insertBefore(b, bar.querySelector(".lang-switch"));
    }
    if (!b) return;
    b.hidden = !show;
    b.textContent = "? " + t("howto.button");
    if (!show && sheetOpen) close();
  }
  /* Every state: the sheet (when open) follows it, what can be done now included; the game
     underneath is drawn by its page as usual, so nothing is missed while it is open. */
  PH.on("state", (s) => {
    if (!document.body.classList.contains("phone")) return;
    phoneButton(s);
    if (sheetOpen && s && s.me) PH.patch(sheetEl(), sheetHtml(s));
  });
  PH.on("lang", () => { if (PH.last) phoneButton(PH.last); });

  /** The how-to a spectator (or a late joiner) reads while waiting, drawn into ``el`` on a phone. */
  function spectator(el, s) {
    if (!el) return;
    if (!s) { PH.patch(el, ""); return; }
    const key = gameKey(s);
    if (!has(key + ".howto.goal")) { PH.patch(el, ""); return; }
    PH.patch(el, `<div class="howto inline" data-testid="howto-inline"><h2>${esc(t("howto.title", { game: t(key + ".name") }))}</h2>
      <p class="small">${esc(t("howto.spectating"))}</p>${blocks(s, key).map((b) => b.html).join("")}</div>`);
  }

  /** A game's own worked example, from its script (loaded after this file):
   *  ``register(key, {example(s) → html})``. A sixth game registers here instead of editing the
   *  table above; its rules in use come from its ``howto_facts`` on the server. */
  function register(key, parts) {
    if (parts && parts.example) EXAMPLES[key] = parts.example;
  }

  return { lobby, tileNote, spectator, blocks, variants, register, open, close, get isOpen() { return sheetOpen; }, showPage: (n) => {
    const el = document.querySelector(".howto-slot");
    if (el) showPage(el, n, true);
  } };
})();
