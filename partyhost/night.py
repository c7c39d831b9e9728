"""おひらき (the night summary) and the lobby's momentum, computed from the night's record.

Pure functions of the record (:attr:`partyhost.party.Party.record`) and the party score
(:meth:`partyhost.party.Party.scoreboard`): no clock, no randomness, so the same night always
gives the same titles and the same suggestion. The pages only draw what this returns.

Titles (称号): every seat gets exactly one, each a true and specific fact of the night with
the numbers behind it. They are handed out in a fixed order of title kinds (:data:`ORDER`);
a kind goes to the seats that earned it and do not hold a title yet, so one player's many
feats do not leave the others with nothing. A seat that earned none of them gets the number
of games it played (or, with none played, that it cheered the table on).
"""

from __future__ import annotations

from typing import Iterable

ORDER = ("champion", "co_champion", "race", "gap", "longest", "big_word", "miss", "hero",
         "winner_of", "runner_up", "regular")
"""The title kinds in the order they are handed out (the first ones are the rarest)."""


def finished(record: list[dict]) -> list[dict]:
    """The entries of games played to their end: a game ended early (``"ended"``, see
    :meth:`partyhost.party.Party.settle`) is in the record but earns no title and counts for
    no game played."""
    return [e for e in record if not e.get("ended")]


def _title(seat: str, kind: str, **params: object) -> dict:
    return {"seat": seat, "key": f"night.title.{kind}", "why": f"night.why.{kind}", "kind": kind, "params": params}


def _best(record: list[dict], key: str, score, needs: tuple[str, ...]) -> tuple[dict, dict] | None:
    """The highlight ``key`` with the highest ``score(params)`` across the night, with its
    record entry; the earliest wins a tie (record order, then highlight order). A highlight
    without every param in ``needs`` (a damaged snapshot) is passed over, never raised on."""
    best = None
    for entry in record:
        for h in entry.get("highlights") or []:
            if isinstance(h, dict) and h.get("key") == key and isinstance(h.get("params"), dict) \
                    and all(n in h["params"] for n in needs):
                try:
                    value = score(h["params"])
                except (TypeError, ValueError, KeyError):
                    continue
                if best is None or value > best[0]:
                    best = (value, h["params"], entry)
    return (best[1], best[2]) if best else None


def candidates(record: list[dict], scoreboard: list[dict]) -> dict[str, list[dict]]:
    """Every title each seat earned, by kind: ``{kind: [title, …]}`` (see :func:`titles`).

    - ``champion``: the one seat with the most party points (at least 1); ``co_champion``:
      each seat sharing the most points when several, but not all, do (everyone level says nothing).
    - ``race``: the winner of the night's closest Word Basket race (fewest ms).
    - ``gap``: both players of the night's tightest The Mind gap (fewest ms).
    - ``longest``: the player of the night's longest Word Basket word (most kana).
    - ``big_word``: the player of the night's biggest Diabolo word (most cards).
    - ``miss``: the player whose Top Ten answer made the night's widest miss.
    - ``hero``: the seats with the most cooperative wins (at least 1).
    - ``winner_of``: each seat that won (first place in) a competitive game: the last such game.
    - ``runner_up``: each seat that came second in a competitive game (with how often; the
      most often first).
    - ``regular``: each seat that played every game of a night of two or more.
    """
    out: dict[str, list[dict]] = {kind: [] for kind in ORDER}
    top = [r for r in scoreboard if r["points"] > 0 and r["points"] == scoreboard[0]["points"]]
    if len(top) == 1:
        out["champion"].append(_title(top[0]["seat"], "champion", points=top[0]["points"], games=top[0]["games"]))
    elif len(top) < len(scoreboard):  # everyone level on top (one co-op win) says nothing of anyone
        out["co_champion"] += [_title(r["seat"], "co_champion", points=r["points"], count=len(top)) for r in top]

    race = _best(record, "word_basket.hl.race", lambda p: -int(p["ms"]), ("winner_seat", "word"))
    if race:
        p = race[0]
        out["race"].append(_title(p["winner_seat"], "race", ms=p["ms"], word=p["word"]))
    gap = _best(record, "the_mind.hl.gap", lambda p: -int(p["ms"]), ("seat", "next_seat"))
    if gap:
        p = gap[0]
        out["gap"] += [_title(p["seat"], "gap", ms=p["ms"], partner_seat=p["next_seat"]),
                       _title(p["next_seat"], "gap", ms=p["ms"], partner_seat=p["seat"])]
    longest = _best(record, "word_basket.hl.longest", lambda p: int(p["length"]), ("seat", "word"))
    if longest:
        p = longest[0]
        out["longest"].append(_title(p["seat"], "longest", word=p["word"], length=p["length"]))
    big = _best(record, "diabolo.hl.word", lambda p: int(p["count"]), ("seat", "word"))
    if big:
        p = big[0]
        out["big_word"].append(_title(p["seat"], "big_word", word=p["word"], count=p["count"]))
    miss = _best(record, "top_ten.hl.miss", lambda p: int(p["gap"]), ("seat", "answer", "theme"))
    if miss:
        p = miss[0]
        out["miss"].append(_title(p["seat"], "miss", answer=p["answer"], gap=p["gap"], theme=p["theme"]))

    coop: dict[str, int] = {}
    seconds: dict[str, int] = {}
    won: dict[str, str] = {}
    for entry in record:
        result = entry.get("result") or {}
        places = result.get("places") or []
        if result.get("coop"):
            if result.get("won"):
                for p in entry["players"]:
                    coop[p["seat"]] = coop.get(p["seat"], 0) + 1
            continue
        if len(places) > 1:  # one shared place is a draw: nobody won, nobody came second
            for seat in places[0]:
                won[seat] = entry["game"]
            teams = bool((result.get("detail") or {}).get("label"))  # a place is a team there
            if teams or len(places[0]) == 1:  # after a tie for first the next is third, not second
                for seat in places[1]:
                    seconds[seat] = seconds.get(seat, 0) + 1
    if coop:
        most = max(coop.values())
        out["hero"] += [_title(s, "hero", count=n) for s, n in coop.items() if n == most]
    out["winner_of"] += [_title(s, "winner_of", game={"key": f"{g}.name"}) for s, g in won.items()]
    out["runner_up"] += [_title(s, "runner_up", count=n)
                         for s, n in sorted(seconds.items(), key=lambda kv: -kv[1])]
    played = len(finished(record))
    if played >= 2:
        out["regular"] += [_title(r["seat"], "regular", games=r["games"])
                           for r in scoreboard if r["games"] == played]
    return out


