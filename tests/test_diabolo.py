"""Diabolo rules (seeds/004_…; RULES.md "Diabolo") on the pure game: the rulebook's four
examples, two-letter cards, folding, votes and picks, rounds, dealers, victory tiles."""

from __future__ import annotations

import random

import pytest

from partyhost.games.base import RuleError
from partyhost.games.diabolo import (
    PICK_SECONDS, Diabolo, best_assignment, deck_table, possible_words,
)
from partyhost.games.vote import VOTE_SECONDS

DECK = deck_table("de")


def new_game(n=3, seed=1, **options) -> Diabolo:
    g = Diabolo()
    g.setup([f"s{i + 1}" for i in range(n)], options, random.Random(seed), now=0.0)
    return g


def stack(g: Diabolo, faces: list[str]) -> None:
    """Put cards with these faces on top of the deck, in this order (the rest keep theirs)."""
    top: list[int] = []
    for face in faces:
        top.append(next(i for i in g.deck if g.cards[i]["face"] == face and i not in top))
    g.deck = top + [i for i in g.deck if i not in top]


def turn_up(g: Diabolo, faces: list[str], now: float = 1.0) -> list[int]:
    """The dealer turns these faces up by hand; returns their ids in row order."""
    stack(g, faces)
    for _ in faces:
        g.apply(g.dealer, {"type": "turn", "round": g.round, "turned": g.turned}, now)
    return list(g.table[-len(faces):])


def ids_of(g: Diabolo, faces: list[str]) -> list[int]:
    """Face-up card ids for these faces, each card once, in the order given."""
    out: list[int] = []
    for face in faces:
        out.append(next(i for i in g.table if g.cards[i]["face"] == face and i not in out))
    return out


def claim(g, seat, word, faces, jokers=None, now=2.0):
    """Claim ``word`` with face-up cards of these faces in spelling order; ``jokers`` maps a
    position to the letters that card stands for."""
    cards = []
    for pos, i in enumerate(ids_of(g, faces)):
        c = {"id": i}
        if jokers and pos in jokers:
            c["as"] = jokers[pos]
        cards.append(c)
    g.apply(seat, {"type": "claim", "round": g.round, "word": word, "cards": cards}, now)


def refused(code, fn, *args, **kw):
    with pytest.raises(RuleError) as e:
        fn(*args, **kw)
    assert e.value.code == code, e.value
    return e.value


def test_the_deck_is_the_66_cards_of_rules_md():
    assert len(DECK) == 66
    faces = [c["face"] for c in DECK]
    assert faces.count("E") == 9 and faces.count("CH") == 2 and faces.count("?") == 5 and faces.count("??") == 1
    assert {c["joker"] for c in DECK if c["face"] == "??"} == {2}
    assert len(deck_table("en")) == 66


# --- the rulebook's examples (§6) --------------------------------------------------------------

def test_hang_from_g_n_h_a():
    g = new_game()
    turn_up(g, ["G", "N", "H", "A"])
    claim(g, "s2", "Hang", ["H", "A", "N", "G"])
    assert g.claim["status"] == "taken" and len(g.piles["s2"]) == 4 and g.table == []


def test_lager_leaves_the_z():
    g = new_game()
    turn_up(g, ["E", "A", "L", "Z", "R", "G"])
    claim(g, "s1", "LAGER", ["L", "A", "G", "E", "R"])
    assert [g.cards[i]["face"] for i in g.table] == ["Z"] and len(g.piles["s1"]) == 5


def test_stop_with_the_st_card_and_a_joker():
    g = new_game()
    turn_up(g, ["O", "ST", "?"])
    claim(g, "s3", "stop", ["ST", "O", "?"], jokers={2: "P"})
    assert len(g.piles["s3"]) == 3
    assert [c["as"] for c in g.claim["cards"]] == ["ST", "O", "P"]


def test_post_with_the_double_joker():
    g = new_game()
    turn_up(g, ["P", "T", "??"])
    claim(g, "s2", "POST", ["P", "??", "T"], jokers={1: "OS"})
    assert len(g.piles["s2"]) == 3


def test_typed_words_find_the_assignment_that_takes_most_cards():
    g = new_game()
    turn_up(g, ["O", "ST", "?", "S", "T", "P"])
    table = [g.cards[i] for i in g.table]
    best = best_assignment("STOP", table)
    assert [c["face"] for c in best] == ["S", "T", "O", "P"]  # four cards beat ST + O + P
    assert best_assignment("POST", [c for c in table if c["face"] in ("P", "ST", "?")]) is not None
    # the double joker never stands for one letter, a joker never for two
    two = [c for c in DECK if c["face"] in ("P", "T", "??")]
    assert [c["as"] for c in best_assignment("POST", two)] == ["P", "OS", "T"]
    p, dj, j = (next(c for c in DECK if c["face"] == f) for f in ("P", "??", "?"))
    assert best_assignment("POS", [p, j]) is None
    assert [c["as"] for c in best_assignment("POS", [p, dj])] == ["P", "OS"]


