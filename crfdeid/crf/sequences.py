"""crfdeid's features as plain sequences, for sklearn-crfsuite and other sequence learners.

:func:`to_sequences` turns documents into ``X`` (per segment, per token, the
attribute strings crfdeid's CRF sees) and ``y`` (BIO labels), the input of
``sklearn_crfsuite.CRF`` and of python-crfsuite; :func:`to_documents` turns
predicted label sequences back into documents with spans. With the same CRFsuite
options, ``sklearn_crfsuite.CRF`` trained on these sequences learns the model
``python -m crfdeid train`` learns (``tests/test_sequences.py`` checks that the
labels agree), so a researcher can use sklearn-crfsuite's API and metrics
(``sklearn_crfsuite.metrics``) on crfdeid's tokenizer and features::

    import sklearn_crfsuite
    from crfdeid.crf.sequences import to_sequences, to_documents
    X, y, index = to_sequences(train_docs)
    crf = sklearn_crfsuite.CRF(algorithm="lbfgs", c1=0.05, c2=0.01, max_iterations=60)
    crf.fit(X, y)
    Xt, yt, tindex = to_sequences(test_docs)
    tagged = to_documents(test_docs, crf.predict(Xt), tindex)

What the plain API does not give: the numpy backend's speed, the recall-oriented
decoding (``decoding.o_threshold``), the rule overlay and the Safe Harbor forms,
and the checked model file; use :class:`crfdeid.crf.Model` for de-identification.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from .. import schema
from ..config import load_config
from ..document import Document
from ..features import Featurizer
from ..labels import decode, encode
from ..recognizers.chain import Note, chain_of
from ..recognizers.committee import from_config
from ..resources import Resources
from ..tagging.model import tokens_for
from ..text.tokenize import for_tagging, segments


class Segment(NamedTuple):
    """Where a sequence of ``X`` comes from: document index and token range ``[a, b)``."""

    doc: int
    start: int
    end: int


def to_sequences(docs: Iterable[Document], config=None) -> tuple[list, list, list[Segment]]:
    """``(X, y, index)``: attribute strings and BIO labels per segment, and where each came from.

    Parameters
    ----------
    docs : iterable of Document
        Annotated (for ``y``) or not (``y`` is then all ``O``).
    config : dict, str or Path, optional
        The config whose tokenizer, segmenter and feature set to use (default: the defaults).

    >>> X, y, index = to_sequences([Document("1", "Seen by Dr. Lee.")], {"features": "lexical"})
    >>> len(X), y[0][:4], index[0]
    (1, ['O', 'O', 'O', 'O'], Segment(doc=0, start=0, end=6))
    """
    cfg = load_config(config or {})
    committee = from_config(cfg)  # a mega.v1 committee's decisions are attributes here too
    featurizer = Featurizer(cfg["features"], Resources.from_config(cfg["resources"]),
                            committee.columns() if committee else ())
    split, max_len = cfg["tokenizer"]["split_glued"], cfg["segment"]["max_len"]
    X, y, index = [], [], []
    for k, doc in enumerate(docs):
        text = for_tagging(doc.text)  # what the tagger reads (same length: spans still fit)
        toks = tokens_for(text, split)
        feats = featurizer.featurize(text, toks)
        labels = encode(toks, doc.spans).labels
        for a, b in segments(text, toks, max_len):
            X.append(feats[a:b])
            y.append(labels[a:b])
            index.append(Segment(k, a, b))
    return X, y, index


def to_documents(docs, y_pred, index: list[Segment], config=None) -> list[Document]:
    """Copies of ``docs`` with the spans decoded from per-segment labels ``y_pred``, then what
    a crfdeid model of ``config`` does to them (its post-CRF chain, :mod:`crfdeid.recognizers.chain`:
    clinical terms dropped, the rule overlay when enabled, the Safe Harbor layer)."""
    cfg = load_config(config or {})
    split = cfg["tokenizer"]["split_glued"]
    chain = chain_of(cfg)
    english = cfg["resources"]["language"] == "en"
    scheme = schema.get(cfg["scheme"])
    docs = list(docs)
    texts = [for_tagging(d.text) for d in docs]
    toks = [tokens_for(text, split) for text in texts]
    labels = [["O"] * len(t) for t in toks]
    for seg, ys in zip(index, y_pred):
        labels[seg.doc][seg.start:seg.end] = list(ys)
    return [d.with_spans(chain.run(Note(text, split, english, scheme, d.doc_id, d.meta), decode(lab, t)))
            for d, text, lab, t in zip(docs, texts, labels, toks)]
