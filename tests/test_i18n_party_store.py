"""Catalogues, the party's name rules, the snapshot store and the host command's text."""

from __future__ import annotations

import ast
import json
import pathlib
import random
import re

import pytest

from partyhost import i18n
from partyhost.cli import banner, candidates
from partyhost.games.base import RuleError
from partyhost.netaddr import Candidate
from partyhost.party import NAME_MAX, Party, clean_name, name_key
from partyhost.store import Store

ROOT = pathlib.Path(__file__).resolve().parents[1]


def raised_codes() -> set[tuple[str | None, str]]:
    """Every RuleError code raised anywhere in the package (read from the source), with the game
    whose module raises it (``None`` outside the games: a shared code)."""
    from partyhost.games import registry

    codes = set()
    for path in (ROOT / "partyhost").rglob("*.py"):
        scope = next((key for key in registry.GAMES if path.stem == key or path.stem.startswith(key + "_")),
                     None)
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleError"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                codes.add((scope, node.args[0].value))
    return codes


ENGLISH_ONLY_DETAIL = {"err.malformed"}
"""Keys whose ``{detail}`` is the schema validator's English: the English sentence shows it, the
Japanese one leaves it out rather than put English inside a Japanese sentence."""


def test_catalogues_have_the_same_keys_and_placeholders():
    ja, en = i18n.catalogue("ja"), i18n.catalogue("en")
    assert set(ja) == set(en)
    for key in ja:
        ja_names, en_names = (i18n.placeholders(text[key]) for text in (ja, en))
        # a number that only picks an English plural form (no # shown) has no Japanese form to pick
        en_names -= i18n.selector_only(en[key]) - ja_names
        if key in ENGLISH_ONLY_DETAIL:
            assert ja_names == en_names - {"detail"}, key
        else:
            assert ja_names == en_names, key


def test_every_refusal_has_a_message_in_both_languages():
    codes = raised_codes()
    assert {("the_mind", "card_gone"), (None, "name_taken"), (None, "not_host")} <= codes
    for scope, code in codes:
        for lang in i18n.LANGS:
            keys = [f"err.{code}"] + ([f"{scope}.err.{code}"] if scope else [])
            assert any(k in i18n.catalogue(lang) for k in keys), (lang, scope, code)
            # and the engine finds it: the game's own wording, else the shared one
            assert i18n.refusal(lang, code, scope) != f"err.{code}", (lang, scope, code)


def test_a_games_words_stay_in_its_namespace(tmp_path, monkeypatch):
    """A sixth game's keys can never collide with another game's: the loader refuses a key
    outside the file's own namespace."""
    import shutil
    from importlib import resources

    real = resources.files("partyhost").joinpath("i18n")
    copy = tmp_path / "partyhost" / "i18n"
    shutil.copytree(str(real), copy)
    (copy / "sixth.ja.json").write_text('{"sixth.name": "6", "the_mind.name": "x"}', "utf-8")
    monkeypatch.setattr(resources, "files", lambda package: tmp_path / "partyhost")
    i18n.catalogue.cache_clear()
    try:
        with pytest.raises(ValueError, match="namespace"):
            i18n.catalogue("ja")
    finally:
        monkeypatch.undo()
        i18n.catalogue.cache_clear()
    for key in i18n.catalogue("ja"):
        assert not key.startswith(("mind.", "dc.", "dia.", "tt.", "wb.", "wbui.", "game.")), key


def test_pages_use_only_catalogue_keys():
    js = "".join(p.read_text("utf-8") for p in (ROOT / "partyhost/static/js").glob("*.js"))
    keys = {k for k in re.findall(r"""\bt\(\s*["']([\w.]+)["']""", js) if not k.endswith((".", "_"))}
    assert keys, "no t(...) calls found"
    missing = {k for k in keys if k not in i18n.catalogue("ja")}
    assert not missing


def test_message_formats_and_falls_back():
    assert i18n.message("en", "err.name_too_long", max=16) == "Names are at most 16 characters"
    assert i18n.message("ja", "the_mind.err.card_gone", card=35).startswith("35は")
    assert i18n.message("xx", "err.not_host") == i18n.message("ja", "err.not_host")
    assert i18n.message("en", "no.such.key") == "no.such.key"
    assert i18n.message("en", "the_mind.err.card_gone") .startswith("{card}")  # missing param kept visible
    assert i18n.normalize_lang("en-US") == "en" and i18n.normalize_lang(None) == "ja"


@pytest.mark.parametrize("raw,clean", [("  あき  ", "あき"), ("Ｂｅｎ", "Ben"), ("a  b", "a b"), ("ｶﾅ", "カナ")])
def test_clean_name(raw, clean):
    assert clean_name(raw) == clean


