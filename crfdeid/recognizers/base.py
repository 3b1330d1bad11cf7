"""One interface for every recognizer: ``find(text) -> [Detection(span, confidence)]``.

A recognizer is anything that finds PHI in a note's text: the rule overlay, a lexicon
matcher, Presidio's pattern recognizers, a spaCy NER pipeline, another crfdeid model.
Each is registered under a versioned name in :data:`RECOGNIZERS` as a factory taking its
options as keyword arguments, and built from a config entry (a name, or a mapping with a
``name`` key and the options) by :func:`build_recognizer`. A recognizer that needs an
optional package declares the setup.cfg extra that installs it (:data:`EXTRAS`):
:func:`check_available` says which extra to install before anything long starts.

>>> rec = build_recognizer("rules.v1")
>>> [(d.span.subtype, d.confidence) for d in rec.find("Seen by Dr. Lee on 03/14/2098.")]
[('DOCTOR', 1.0), ('DATE', 1.0)]
>>> build_recognizer({"name": "rules.v9"})
Traceback (most recent call last):
...
crfdeid.errors.ConfigError: unknown recognizer 'rules.v9'; known: crf.v1, lexicon.v1, presidio.v1, rules.v1, spacy.v1
"""

from __future__ import annotations

import bisect
import importlib
import importlib.util
from typing import NamedTuple

from .._data import install_hint
from ..document import Span, make_span, trim
from ..errors import ConfigError
from ..registry import Registry

#: Recognizer factories by versioned name (``rules.v1``...).
RECOGNIZERS = Registry("recognizer")
#: Recognizer name -> (setup.cfg extra, the modules it needs).
EXTRAS: dict[str, tuple[str, tuple[str, ...]]] = {}
#: Recognizers registered by a module of a higher layer: name -> the module, imported by name when
#: a config asks for one (``crf.v1`` is a trained model, which sits above the recognizers).
PROVIDERS = {"crf.v1": "crfdeid.crf.recognizer"}


class Detection(NamedTuple):
    """A PHI mention a recognizer found: the span and how sure it is (0-1)."""

    span: Span
    confidence: float


class Recognizer:
    """Base class: subclasses set :attr:`name` and implement :meth:`find`."""

    #: The registered name (``rules.v1``); the committee's attributes carry it.
    name = "recognizer"

    def find(self, text: str) -> list[Detection]:
        """The PHI mentions in ``text``, sorted by span (half-open character offsets)."""
        raise NotImplementedError

    def spans(self, text: str) -> list[Span]:
        """The spans of :meth:`find`, without confidences."""
        return [d.span for d in self.find(text)]

    def prepare(self) -> None:
        """Load what the recognizer loads lazily (word lists, pipelines); default: nothing."""


def register(name: str, extra: str | None = None, modules: tuple[str, ...] = ()):
    """Register a recognizer factory under ``name``; ``extra`` installs ``modules``."""
    if extra is not None:
        EXTRAS[name] = (extra, modules)
    return RECOGNIZERS.register(name)


def spec_of(entry) -> dict:
    """A member entry of a config (``"rules.v1"`` or ``{"name": ..., **options}``) as a mapping.

    >>> spec_of("lexicon.v1"), spec_of({"name": "spacy.v1", "pipeline": "en_x"})
    ({'name': 'lexicon.v1'}, {'name': 'spacy.v1', 'pipeline': 'en_x'})
    """
    if isinstance(entry, str):
        return {"name": entry}
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
        raise ConfigError(f"a recognizer is a name or a mapping with a 'name' key, not {entry!r}")
    return dict(entry)


def check_available(entry, path=None) -> dict:
    """The entry's mapping, after checking its name is known and its extra installed.

    Raises
    ------
    ConfigError
        Unknown name (the message lists the known ones) or a missing optional package
        (the message names the extra to install).
    """
    spec = spec_of(entry)
    name = spec["name"]
    if name in PROVIDERS and name not in RECOGNIZERS:
        importlib.import_module(PROVIDERS[name])
    if name not in RECOGNIZERS:
        known = ", ".join(sorted({*RECOGNIZERS.names(), *PROVIDERS}))
        raise ConfigError(f"unknown recognizer {name!r}; known: {known}", path=path)
    extra, modules = EXTRAS.get(name, (None, ()))
    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise ConfigError(f"recognizer {name!r} needs {', '.join(missing)}: install the extra with "
                          f"{install_hint(str(extra))}", path=path)
    return spec


def build_recognizer(entry, path=None) -> Recognizer:
    """The recognizer a config entry names, built with its options.

    Raises
    ------
    ConfigError
        Unknown name, missing extra, or options the factory does not take.
    """
    spec = check_available(entry, path)
    name = spec.pop("name")
    factory = RECOGNIZERS.get(name)
    try:
        rec = factory(**spec)
    except TypeError as exc:
        raise ConfigError(f"recognizer {name!r}: {exc}", path=path) from None
    rec.name = name
    return rec


def detections(text: str, found, confidence: float = 1.0) -> list[Detection]:
    """``(start, end, subtype[, confidence])`` tuples as sorted detections, white space trimmed,
    empty and unknown-subtype ones dropped, overlaps resolved in favour of the first found."""
    out: list[Detection] = []
    starts: list[int] = []  # of the kept detections, sorted; they never overlap
    ends: list[int] = []
    for item in found:
        start, end, sub = item[:3]
        conf = float(item[3]) if len(item) > 3 else confidence
        if sub is None:
            continue
        start, end = trim(text, start, end)
        i = bisect.bisect_left(starts, start)
        if start >= end or (i and ends[i - 1] > start) or (i < len(starts) and starts[i] < end):
            continue
        starts.insert(i, start)
        ends.insert(i, end)
        out.append(Detection(make_span(start, end, sub), round(conf, 4)))
    return sorted(out)