def test_a_joker_may_not_stand_for_two_letters_nor_the_double_joker_for_one():
    g = new_game()
    turn_up(g, ["P", "T", "??", "?"])
    refused("joker_letter", claim, g, "s1", "POST", ["P", "?", "T"], jokers={1: "OS"})
    refused("joker_letter", claim, g, "s1", "POT", ["P", "??", "T"], jokers={1: "O"})
    refused("joker_letter", claim, g, "s1", "POT", ["P", "??", "T"])
    assert g.piles["s1"] == [] and len(g.table) == 4


# --- two-letter cards and folding (§5) ---------------------------------------------------------

def test_two_letter_cards_keep_their_order_ei_is_not_ie():
    g = new_game()
    turn_up(g, ["D", "EI", "B", "R", "N"])
    refused("spelling", claim, g, "s1", "DIEB", ["D", "EI", "B"])
    assert best_assignment("DIEB", [g.cards[i] for i in g.table]) is None
    # its letters stay together: R + EI + N is REIN, EI + R + N is not
    refused("spelling", claim, g, "s1", "REIN", ["EI", "R", "N"])
    claim(g, "s1", "rein", ["R", "EI", "N"])
    assert len(g.piles["s1"]) == 3


def test_umlauts_and_sharp_s_fold_to_two_letters():
    g = new_game()
    turn_up(g, ["H", "A", "E", "U", "S", "E", "R"])
    claim(g, "s2", "Häuser", ["H", "A", "E", "U", "S", "E", "R"])
    assert g.claim["word"] == "HAEUSER" and len(g.piles["s2"]) == 7
    g2 = new_game()
    turn_up(g2, ["ST", "R", "A", "S", "S", "E"])
    claim(g2, "s1", "Straße", ["ST", "R", "A", "S", "S", "E"])
    assert g2.claim["word"] == "STRASSE"
    g3 = new_game()
    turn_up(g3, ["ST", "R", "A", "S", "S", "E"])
    claim(g3, "s1", "STRAẞE", ["ST", "R", "A", "S", "S", "E"])
    assert g3.claim["status"] == "taken"


def test_a_word_typed_in_full_width_letters_is_claimed():
    # Japanese players often type with the IME in full-width mode: ｈａｎｇ is HANG
    g = new_game()
    turn_up(g, ["H", "A", "N", "G"])
    claim(g, "s2", "ｈａｎｇ", ["H", "A", "N", "G"])
    assert g.claim["word"] == "HANG" and g.claim["status"] == "taken" and len(g.piles["s2"]) == 4


def test_bad_claims_are_refused_and_change_nothing():
    g = new_game()
    turn_up(g, ["H", "A", "N", "G", "E"])
    before = g.to_dict()
    refused("too_few_cards", claim, g, "s1", "AN", ["A", "N"])
    refused("not_letters", claim, g, "s1", "z.B.", ["H", "A", "N"])
    refused("not_letters", claim, g, "s1", "HAN6", ["H", "A", "N"])
    refused("spelling", claim, g, "s1", "HANGE", ["H", "A", "N", "G"])  # a letter not on the table
    ids = ids_of(g, ["H", "A", "N"])
    refused("card_twice", g.apply, "s1", {"type": "claim", "round": 1, "word": "HAH",
                                          "cards": [{"id": ids[0]}, {"id": ids[1]}, {"id": ids[0]}]}, 2.0)
    hidden = g.deck[0]
    refused("not_face_up", g.apply, "s1", {"type": "claim", "round": 1, "word": "HAN",
                                           "cards": [{"id": i} for i in ids[:2]] + [{"id": hidden}]}, 2.0)
    refused("stale", g.apply, "s1", {"type": "claim", "round": 2, "word": "HANG",
                                           "cards": [{"id": i} for i in ids_of(g, ["H", "A", "N", "G"])]}, 2.0)
    refused("not_a_joker", claim, g, "s1", "HANG", ["H", "A", "N", "G"], jokers={0: "X"})
    refused("word_too_long", claim, g, "s1", "HANG" * 8, ["H", "A", "N", "G"])
    refused("not_letters", claim, g, "s1", "  ", ["H", "A", "N", "G"])
    assert g.to_dict() == before