def titles(record: list[dict], scoreboard: list[dict], seats: Iterable[str] = ()) -> list[dict]:
    """One title per seat: ``[{"seat", "key" (the title), "why" (its reason, with the params),
    "kind", "params"}]`` in the scoreboard's order,
    then ``seats`` (seat ids at the party) that played no game.

    Kinds are handed out in :data:`ORDER`; each kind goes to those of its holders (see
    :func:`candidates`) without a title yet. The rest get ``played`` (``games``: how many they
    played) or, with no game played, ``cheer``. A param ending in ``seat`` is a seat id; a
    ``{"key"}`` param is a catalogue key (a game's name).
    """
    order = [r["seat"] for r in scoreboard] + [s for s in seats if s not in {r["seat"] for r in scoreboard}]
    games = {r["seat"]: r["games"] for r in scoreboard}
    given: dict[str, dict] = {}
    found = candidates(record, scoreboard)
    for kind in ORDER:
        for title in found[kind]:
            if title["seat"] in games and title["seat"] not in given:
                given[title["seat"]] = title
    for seat in order:
        if seat not in given:
            given[seat] = (_title(seat, "played", games=games[seat]) if games.get(seat)
                           else _title(seat, "cheer"))
    return [given[s] for s in order]


def summary(record: list[dict], scoreboard: list[dict], seats: Iterable[str] = ()) -> dict:
    """What the おひらき screens show beside the record and the score the pages already have:
    ``{"games": how many, "titles": :func:`titles`, "podium": the seats of the first three
    places by party points (at least 1 point; equal points share a place)}``."""
    places: list[tuple[int, list[str]]] = []
    for row in scoreboard:  # best first
        if row["points"] <= 0:
            break
        if places and places[-1][0] == row["points"]:
            places[-1][1].append(row["seat"])
        elif len(places) < 3:
            places.append((row["points"], [row["seat"]]))
        else:
            break
    podium = [seats_ for _, seats_ in places]
    return {"games": len(finished(record)), "titles": titles(record, scoreboard, seats), "podium": podium}


def suggest(games: dict[str, tuple[int, int]], present: int, record: list[dict]) -> dict | None:
    """The next game to offer in the lobby: ``{"game", "fresh"}`` or None.

    The rule (stated on the TV): a game whose player range (``games``: key → (min, max), the
    registry's order) takes the ``present`` players; one not played tonight first, the next
    such in the registry's order after the last game played; when every fitting game has been
    played, the one played longest ago. The last game itself is offered only when nothing
    else fits (もう一度 already offers it). ``fresh`` says whether it is new tonight.
    """
    fits = [k for k, (lo, hi) in games.items() if lo <= present <= hi]
    if not fits:
        return None
    last = record[-1]["game"] if record else None
    keys = list(games)
    start = keys.index(last) + 1 if last in keys else 0
    ring = keys[start:] + keys[:start]
    played = {e["game"] for e in record}
    for key in ring:
        if key in fits and key not in played:
            return {"game": key, "fresh": True}
    others = [k for k in fits if k != last] or fits
    when = {e["game"]: i for i, e in enumerate(record)}  # the last time each was played
    return {"game": min(others, key=lambda k: (when.get(k, -1), ring.index(k))), "fresh": False}
