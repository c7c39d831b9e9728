"""docs/portability.md points into the code by ``file:line``; every such reference must name what
it points at and that name must be on that line, so the audit cannot drift from the code unseen
(a review of issue 25 found most of its line numbers off by 10–100 lines)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "portability.md"
REF = re.compile(r"`((?:partyhost/)?[\w/]+\.py):(\d+)`(?:\s*`([^`]+)`)?")


def _source(name: str) -> list[str]:
    path = ROOT / name if name.startswith("partyhost/") else ROOT / "partyhost" / name
    assert path.is_file(), f"docs/portability.md names {name}, which does not exist"
    return path.read_text(encoding="utf-8").splitlines()


def test_every_line_reference_names_what_is_on_that_line():
    text = DOC.read_text(encoding="utf-8")
    refs = REF.findall(text)
    assert refs, "no file:line references found"
    wrong = []
    for name, line, symbol in refs:
        assert symbol, f"`{name}:{line}` names nothing: follow it with the `name` on that line"
        lines = _source(name)
        at = lines[int(line) - 1] if int(line) <= len(lines) else ""
        word = symbol.split(".")[-1].split("(")[0]
        if word not in at:
            wrong.append(f"{name}:{line} `{symbol}`: the line is {at.strip()!r}")
    assert not wrong, "\n".join(wrong)


def test_no_bare_line_numbers_that_cannot_be_checked():
    assert not re.search(r"`:\d+`", DOC.read_text(encoding="utf-8")), "write `file.py:N` `name`, not `:N`"