def test_the_english_deck_and_word_list():
    g = new_game(2, lang="en")
    assert g.view(None)["lang"] == "en" and g.view(None)["deck_size"] == 66
    turn_up(g, ["TH", "E", "N", "IN", "?", "S", "T"])
    claim(g, "s2", "then", ["TH", "E", "N"])
    assert g.claim["status"] == "taken" and len(g.piles["s2"]) == 3
    refused("spelling", claim, g, "s1", "TNIS", ["T", "IN", "S"])  # the IN card spells IN, not NI
    table = [g.cards[i] for i in g.table]
    assert [c["as"] for c in best_assignment("TINS", table)] == ["T", "IN", "S"]
    claim(g, "s1", "tins", ["T", "IN", "S"])
    assert len(g.piles["s1"]) == 3


def test_players_given_the_handicap_need_four_cards():
    g = new_game(handicap=["s1"])
    turn_up(g, ["H", "A", "N", "G", "T", "U", "E"])
    refused("too_few_cards", claim, g, "s1", "HUT", ["H", "U", "T"])
    claim(g, "s2", "HUT", ["H", "U", "T"])
    assert len(g.piles["s2"]) == 3
    g.host_apply({"type": "handicap", "seat": "s2", "on": True}, 3.0)
    assert [p["min"] for p in g.view(None)["players"]] == [4, 4, 3]


# --- races -----------------------------------------------------------------------------------

def test_the_first_claim_wins_and_the_later_one_is_refused_without_penalty():
    g = new_game()
    turn_up(g, ["H", "A", "N", "G", "E", "L"])
    claim(g, "s1", "HANG", ["H", "A", "N", "G"], now=2.000)
    before = g.to_dict()
    ids = [{"id": i} for i in g.piles["s1"][:3]] + [{"id": i} for i in g.table]
    e = refused("card_taken", g.apply, "s2", {"type": "claim", "round": 1, "word": "HAGEL", "cards": ids}, 2.003)
    assert e.params["face"] in ("H", "A", "N", "G")
    assert g.to_dict() == before and g.piles["s2"] == []


def test_a_lost_race_for_a_joker_names_it_as_the_table_sees_it():
    # the refusal is read by people: a joker is the trident Ψ (ΨΨ), never the data's "?"
    g = new_game()
    turn_up(g, ["O", "ST", "?", "P", "T", "??", "E"])
    joker = ids_of(g, ["?"])[0]
    claim(g, "s1", "STOP", ["ST", "O", "?"], jokers={2: "P"})
    late = [{"id": ids_of(g, ["P"])[0]}, {"id": ids_of(g, ["E"])[0]}, {"id": joker, "as": "T"}]
    e = refused("card_taken", g.apply, "s2", {"type": "claim", "round": 1, "word": "PET", "cards": late}, 2.01)
    assert e.params["face"] == "Ψ"
    e = refused("joker_letter", claim, g, "s2", "PEST", ["P", "E", "??", "T"], jokers={2: "S"})
    assert e.params["face"] == "ΨΨ"


def test_cards_under_vote_are_held_for_the_claimant():
    g = new_game()
    turn_up(g, ["Z", "U", "R", "K", "E", "N", "T"])
    claim(g, "s1", "ZURK", ["Z", "U", "R", "K"])  # not a word: the table votes
    assert g.phase == "vote" and g.view(None)["vote"]["voters"] == ["s2", "s3"]
    refused("card_taken", claim, g, "s2", "ZUR", ["Z", "U", "R"])
    refused("word_vote_open", claim, g, "s2", "NET", ["N", "E", "T"])
    refused("not_a_voter", g.apply, "s1", {"type": "vote", "vote": g.vote["id"], "ballot": "accept"}, 2.5)


# --- votes and picks (§2; RULES.md) --------------------------------------------------------------

def test_an_accepted_unknown_word_takes_the_cards():
    g = new_game()
    turn_up(g, ["Z", "U", "R", "K"])
    claim(g, "s1", "ZURK", ["Z", "U", "R", "K"])
    g.apply("s2", {"type": "vote", "vote": g.vote["id"], "ballot": "accept"}, 3.0)
    assert g.phase == "turning" and len(g.piles["s1"]) == 4 and g.claim["voted"]


def test_the_host_overrules_the_vote():
    g = new_game()
    turn_up(g, ["Z", "U", "R", "K", "E", "N"])
    claim(g, "s1", "ZURK", ["Z", "U", "R", "K"])
    g.host_apply({"type": "overrule", "vote": g.vote["id"], "outcome": "reject"}, 3.0)
    assert g.phase == "picking" and g.view(None)["claim"]["status"] == "rejected"