@pytest.mark.parametrize("raw,code", [("", "name_empty"), ("   ", "name_empty"),
                                      ("x" * (NAME_MAX + 1), "name_too_long"), ("a\u200bb", "name_invalid"),
                                      ("a\x07", "name_invalid"), ("\u3164", "name_invalid"),
                                      ("\u2800 \u2800", "name_invalid")])
def test_bad_names(raw, code):
    with pytest.raises(RuleError) as err:
        clean_name(raw)
    assert err.value.code == code


def test_name_key_folds_width_and_case():
    assert name_key(" ＡＫＩ ") == name_key("aki") == "aki"


def test_party_round_trips_through_the_store(tmp_path):
    party = Party(room="ABCD")
    tokens = iter(["t1", "t2"])
    party.join("あき", "ja", lambda: next(tokens))
    party.join("ben", "en", lambda: next(tokens))
    for seat in party.seats.values():
        seat.connections = 1
    rng = random.Random(5)
    party.start(rng, 0.0)
    store = Store(str(tmp_path))
    store.save({"party": party.to_dict(), "game_now": 12.5})
    store.close()
    loaded = Store(str(tmp_path)).load()
    again = Party.from_dict(loaded["party"], random.Random(5))
    assert loaded["game_now"] == 12.5
    assert again.seat_of_token("t2").name == "ben"
    assert all(s.connections == 0 for s in again.seats.values())
    assert again.game.to_dict() == party.game.to_dict()
    assert json.dumps(again.to_dict(), sort_keys=True).replace('"connections": 0', '"connections": 1') \
        == json.dumps(party.to_dict(), sort_keys=True)


def test_engine_resumes_a_snapshot_with_the_game_clock(tmp_path):
    from partyhost.engine import Engine

    first = Engine(lambda *a: None, seed=1)
    first.party.join("a", "ja", lambda: "tok-a")
    snap = {"party": first.party.to_dict(), "game_now": 500.0}
    clock = iter([10.0, 10.0, 10.0, 11.0])
    again = Engine(lambda *a: None, seed=1, clock=lambda: next(clock), snapshot=snap)
    assert again.party.seat_of_token("tok-a").name == "a"
    assert again.game_now() == pytest.approx(500.0)


def test_host_ip_goes_first_and_must_be_an_address(monkeypatch):
    monkeypatch.setattr("partyhost.cli.discover", lambda: [Candidate("10.0.0.2", "eth0", 4, True, False),
                                                           Candidate("fd00::2", "eth0", 6, True, False)])
    first = candidates("192.168.5.5")
    assert [c.address for c in first] == ["192.168.5.5", "10.0.0.2"]  # 0.0.0.0 serves IPv4 only
    assert [c.address for c in candidates(None, "::")] == ["10.0.0.2", "fd00::2"]
    assert [c.address for c in candidates(None, "127.0.0.1")] == ["127.0.0.1"]
    assert candidates("fd00::1")[0].url_host == "[fd00::1]"
    with pytest.raises(SystemExit):
        candidates("my-laptop.local")


def test_banner_has_join_url_tv_url_and_a_qr():
    text = banner("http://192.168.1.20:8765/", "http://127.0.0.1:8765/tv", ["10.0.0.2"])
    assert "http://192.168.1.20:8765/" in text and "http://127.0.0.1:8765/tv" in text
    assert "█" in text and "10.0.0.2" in text


def test_store_keeps_the_host_key_across_restarts(tmp_path):
    first = Store(str(tmp_path)).host_key()
    assert len(first) >= 16
    assert Store(str(tmp_path)).host_key() == first
    store = Store(str(tmp_path))
    store.clear()
    assert store.host_key() == first  # --fresh forgets the party, not the TV's key


def test_a_restored_game_in_play_waits_for_everyone_to_ready_again():
    """After a host restart the first phone back must not play before the others return."""
    from partyhost.engine import Engine

    first = Engine(lambda *a: None, seed=2)
    tokens = iter(["ta", "tb"])
    for name in ("a", "b"):
        first.party.join(name, "ja", lambda: next(tokens))
    for seat in first.party.seats.values():
        seat.connections = 1
    first.party.start(first.rng, 0.0)
    game = first.party.game
    for seat in ("s1", "s2"):
        game.apply(seat, {"type": "ready", "level": 1, "ready": True}, 1.0)
    assert game.phase == "playing"
    snap = {"party": first.party.to_dict(), "game_now": 5.0}
    again = Engine(lambda *a: None, seed=2, snapshot=snap)
    restored = again.party.game
    assert restored.phase == "ready" and restored.ready == {"s1": False, "s2": False}
    assert restored.last_event["kind"] == "stop" and restored.last_event["by"] is None
    assert restored.hands == game.hands
