"""Offline word lists, one module per script (``latin`` for German/English); data in ``data/``."""
