"""Word lists and the kana reading pipeline.

- :mod:`partyhost.lexicon.kana`: one normalisation pipeline for typed words, dictionary entries and
  cards (Word Basket, ``seeds/002_…``; ``RULES.md`` "Reading a word").
- :mod:`partyhost.lexicon.japanese`: the built-in Japanese noun list (readings) and the
  surface → reading map for words typed in kanji. See ``docs/lexicon.md``.
"""