def test_a_rejected_word_lets_every_other_player_pick_a_card():
    g = new_game(4)
    turn_up(g, ["Z", "U", "R", "K", "E", "N"])
    claim(g, "s1", "ZURK", ["Z", "U", "R", "K"])
    for s in ("s2", "s3"):
        g.apply(s, {"type": "vote", "vote": g.vote["id"], "ballot": "reject"}, 3.0)
    assert g.phase == "picking" and g.picking["pickers"] == ["s2", "s3", "s4"]
    assert len(g.table) == 6  # the claim's cards went back to the row
    z = ids_of(g, ["Z"])[0]
    g.apply("s3", {"type": "pick", "round": 1, "card": z}, 4.0)
    refused("already_picked", g.apply, "s3", {"type": "pick", "round": 1, "card": g.table[0]}, 4.1)
    refused("card_taken", g.apply, "s2", {"type": "pick", "round": 1, "card": z}, 4.2)
    refused("not_your_pick", g.apply, "s1", {"type": "pick", "round": 1, "card": g.table[0]}, 4.3)
    refused("picking_open", claim, g, "s2", "NEU", ["N", "E", "U"])
    g.apply("s2", {"type": "pick", "round": 1, "card": g.table[0]}, 4.4)
    # s4 does not pick in time: a random card is taken for them
    assert g.next_deadline() == pytest.approx(3.0 + PICK_SECONDS)
    g.tick(3.0 + PICK_SECONDS)
    assert g.phase == "turning"
    assert [len(g.piles[s]) for s in ("s1", "s2", "s3", "s4")] == [0, 1, 1, 1]
    assert len(g.table) == 3 and g.card_count() == 66
    assert g.view(None)["last_event"]["picks"]["s4"]["random"] is True


def test_when_the_table_runs_short_the_pickers_take_from_the_deck():
    g = new_game(5)
    turn_up(g, ["Z", "U", "R", "K"])
    claim(g, "s1", "ZURK", ["Z", "U", "R", "K"])
    g.host_apply({"type": "overrule", "vote": g.vote["id"], "outcome": "reject"}, 3.0)
    deck_before = len(g.deck)
    for i, s in enumerate(("s2", "s3", "s4", "s5")):
        g.apply(s, {"type": "pick", "round": 1, "card": g.table[0]}, 4.0 + i)
    assert g.table == [] and len(g.deck) == deck_before
    g2 = new_game(6)
    turn_up(g2, ["Z", "U", "R", "K"])
    claim(g2, "s1", "ZURK", ["Z", "U", "R", "K"])
    g2.host_apply({"type": "overrule", "vote": g2.vote["id"], "outcome": "reject"}, 3.0)
    deck_before = len(g2.deck)
    for s in ("s2", "s3", "s4", "s5"):
        g2.apply(s, {"type": "pick", "round": 1, "card": g2.table[0]}, 4.0)
    # the table is empty: s6 takes the top of the deck at once, face down
    assert g2.phase == "turning" and len(g2.piles["s6"]) == 1 and len(g2.deck) == deck_before - 1
    assert g2.view(None)["last_event"]["picks"]["s6"] == {"id": None, "face": None, "from": "deck", "random": False}


def test_an_unanswered_vote_closes_at_its_deadline_and_the_word_stands():
    g = new_game()
    turn_up(g, ["Z", "U", "R", "K"])
    claim(g, "s1", "ZURK", ["Z", "U", "R", "K"], now=2.0)
    assert g.next_deadline() == pytest.approx(2.0 + VOTE_SECONDS)
    g.tick(2.0 + VOTE_SECONDS)
    assert g.phase == "turning" and len(g.piles["s1"]) == 4


# --- tempo, round end, dealers (§2–§4) -----------------------------------------------------------

def test_the_dealer_sets_the_tempo_and_a_claim_pauses_the_turning():
    g = new_game(interval=3)
    refused("not_dealer", g.apply, "s2", {"type": "auto", "round": 1, "on": True}, 0.0)
    g.apply("s1", {"type": "auto", "round": 1, "on": True}, 0.0)
    assert g.next_deadline() == 0.0
    g.tick(0.0)
    assert len(g.table) == 1 and g.next_deadline() == 3.0
    g.apply("s1", {"type": "tempo", "seconds": 1}, 0.5)
    assert g.next_deadline() == 1.5
    g.tick(1.5)
    g.tick(2.5)
    assert len(g.table) == 3
    # a doubled "turn now" tap turns one card
    g.apply("s1", {"type": "turn", "round": 1, "turned": 3}, 2.6)
    refused("stale_turn", g.apply, "s1", {"type": "turn", "round": 1, "turned": 3}, 2.61)
    g.apply("s1", {"type": "auto", "round": 1, "on": False}, 2.7)
    assert g.next_deadline() is None
    stack(g, ["H", "A", "N", "G"])
    g.apply("s1", {"type": "auto", "round": 1, "on": True}, 3.0)
    for t in (4.0, 5.0, 6.0, 7.0):
        g.tick(t)
    claim(g, "s2", "HANG", ["H", "A", "N", "G"], now=7.2)
    assert g.next_deadline() == pytest.approx(7.2 + 2.0)  # at least CLAIM_SHOW_SECONDS


