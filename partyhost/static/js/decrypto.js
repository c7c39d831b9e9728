/* Decrypto: lobby (teams), phone and TV renderers of the views partyhost/games/decrypto.py
 * computes. Rules live on the server; this file only draws and sends taps.
 * Redraws never rebuild an element that holds typed text: each part of the page is drawn with the
 * kit's patch (replaced only when its HTML changed), and the two text forms (clues, keyword
 * guesses) are mounted once per round and then only updated around the inputs. */
"use strict";

(() => {
  const { t, esc } = PH;
  const TEAMS = ["white", "black"];
  const teamName = (team) => t("decrypto.team." + team);
  const name = (s, seat) => PH.nameOf(s, seat);
  const names = (s, seats) => PH.list(seats.map((x) => name(s, x)));
  const list = (items) => PH.list(items);
  const codeText = (code) => (code || []).map((d) => d || "?").join("-");

  /* ---------------- lobby: teams, timer, keyword language ---------------- */

  /* The same split as decrypto.balance_teams: placed seats stay, the others (in seating order)
     join the smaller team, white on a tie. */
  function balance(seats, assigned) {
    const teams = { white: [], black: [] };
    for (const seat of seats) if (TEAMS.includes(assigned[seat])) teams[assigned[seat]].push(seat);
    for (const seat of seats) {
      if (TEAMS.includes(assigned[seat])) continue;
      teams[teams.white.length <= teams.black.length ? "white" : "black"].push(seat);
    }
    return teams;
  }
  function lobbyOptions(s) {
    const o = s.party.options || {};
    return { teams: Object.assign({}, o.teams || {}), timer: !!o.timer, lang: o.lang || "auto", uneven: !!o.uneven };
  }
  function lobby(root, s) {
    const opts = lobbyOptions(s);
    /* the seats that would play: with more seats than 8 the rest watch, so they are on no team
       (the server's Party.howto lists them as would_play seats them) */
    const all = s.party.roster.map((r) => r.seat);
    const h = s.party.howto;
    const seats = h && h.game === "decrypto" && Array.isArray(h.seats) && h.seats.length ? all.filter((x) => h.seats.includes(x)) : all;
    const watching = all.filter((x) => !seats.includes(x));
    const teams = balance(seats, opts.teams);
    const three = seats.length === 3;
    /* teams two or more apart (7 against 2): the larger one lists its names in two columns and
       takes two thirds of the width, so the teams stand as tall as the smaller layout's */
    const lean = three ? "" : TEAMS.find((team) => teams[team].length - teams[team === "white" ? "black" : "white"].length > 1) || "";
    const col = (team) => `<div class="dc-lobby-team team-${team}${team === lean ? " wide" : ""}" data-testid="lobby-${team}">
        <h3>${esc(teamName(team))} <small>${teams[team].length}</small></h3>
        <ul>${teams[team].map((seat) => `<li>${s.host
          ? `<button class="dc-move" data-move="${esc(seat)}" data-testid="move-${esc(seat)}"><span>${esc(name(s, seat))}</span> <i>${team === "white" ? "→" : "←"}</i></button>`
          : esc(name(s, seat))}${TEAMS.includes(opts.teams[seat]) ? "" : ` <span class="auto">${esc(t("decrypto.lobby.auto"))}</span>`}</li>`).join("")}</ul>${
        /* who watches, under the shorter list (black on a tie): in the room a fifth row took; the
           label always shows, a long name ends in … as on the team lists */
        watching.length && team === (teams.black.length <= teams.white.length ? "black" : "white")
          ? `<p class="small dc-watching" data-testid="lobby-watching"><span class="label">${esc(t("list.label", { label: t("decrypto.lobby.watching") }))}</span><span class="who">${esc(names(s, watching))}</span></p>` : ""}</div>`;
    /* each option's one-line explanation, for the host (the TV and the host's phone) */
    const help = (name, label) => (s.host ? PH.optHelp("decrypto", name, null, label) : "");
    const html = `<div class="dc-lobby">
      <h2>${esc(t("decrypto.lobby.teams"))}</h2>
      <p class="small">${esc(t(three ? "decrypto.lobby.three" : s.host ? "decrypto.lobby.hint_host" : "decrypto.lobby.hint"))}</p>
      <div class="dc-lobby-teams${lean ? " lean-" + lean : ""}">${col("white")}${col("black")}</div>
      ${s.host ? `<div class="row"><button data-testid="shuffle-teams" data-shuffle="1">${esc(t("decrypto.lobby.shuffle"))}</button></div>` : ""}
      <div class="dc-lobby-opts">
        <div class="opt"><label><input type="checkbox" data-testid="dc-timer" data-opt="timer" ${opts.timer ? "checked" : ""} ${s.host ? "" : "disabled"}> ${esc(t("decrypto.lobby.timer"))}</label>${help("timer", "decrypto.lobby.timer")}</div>
        ${!three && (Math.abs(teams.white.length - teams.black.length) > 1 || opts.uneven) ? `<div class="opt"><label><input type="checkbox" data-testid="dc-uneven" data-opt="uneven" ${opts.uneven ? "checked" : ""} ${s.host ? "" : "disabled"}> ${esc(t("decrypto.lobby.uneven"))}</label>${help("uneven", "decrypto.lobby.uneven")}</div>` : ""}
        <div class="opt"><label>${esc(t("decrypto.lobby.lang"))}
          <select data-testid="dc-lang" data-opt="lang" ${s.host ? "" : "disabled"}>
            ${["auto", "ja", "en"].map((l) => `<option value="${l}" ${opts.lang === l ? "selected" : ""}>${esc(l === "auto"
              /* the language most seated phones use (the server's Party.table_lang) */
              ? t("deck.auto", { lang: t("decrypto.lang." + (s.party.table_lang || "ja")) }) : t("decrypto.lang." + l))}</option>`).join("")}
          </select></label>${help("lang", "decrypto.lobby.lang")}</div>
      </div></div>`;
    if (s.host) PH.patch(root, html, wireLobby);
    else PH.patch(root, html);
  }
  /* The host's lobby controls: each change is made to the options as they are when it is made. */
  function wireLobby(root) {
    const save = (change) => {
      const next = lobbyOptions(PH.last);
      change(next);
      PH.setOptions(next);
    };
    root.querySelectorAll("[data-move]").forEach((b) => {
      b.onclick = () => save((o) => {
        const now = balance(PH.last.party.roster.map((r) => r.seat), o.teams);
        const all = {};
        for (const team of TEAMS) for (const seat of now[team]) all[seat] = team;
        all[b.dataset.move] = all[b.dataset.move] === "white" ? "black" : "white";
        o.teams = all;
      });
    });
    const shuffle = root.querySelector("[data-shuffle]");
    if (shuffle) shuffle.onclick = () => save((o) => {
      const list = PH.last.party.roster.map((r) => r.seat);
      for (let i = list.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [list[i], list[j]] = [list[j], list[i]];
      }
      o.teams = {};
      list.forEach((seat, i) => { o.teams[seat] = i % 2 ? "black" : "white"; });
    });
    const timer = root.querySelector("[data-opt=timer]");
    timer.onchange = () => save((o) => { o.timer = timer.checked; });
    const lang = root.querySelector("[data-opt=lang]");
    lang.onchange = () => save((o) => { o.lang = lang.value; });
    const uneven = root.querySelector("[data-opt=uneven]");
    if (uneven) uneven.onchange = () => save((o) => { o.uneven = uneven.checked; });
  }

  /* ---------------- shared pieces ---------------- */

  function tokensHtml(g, team) {
    const tk = g.tokens[team];
    const dots = (n, cls) => [0, 1].map((i) => `<i class="tok ${cls} ${i < n ? "on" : ""}"></i>`).join("");
    if (g.variant === "three") {
      /* §three: the team's failed decode is the interceptor's token, never a mark of its own */
      if (g.encrypting.includes(team)) return "";
      return `<span class="toks" data-testid="tokens-${team}" title="${esc(t("decrypto.tokens"))}">${dots(tk.interceptions, "int")}<b>${tk.interceptions}</b></span>`;
    }
    return `<span class="toks" data-testid="tokens-${team}">
      <span title="${esc(t("decrypto.interceptions"))}">${dots(tk.interceptions, "int")}</span>
      <span title="${esc(t("decrypto.miscommunications"))}">${dots(tk.miscommunications, "mis")}</span></span>`;
  }

  /* The seats whose phone is away (not connected). */
  function awaySeats(s) {
    return new Set(((s.party && s.party.roster) || []).filter((r) => !r.connected).map((r) => r.seat));
  }

  /* A team's players, one item each: an away phone's seat says 離席中 in words (the shared
     .seat-list rule in app.css frames it; nothing fades), as in the other games' player lists. */
  function membersHtml(s, g, team) {
    const away = new Set(((s.party && s.party.roster) || []).filter((r) => !r.connected).map((r) => r.seat));
    return `<ul class="tmembers seat-list" data-testid="members-${team}">${g.teams[team].map((x) => `<li class="${away.has(x) ? "away" : ""}" data-seat="${esc(x)}">
      <span class="who">${esc(name(s, x))}</span>${away.has(x) ? `<span class="tag away">${esc(t("roster.away"))}</span>` : ""}</li>`).join("")}</ul>`;
  }

  function statusHtml(s, g, mine) {
    const teamBox = (team) => {
      const role = g.variant === "three" && !g.encrypting.includes(team) ? t("decrypto.interceptor_side") : "";
      return `<div class="dc-team team-${team} ${g.active === team && (g.phase === "guess" || g.phase === "reveal") ? "up" : ""} ${mine === team ? "mine" : ""}">
        <span class="tname">${esc(teamName(team))}</span>${role ? `<small class="trole">${esc(role)}</small>` : ""}
        ${membersHtml(s, g, team)}
        ${tokensHtml(g, team)}</div>`;
    };
    return `<div class="dc-status">
      ${teamBox("white")}
      <div class="dc-round" data-testid="dc-round">${esc(t("decrypto.round_of", { round: g.round, rounds: g.max_rounds }))}
        <small>${esc(t("decrypto.legend"))}</small></div>
      ${teamBox("black")}</div>`;
  }

  /* The clue sheet of one team: four columns (keyword numbers), each clue under the number the
     revealed code gave it, tagged with its round; the team's own phones see the keywords. */
  function sheetHtml(g, team, keywords, extraClass) {
    const mine = (extraClass || "").includes("mine") && g.phase !== "over";
    /* the encryptor's own keywords hide with the code once the clues are sent: the slots say so
       (issue 27: they showed empty, under a note about "the four words above") */
    const hidden = mine && !keywords && g.my_keywords && g.my_keywords.length;
    const cols = [[], [], [], []];
    const entries = g.sheet[team] || [];
    for (const e of entries) e.code.forEach((d, i) => cols[d - 1].push({ round: e.round, clue: e.clues[i] }));
    const codes = entries.map((e) => `<span class="${e.miscommunicated ? "mis" : ""} ${e.intercepted ? "int" : ""}">${e.round}: <b>${codeText(e.code)}</b></span>`).join("");
    return `<section class="dc-sheet team-${team} ${extraClass || ""}" data-testid="sheet-${team}">
      <h3>${esc(t("decrypto.sheet_of", { team: teamName(team) }))}${mine ? ` <small data-testid="sheet-note">${esc(t(hidden ? "decrypto.sheet_hidden" : "decrypto.sheet_yours"))}</small>` : ""}</h3>
      <div class="cols">${cols.map((c, i) => `<div class="col" data-testid="sheet-${team}-${i + 1}">
        <div class="kw"><b>${i + 1}</b>${keywords && keywords[i] ? `<span data-testid="sheet-kw-${i + 1}">${esc(keywords[i])}</span>`
          : hidden ? `<span class="kw-hidden" data-testid="sheet-hidden-kw">${esc(t("decrypto.sheet_kw_hidden"))}</span>` : ""}</div>
        <ol>${c.map((x) => `<li><i>${x.round}</i>${x.clue ? esc(x.clue) : `<span class="blank">${esc(t("decrypto.blank"))}</span>`}</li>`).join("")}</ol></div>`).join("")}</div>
      ${codes ? `<p class="codes">${esc(t("decrypto.codes"))} ${codes}</p>` : `<p class="small sheet-empty" data-testid="sheet-empty">${esc(t("decrypto.sheet_empty"))}</p>`}
    </section>`;
  }

  function cluesHtml(g, big) {
    if (!g.clues) return "";
    return `<ol class="dc-clues ${big ? "big" : ""}" data-testid="clues">${g.clues.map((c, i) => `<li><span class="n">${i + 1}</span>
      <span class="c">${c ? esc(c) : `<span class="blank">${esc(t("decrypto.blank"))}</span>`}</span></li>`).join("")}</ol>`;
  }

  function revealHtml(s, g, big) {
    const r = g.reveal;
    if (!r) return "";
    const against = r.team === "white" ? "black" : "white";
    const mark = (ok) => (ok ? `<b class="ok">✔</b>` : `<b class="ng">✘</b>`);
    const rows = [];
    if (r.intercept) rows.push(`<li class="step s1"><span>${esc(t("decrypto.reveal.intercept", { team: teamName(against) }))}</span>
      <span class="code">${codeText(r.intercept)}</span>${mark(r.intercepted)}
      <em class="verdict ${r.intercepted ? "bad" : "good"}" data-testid="verdict">${esc(t(r.intercepted ? "decrypto.reveal.intercepted" : "decrypto.reveal.missed"))}</em></li>`);
    else rows.push(`<li class="step s1 none"><span>${esc(t("decrypto.reveal.no_intercept"))}</span></li>`);
    rows.push(`<li class="step s2"><span>${esc(t("decrypto.reveal.decode", { team: teamName(r.team) }))}</span>
      <span class="code">${codeText(r.decode)}</span>${mark(!r.miscommunicated)}
      <em class="verdict ${r.miscommunicated ? "bad" : "good"}" data-testid="verdict">${esc(t(r.miscommunicated ? (g.variant === "three" ? "decrypto.reveal.mis_three" : "decrypto.reveal.mis") : "decrypto.reveal.decoded"))}</em></li>`);
    rows.push(`<li class="step s3 answer"><span>${esc(t("decrypto.reveal.code", { name: name(s, r.encryptor) }))}</span>
      <span class="code" data-testid="reveal-code">${codeText(r.code)}</span></li>`);
    const placed = r.clues.map((c, i) => `<li><b>${r.code[i]}</b> ${c ? esc(c) : `<span class="blank">${esc(t("decrypto.blank"))}</span>`}</li>`).join("");
    return `<div class="dc-reveal ${big ? "big" : ""} team-${esc(r.team)}" data-testid="reveal">
      <h3><span class="tname" data-testid="reveal-team">${esc(t("decrypto.reveal.title", { team: teamName(r.team), round: r.round }))}</span></h3>
      <ol class="steps">${rows.join("")}</ol>
      <ul class="placed">${placed}</ul></div>`;
  }

  /* `how`: only how the game ended, not who won (a phone whose shared headline, PH.reveal,
     already says that) */
  function resultText(s, g, how) {
    const r = g.result;
    if (!r) return "";
    const p = { team: r.winner ? teamName(r.winner) : "", white: 0, black: 0 };
    if (r.reason === "score") Object.assign(p, r.scores);
    if (r.reason === "keywords" || r.reason === "shared") Object.assign(p, r.correct || {});
    if (r.reason === "three_intercepted") p.name = names(s, g.teams[r.winner]);
    if (r.reason === "miscommunicated") p.loser = teamName(r.winner === "white" ? "black" : "white");
    return t((how ? "decrypto.result_how." : "decrypto.result.") + r.reason, p);
  }
  function resultHtml(s, g, big, beside, how) {
    const r = g.result;
    const why = r.why ? t("decrypto.why." + r.why) : "";
    const kws = TEAMS.filter((team) => g.keywords[team] && g.keywords[team].length).map((team) => `
      <div class="dc-kwlist team-${team}"><h4>${esc(teamName(team))}</h4>
        <ol>${g.keywords[team].map((w) => `<li>${esc(w)}</li>`).join("")}</ol></div>`).join("");
    return `<div class="dc-result ${big ? "big" : ""}" data-testid="dc-result">
      <p class="banner ${r.winner ? "team-" + r.winner : "shared"}">${esc(resultText(s, g, how))}</p>
      ${why ? `<p class="why">${esc(why)}</p>` : ""}
      <div class="dc-kws" data-testid="final-keywords">${kws}${beside || ""}</div></div>`;
  }

  /* The players of an open guess ("decode": the team but its encryptor; "intercept": the other
     team), by name, a dropped phone marked: whom the table waits for. */
  function groupText(s, g, kind, team) {
    const seats = g.teams[team].filter((x) => kind !== "decode" || x !== g.encryptors[team]);
    const roster = (s.party && s.party.roster) || [];
    const who = seats.map((x) => {
      const r = roster.find((e) => e.seat === x);
      return r && !r.connected ? t("decrypto.offline", { name: name(s, x) }) : name(s, x);
    });
    return t("decrypto.wait.group_who", { what: t("decrypto.wait.group." + kind, { team: teamName(team) }), names: PH.list(who) });
  }

  /* Whom the table waits for, in words. */
  function waitingText(s, g) {
    if (g.phase === "encrypt") {
      const left = g.encrypting.filter((team) => !g.submitted[team]);
      /* an away encryptor is marked in words, as groupText marks an away guesser */
      const away = awaySeats(s);
      const who = (x) => away.has(x) ? t("decrypto.offline", { name: name(s, x) }) : name(s, x);
      return left.length ? t("decrypto.wait.clues", { names: list(left.map((team) => t("decrypto.who_team", { name: who(g.encryptors[team]), team: teamName(team) }))) }) : "";
    }
    if (g.phase === "guess") {
      const left = Object.entries(g.guessing).filter(([, x]) => !x.locked)
        .map(([kind, x]) => groupText(s, g, kind, x.team));
      return left.length ? t("decrypto.wait.guess", { groups: list(left) }) : "";
    }
    if (g.phase === "keywords" && g.tie) {
      const left = TEAMS.filter((team) => !g.tie.locked[team]).map(teamName);
      return left.length ? t("decrypto.wait.kw", { teams: list(left) }) : "";
    }
    if (g.phase === "judge" && g.tie) {
      const left = TEAMS.filter((team) => !g.tie.judged[team]).map(teamName);
      return left.length ? t("decrypto.wait.judge", { teams: list(left) }) : "";
    }
    return "";
  }

  function timerHtml(g) {
    /* the clue timer stopped for an away encryptor: whom it waits for, and the seconds it keeps */
    const p = g.timer_paused;
    if (p) return `<p class="dc-timer dc-stopped" data-testid="dc-timer-paused" role="status">${esc(t("decrypto.timer_paused",
      { people: PH.people(PH.last, p.waiting_for), seconds: Math.ceil(p.left) }))}</p>`;
    return PH.countdown(g.deadline, { label: "decrypto.timer_left", cls: "dc-timer", testid: "dc-timer" });
  }

  /* ---------------- phone ---------------- */

  let clueSave = null; /* pending draft save of the clue fields (debounced) */
  let kwSave = null;

  /* Taps faster than the server's answer build on each other: the last code this phone sent
     counts until the server shows it (or 1.5 s pass: a refusal, or a teammate changed it). */
  let pending = null;
  const PENDING_MS = 1500;
  function guessCode(g) {
    const key = `${g.round}-${g.active}`;
    if (pending && pending.key === key && Date.now() - pending.at < PENDING_MS) {
      if (pending.code.join() !== g.my_guess.code.join()) return pending.code;
    }
    pending = null;
    return g.my_guess.code;
  }

  function pickerHtml(g) {
    const mine = g.my_guess;
    const code = mine.locked ? mine.code : guessCode(g);
    /* decoders see their own keywords on the number buttons; interceptors only the numbers */
    const labels = g.role === "decoder" && g.my_keywords.length === 4 ? g.my_keywords : null;
    const rows = g.clues.map((c, i) => `<div class="dc-pick-row">
        <span class="clue"><span class="n">${i + 1}</span>${c ? esc(c) : `<span class="blank">${esc(t("decrypto.blank"))}</span>`}</span>
        <span class="digits">${[1, 2, 3, 4].map((d) => `<button class="digit ${code[i] === d ? "on" : ""}" data-pick="${i}" data-digit="${d}"
          data-testid="pick-${i}-${d}" ${mine.locked ? "disabled" : ""}>${d}${labels ? `<small>${esc(labels[d - 1])}</small>` : ""}</button>`).join("")}</span></div>`).join("");
    const full = code.every((d) => d) && new Set(code).size === 3;
    /* the lone interceptor of the 3-player game has nobody to share the draft with */
    const alone = g.variant === "three" && !g.encrypting.includes(g.team);
    const by = alone ? t("decrypto.draft_alone")
      : mine.by ? t(mine.locked ? "decrypto.locked_by" : "decrypto.draft_by", { name: name(PH.last, mine.by) }) : t("decrypto.draft_shared");
    const kind = g.role === "interceptor" ? "intercept" : "decode";
    return `<div class="dc-guess ${kind}" data-testid="guess-panel">
      <p class="dc-task">${esc(t("decrypto.task." + kind, { team: teamName(g.active) }))}</p>
      ${rows}
      <p class="small" data-testid="draft-by">${esc(by)}</p>
      ${mine.locked ? `<p class="dc-locked" data-testid="locked">${esc(t("decrypto.locked", { code: codeText(code) }))}</p>`
        : `<button class="primary big sticky-primary" data-lock="1" data-testid="lock" ${full ? "" : "disabled"}>${esc(t("decrypto.lock", { code: codeText(code) }))}</button>`}
    </div>`;
  }

  function encryptorFormHtml(g) {
    const code = g.my_code;
    const kws = g.my_keywords;
    const clues = (g.my_clues && g.my_clues.clues) || ["", "", ""];
    return `<div class="dc-enc" data-testid="encryptor">
      <p class="dc-task">${esc(t("decrypto.task.encrypt"))}</p>
      <div class="dc-code" data-testid="my-code">${code.map((d) => `<span>${d}</span>`).join("")}</div>
      <form class="dc-clue-form" autocomplete="off">
        ${code.map((d, i) => `<label class="dc-field"><span class="num">${d}</span><span class="kw">${esc(kws[d - 1])}</span>
          <input data-clue="${i}" data-testid="clue-${i}" maxlength="40" enterkeyhint="${i < 2 ? "next" : "done"}" autocomplete="off"
            placeholder="${esc(t("decrypto.clue_placeholder", { n: i + 1 }))}" value="${esc(clues[i])}"></label>`).join("")}
        <button type="button" class="primary big" data-send-clues="1" data-testid="send-clues">${esc(t("decrypto.send_clues"))}</button>
      </form>
      <p class="dc-rules small">${esc(t("decrypto.clue_rules"))}</p>
      <div class="dc-enc-status" data-part="status"></div></div>`;
  }

  /* Enter moves to the next field (never submits); an IME's Enter that confirms a conversion
     does nothing at all (isComposing / keyCode 229, and the composition events for browsers
     that report neither). */
  function wireEnter(inputs) {
    let composing = false;
    inputs.forEach((input, i) => {
      input.addEventListener("compositionstart", () => { composing = true; });
      input.addEventListener("compositionend", () => { composing = false; });
      input.addEventListener("keydown", (e) => {
        if (e.key !== "Enter") return;
        e.preventDefault();
        if (composing || e.isComposing || e.keyCode === 229) return;
        if (i < inputs.length - 1) inputs[i + 1].focus(); else input.blur();
      });
    });
  }

  function wireEncryptor(main, round) {
    const inputs = [...main.querySelectorAll("[data-clue]")];
    const values = () => inputs.map((x) => x.value);
    const save = () => {
      clearTimeout(clueSave);
      clueSave = setTimeout(() => {
        clueSave = null;
        const g = PH.last && PH.last.game;
        if (g && g.phase === "encrypt" && g.round === round && g.my_clues && !g.my_clues.final) PH.act({ type: "clues", round, clues: values(), final: false });
      }, 700);
    };
    inputs.forEach((input) => input.addEventListener("input", save));
    wireEnter(inputs);
    // never a page-reloading form submit (an inline onsubmit would be blocked by the pages' CSP)
    const form = main.querySelector(".dc-clue-form");
    if (form) form.addEventListener("submit", (e) => e.preventDefault());
    PH.guard(main.querySelector("[data-send-clues]"), () => {
      clearTimeout(clueSave);
      clueSave = null;
      return PH.act({ type: "clues", round, clues: values(), final: true });
    });
  }

  function kwFormHtml(s, g) {
    const mine = g.my_kw;
    const other = g.team === "white" ? "black" : "white";
    return `<div class="dc-kwguess" data-testid="kw-form">
      <p class="dc-task">${esc(t("decrypto.task.kw", { team: teamName(other) }))}</p>
      <p class="small">${esc(t("decrypto.why." + (g.tie.why || "rounds")))} · ${esc(t("decrypto.kw_hint"))}</p>
      ${[0, 1, 2, 3].map((i) => `<label class="dc-field"><span class="num">${i + 1}</span>
        <input data-kw="${i}" data-testid="kw-${i}" maxlength="40" autocomplete="off" value="${esc(mine.draft[i] || "")}"></label>`).join("")}
      <button type="button" class="primary big" data-kw-lock="1" data-testid="kw-lock">${esc(t("decrypto.kw_lock"))}</button>
      <p class="small dc-kw-by" data-part="by"></p></div>`;
  }

  function wireKw(main) {
    const inputs = [...main.querySelectorAll("[data-kw]")];
    const values = () => inputs.map((x) => x.value);
    /* a save names the fields typed on this phone, so a teammate typing another field at the
       same time keeps their word */
    const dirty = new Set();
    inputs.forEach((input, i) => input.addEventListener("input", () => {
      dirty.add(i);
      clearTimeout(kwSave);
      kwSave = setTimeout(() => {
        kwSave = null;
        const fields = [...dirty];
        dirty.clear();
        PH.act({ type: "kw_guess", words: values(), final: false, fields });
      }, 600);
    }));
    wireEnter(inputs);
    PH.guard(main.querySelector("[data-kw-lock]"), () => {
      clearTimeout(kwSave);
      kwSave = null;
      return PH.act({ type: "kw_guess", words: values(), final: true });
    });
  }

  function judgeHtml(s, g) {
    const j = g.my_judge;
    const ruled = j.ruled || [], contested = j.contested || [];
    const mark = (i) => ruled[i] != null ? `<small class="ruled">${esc(t(ruled[i] ? "decrypto.ruled_in" : "decrypto.ruled_out"))}</small>`
      : contested[i] ? `<small class="contested">${esc(t("decrypto.contested"))}</small>` : "";
    /* a word named in any slot counts (✔ by the keyword); a near match is the guess in its slot */
    return `<div class="dc-judge" data-testid="judge">
      <p class="dc-task">${esc(t("decrypto.task.judge"))}</p>
      <ol>${g.my_keywords.map((w, i) => `<li><span class="kw">${esc(w)}</span><span class="guess">${j.guesses[i] ? esc(j.guesses[i]) : "—"}</span>
        ${j.exact[i] ? `<b class="ok">✔</b>` : !String(j.guesses[i] || "").trim() || ruled[i] != null ? `<span>${mark(i)}</span>` : `<button class="small ${j.accepted[i] ? "on" : ""}" data-accept="${i + 1}" data-value="${j.accepted[i] ? 0 : 1}" ${j.done ? "disabled" : ""}
          data-testid="accept-${i + 1}">${esc(t(j.accepted[i] ? "decrypto.accepted" : "decrypto.accept"))}</button>${mark(i)}`}</li>`).join("")}</ol>
      ${j.done ? `<p class="dc-locked">${esc(t("decrypto.judged"))}</p>` : `<button class="primary big" data-judged="1" data-testid="judged">${esc(t("decrypto.judge_done"))}</button>`}
      ${ourAnswersHtml(g)}
      <p class="small">${PH.countdown(g.deadline, { label: "decrypto.timer_left", testid: "dc-tie-timer" })}</p>
    </div>`;
  }

  /* This team's own answers about the other team's words: what counts, and a near match the
     owners did not accept can be contested (the host then rules: never the owners alone). */
  function ourAnswersHtml(g) {
    const tie = g.tie;
    if (!tie || !tie.guesses || !g.team) return "";
    const mine = g.team, got = tie.accepted[mine], exact = tie.exact[mine], cont = tie.contested[mine], ruled = tie.ruled[mine];
    return `<div class="dc-ours" data-testid="our-answers"><p class="small">${esc(t("decrypto.our_answers"))}</p>
      <ol>${tie.guesses[mine].map((w, i) => `<li><span class="guess">${w ? esc(w) : "—"}</span>
        ${got[i] ? `<b class="ok">✔</b>` : ruled[i] != null ? `<small class="ruled">${esc(t("decrypto.ruled_out"))}</small>`
          : cont[i] ? `<small class="contested">${esc(t("decrypto.contested"))}</small>`
          : String(w || "").trim() && !exact[i] ? `<button class="small" data-contest="${i + 1}" data-testid="contest-${i + 1}">${esc(t("decrypto.contest"))}</button>` : ""}</li>`).join("")}</ol></div>`;
  }

  function phoneMain(main, s, g) {
    const playing = !!(s.me && s.me.playing && g.team);
    let key = "plain";
    if (playing && g.phase === "encrypt" && g.role === "encryptor" && g.my_clues && !g.my_clues.final) key = `enc-${s.party.serial}-${g.round}`;
    else if (playing && g.phase === "keywords" && g.my_kw && !g.my_kw.words) key = `kw-${s.party.serial}`;
    /* the two forms are mounted once per round (a language switch keeps what was typed) */
    if (key.startsWith("enc-")) {
      const form = PH.mount(main, key, encryptorFormHtml(g), () => wireEncryptor(main, g.round));
      form.draw("status", `${timerHtml(g)}<p class="small">${esc(waitingText(s, g))}</p>`);
      return;
    }
    if (key.startsWith("kw-")) {
      const form = PH.mount(main, key, kwFormHtml(s, g), () => wireKw(main));
      /* a teammate's typing arrives here: fill the fields nobody is typing in on this phone */
      main.querySelectorAll("[data-kw]").forEach((input) => {
        const v = g.my_kw.draft[Number(input.dataset.kw)] || "";
        if (document.activeElement !== input && !kwSave && input.value !== v) input.value = v;
      });
      form.draw("by", `${esc(waitingText(s, g))} ${PH.countdown(g.deadline, { label: "decrypto.timer_left", testid: "dc-tie-timer" })}`);
      return;
    }
    let body = "";
    const wait = waitingText(s, g);
    if (g.phase === "over") {
      body = resultHtml(s, g, false, "", !!(PH.reveal && PH.reveal.said(s))) + revealHtml(s, g, false);
    } else if (!playing) {
      body = `${g.phase === "guess" ? `<p class="dc-task">${esc(t("decrypto.clues_of", { team: teamName(g.active) }))}</p>${cluesHtml(g, false)}` : ""}
        ${g.phase === "reveal" ? revealHtml(s, g, false) : ""}<p class="note">${esc(wait)}</p>`;
    } else if (g.phase === "encrypt") {
      if (g.role === "encryptor") {
        body = `<div class="dc-enc done"><p class="dc-task">${esc(t("decrypto.sent"))}</p>
          ${peekBox(g, `<div class="dc-code small" data-testid="my-code">${g.my_code.map((d) => `<span>${d}</span>`).join("")}</div>
          <ol class="dc-clues">${g.my_clues.clues.map((c, i) => `<li><span class="n">${g.my_code[i]}</span><span class="c">${c ? esc(c) : `<span class="blank">${esc(t("decrypto.blank"))}</span>`}</span></li>`).join("")}</ol>`)}</div>`;
      } else {
        body = `<p class="dc-task">${esc(t(g.encrypting.length === 1 ? "decrypto.wait.encrypt_title_one" : "decrypto.wait.encrypt_title"))}</p>`;
      }
      body += `${timerHtml(g)}<p class="note" data-testid="waiting">${esc(wait)}</p>`;
    } else if (g.phase === "guess") {
      body = `<p class="dc-task small">${esc(t("decrypto.clues_of", { team: teamName(g.active) }))} — ${esc(name(s, g.encryptors[g.active]))}</p>`;
      if (g.role === "decoder" || g.role === "interceptor") body += pickerHtml(g);
      else if (g.role === "encryptor") {
        body += `${cluesHtml(g, false)}${peekBox(g, `<div class="dc-code small" data-testid="my-code">${g.my_code.map((d) => `<span>${d}</span>`).join("")}</div>`)}
          <p class="note">${esc(t("decrypto.encryptor_waits"))}</p>`;
      } else {
        body += `${cluesHtml(g, false)}<p class="note">${esc(t(g.round < 2 ? "decrypto.no_intercept_round1" : "decrypto.wait.other"))}</p>`;
      }
      body += `<p class="note" data-testid="waiting">${esc(wait)}</p>`;
      if (g.my_code && g.my_clues && g.active !== g.team) body += myTurnLater(g);
    } else if (g.phase === "reveal") {
      body = `${revealHtml(s, g, false)}
        <button class="primary big" data-next="1" data-testid="next">${esc(t("decrypto.next"))}</button>
        <p class="small">${PH.countdown(g.reveal_deadline, { label: "decrypto.next_in" })}</p>`;
    } else if (g.phase === "keywords") {
      body = `<p class="dc-task">${esc(t("decrypto.kw_sent"))}</p><ol class="dc-clues">${(g.my_kw.words || []).map((w, i) => `<li><span class="n">${i + 1}</span><span class="c">${esc(w || "—")}</span></li>`).join("")}</ol>
        <p class="note" data-testid="waiting">${esc(wait)}</p>`;
    } else if (g.phase === "judge") {
      body = judgeHtml(s, g) + `<p class="note" data-testid="waiting">${esc(wait)}</p>`;
    }
    PH.patch(main, body, wireMain);
  }

  /* The encryptor whose clues come next keeps them (and the code) at hand, still secret: behind
     the peek, since teammates huddle round this phone while they intercept (issue 13, point 6). */
  function myTurnLater(g) {
    return `<div class="dc-later"><p class="small">${esc(t("decrypto.later"))}</p>
      ${peekBox(g, `<ol class="dc-clues" data-testid="my-later-clues">${g.my_clues.clues.map((c, i) => `<li><span class="n">${g.my_code[i]}</span><span class="c">${c ? esc(c) : `<span class="blank">${esc(t("decrypto.blank"))}</span>`}</span></li>`).join("")}</ol>`)}</div>`;
  }

  /* Tap-to-peek (as Top Ten hides the numbers): once the clues are sent, the encryptor's phone shows
     the team's code, the clue-to-digit list and the team's keywords only while its holder peeks, so
     a teammate leaning over it in the huddle never sees the answer to the coming decode. The peek
     closes by itself after PEEK_MS, and whenever the step of the round changes. */
  const PEEK_MS = 5000;
  const peek = { key: null, open: false, timer: null };
  function peekKey(g) { return `${g.round}-${g.phase}-${g.active}`; }
  /* Whether this phone holds a code its teammates must not see yet (the encryptor's, once sent). */
  function codeSecret(g) { return !!(g.my_code && g.my_clues && g.my_clues.final && g.phase !== "over"); }
  function peekBox(g, inner) {
    if (peek.key !== peekKey(g)) { peek.key = peekKey(g); peek.open = false; clearTimeout(peek.timer); }
    return `<div class="dc-peek ${peek.open ? "open" : ""}">
      <button type="button" class="dc-peek-btn" data-peek="1" data-testid="code-peek" aria-pressed="${peek.open}">
        <strong>${esc(t(peek.open ? "decrypto.peek_hide" : "decrypto.peek"))}</strong>${peek.open ? "" : `<small>${esc(t("decrypto.peek_hint"))}</small>`}</button>
      ${peek.open ? inner : ""}</div>`;
  }
  function wirePeek(el) {
    el.querySelectorAll("[data-peek]").forEach((b) => {
      b.onclick = () => {
        peek.open = !peek.open;
        clearTimeout(peek.timer);
        if (peek.open) peek.timer = setTimeout(() => { peek.open = false; PH.refresh(); }, PEEK_MS);
        PH.refresh();
      };
    });
  }

  function phoneSheets(s, g) {
    const mine = g.team;
    const theirs = mine === "white" ? "black" : "white";
    /* the sheet being reasoned from comes first: the team whose clues are up (an interceptor
       reads the other team's), or the other team's when guessing their keywords */
    const order = !mine ? TEAMS
      : g.phase === "keywords" || ((g.phase === "guess" || g.phase === "reveal") && g.active === theirs) ? [theirs, mine]
      : [mine, theirs];
    /* the encryptor's own keywords, beside the clues' code digits, would give the code away */
    const ownWords = codeSecret(g) && !(peek.open && peek.key === peekKey(g)) ? null : g.my_keywords;
    return order.filter((team) => g.encrypting.includes(team))
      .map((team) => sheetHtml(g, team, team === mine ? ownWords : g.keywords && g.keywords[team], team === mine ? "mine" : "")).join("");
  }

  /* The buttons of the phone's main part, each time it is drawn. The game is read when a button is
     tapped (PH.last), not when it was drawn. */
  function wireMain(main) {
    const now = () => PH.last.game;
    wirePeek(main);
    main.querySelectorAll("[data-pick]").forEach((b) => {
      /* digits are not guarded: fast taps build on each other (see guessCode) */
      b.onclick = () => {
        const g = now();
        if (!g.my_guess) return;
        const code = guessCode(g).slice();
        const i = Number(b.dataset.pick), d = Number(b.dataset.digit);
        for (let k = 0; k < 3; k++) if (k !== i && code[k] === d) code[k] = 0; /* a digit once: it moves */
        code[i] = code[i] === d ? 0 : d;
        /* the picker and its lock button come on screen together (the coach's tip may push them down) */
        requestAnimationFrame(() => PH.keepInView(main.querySelector(".dc-guess .dc-pick-row"), main.querySelector(".dc-guess [data-testid=lock]")));
        pending = { key: `${g.round}-${g.active}`, code, at: Date.now() };
        /* index: the server changes only this row, so a teammate's tap in flight is kept */
        PH.act({ type: "draft", round: g.round, team: g.active, code, index: i });
        PH.refresh();
        setTimeout(PH.refresh, PENDING_MS + 50);
      };
    });
    PH.guard(main.querySelector("[data-lock]"), () => {
      const g = now();
      return PH.act({ type: "lock", round: g.round, team: g.active, code: guessCode(g) });
    }, { key: "decrypto-lock" });
    PH.guard(main.querySelector("[data-next]"), () => PH.act({ type: "next", round: now().round, team: now().active }), { key: "decrypto-next" });
    main.querySelectorAll("[data-accept]").forEach((b) => {
      PH.guard(b, () => PH.act({ type: "accept", number: Number(b.dataset.accept), accept: b.dataset.value === "1" }), { key: "decrypto-accept:" + b.dataset.accept });
    });
    PH.guard(main.querySelector("[data-judged]"), () => PH.act({ type: "judged" }), { key: "decrypto-judged" });
    main.querySelectorAll("[data-contest]").forEach((b) => {
      PH.guard(b, () => PH.act({ type: "contest", number: Number(b.dataset.contest) }), { key: "decrypto-contest:" + b.dataset.contest });
    });
  }

  function feel(g, s) {
    PH.react("decrypto.phone", s, g.event, (e) => {
      if (e.kind === "round" && g.role === "encryptor") PH.buzz([80, 60, 80]);
      else if (e.kind === "clues_up" && (g.role === "decoder" || g.role === "interceptor")) PH.buzz(60);
      else if (e.kind === "over") PH.buzz([50, 50, 50, 50, 150]);
      /* why clues went blank, and who writes now (RULES.md "Decrypto": the timer) */
      const blank = e.kind === "timer_out" ? e.teams : e.kind === "clues_up" ? e.timed_out : null;
      if ((blank || []).length) PH.toast(t("decrypto.timer_out", { teams: list(blank.map(teamName)) }), true);
      else if (e.kind === "encryptor_passed") PH.toast(t("decrypto.encryptor_passed", { name: name(s, e.seat), to: name(s, e.to) }));
    });
  }

  function phone(root, s) {
    const g = s.game;
    const sc = PH.mount(root, "decrypto-phone", `<div class="dc phone"><div class="dc-head" data-part="head"></div><div class="dc-main" data-part="main"></div><div class="dc-sheets" data-part="sheets"></div></div>`);
    feel(g, s);
    const badge = g.team ? `<p class="dc-me team-${g.team}" data-testid="my-team">${esc(g.variant === "three" && !g.encrypting.includes(g.team) ? t("decrypto.you_are_interceptor", { team: teamName(g.team) }) : t("decrypto.you_are", { team: teamName(g.team) }))}${
      g.role === "encryptor" && g.phase !== "over" ? ` · <b>${esc(t("decrypto.role.encryptor"))}</b>` : ""}</p>` : "";
    sc.draw("head", statusHtml(s, g, g.team) + badge);
    phoneMain(sc.part("main"), s, g);
    sc.draw("sheets", phoneSheets(s, g));
  }

  /* ---------------- TV ---------------- */

  function sound(g, s) {
    PH.react("decrypto.tv", s, g.event, (e) => {
      if (e.kind === "clues_up") PH.beep(660, 120);
      else if (e.kind === "reveal") { PH.beep(440, 120); setTimeout(() => PH.beep(550, 120), 500); setTimeout(() => PH.sound.cue("reveal"), 1000); }
      else if (e.kind === "over") PH.sound.cue("win");
    });
  }

  function tvStage(s, g) {
    const wait = waitingText(s, g);
    /* the reveal that decided the game stays on the TV beside the keywords */
    if (g.phase === "over") return resultHtml(s, g, true, g.reveal ? revealHtml(s, g, true) : "");
    if (g.phase === "encrypt") {
      /* an encryptor whose phone is away: the host hands the turn to the next teammate */
      const away = new Set(s.party.roster.filter((r) => !r.connected).map((r) => r.seat));
      const pass = (team) => !g.submitted[team] && away.has(g.encryptors[team])
        ? `<p class="dc-away team-${team}">${esc(t("decrypto.encryptor_away", { name: name(s, g.encryptors[team]) }))}${s.host
          ? ` <button class="small" data-tv-pass="${team}" data-testid="pass-encryptor-${team}">${esc(t("decrypto.pass_encryptor", { name: name(s, g.encryptors[team]) }))}</button>` : ""}</p>` : "";
      return `<div class="dc-stage-encrypt">
        <h2>${esc(t(g.encrypting.length === 1 ? "decrypto.tv.encrypt_one" : "decrypto.tv.encrypt", { round: g.round }))}</h2>
        <ul class="dc-writers seat-list">${g.encrypting.map((team) => {
          /* an away encryptor's pill says 離席中 in words (the shared .seat-list rule frames it) */
          const x = g.encryptors[team], off = away.has(x);
          return `<li class="team-${team}${g.submitted[team] ? " done" : ""}${off ? " away" : ""}" data-seat="${esc(x)}">
          <span class="tname">${esc(teamName(team))}</span><span class="who">${esc(name(s, x))}</span>${off ? `<span class="tag away">${esc(t("roster.away"))}</span>` : ""}
          <b>${g.submitted[team] ? "✔" : "…"}</b></li>`;
        }).join("")}</ul>
        ${g.encrypting.map(pass).join("")}
        ${timerHtml(g)}<p class="note">${esc(wait)}</p></div>`;
    }
    if (g.phase === "guess") {
      return `<div class="dc-stage-guess team-${g.active}">
        <h2>${esc(t("decrypto.tv.clues", { team: teamName(g.active), name: name(s, g.encryptors[g.active]) }))}</h2>
        ${cluesHtml(g, true)}
        <ul class="dc-locks">${Object.entries(g.guessing).map(([kind, x]) => `<li class="${x.locked ? "done" : ""}">
          ${esc(groupText(s, g, kind, x.team))} <b>${x.locked ? "✔" : "…"}</b></li>`).join("")}
          ${g.guessing.intercept ? "" : `<li class="none">${esc(t("decrypto.no_intercept_round1"))}</li>`}</ul></div>`;
    }
    if (g.phase === "reveal") {
      return `<div class="dc-stage-reveal">${revealHtml(s, g, true)}
        <div class="dc-next-row">${s.host ? `<button class="primary" data-tv-next="1" data-testid="tv-next">${esc(t("decrypto.next"))}</button>` : ""}
        ${PH.countdown(g.reveal_deadline, { label: "decrypto.next_in", cls: "small" })}</div></div>`;
    }
    const owner = (team) => (team === "white" ? "black" : "white");
    const ruleBtns = (team, i) => `<span class="dc-rule"><small>${esc(t("decrypto.contested"))}</small>${s.host ? ["1", "0"].map((v) =>
      ` <button class="small" data-rule-team="${owner(team)}" data-rule-number="${i + 1}" data-rule-accept="${v}" data-testid="rule-${owner(team)}-${i + 1}-${v === "1" ? "in" : "out"}">${esc(t(v === "1" ? "decrypto.accept" : "decrypto.reject"))}</button>`).join("") : ""}</span>`;
    const answers = g.tie && g.tie.guesses ? `<div class="dc-kws">${TEAMS.map((team) => `
      <div class="dc-kwlist team-${team}"><h4>${esc(t("decrypto.tv.answers", { team: teamName(team) }))}</h4>
        <ol>${g.tie.guesses[team].map((w, i) => `<li>${w ? esc(w) : "—"} ${g.tie.accepted[team][i] ? `<b class="ok">✔</b>` : (g.tie.contested || {})[team] && g.tie.contested[team][i] ? ruleBtns(team, i) : ""}</li>`).join("")}</ol></div>`).join("")}</div>` : "";
    return `<div class="dc-stage-tie"><h2>${esc(t("decrypto.tv.tie"))}</h2><p>${esc(t("decrypto.why." + (g.tie && g.tie.why || "rounds")))}</p>
      <p class="big">${esc(t(g.phase === "judge" ? "decrypto.tv.judge" : "decrypto.tv.kw"))}</p>${answers}<p class="note">${esc(wait)} ${PH.countdown(g.deadline, { label: "decrypto.timer_left", testid: "dc-tie-timer" })}</p></div>`;
  }

  /* Shrink a box's type until its content fits it: the TV has a fixed height, and the clue
     sheet (the public record) and the reveal must never be cut off, however long the clues and
     however many rounds. ``content`` is the element whose height must fit ``box``. */
  function fitText(box, content, minPx) {
    if (!box || !content) return;
    box.style.fontSize = "";
    let size = parseFloat(getComputedStyle(box).fontSize);
    const limit = () => box.clientHeight + 1;
    for (let i = 0; i < 40 && content.scrollHeight > limit() && size > minPx; i++) {
      size = Math.max(minPx, size * 0.93);
      box.style.fontSize = size + "px";
    }
  }

  function tv(root, s) {
    const g = s.game;
    sound(g, s);
    const sc = PH.mount(root, "decrypto-tv", `<div class="dc tv"><div class="dc-head" data-part="head"></div><div class="dc-stage" data-part="stage"></div><div class="dc-sheets" data-part="sheets"></div></div>`);
    sc.el.className = `dc tv phase-${g.phase} variant-${g.variant}`;
    sc.draw("head", statusHtml(s, g, null) + (g.phase === "over" ? "" : `<p class="dc-rule" data-testid="dc-rule">${esc(t(g.variant === "three" ? "decrypto.howto.v.rule_three" : "decrypto.howto.v.rule"))}</p>`));
    sc.draw("stage", tvStage(s, g), (el) => {
      const next = el.querySelector("[data-tv-next]");
      PH.guard(next, () => {
        const cur = PH.last.game;
        return cur.phase === "reveal" ? PH.hostAct("next", { round: cur.round, team: cur.active }) : null;
      }, { key: "decrypto-tv-next" });
      el.querySelectorAll("[data-rule-team]").forEach((b) => {
        PH.guard(b, () => PH.hostAct("rule", { team: b.dataset.ruleTeam, number: Number(b.dataset.ruleNumber), accept: b.dataset.ruleAccept === "1" }),
          { key: "decrypto-rule:" + b.dataset.ruleTeam + b.dataset.ruleNumber });
      });
      el.querySelectorAll("[data-tv-pass]").forEach((b) => {
        PH.guard(b, () => PH.hostAct("pass_encryptor", { round: PH.last.game.round, team: b.dataset.tvPass }),
          { key: "decrypto-tv-pass:" + b.dataset.tvPass });
      });
    });
    sc.draw("sheets", g.encrypting.map((team) => sheetHtml(g, team, g.keywords && g.keywords[team], "")).join(""));
    /* the sizes follow what is drawn now, and the room the other parts leave */
    const sheets = sc.part("sheets");
    fitText(sheets, sheets, 8);
    const stage = sc.part("stage");
    const rule = sc.part("head").querySelector(".dc-rule");
    if (rule) rule.hidden = false;
    fitText(stage, stage.firstElementChild, 9);
    /* a late round with the coach's strip on (issue 27): the reveal at its smallest still does
       not fit, so the rule line (the strip teaches meanwhile) gives its room to the stage */
    const strip = document.getElementById("coach-strip");
    if (rule && strip && !strip.hidden && stage.firstElementChild && stage.firstElementChild.scrollHeight > stage.clientHeight + 1) {
      rule.hidden = true;
      fitText(stage, stage.firstElementChild, 9);
    }
  }


  PH.games.decrypto = { phone, tv, lobby };
})();
