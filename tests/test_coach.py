"""The first-round coach (はじめてモード) and the "what you can do now" guide (issue 12, item 2).

The party decides the coach per game kind (on for the first game of each kind, the host's lobby
switch, remembered through a restart), the host skips it mid-game, and each game's coach walks
the table through its first round in order: the TV's strip steps, each role's tip on the right
phone only. The conformance suite (``tests/conformance.py``) checks every view's shape, texts
and non-interference in whole games; here are the sequences and the party's part.
"""

from __future__ import annotations

import re

import json
import random

import pytest

from partyhost import i18n
from partyhost.engine import Engine
from partyhost.games import registry
from partyhost.games.decrypto import Decrypto
from partyhost.games.diabolo import Diabolo
from partyhost.games.the_mind import AWAY_GRACE, TheMind
from partyhost.games.top_ten import TopTen
from partyhost.games.word_basket import WordBasket
from partyhost.lexicon import kana
from partyhost.party import Party

from .helpers import Rig


def strip_step(game) -> str | None:
    coach = game.view(None)["coach"]
    return coach["strip"]["step"] if coach and coach["strip"] else None


def tip_of(game, seat) -> str | None:
    coach = game.view(seat)["coach"]
    return coach["tip"]["id"].split(".tip.")[1] if coach and coach["tip"] else None


def text(view_part: dict, lang: str = "en") -> str:
    """The words a page shows for a coach text (seat ids stay ids here)."""
    params = {k: i18n.message(lang, v["key"]) if isinstance(v, dict) else v for k, v in view_part["params"].items()}
    return i18n.message(lang, view_part["key"], **params)


# --- the party: on for the first game of each kind ---------------------------------------------------


def test_the_coach_runs_for_the_first_game_of_each_kind_and_the_switch_decides_the_next_start():
    rig = Rig()
    tv = rig.tv()
    a, b = rig.phone("a"), rig.phone("b")
    assert tv.state["party"]["coach"] is True
    assert tv.send("host", {"op": "start"})["ok"]
    assert rig.game.coach is True
    assert tv.state["game"]["coach"]["strip"]["step"] == "ready"
    assert a.state["game"]["coach"]["tip"]["id"] == "the_mind.tip.ready"
    assert tv.send("host", {"op": "end"})["ok"]
    assert tv.state["party"]["coach"] is True  # as the host left it (issue 27): still on
    assert tv.send("host", {"op": "coach", "on": False})["ok"]
    assert tv.send("host", {"op": "restart"})["ok"]
    assert rig.game.coach is False and a.state["game"]["coach"] is None
    assert tv.send("host", {"op": "end"})["ok"]
    assert tv.state["party"]["coach"] is False  # the host's off stays off
    # the host switches it back on for one more start
    assert tv.send("host", {"op": "coach", "on": True})["ok"]
    assert a.state["party"]["coach"] is True  # phones see the switch too
    assert tv.send("host", {"op": "start"})["ok"]
    assert rig.game.coach is True
    assert tv.send("host", {"op": "end"})["ok"]
    # a new kind: on; switched off in the lobby: off
    assert tv.send("host", {"op": "choose", "game": "word_basket"})["ok"]
    assert tv.state["party"]["coach"] is True
    assert tv.send("host", {"op": "coach", "on": False})["ok"]
    assert tv.state["party"]["coach"] is False
    assert tv.send("host", {"op": "start"})["ok"]
    assert rig.game.coach is False
    assert tv.state["game"]["coach"] is None and a.state["game"]["guide"]["now"]["key"].startswith("word_basket.")


def test_the_switch_left_untouched_stays_on_through_the_game_its_end_and_the_next_start():
    """Issue 27: はじめてモード showed off at the end of a game nobody switched: the start
    marked the kind as played and the switch fell back to "played: off". It stays as the host
    left it, on every screen, during the game, at its end, back in the lobby and for the next
    start (もう一度 included); a skip mid-game is the host's choice and stays too."""
    rig = Rig()
    tv = rig.tv()
    a, b = rig.phone("a"), rig.phone("b")
    assert tv.send("host", {"op": "start"})["ok"]
    for screen in (tv, a, b):
        assert screen.state["party"]["coach"] is True  # during the game
    rig.game.hands = {"s1": [50], "s2": [10]}
    rig.game.lives = 1
    for p in (a, b):
        assert p.act({"type": "ready", "level": 1, "ready": True})["ok"]
    assert a.act({"type": "play", "level": 1, "card": 50})["ok"]
    assert rig.game.over
    for screen in (tv, a, b):
        assert screen.state["party"]["over"] is True and screen.state["party"]["coach"] is True  # the end
    assert tv.send("host", {"op": "end"})["ok"]
    assert tv.state["party"]["coach"] is True and a.state["party"]["coach"] is True  # the lobby
    assert tv.send("host", {"op": "again"})["ok"]
    assert rig.game.coach is True and tv.state["party"]["coach"] is True  # the next start
    assert tv.send("host", {"op": "coach", "on": False})["ok"]  # the host's skip mid-game
    assert tv.state["party"]["coach"] is False
    assert tv.send("host", {"op": "end"})["ok"]
    assert tv.state["party"]["coach"] is False
    assert tv.send("host", {"op": "start"})["ok"]
    assert rig.game.coach is False


