"""Diabolo's solver index is built fast at start and gives the same answers as the old build.

Issue 18: the index (the word list by length, A–Z inside) cost ~0.26 s of CPU at every start when
built word by word; it is now built from the list's A–Z order by one stable sort and slices. These
tests hold the fast build to the old one, word for word, and to the same suggestions.
"""

from __future__ import annotations

import pytest

from partyhost.games import diabolo_words as dw
from partyhost.lexicon import latin


@pytest.mark.parametrize("lang", dw.LANGS)
def test_index_equals_the_word_by_word_build(lang: str) -> None:
    """Same lengths, same words, same order as the reference build (every bucket, every word)."""
    fast = dw._words_by_length(lang)
    slow = dw._words_by_length_slow(lang)
    assert [n for n, _ in fast] == [10, 9, 8, 7, 6, 5, 4]
    assert fast == slow
    assert sum(len(b) for _, b in fast) > 50_000


@pytest.mark.parametrize("lang", dw.LANGS)
def test_sorted_words_is_the_set_in_order(lang: str) -> None:
    """The A–Z list the index is built from holds exactly the set's words."""
    listed = latin.sorted_words(lang)
    assert list(listed) == sorted(latin.words(lang))
    assert len(listed) == len(latin.words(lang))


def test_guard_drops_non_letters(monkeypatch: pytest.MonkeyPatch) -> None:
    """A list with a word outside A–Z (never shipped, but the old build filtered it) still gives
    only letter words, like the old build."""
    fake = ("ABCD", "AB1D", "ÄRGER", "HAUS", "ZEBRA", "TOOLONGWORDX", "BAUM")
    monkeypatch.setattr(latin, "sorted_words", lambda lang: tuple(sorted(fake)))
    monkeypatch.setattr(latin, "words", lambda lang: frozenset(fake))
    dw._words_by_length.cache_clear()
    try:
        assert dw._words_by_length("de") == dw._words_by_length_slow("de") == (
            (5, ("ZEBRA",)), (4, ("ABCD", "BAUM", "HAUS")))
    finally:
        dw._words_by_length.cache_clear()


@pytest.mark.parametrize("lang", dw.LANGS)
def test_possible_words_unchanged(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The round's end lists of possible words from the new index equal those from the old one."""
    deck = dw.deck_table(lang)
    hands = [list(deck[k:k + 9]) for k in range(0, 45, 9)]
    fast = [dw.possible_words(cards, lang) for cards in hands]
    monkeypatch.setattr(dw, "_words_by_length", dw._words_by_length_slow)
    slow = [dw.possible_words(cards, lang) for cards in hands]
    assert fast == slow
    assert any(fast)
