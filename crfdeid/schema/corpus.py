"""A corpus' own scheme: labels read as written (``scheme=any``), inferred and normalised.

Commands, :func:`crfdeid.io.read` and :func:`crfdeid.scoring.evaluate` all decide a corpus'
labels here (:func:`settle`); the schemes themselves are :mod:`crfdeid.schema`'s.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ..errors import SchemaError
from . import I2B2, Label, Scheme, get, known_labels


def infer(pairs: Iterable[tuple[str, str]], where=None) -> Scheme:
    """The scheme of a corpus read with labels as written (``scheme=any``).

    ``pairs`` are the ``(category, subtype)`` pairs of its spans. When every pair
    is an i2b2 label (:meth:`Scheme.resolve`; a category equal to the label means
    the format gave none), the corpus is i2b2 and :data:`I2B2` is returned.
    Otherwise the labels are the corpus' own, as written, each with the parent the
    format gave (for BRAT: itself) and none HIPAA.

    Raises
    ------
    SchemaError
        One label written with two parents, or two labels that differ only in case.

    >>> infer([("DOCTOR", "DOCTOR"), ("DATE", "Date")]) is I2B2
    True
    >>> infer([("Fecha", "Fecha"), ("DOCTOR", "DOCTOR")]).categories["DOCTOR"]
    ('DOCTOR',)
    """
    pairs = set(pairs)
    if all(I2B2.resolve(sub, None if cat == sub else cat) for cat, sub in pairs):
        return I2B2
    parents: dict[str, tuple[str, str]] = {}
    for cat, sub in sorted(pairs):
        seen = parents.setdefault(sub.upper(), (sub, cat))
        if seen != (sub, cat):
            what = "two parents" if seen[0] == sub else "two spellings that differ only in case"
            raise SchemaError(f"the corpus writes label {sub!r} with {what} ({seen[1]!r} and {cat!r}); "
                              "map one with label_map or declare a scheme", path=where)
    return Scheme("corpus", [Label(sub, cat) for sub, cat in sorted(parents.values())])


def settle(corpora, scheme=None, where=None) -> tuple[list, Scheme]:
    """``(corpora, scheme)``: with ``scheme`` given, the corpora as they are and that scheme; with
    ``None``, the scheme inferred from all of them (:func:`infer`) and their spans in its spelling
    (:func:`normalise`). Commands, :func:`crfdeid.io.read` and :func:`crfdeid.scoring.evaluate`
    all decide a corpus' labels here.

    >>> from crfdeid.document import Document, Span
    >>> docs, scheme = settle([[Document("a", "x y", [Span(0, 1, "Fecha", "Fecha")])]], None)
    >>> scheme.subtypes, docs[0][0].spans[0].category
    (('Fecha',), 'Fecha')

    Raises
    ------
    SchemaError
        A label written two ways (:func:`infer`).
    """
    if scheme is not None:
        return [list(docs) for docs in corpora], get(scheme)
    corpora = [list(docs) for docs in corpora]
    found = infer(((sp.category, sp.subtype) for docs in corpora for doc in docs for sp in doc.spans), where)
    return [normalise(docs, found) for docs in corpora], found


def normalise(docs, scheme: Scheme) -> list:
    """Documents read with labels as written, their spans in ``scheme``'s spelling and parents.

    Raises
    ------
    SchemaError
        A span whose label is not in ``scheme`` (names document and offset).
    """
    out = []
    for doc in docs:
        spans = []
        for sp in doc.spans:
            got = scheme.resolve(sp.subtype, None if sp.category == sp.subtype else sp.category)
            if got is None:
                raise SchemaError(f"label of {len(sp.subtype)} characters is not in scheme "
                                  f"{scheme.name!r} ({known_labels(scheme)})",
                                  path=doc.meta.get("source"), doc_id=doc.doc_id, offset=sp.start)
            category, subtype = got
            spans.append(replace(sp, category=category, subtype=subtype))
        out.append(doc.with_spans(spans))
    return out