def test_only_the_host_switches_or_skips_and_skip_ends_the_coach_on_every_screen():
    rig = Rig()
    tv = rig.tv()
    a, b = rig.phone("a"), rig.phone("b")
    refused = a.send("host", {"op": "coach", "on": False})
    assert refused["ok"] is False and refused["code"] == "not_host"
    assert tv.send("host", {"op": "start"})["ok"]
    refused = a.send("host", {"op": "coach", "on": False})
    assert refused["code"] == "not_host" and rig.game.coach is True
    assert tv.send("host", {"op": "coach"})["code"] == "malformed"  # says neither on nor off
    assert tv.send("host", {"op": "coach", "on": "no"})["code"] == "malformed"
    assert rig.game.coach is True
    assert tv.send("host", {"op": "promote", "seat": a.seat})["ok"]
    version = rig.game.version
    assert a.send("host", {"op": "coach", "on": False})["ok"]  # the host phone's skip
    assert rig.game.version == version + 1
    for screen in (tv, a, b):
        assert screen.state["game"]["coach"] is None
        assert screen.state["game"]["guide"]["now"]["key"].startswith("the_mind.guide.")


def test_the_party_remembers_what_was_played_and_the_game_its_coach_through_a_restart():
    party = Party(room="ABCD")
    party.played = ["the_mind"]
    party.coach_choice = {"decrypto": False}
    data = json.loads(json.dumps(party.to_dict()))
    back = Party.from_dict(data, random.Random(1))
    assert back.played == ["the_mind"] and back.coach_choice == {"decrypto": False}
    assert back.coach_on("the_mind") is False and back.coach_on("decrypto") is False
    assert back.coach_on("top_ten") is True
    # an older snapshot without these fields: nothing played yet
    old = {k: v for k, v in data.items() if k not in ("played", "coach_choice")}
    assert Party.from_dict(old, random.Random(1)).coach_on("the_mind") is True
    # a game's own snapshot keeps its coach (a host restart mid-round keeps teaching)
    game = TheMind()
    game.setup(["s1", "s2"], {}, random.Random(1), 0.0)
    game.coach = True
    assert TheMind.from_dict(game.to_dict(), random.Random(1)).coach is True
    old_game = {k: v for k, v in game.to_dict().items() if k != "coach"}
    assert TheMind.from_dict(old_game, random.Random(1)).coach is False


def test_an_engine_restored_from_a_snapshot_keeps_the_coach_and_what_was_played():
    rig = Rig()
    tv = rig.tv()
    rig.phone("a"), rig.phone("b")
    assert tv.send("host", {"op": "start"})["ok"]
    snapshot = json.loads(json.dumps({"party": rig.engine.party.to_dict(), "game_now": 5.0}))
    engine = Engine(lambda *a: None, seed=1, snapshot=snapshot)
    assert engine.party.game.coach is True and engine.party.played == ["the_mind"]
    assert engine.party.game.view(None)["coach"]["strip"]["step"] == "ready"


# --- privacy: a role's tip reaches only that role -----------------------------------------------------


def test_the_encryptors_tip_reaches_no_other_seat_and_not_the_tv():
    g = Decrypto()
    g.setup([f"s{i}" for i in range(1, 7)], registry.check_options(Decrypto, {}), random.Random(4), 0.0)
    g.coach = True
    encryptors = set(g.encryptors.values())
    for seat in g.players:
        tip = g.view(seat)["coach"]["tip"]
        if seat in encryptors:
            assert tip["id"] == "decrypto.tip.encryptor"
            assert g.view(seat)["guide"]["now"]["params"]["code"] == "-".join(map(str, g.codes[g.team_of(seat)]))
        else:
            assert tip["id"] != "decrypto.tip.encryptor"
            assert "code" not in json.dumps(g.view(seat)["guide"])
    table = json.dumps(g.view(None)["coach"]) + json.dumps(g.view(None)["guide"])
    assert "tip.encryptor" not in table and "guide.encrypt\"" not in table
    assert g.view(None)["coach"]["tip"] is None and g.view("s1")["coach"]["strip"] is None


