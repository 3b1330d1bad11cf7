"""crfdeid as a Presidio recognizer (extra ``[presidio]``): ``CrfdeidRecognizer``.

Add it to an ``AnalyzerEngine`` beside Presidio's own recognizers; its results carry
Presidio entity names (:data:`ENTITY_MAP`), crfdeid's confidence as the score and the
crfdeid subtype in ``recognition_metadata['crfdeid_subtype']``, so
``presidio_anonymizer.AnonymizerEngine`` acts on them like on any other result.
:func:`nlp_engine` gives an NLP engine that needs no spaCy model download.

Importing this module sets ``TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS`` to empty unless it is
set (before Presidio is imported, where that matters): Presidio's e-mail recognizer
then uses the suffix list shipped with ``tldextract`` instead of fetching one from the
network at run time.
"""

from __future__ import annotations

import os

os.environ.setdefault("TLDEXTRACT_PUBLIC_SUFFIX_LIST_URLS", "")

from . import require

# the environment variable above must be set before Presidio (and tldextract) is imported
_presidio = require("presidio_analyzer", "presidio", "crfdeid.adapters.presidio")
from presidio_analyzer import AnalysisExplanation, EntityRecognizer, RecognizerResult  # noqa: E402

from .. import schema  # noqa: E402
from ..document import Document  # noqa: E402
from ..tagging.session import SPANS, Session  # noqa: E402

#: crfdeid subtype -> Presidio entity: Presidio's names where it has one (PERSON, LOCATION,
#: ORGANIZATION, DATE_TIME, PHONE_NUMBER, EMAIL_ADDRESS, URL, IP_ADDRESS, US_SSN), else a
#: name of the same style.
ENTITY_MAP = {
    "PATIENT": "PERSON", "DOCTOR": "PERSON", "USERNAME": "USERNAME",
    "PROFESSION": "PROFESSION",
    "ROOM": "LOCATION", "DEPARTMENT": "LOCATION", "HOSPITAL": "ORGANIZATION",
    "ORGANIZATION": "ORGANIZATION", "STREET": "LOCATION", "CITY": "LOCATION",
    "STATE": "LOCATION", "COUNTRY": "LOCATION", "ZIP": "LOCATION", "LOCATION-OTHER": "LOCATION",
    "AGE": "AGE",
    "DATE": "DATE_TIME",
    "PHONE": "PHONE_NUMBER", "FAX": "PHONE_NUMBER", "EMAIL": "EMAIL_ADDRESS", "URL": "URL",
    "IPADDR": "IP_ADDRESS",
    "SSN": "US_SSN", "MEDICALRECORD": "MEDICAL_RECORD_NUMBER", "HEALTHPLAN": "HEALTH_PLAN_NUMBER",
    "ACCOUNT": "ACCOUNT_NUMBER", "LICENSE": "LICENSE_NUMBER", "VEHICLE": "VEHICLE_ID",
    "DEVICE": "DEVICE_ID", "BIOID": "BIOMETRIC_ID", "IDNUM": "ID_NUMBER",
    "OTHER": "OTHER_PHI",
}
assert set(ENTITY_MAP) == set(schema.SUBTYPE_TO_PARENT), "every crfdeid subtype has a Presidio entity"


class CrfdeidRecognizer(EntityRecognizer):
    """A Presidio ``EntityRecognizer`` returning crfdeid's PHI spans.

    Parameters
    ----------
    model : Model, str or Path, optional
        A loaded :class:`~crfdeid.crf.Model` or a model file (default: the shipped model).
    entity_map : dict, optional
        crfdeid subtype -> Presidio entity name (default :data:`ENTITY_MAP`); a subtype
        left out keeps its own name.
    o_threshold : float or None, optional
        As ``python -m crfdeid tag --o-threshold`` (default: the model's decoding).
    """

    def __init__(self, model=None, entity_map: dict | None = None, o_threshold=...,
                 supported_language: str = "en", name: str = "CrfdeidRecognizer"):
        self._model_arg, self.o_threshold = model, o_threshold
        self.name: str = name  # set again by Presidio's __init__; declared here for type checkers
        self.entity_map = dict(ENTITY_MAP if entity_map is None else entity_map)
        entities = sorted({self.entity_map.get(s, s) for s in schema.SUBTYPE_TO_PARENT})
        super().__init__(supported_entities=entities, name=name, supported_language=supported_language,
                         version="crfdeid")

    def load(self) -> None:
        """Load the model (Presidio calls this once, from ``__init__``)."""
        self.session = Session(self._model_arg, SPANS, o_threshold=self.o_threshold)
        self.model = self.session.model

    def analyze(self, text: str, entities, nlp_artifacts=None) -> list:
        """crfdeid's spans in ``text`` as ``RecognizerResult``\\ s of the asked ``entities``."""
        [tagged] = self.session.tagged([Document("presidio", text)])
        wanted = set(entities) if entities else None
        out = []
        for sp in tagged.spans:
            entity = self.entity_map.get(sp.subtype, sp.subtype)
            if wanted is not None and entity not in wanted:
                continue
            score = 1.0 if sp.confidence is None else float(sp.confidence)
            out.append(RecognizerResult(
                entity, sp.start, sp.end, score,
                analysis_explanation=AnalysisExplanation(
                    self.name, score, textual_explanation=f"crfdeid {sp.subtype} (confidence {score:.4f})"),
                recognition_metadata={RecognizerResult.RECOGNIZER_NAME_KEY: self.name,
                                      RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: self.id,
                                      "crfdeid_subtype": sp.subtype, "crfdeid_category": sp.category}))
        return out


def nlp_engine(languages=("en",)):
    """A Presidio NLP engine that loads no model (Presidio's ``NoOpNlpEngine``): for an
    ``AnalyzerEngine`` whose recognizers need no spaCy NER, as crfdeid's does not.

    Presidio's own ``SpacyRecognizer`` (PERSON, LOCATION... from spaCy's NER) finds
    nothing with it; crfdeid covers those entities.
    """
    from presidio_analyzer.nlp_engine import NoOpNlpEngine
    engine = NoOpNlpEngine(models=[{"lang_code": lang, "model_name": "none"} for lang in languages])
    engine.load()
    return engine


def analyzer(model=None, with_presidio_recognizers: bool = True, **recognizer_options):
    """An ``AnalyzerEngine`` on :func:`nlp_engine` with :class:`CrfdeidRecognizer`, and
    Presidio's predefined recognizers (those that need no NLP model) unless
    ``with_presidio_recognizers=False``."""
    from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
    if with_presidio_recognizers:  # Presidio's own registry, less its NLP-model recognizers
        engine = AnalyzerEngine(nlp_engine=nlp_engine(), supported_languages=["en"])
    else:
        engine = AnalyzerEngine(registry=RecognizerRegistry(supported_languages=["en"]),
                                nlp_engine=nlp_engine(), supported_languages=["en"])
    engine.registry.add_recognizer(CrfdeidRecognizer(model, **recognizer_options))
    return engine