def test_the_round_ends_after_the_deck_out_countdown_or_when_all_pass():
    g = new_game(2, end_seconds=10)
    while g.deck:
        g.apply("s1", {"type": "turn", "round": 1, "turned": g.turned}, 1.0)
    assert g.phase == "turning" and g.next_deadline() == 11.0 and len(g.table) == 66
    refused("not_dealer", g.apply, "s2", {"type": "turn", "round": 1, "turned": 66}, 2.0)
    refused("deck_out", g.apply, "s1", {"type": "turn", "round": 1, "turned": 66}, 2.0)
    claim(g, "s2", "HANG", ["H", "A", "N", "G"], now=5.0)
    assert g.next_deadline() == 15.0  # a claim starts the countdown again
    g.apply("s1", {"type": "pass", "round": 1}, 6.0)
    assert g.phase == "turning"
    g.apply("s2", {"type": "pass", "round": 1}, 6.5)
    assert g.phase == "scored" and g.results[0]["cards"] == {"s1": 0, "s2": 4}
    assert g.results[0]["why"] == "passed"
    g2 = new_game(2, end_seconds=10)
    refused("deck_not_out", g2.apply, "s1", {"type": "pass", "round": 1}, 0.0)
    while g2.deck:
        g2.apply("s1", {"type": "turn", "round": 1, "turned": g2.turned}, 1.0)
    g2.tick(11.0)
    assert g2.phase == "scored" and g2.results[0]["why"] == "countdown"
    assert g2.view(None)["possible"]  # a full table still spells words


def play_round_out(g: Diabolo, now: float) -> None:
    while g.deck:
        g.apply(g.dealer, {"type": "turn", "round": g.round, "turned": g.turned}, now)
    for s in g.players:
        g.apply(s, {"type": "pass", "round": g.round}, now)


@pytest.mark.parametrize("n, dealers", [
    (3, ["s1", "s2", "s3", "s1", "s2", "s3"]),
    (5, ["s1", "s2", "s3", "s4", "s5"]),
    (2, ["s1", "s2", "s1", "s2"]),
    (6, ["s1", "s2", "s3", "s4", "s5", "s6"]),
])
def test_each_player_deals_once_with_4_to_6_and_twice_with_2_or_3(n, dealers):
    g = new_game(n)
    seen = []
    while True:
        seen.append(g.dealer)
        play_round_out(g, 1.0)
        if g.over:
            break
        nxt = g.view(None)["next_dealer"]
        others = [s for s in g.players if s != nxt]
        refused("not_dealer", g.apply, others[0], {"type": "deal", "round": g.round + 1}, 2.0)
        g.apply(nxt, {"type": "deal", "round": g.round + 1}, 2.0)
        assert g.card_count() == 66 and g.table == [] and len(g.deck) == 66
    assert seen == dealers and len(g.results) == len(dealers)


def test_the_host_deals_for_a_next_dealer_whose_phone_is_gone():
    # the next dealer's phone died at the scores: nobody else may deal, so the host (the TV)
    # deals the round for them; they stay that round's dealer
    g = new_game(4)
    play_round_out(g, 1.0)
    assert g.view(None)["next_dealer"] == "s2"
    refused("not_dealer", g.apply, "s3", {"type": "deal", "round": 2}, 2.0)
    refused("stale", g.host_apply, {"type": "deal", "round": 3}, 2.0)
    g.host_apply({"type": "deal", "round": 2}, 2.0)
    assert g.round == 2 and g.dealer == "s2" and g.phase == "turning" and g.card_count() == 66
    refused("not_scored", g.host_apply, {"type": "deal", "round": 3}, 2.5)


def test_totals_and_the_winner():
    g = new_game(2)
    turn_up(g, ["H", "A", "N", "G"])
    claim(g, "s2", "HANG", ["H", "A", "N", "G"])
    play_round_out(g, 3.0)
    for _ in range(3):
        g.apply(g.view(None)["next_dealer"], {"type": "deal", "round": g.round + 1}, 4.0)
        play_round_out(g, 5.0)
    assert g.over and g.winners == ["s2"] and g.totals() == {"s1": 0, "s2": 4}
    refused("game_over", g.apply, "s1", {"type": "pass", "round": 4}, 6.0)