# --- each game's first round, in order ---------------------------------------------------------------


def started(cls, players: int, seed: int = 3, **options):
    g = cls()
    cls.prepare()
    g.setup([f"s{i}" for i in range(1, players + 1)], registry.check_options(cls, options), random.Random(seed), 0.0)
    g.coach = True
    return g


def test_the_mind_level_one_ready_play_shuriken_and_the_level_done():
    g = started(TheMind, 3)
    assert strip_step(g) == "ready" and tip_of(g, "s1") == "ready"
    for s in g.players:
        g.apply(s, {"type": "ready", "level": 1, "ready": True}, 1.0)
    assert strip_step(g) == "play" and tip_of(g, "s1") == "play"
    g.apply("s1", {"type": "propose_shuriken", "level": 1}, 2.0)
    assert strip_step(g) == "shuriken"
    assert tip_of(g, "s1") == "shuriken_proposer" and tip_of(g, "s2") == "shuriken_vote"
    assert "s1" in json.dumps(g.view(None)["coach"]["strip"]["now"]["params"])
    g.apply("s2", {"type": "vote_shuriken", "proposal": 1, "agree": False}, 2.5)
    assert strip_step(g) == "play"
    # a mistake: the highest card first
    top = max(g.players, key=lambda s: g.hands[s][0])
    g.apply(top, {"type": "play", "level": 1, "card": g.hands[top][0]}, 3.0)
    assert strip_step(g) == "level_done"  # one card each: the mistake emptied every hand
    for s in g.players:
        g.apply(s, {"type": "ready", "level": 2, "ready": True}, 4.0)
    # level 2: the strip goes on (issue 27: it stopped after level 1), and so do the tips
    assert strip_step(g) == "play" and tip_of(g, "s1") == "play"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_minds_shuriken_at_level_one_always_clears_the_level(players):
    """The strip had a ``shuriken_done`` step ("play picks up where it stopped") that level 1 can
    never show: one card each, so a thrown shuriken empties every hand, whoever has played,
    before or during play. The table sees ``level_done`` instead."""
    for seed in range(8):
        for played in range(players):  # how many have played their card before the shuriken
            g = started(TheMind, players, seed=seed)
            for s in g.players:
                g.apply(s, {"type": "ready", "level": 1, "ready": True}, 1.0)
            order = sorted(g.players, key=lambda s: g.hands[s][0])
            for s in order[:played]:
                g.apply(s, {"type": "play", "level": 1, "card": g.hands[s][0]}, 2.0)
            g.apply(order[-1], {"type": "propose_shuriken", "level": 1}, 3.0)
            for s in g.players:
                if s != order[-1]:
                    g.apply(s, {"type": "vote_shuriken", "proposal": 1, "agree": True}, 3.5)
            assert g.level == 2 and g.phase == "ready", (seed, played)
            assert strip_step(g) == "level_done", (seed, played)


def test_the_mind_coach_does_not_ask_for_ready_while_the_table_waits_for_an_away_player():
    """While play is stopped for an away player (issue 16) the TV names whom it waits for; the
    coach strip must not tell the table to press Ready (it did: 「準備OKを押します」)."""
    g = started(TheMind, 3)
    for s in g.players:
        g.apply(s, {"type": "ready", "level": 1, "ready": True}, 1.0)
    g.presence("s2", False, 2.0)
    g.tick(2.0 + AWAY_GRACE)
    assert g.waiting == ["s2"] and g.phase == "ready"
    assert strip_step(g) == "away"  # the table is told play is stopped, never to press Ready
    for lang in ("ja", "en"):
        assert "準備OK" not in text(g.view(None)["coach"]["strip"]["now"], lang)
        assert "Ready" not in text(g.view(None)["coach"]["strip"]["now"], lang)
    g.presence("s2", True, 10.0)
    assert g.waiting == [] and strip_step(g) == "ready"


