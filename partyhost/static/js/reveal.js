/* Reveals shared by the games: the result of the game just finished, read from tonight's record
 * (the server writes the entry the moment a game is over: party.record, see party.py
 * Party.settle), so every game says who won the same way.
 *
 * PH.reveal.outcome(s): the record entry of the game on screen, or null while it runs.
 * PH.reveal.phone(s): the phone's result line — 「あなたの勝ち!」 on a winner's phone (a team
 *   game: each phone of the winning team; a cooperative game: every phone says the team won).
 * PH.reveal.said(s): true when this phone shows that line; a game then leaves out its own
 *   phone result line (「★ あかりさんの勝ち!」, "Winner: …"), so each phone says the result once.
 *   The TV keeps the games' own lines.
 * PH.reveal.placed(places): a game's final ranking (its view's `places`, from Game.outcome) as
 *   rows {seat, place}, best first, tied seats sharing a place number (1, 1, 3).
 * PH.reveal.ranking(s, rows): the ranking list at a game's end (places, names, numbers); on a
 *   phone its own row is marked in words (PH.reveal.youTag(): 「あなた」/"you").
 */
"use strict";

PH.reveal = (() => {
  const { t, esc } = PH;

  /** The record entry of the current game once it is over (null before). */
  function outcome(s) {
    if (!s || !s.party || !s.party.over) return null;
    const entry = (s.party.record || []).find((e) => e.serial === s.party.serial);
    return entry && entry.result ? entry : null;
  }

  /** The result line for this phone: HTML, or "" while the game runs or for a spectator. */
  function phone(s) {
    const entry = outcome(s);
    const me = s.me && s.me.seat;
    if (!entry || !me || !entry.players.some((p) => p.seat === me)) return "";
    const r = entry.result;
    const first = (r.places && r.places[0]) || [];
    let cls = "other", text;
    if (r.coop) {
      cls = r.won ? "win" : "lost";
      text = t(r.won ? "reveal.team_won" : "reveal.team_lost");
    } else if (r.places.length === 1 && first.length > 1) {
      text = t("reveal.draw");
    } else if (first.includes(me)) {
      cls = "win";
      text = t(r.detail && r.detail.label ? "reveal.your_team_wins" : "reveal.you_win");
    } else {
      const label = r.detail && r.detail.label;
      text = label && label.key ? t("reveal.team_won_named", { team: t(label.key, label.params) })
        : t("reveal.not_this_time", { people: PH.list(first.map((seat) => t("list.person", {
          name: (entry.players.find((p) => p.seat === seat) || {}).name || PH.nameOf(s, seat) }))) });
    }
    return `<p class="you-result ${cls}" data-testid="you-result" data-result="${cls}">${esc(text)}</p>`;
  }

  /** Whether this phone shows the shared result line (then a game's own result line would only
      say it a second time). */
  function said(s) {
    return phone(s) !== "";
  }

  /**
   * The seats of a game's final ranking in order, each with its place number: `places` is the
   * game's own ranking (best first, a list of seats per place; ties share a place, computed by
   * the game's rules, never here). A place's number counts the seats ahead of it, so two tied
   * first are 1, 1 and the next is 3. Empty for no ranking (null).
   */
  function placed(places) {
    const rows = [];
    for (const group of places || []) {
      const place = rows.length + 1;
      for (const seat of group) rows.push({ seat, place });
    }
    return rows;
  }

  /** A phone's own row in a ranking says so in words, 「あなた」/"you" (with its bold name and a
      lighter row: never colour alone). */
  function youTag() {
    return `<span class="tag you" data-testid="ranking-you">${esc(t("common.you"))}</span>`;
  }

  /**
   * The ranking at a game's end, best first: `rows` is a list of {seat, place, value, note?}
   * in the game's order (from `placed`; `value`: the number the game ranked by, e.g. cards
   * left). `label` names the number (a catalogue text). Test id: `ranking`; each row carries
   * `data-place`. On a phone the own seat's row is marked (class `me`, the words of `youTag`).
   */
  function ranking(s, rows, label) {
    const me = s.me && s.me.seat;
    const items = rows.map((r) => {
      const place = r.place;
      const mine = !!me && r.seat === me;
      return `<li class="place-${Math.min(place, 4)}${mine ? " me" : ""}" data-seat="${esc(r.seat)}" data-place="${place}">
        <span class="pl">${place}</span>${PH.markOf(s, r.seat)}<span class="who">${esc(PH.nameOf(s, r.seat))}</span>${mine ? youTag() : ""}
        <b class="val">${esc(r.value)}</b>${r.note ? `<span class="note">${esc(r.note)}</span>` : ""}</li>`;
    }).join("");
    return `<div class="ranking" data-testid="ranking"><p class="rk-head"><span>${esc(t("reveal.ranking"))}</span><span>${esc(label)}</span></p>
      <ol>${items}</ol></div>`;
  }

  return { outcome, phone, said, placed, ranking, youTag };
})();
