"""A model on fifteen made-up notes of fifteen styles: Safe Harbor misses and false placeholders.

``python -m crfdeid experiments made-up`` reads ``made_up_notes.txt`` beside this module (PHI
marked ``[[SUBTYPE|text]]``; written for crfdeid, no real person, place of care or identifier),
tags every note with ``Model.tag_many`` and counts, per note and in all, the gold PHI tokens
no predicted span covers (Safe Harbor identifiers apart: every subtype but STATE, COUNTRY and
PROFESSION) and the predicted spans that overlap no gold span (placeholders on non-PHI).
"""

from __future__ import annotations

import re
from pathlib import Path

from ..document import Document, make_span
from ..text.tokenize import tokenize

#: The made-up notes (they ship with the package).
NOTES = Path(__file__).resolve().parent / "data" / "made_up_notes.txt"
#: Subtypes HIPAA Safe Harbor does not ask to remove.
NOT_SAFE_HARBOR = frozenset({"STATE", "COUNTRY", "PROFESSION"})
_MARK = re.compile(r"\[\[([A-Z-]+)\|([^\]]+)\]\]")


def _document(name: str, raw: str) -> Document:
    text, spans, pos, last = [], [], 0, 0
    for m in _MARK.finditer(raw):
        text.append(raw[last:m.start()])
        pos += m.start() - last
        spans.append(make_span(pos, pos + len(m.group(2)), m.group(1)))
        text.append(m.group(2))
        pos += len(m.group(2))
        last = m.end()
    text.append(raw[last:])
    return Document(name, "".join(text), spans)


def read_notes(path: Path = NOTES) -> list[Document]:
    """The made-up notes as documents with their gold spans.

    >>> docs = read_notes()
    >>> len(docs) >= 15 and all(d.spans for d in docs)
    True
    """
    docs: list[Document] = []
    name: str | None = None
    lines: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") and name is None:
            continue
        m = re.fullmatch(r"=== (\S+) ===", line)
        if m:
            if name is not None:
                docs.append(_document(name, "\n".join(lines).strip("\n") + "\n"))
            name, lines = m.group(1), []
        else:
            lines.append(line)
    if name is not None:
        docs.append(_document(name, "\n".join(lines).strip("\n") + "\n"))
    return docs


def score(gold: list[Document], pred: list[Document]) -> dict:
    """Missed gold tokens (all, Safe Harbor) and false spans, per note and in all."""
    notes: dict[str, dict] = {}
    missed_all = sh_all = false_all = gold_tokens = 0
    for g, p in zip(gold, pred):
        missed, sh = [], 0
        for sp in g.spans:
            for t in tokenize(g.text[sp.start:sp.end]):
                a, b = sp.start + t.start, sp.start + t.end
                gold_tokens += 1
                if not any(q.start < b and a < q.end for q in p.spans):
                    missed.append((g.text[a:b], sp.subtype))
                    sh += sp.subtype not in NOT_SAFE_HARBOR
        false = [(g.text[q.start:q.end], q.subtype) for q in p.spans if not any(q.overlaps(x) for x in g.spans)]
        notes[g.doc_id] = {"missed": missed, "false": false, "missed_safe_harbor": sh}
        missed_all += len(missed)
        sh_all += sh
        false_all += len(false)
    return {"notes": notes, "missed": missed_all, "missed_safe_harbor": sh_all, "false_spans": false_all,
            "gold_tokens": gold_tokens}