def test_victory_tiles_with_the_holders_handicap():
    g = new_game(3, victory_tiles=True, tile_handicap=10)
    assert g.view(None)["rounds"] is None

    def round_with(counts: dict, now: float):
        for seat, n in counts.items():
            g.piles[seat] = [g.deck.pop() for _ in range(n)]
        play_round_out(g, now)

    round_with({"s1": 12, "s2": 5}, 1.0)
    assert g.tiles == {"s1": 1, "s2": 0, "s3": 0} and g.results[-1]["tiles"] == ["s1"]
    g.apply("s2", {"type": "deal", "round": 2}, 2.0)
    # s1 holds a tile: 14 counts as 4, so s2's 6 takes this round's tile
    round_with({"s1": 14, "s2": 6, "s3": 6}, 3.0)
    assert g.tiles == {"s1": 1, "s2": 1, "s3": 1} and not g.over  # s2 and s3 tie: each takes one
    g.apply("s3", {"type": "deal", "round": 3}, 4.0)
    round_with({"s1": 21, "s2": 8}, 5.0)  # 11 vs -2 vs -10
    assert g.over and g.winners == ["s1"] and g.tiles["s1"] == 2
    h = new_game(2, victory_tiles=True, tile_handicap=0)
    h.piles["s1"] = [h.deck.pop()]
    play_round_out(h, 1.0)
    h.apply("s2", {"type": "deal", "round": 2}, 2.0)
    h.piles["s1"] = [h.deck.pop()]
    play_round_out(h, 3.0)
    assert h.over and h.winners == ["s1"]  # no handicap: a second round of 1 card against 0 wins


def test_no_victory_tile_for_a_round_in_which_nobody_took_a_card():
    # §7 gives the tile for "the most cards collected": a round where nobody took a card (all
    # passed at once, or nobody found a word) gives no tile, else everyone would tie for it and
    # two empty rounds would end the game with every player a winner
    g = new_game(4, victory_tiles=True)
    play_round_out(g, 1.0)
    assert g.results[-1]["tiles"] == [] and g.tiles == {s: 0 for s in g.players} and not g.over
    g.apply("s2", {"type": "deal", "round": 2}, 2.0)
    g.piles["s1"] = [g.deck.pop() for _ in range(5)]
    play_round_out(g, 3.0)
    assert g.results[-1]["tiles"] == ["s1"]
    g.apply("s3", {"type": "deal", "round": 3}, 4.0)
    play_round_out(g, 5.0)  # nobody took a card again: no tile
    assert g.results[-1]["tiles"] == [] and not g.over and sum(g.tiles.values()) == 1


def test_victory_tiles_go_to_the_highest_adjusted_result_even_at_zero_or_below():
    """RULES.md "Diabolo" (seed §7): the highest result of the round takes a tile, ties each, also
    when that result is 0 or below after the holders' handicap; only a round in which nobody took
    a card gives none. On main a top result of 0 or less gave no tile at all."""
    g = new_game(4, victory_tiles=True, tile_handicap=10)
    g.piles["s1"] = [g.deck.pop() for _ in range(5)]
    play_round_out(g, 1.0)
    assert g.results[-1]["tiles"] == ["s1"]
    g.apply("s2", {"type": "deal", "round": 2}, 2.0)
    # the holder's 5 cards count -5, the others took none: their 0 is the highest, each takes one
    g.piles["s1"] = [g.deck.pop() for _ in range(5)]
    play_round_out(g, 3.0)
    assert g.results[-1]["tiles"] == ["s2", "s3", "s4"] and g.tiles == {"s1": 1, "s2": 1, "s3": 1, "s4": 1}
    g.apply("s3", {"type": "deal", "round": 3}, 4.0)
    # everyone holds a tile now: s2's 3 cards count -7, s1's 2 count -8, the others -10: s2 wins it
    g.piles["s1"] = [g.deck.pop() for _ in range(2)]
    g.piles["s2"] = [g.deck.pop() for _ in range(3)]
    play_round_out(g, 5.0)
    assert g.results[-1]["tiles"] == ["s2"] and g.over and g.winners == ["s2"]


def test_a_refused_deal_past_the_planned_rounds_changes_nothing():
    # with victory tiles the rotation goes on past the planned rounds; a deal by the wrong seat
    # at that point was refused, but only after the next dealer had been added to the plan
    g = new_game(4, victory_tiles=True)
    for number in range(2, 5):  # four rounds nobody takes a card in: no tiles, the plan is used up
        play_round_out(g, 1.0)
        g.apply(g.view(None)["next_dealer"], {"type": "deal", "round": number}, 2.0)
    play_round_out(g, 3.0)
    assert g.round == len(g.dealers) == 4 and not g.over and g.view(None)["next_dealer"] == "s1"
    before = g.to_dict()
    refused("not_dealer", g.apply, "s2", {"type": "deal", "round": 5}, 4.0)
    assert g.to_dict() == before
    g.apply("s1", {"type": "deal", "round": 5}, 5.0)
    assert g.dealer == "s1" and g.dealers == ["s1", "s2", "s3", "s4", "s1"]


