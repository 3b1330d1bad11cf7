"""Recognizers a user may already trust: Presidio's pattern recognizers and a spaCy NER pipeline.

Both are optional (extras ``presidio`` and ``spacy``, shared with :mod:`crfdeid.adapters`)
and imported only when built. Their entity types are mapped to i2b2 subtypes by a table
the config can override (``labels: {ENTITY: SUBTYPE}``; ``null`` drops an entity type).

``presidio.v1`` runs the pattern recognizers Presidio registers for English (e-mail,
phone, dates, IP, URL, SSN, credit card, licences...) without an NLP engine, so it needs
no spaCy model; ``entities`` keeps a subset. ``spacy.v1`` runs the pipeline named by
``pipeline`` (an installed package name or a folder): crfdeid names no default, because no
English pipeline on the package index is published by spaCy's authors (docs/committee.md).
"""

from __future__ import annotations

from typing import Any

from ..errors import ConfigError
from ..schema import SUBTYPE_TO_PARENT
from .base import Detection, Recognizer, detections, register
from .ruledata import table

#: Presidio entity type -> i2b2 subtype (``None``: not PHI in the i2b2 scheme). Unlisted
#: types (national identifiers of other countries) become IDNUM.
PRESIDIO_LABELS = {k: None if v == "-" else v for k, v in table("outside").mapping("PRESIDIO_LABELS").items()}
#: spaCy (OntoNotes) entity label -> i2b2 subtype; unlisted labels are dropped.
SPACY_LABELS = table("outside").mapping("SPACY_LABELS")
#: Presidio recognizers that need an NLP engine or a remote service (left out).
_NEEDS_NLP = table("outside").entries("NEEDS_NLP")


def _label_map(default: dict, labels: dict | None, name: str) -> dict:
    table = dict(default)
    for ent, sub in (labels or {}).items():
        if sub is not None and str(sub).upper() not in SUBTYPE_TO_PARENT:
            raise ConfigError(f"recognizer {name}: unknown subtype {sub!r} for {ent}; "
                              f"known: {', '.join(SUBTYPE_TO_PARENT)}")
        table[ent] = None if sub is None else str(sub).upper()
    return table


@register("presidio.v1", extra="presidio", modules=("presidio_analyzer",))
class PresidioRecognizer(Recognizer):
    """Presidio's English pattern recognizers (no NLP engine, no spaCy model needed).

    Parameters
    ----------
    entities : list of str, optional
        Presidio entity types to keep (default: every one the pattern recognizers find).
    labels : dict, optional
        Entity type -> i2b2 subtype overrides of :data:`PRESIDIO_LABELS`.
    min_score : float
        Results scored below this by Presidio are dropped (default 0: all).
    """

    name = "presidio.v1"

    def __init__(self, entities: list | None = None, labels: dict | None = None, min_score: float = 0.0):
        self.entities = list(entities) if entities else None
        self.labels = _label_map(PRESIDIO_LABELS, labels, self.name)
        self.min_score = float(min_score)
        self._recognizers: list | None = None

    def prepare(self) -> None:
        if self._recognizers is not None:
            return
        import logging

        from presidio_analyzer import RecognizerRegistry
        logging.getLogger("presidio-analyzer").setLevel(logging.ERROR)
        _offline_suffix_list()
        registry = RecognizerRegistry()
        registry.load_predefined_recognizers(languages=["en"])
        recs = [r for r in registry.recognizers
                if not any(k in type(r).__name__ for k in _NEEDS_NLP)]
        if self.entities is not None:
            recs = [r for r in recs if set(r.supported_entities) & set(self.entities)]
        self._recognizers = [(r, [e for e in r.supported_entities
                                  if self.entities is None or e in self.entities]) for r in recs]

    def find(self, text: str) -> list[Detection]:
        self.prepare()
        found = []
        for rec, ents in self._recognizers or ():
            for res in rec.analyze(text, ents, None) or ():
                if res.score >= self.min_score:
                    sub = self.labels.get(res.entity_type, "IDNUM")
                    found.append((res.start, res.end, sub, res.score))
        found.sort(key=lambda f: -f[3])  # the surest result wins an overlap
        return detections(text, found)


def _offline_suffix_list() -> None:
    """Make tldextract (Presidio's e-mail and URL checks) use its bundled public suffix list.

    By default it fetches the list from the internet on first use; crfdeid never reaches
    the network (and a machine without it logs a failed fetch per process).
    """
    try:
        from tldextract import TLDExtract, tldextract
    except ImportError:  # an older Presidio without tldextract
        return
    if not isinstance(getattr(tldextract, "TLD_EXTRACTOR", None), TLDExtract):
        return
    if tldextract.TLD_EXTRACTOR.suffix_list_urls:
        tldextract.TLD_EXTRACTOR = TLDExtract(suffix_list_urls=(), cache_dir=None)


@register("spacy.v1", extra="spacy", modules=("spacy",))
class SpacyRecognizer(Recognizer):
    """The named entities of a spaCy pipeline, as i2b2 subtypes.

    Parameters
    ----------
    pipeline : str
        An installed pipeline package (``en_core_web_sm``) or a pipeline folder.
    labels : dict, optional
        spaCy label -> i2b2 subtype overrides of :data:`SPACY_LABELS`.
    batch_size : int
        Notes per ``nlp.pipe`` batch in :meth:`find_many`.

    spaCy gives no confidence per entity: every detection has confidence 1.0.
    """

    name = "spacy.v1"

    def __init__(self, pipeline: str | None = None, labels: dict | None = None, batch_size: int = 32):
        if not pipeline:
            raise ConfigError("recognizer spacy.v1 needs 'pipeline': an installed spaCy pipeline "
                              "package or a pipeline folder (crfdeid ships none)")
        self.pipeline = str(pipeline)
        self.labels = _label_map(SPACY_LABELS, labels, self.name)
        self.batch_size = int(batch_size)
        self._nlp: Any = None

    def prepare(self) -> None:
        if self._nlp is not None:
            return
        import spacy
        try:
            nlp = spacy.load(self.pipeline)
        except OSError:
            raise ConfigError(f"recognizer spacy.v1: cannot load the spaCy pipeline {self.pipeline!r} "
                              "(not an installed package or a pipeline folder)") from None
        if "ner" not in nlp.pipe_names:
            raise ConfigError(f"recognizer spacy.v1: pipeline {self.pipeline!r} has no 'ner' component")
        keep = {"ner", "tok2vec", "transformer"}
        self._nlp = nlp
        self._disabled = [p for p in nlp.pipe_names if p not in keep]

    def _detections(self, text: str, doc) -> list[Detection]:
        return detections(text, [(e.start_char, e.end_char, self.labels.get(e.label_)) for e in doc.ents])

    def find(self, text: str) -> list[Detection]:
        self.prepare()
        return self._detections(text, self._nlp(text, disable=self._disabled))

    def find_many(self, texts) -> list[list[Detection]]:
        """:meth:`find` of several notes, batched through ``nlp.pipe``."""
        self.prepare()
        texts = list(texts)
        docs = self._nlp.pipe(texts, batch_size=self.batch_size, disable=self._disabled)
        return [self._detections(t, d) for t, d in zip(texts, docs)]
