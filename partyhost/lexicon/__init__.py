"""Offline word lists and reading pipelines, one module per script; built data in ``data/``.

- :mod:`partyhost.lexicon.kana`: one normalisation pipeline for typed words, dictionary entries and
  cards (Word Basket, ``seeds/002_…``; ``RULES.md`` "Reading a word").
- :mod:`partyhost.lexicon.japanese`: the built-in Japanese noun list (readings) and the
  surface → reading map for words typed in kanji. See ``docs/lexicon.md``.
- :mod:`partyhost.lexicon.latin`: German and English word forms with one spelling fold
  (Diabolo, ``seeds/004_…``). See ``docs/lexicon_latin.md``.
"""
