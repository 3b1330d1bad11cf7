"""Made-up notes as a tagger gives them, for the surrogate writer's tests (``test_deid_*``)."""

from __future__ import annotations

from crfdeid.document import Document, Span, make_span


def tagged(text: str, *phi, doc_id: str = "n1") -> Document:
    """A note as a tagger gives it: ``(surface, subtype, confidence[, crf_confidence])`` spans, in order
    (``confidence`` None: a user's span; without ``crf_confidence`` the model's word is ``confidence``)."""
    spans, pos = [], 0
    for surface, sub, conf, *crf in phi:
        i = text.index(surface, pos)
        sp = make_span(i, i + len(surface), sub)
        spans.append(Span(sp.start, sp.end, sp.category, sp.subtype, confidence=conf,
                          crf_confidence=crf[0] if crf else conf))
        pos = sp.end
    return Document(doc_id, text, spans, {"patient": "p1"})


def written(doc: Document) -> list[str]:
    """What each span of ``doc`` became in surrogate output (seed 7)."""
    from crfdeid.deid.surrogate import Surrogator

    out = Surrogator(seed=7).surrogate(doc)
    return [out.surface(sp) for sp in out.spans]