def test_a_snapshot_round_trips():
    g = new_game(3)
    turn_up(g, ["Z", "U", "R", "K"])
    claim(g, "s1", "ZURK", ["Z", "U", "R", "K"])
    h = Diabolo.from_dict(g.to_dict(), random.Random(2))
    assert h.to_dict() == g.to_dict() and h.view("s2") == g.view("s2")
    h.apply("s2", {"type": "vote", "vote": h.vote["id"], "ballot": "reject"}, 3.0)
    h.apply("s3", {"type": "vote", "vote": h.vote["id"], "ballot": "reject"}, 3.0)
    assert h.phase == "picking"


def test_a_kicked_player_leaves_the_vote_and_the_rotation():
    g = new_game(4)
    turn_up(g, ["Z", "U", "R", "K"])
    claim(g, "s1", "ZURK", ["Z", "U", "R", "K"])
    g.apply("s2", {"type": "vote", "vote": g.vote["id"], "ballot": "reject"}, 3.0)
    g.leave("s3", 3.5)
    assert g.view(None)["vote"]["voters"] == ["s2", "s4"]
    g.leave("s1", 4.0)  # the claimant: the claim is withdrawn, the cards stay on the table
    assert g.phase == "turning" and len(g.table) == 4 and g.card_count() == 66
    # the dealer's round passes to the next seat; 2 players left: each deals twice (§4)
    assert g.dealers == ["s2", "s4", "s2", "s4"] and g.dealer == "s2"
    refused("cannot_continue", g.leave, "s4", 5.0)


def test_a_kick_replans_the_dealers_for_the_new_player_count():
    """seed §3/§4: the next dealer sits to the left; each player deals once (4–6 players) or twice
    (2–3). A table of four losing a player mid-game is a table of three: the rounds to come are
    planned so that each deals twice in all, the rounds already dealt counting (on main the
    kicked seat was just dropped from the plan and the others dealt once)."""
    g = new_game(4)
    play_round_out(g, 1.0)
    g.apply("s2", {"type": "deal", "round": 2}, 2.0)
    g.leave("s4", 3.0)
    assert g.dealers == ["s1", "s2", "s3", "s1", "s2", "s3"]
    counts = {s: g.dealers.count(s) for s in g.players}
    assert counts == {"s1": 2, "s2": 2, "s3": 2}


def test_tile_mode_after_a_kick_the_next_dealer_is_the_next_seat():
    """seed §7 with §3: with victory tiles the deal goes on round the table; when the dealer is
    kicked mid-round the next seat deals that round, and the round after goes to the seat after
    it (on main the first player took over and the rotation counted from the wrong seat)."""
    g = new_game(4, victory_tiles=True)
    play_round_out(g, 1.0)
    g.apply("s2", {"type": "deal", "round": 2}, 2.0)
    play_round_out(g, 3.0)
    g.apply("s3", {"type": "deal", "round": 3}, 4.0)
    g.leave("s3", 5.0)  # the dealer of round 3 goes home
    assert g.dealer == "s4" and g.round == 3
    play_round_out(g, 6.0)
    assert g.view(None)["next_dealer"] == "s1"
    g.apply("s1", {"type": "deal", "round": 4}, 7.0)
    play_round_out(g, 8.0)
    assert g.view(None)["next_dealer"] == "s2"


def test_possible_words_are_spellable_from_the_cards_left():
    cards = [next(c for c in DECK if c["face"] == f and c["id"] != k) for f, k in
             zip("TIERNSEA", [-1] * 6 + [0, -1])]
    words = possible_words(cards, "de")
    assert 1 <= len(words) <= 5
    for w in words:
        assert best_assignment(w, cards) is not None
    assert possible_words(cards[:2], "de") == []


def test_a_restart_stops_the_turning_until_the_dealer_starts_it_again():
    g = new_game()
    g.apply("s1", {"type": "auto", "round": 1, "on": True}, 0.0)
    g.tick(0.0)
    restored = Diabolo.from_dict(g.to_dict(), random.Random(9))
    restored.interrupted(50.0)
    assert restored.next_deadline() is None and not restored.view(None)["auto"]
    assert restored.view(None)["table"] == g.view(None)["table"]
    turn_up(restored, ["Z", "U", "R", "K"], now=60.0)
    claim(restored, "s1", "ZURK", ["Z", "U", "R", "K"], now=61.0)
    restored.interrupted(100.0)
    assert restored.next_deadline() == 100.0 + VOTE_SECONDS  # the vote's time starts afresh


