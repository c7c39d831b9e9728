"""The Decrypto pages say everything through the i18n files: no Japanese text (words or
punctuation such as 、 and ・) is written into partyhost/static/js/decrypto.js itself, or an
English phone shows "Waiting for: White decoding (…)、Black intercepting (…)"."""

from __future__ import annotations

import re
from pathlib import Path

JS = Path(__file__).resolve().parent.parent / "partyhost" / "static" / "js" / "decrypto.js"
JAPANESE = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]")


def code_without_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(re.sub(r"(^|\s)//.*$", "", line) for line in text.splitlines())


def test_decrypto_js_has_no_japanese_text_outside_comments():
    lines = [(n, line) for n, line in enumerate(code_without_comments(JS.read_text("utf-8")).splitlines(), 1)
             if JAPANESE.search(line)]
    assert lines == [], lines
