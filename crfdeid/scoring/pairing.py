"""Pair gold and system documents by id; list (never drop silently) the unpaired ones."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..errors import LocatedError


class ScoringError(LocatedError):
    """Gold and system inputs that cannot be compared (duplicate ids, different texts)."""


@dataclass
class Pairing:
    """Documents present on both sides (gold order), and ids present on one side only."""

    pairs: list = field(default_factory=list)
    missing_in_pred: list = field(default_factory=list)
    missing_in_gold: list = field(default_factory=list)


def _by_id(docs: Iterable, side: str) -> dict:
    out = {}
    for doc in docs:
        if doc.doc_id in out:
            raise ScoringError(f"document id appears twice in the {side} documents",
                               doc_id=doc.doc_id, path=doc.meta.get("source"))
        out[doc.doc_id] = doc
    return out


def pair(gold_docs: Iterable, pred_docs: Iterable, check_text: bool = True) -> Pairing:
    """Match documents by ``doc_id``.

    Raises
    ------
    ScoringError
        A document id repeated on one side, or (with ``check_text``) a paired
        document whose text differs, so that offsets would not be comparable.
        The message gives the id and the first differing offset, never text.
    """
    gold = _by_id(gold_docs, "gold")
    pred = _by_id(pred_docs, "system")
    result = Pairing(missing_in_gold=sorted(set(pred) - set(gold)))
    for doc_id, g in gold.items():
        p = pred.get(doc_id)
        if p is None:
            result.missing_in_pred.append(doc_id)
            continue
        if check_text and g.text != p.text:
            raise ScoringError(
                f"gold and system texts differ (lengths {len(g.text)} and {len(p.text)}); "
                "offsets cannot be compared", doc_id=doc_id, offset=_first_difference(g.text, p.text),
                path=p.meta.get("source"))
        result.pairs.append((g, p))
    return result


def _first_difference(a: str, b: str) -> int:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))