def test_decrypto_round_one_then_the_first_interception():
    g = started(Decrypto, 4)
    assert strip_step(g) == "encrypt"
    assert "round 2" in text(g.view(None)["coach"]["strip"]["next"]).lower()
    white, black = g.encryptors["white"], g.encryptors["black"]
    mate = next(s for s in g.teams["white"] if s != white)
    assert tip_of(g, white) == "encryptor" and tip_of(g, mate) == "wait"
    for team in ("white", "black"):
        g.apply(g.encryptors[team], {"type": "clues", "round": 1, "clues": [f"zq{team}{i}" for i in range(3)],
                                     "final": True}, 1.0)
    assert strip_step(g) == "decode" and g.active == "white"
    assert tip_of(g, white) == "silent" and tip_of(g, mate) == "decoder"
    assert tip_of(g, black) == "wait_round1"
    g.apply(mate, {"type": "lock", "round": 1, "team": "white", "code": g.codes["white"]}, 2.0)
    assert strip_step(g) == "reveal" and tip_of(g, mate) == "reveal"
    g.host_apply({"type": "next", "round": 1, "team": "white"}, 3.0)
    black_mate = next(s for s in g.teams["black"] if s != black)
    g.apply(black_mate, {"type": "lock", "round": 1, "team": "black", "code": g.codes["black"]}, 4.0)
    strip = g.view(None)["coach"]["strip"]
    assert strip["step"] == "reveal" and strip["next"]["key"] == "decrypto.coach.next.reveal_end1"
    assert "interception" in text(strip["next"]).lower()
    g.host_apply({"type": "next", "round": 1, "team": "black"}, 5.0)
    assert strip_step(g) == "encrypt2"
    for team in ("white", "black"):
        g.apply(g.encryptors[team], {"type": "clues", "round": 2, "clues": [f"zr{team}{i}" for i in range(3)],
                                     "final": True}, 6.0)
    assert strip_step(g) == "intercept"
    interceptor = next(s for s in g.teams["black"] if g.group_of(s) == "intercept")
    assert tip_of(g, interceptor) == "interceptor"
    assert "盗聴" in text(g.view(None)["coach"]["strip"]["now"], "ja")


def test_decrypto_three_players_the_lone_interceptor_is_not_told_of_an_encryptor_or_keywords():
    """3 players (2 vs 1): the lone player has no encryptor and no keywords, so while the pair
    encrypts their tip is the lone interceptor's own, not the team-mate's "wait" (found in the
    browser test: it said "your encryptor is thinking… learn your team's four keywords")."""
    g = started(Decrypto, 3)
    assert g.variant == "three"
    (team, enc), = g.encryptors.items()
    mate = next(s for s in g.teams[team] if s != enc)
    lone = next(s for s in g.players if s not in g.teams[team])
    assert strip_step(g) == "encrypt"
    assert g.view(None)["coach"]["strip"]["next"]["key"] == "decrypto.coach.next.encrypt_three"
    assert tip_of(g, enc) == "encryptor" and tip_of(g, mate) == "wait"
    assert tip_of(g, lone) == "lone"
    for lang in i18n.LANGS:
        assert "decrypto.coach.tip.lone" in i18n.catalogue(lang)
    g.apply(enc, {"type": "clues", "round": 1, "clues": ["zqa", "zqb", "zqc"], "final": True}, 1.0)
    assert strip_step(g) == "decode"
    assert g.view(None)["coach"]["strip"]["next"]["key"] == "decrypto.coach.next.decode_three"
    assert tip_of(g, enc) == "silent" and tip_of(g, mate) == "decoder" and tip_of(g, lone) == "wait_round1"
    g.apply(mate, {"type": "lock", "round": 1, "team": team, "code": g.codes[team]}, 2.0)
    assert strip_step(g) == "reveal" and tip_of(g, lone) == "reveal"
    g.host_apply({"type": "next", "round": 1, "team": team}, 3.0)
    assert strip_step(g) == "encrypt2" and tip_of(g, lone) == "lone"