@pytest.mark.parametrize("during", ["vote", "picking"])
def test_a_restart_during_a_vote_or_a_pick_keeps_turning_stopped_until_the_dealer_restarts_it(during):
    """RULES.md "Diabolo" (the dealer's phone sets the tempo): after a host restart the turning
    waits for the dealer, also when the restart came during a vote or the picks; on main the
    vote's (or the picks') end started the auto-turn again by itself."""
    g = new_game(3)
    turn_up(g, ["Z", "U", "R", "K", "E"], now=1.0)
    g.apply("s1", {"type": "auto", "round": 1, "on": True}, 2.0)
    claim(g, "s2", "ZURK", ["Z", "U", "R", "K"], now=3.0)  # not a word: a vote
    assert g.phase == "vote"
    if during == "picking":
        for s in ("s1", "s3"):
            g.apply(s, {"type": "vote", "vote": g.vote["id"], "ballot": "reject"}, 4.0)
        assert g.phase == "picking"
    restored = Diabolo.from_dict(g.to_dict(), random.Random(9))
    restored.interrupted(50.0)
    assert not restored.view(None)["auto"]
    if during == "vote":  # one accept of two voters: it can no longer be rejected, it stands
        restored.apply("s1", {"type": "vote", "vote": restored.vote["id"], "ballot": "accept"}, 51.0)
        assert restored.claim["status"] == "taken"
    else:
        for s in ("s1", "s3"):
            restored.apply(s, {"type": "pick", "round": 1, "card": restored.table[0]}, 51.0)
    assert restored.phase == "turning" and not restored.auto_on and restored.next_turn_at is None
    assert restored.next_deadline() is None  # nothing turns until the dealer says so
    restored.apply("s1", {"type": "auto", "round": 1, "on": True}, 60.0)
    assert restored.next_deadline() is not None


def test_picks_when_both_the_table_and_the_deck_are_empty_give_nothing():
    g = new_game(3)
    while g.deck:
        g.apply("s1", {"type": "turn", "round": 1, "turned": g.turned}, 1.0)
    # leave exactly four cards: Z U R K
    keep = ids_of(g, ["Z", "U", "R", "K"])
    g.piles["s1"] = [i for i in g.table if i not in keep]
    g.table = keep
    claim(g, "s2", "ZURK", ["Z", "U", "R", "K"], now=2.0)
    g.host_apply({"type": "overrule", "vote": g.vote["id"], "outcome": "reject"}, 3.0)
    g.apply("s1", {"type": "pick", "round": 1, "card": g.table[0]}, 4.0)
    g.apply("s3", {"type": "pick", "round": 1, "card": g.table[0]}, 4.0)
    # two cards left on the table: fewer than any word needs, the deck is out: the round ends
    assert g.phase == "scored" and g.results[0]["why"] == "no_cards"
    assert g.card_count() == 66


@pytest.mark.parametrize("word", ["USW", "usw.", "U.S.W.", "BZW", "bzw.", "ETC", "etc.", "GMBH", "GmbH", "EVTL",
                                  "evtl.", "INKL", "inkl.", "PKW", "Pkw", "KFZ", "Kfz", "z.Zt."])
def test_abbreviations_are_refused_outright_not_voted(word):
    """seed 004 §5 (no abbreviations); RULES.md "Diabolo": refused outright, not voted, written with or
    without dots — from our curated list (tools/build_diabolo_abbreviations.py). On main USW went to
    a table vote and usw. was refused only for its dot."""
    g = new_game(3)
    letters = [ch for ch in "".join(c for c in word.upper() if c.isalpha())]
    faces = ["?"] * len(letters)
    turn_up(g, faces)
    cards = [{"id": i, "as": ch} for i, ch in zip(ids_of(g, faces), letters)]
    before = g.to_dict()
    e = refused("abbreviation", g.apply, "s2", {"type": "claim", "round": 1, "word": word, "cards": cards}, 2.0)
    assert e.params["word"] == "".join(letters)
    assert g.to_dict() == before and g.phase == "turning" and g.vote is None


def test_an_abbreviation_the_english_list_knows_is_still_refused():
    """The English word list holds ETC and ASAP: the abbreviation list is checked first."""
    from partyhost.games.diabolo_words import abbreviation, is_known
    assert is_known("ETC", "en") and abbreviation("etc.", "en") == "ETC" and abbreviation("ASAP", "en") == "ASAP"
    assert abbreviation("HAUS", "de") is None and abbreviation("SOG", "de") is None  # Sog is a word