def test_top_ten_round_one_theme_answers_calls_and_tokens():
    g = started(TopTen, 4, first_captain="s1")
    assert strip_step(g) == "choose" and tip_of(g, "s1") == "captain_choose" and tip_of(g, "s2") is None
    g.apply("s1", {"type": "choose", "round": 1, "theme": 0}, 1.0)
    assert strip_step(g) == "answer" and tip_of(g, "s2") == "answer" and tip_of(g, "s1") == "captain_answer"
    assert g.view("s2")["guide"]["now"]["params"] == {}  # the number stays in one place
    g.apply("s1", {"type": "answer", "round": 1, "text": ""}, 1.5)  # the captain answers first
    assert tip_of(g, "s1") == "captain_listen"
    for s in ("s2", "s3", "s4"):
        g.apply(s, {"type": "answer", "round": 1, "text": ""}, 2.0)
    assert strip_step(g) == "order" and tip_of(g, "s1") == "captain_order" and tip_of(g, "s2") == "wait_order"
    order = sorted(g.players, key=lambda s: -g.numbers[s])  # highest first: a mistake
    g.apply("s1", {"type": "pick", "round": 1, "seat": order[0]}, 3.0)
    g.apply("s1", {"type": "confirm", "round": 1, "seat": order[0]}, 3.0)
    g.apply("s1", {"type": "pick", "round": 1, "seat": order[1]}, 3.0)
    g.apply("s1", {"type": "confirm", "round": 1, "seat": order[1]}, 3.0)
    assert strip_step(g) == "mistake" and tip_of(g, "s2") == "tokens"
    for seat in order[2:]:
        g.apply("s1", {"type": "pick", "round": 1, "seat": seat}, 3.0)
        g.apply("s1", {"type": "confirm", "round": 1, "seat": seat}, 3.0)
    assert strip_step(g) == "round_over" and tip_of(g, "s2") == "next_captain"


def test_word_basket_deal_play_reach_and_a_vote():
    g = started(WordBasket, 2)
    assert strip_step(g) == "deal" and tip_of(g, "s1") == "play"
    assert g.view(None)["coach"]["strip"]["now"]["params"]["field"] in (g.field["kana"], "・".join(kana.ROWS.get(g.field["row"], "")))
    g.hands["s1"] = g.hands["s1"][:1]  # down to one card: リーチ matters
    assert tip_of(g, "s1") == "reach" and tip_of(g, "s2") == "point_out"
    g.apply("s1", {"type": "reach"}, 1.0)
    assert strip_step(g) == "reach" and tip_of(g, "s1") != "reach"


def test_diabolo_round_one_names_the_word_language_and_explains_the_joker():
    g = started(Diabolo, 3)
    assert strip_step(g) == "turn"
    assert "German" in text(g.view(None)["coach"]["strip"]["now"])
    assert "ドイツ語" in text(g.view(None)["coach"]["strip"]["now"], "ja")
    assert tip_of(g, g.dealer) == "dealer" and tip_of(g, next(s for s in g.players if s != g.dealer)) is None
    joker = next(c["id"] for c in g.cards if c["joker"])
    letter = next(c["id"] for c in g.cards if not c["joker"])
    g.table = [letter]
    assert tip_of(g, next(s for s in g.players if s != g.dealer)) == "claim"
    g.table = [letter, joker]
    assert strip_step(g) == "joker" and tip_of(g, g.dealer) == "joker"
    assert "Ψ" in text(g.view(None)["coach"]["strip"]["now"], "ja")


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("word_lang", ["de", "en"])
def test_diabolo_vote_tip_never_asks_to_reject_the_games_own_language(lang, word_lang):
    """The vote tip named English as the example of a word to reject, also in an English-word
    game; it names only the game's language now (once), whichever it is."""
    name = i18n.message(lang, f"diabolo.coach.lang.{word_lang}")
    text = i18n.message(lang, "diabolo.coach.tip.vote", language=name)
    for other in ("de", "en"):
        other_name = i18n.message(lang, f"diabolo.coach.lang.{other}")
        assert text.count(other_name) == (1 if other == word_lang else 0), text


# --- the coach modules' shared helpers and the games' public methods they use ------------------------


def test_coach_step_and_tip_text_build_the_shapes_every_page_reads():
    from partyhost.games.base import coach_step, coach_tip_text

    assert coach_step("g.", "play", by_seat="s1") == {
        "step": "play", "now": {"key": "g.coach.step.play", "params": {"by_seat": "s1"}},
        "next": {"key": "g.coach.next.play", "params": {"by_seat": "s1"}}}
    assert coach_step("g.", "choose", "choose_nine")["next"]["key"] == "g.coach.next.choose_nine"
    assert coach_tip_text("g.", "vote", language={"key": "x"}) == {
        "id": "g.tip.vote", "key": "g.coach.tip.vote", "params": {"language": {"key": "x"}}}


def test_no_coach_module_reaches_into_a_games_private_helpers():
    """Coach modules read the game through its public, documented methods (next_captain,
    next_dealer, challengeable…), so a rules refactor cannot silently change what they teach."""
    from pathlib import Path
    import re

    games = Path(__file__).resolve().parent.parent / "partyhost" / "games"
    for path in sorted(games.glob("*_coach.py")):
        found = re.findall(r"\bg\._\w+", path.read_text("utf-8"))
        assert not found, (path.name, found)


def test_the_public_methods_the_coach_uses_name_the_rules_seats():
    tt = started(TopTen, 5)
    i = tt.players.index(tt.captain)
    assert tt.next_captain() == tt.players[(i + 1) % 5] == tt.view(None)["next_captain"]
    dia = started(Diabolo, 3)
    assert dia.next_dealer() == dia.dealers[dia.round]  # round 1 is dealers[0]; the plan's next
    tiles = started(Diabolo, 2, victory_tiles=True)
    tiles.round = len(tiles.dealers)  # past the plan, with tiles the rotation goes on to the left
    assert tiles.dealers == ["s1", "s2", "s1", "s2"] and tiles.next_dealer() == "s1"
    wb = started(WordBasket, 3)
    assert wb.challengeable() is None  # nothing played yet


def test_decrypto_tv_strip_speaks_of_one_encrypting_team_with_three_players_and_to_nobody_in_particular():
    """The TV strip of the 3-player game said "Each team's encryptor is writing three clues"
    (only the pair encrypts) and "A wrong guess earns a miscommunication token" (the token is
    the interceptor's); at the end of round 1 the TV, which every player reads, said "tries to
    guess your code"."""
    def lines(g):
        strip = g.view(None)["coach"]["strip"]
        return {lang: " ".join(text(strip[k], lang) for k in ("now", "next") if strip.get(k)) for lang in ("ja", "en")}

    g = started(Decrypto, 3)
    (team, enc), = g.encryptors.items()
    mate = next(s for s in g.teams[team] if s != enc)
    seen = [lines(g)]
    g.apply(enc, {"type": "clues", "round": 1, "clues": ["zqa", "zqb", "zqc"], "final": True}, 1.0)
    seen.append(lines(g))
    wrong = [d for d in (1, 2, 3, 4) if d not in g.codes[team]][:1] + list(g.codes[team][1:])
    g.apply(mate, {"type": "lock", "round": 1, "team": team, "code": wrong}, 2.0)
    seen.append(reveal := lines(g))
    for ln in seen:
        assert "Each team" not in ln["en"] and "各チーム" not in ln["ja"], ln
        assert not re.search(r"\byour\b", ln["en"]), ln
    assert "interceptor" in reveal["en"] and "盗聴者" in reveal["ja"], reveal
    g4 = started(Decrypto, 4)
    for seat in list(g4.encryptors.values()):
        team4 = g4.team_of(seat)
        g4.apply(seat, {"type": "clues", "round": 1, "clues": ["zqa", "zqb", "zqc"], "final": True}, 1.0)
    for t4 in g4.encrypting:
        dec = next(s for s in g4.teams[t4] if s != g4.encryptors[t4])
        g4.apply(dec, {"type": "lock", "round": 1, "team": t4, "code": g4.codes[t4]}, 2.0)
        ln = lines(g4)
        assert not re.search(r"\byour\b", ln["en"]), ln
        g4.host_apply({"type": "next", "round": 1, "team": t4}, 3.0)


def test_top_ten_nine_players_the_tv_strip_gives_the_captain_no_number():
    """With nine players the captain holds no number (§setup); the TV strip said "Each phone
    holds a secret number" and "Everyone answers" all the same."""
    g = started(TopTen, 9, first_captain="s1")
    assert g.captain not in g.answerers
    seen = []
    for _ in range(2):
        strip = g.view(None)["coach"]["strip"]
        seen.append({lang: text(strip["now"], lang) for lang in ("ja", "en")})
        if g.phase == "choose":
            g.apply(g.captain, {"type": "choose", "round": 1, "theme": 0}, 1.0)
    assert [strip_step(g)] == ["answer"]
    for line in seen:
        assert "but the captain" in line["en"] and "Each phone" not in line["en"], line
        assert "親以外" in line["ja"], line
    g4 = started(TopTen, 4, first_captain="s1")
    assert "Each phone holds" in text(g4.view(None)["coach"]["strip"]["now"], "en")
