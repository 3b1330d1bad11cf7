"""The post-CRF chain: an ordered list of registered span processors, named in the config.

Every tagger (a CRF, a network, a committee's or stacker's model) decodes its labels into
spans and hands them to one chain, which each processor in turn rewrites. A processor is
one object behind one interface, ``processor(note, spans) -> spans``, registered under a
versioned name in :data:`PROCESSORS` (the processors themselves are in :mod:`.steps`); its
arguments are the fields of its dataclass. The
config's ``postprocess`` lists them in order::

    postprocess:
      - clinical_filter.v1             # clinical terms that look like PHI dropped
      - {name: rules.v1, date_check: true}   # the rule overlay (Safe-Harbor forms, titles)
      - name_extension.v1              # a name grown to the next name word
      - clinical_filter.v1             # the rules' own clinical terms (each span judged once)

and every chain ends in the pinned tail :data:`TAIL`: the Safe Harbor layer
(``safe_harbor.v1``, which no config removes or moves) and then every span widened to token
bounds (``token_bounds.v1``). Naming either elsewhere is a :class:`ConfigError`.

``postprocess: null`` (the default, and every model saved before the key existed) is the
chain the ``rules`` section implies (:func:`legacy_entries`), so old models tag as before.

>>> chain = build_chain(["clinical_filter.v1"])
>>> chain.names()
['clinical_filter.v1', 'safe_harbor.v1', 'token_bounds.v1']
>>> [(s.start, s.end, s.subtype) for s in chain.run(Note("Age: 94"), [])]
[(5, 7, 'AGE')]
>>> build_chain(["safe_harbor.v1", "clinical_filter.v1"])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
crfdeid.errors.ConfigError: postprocess: safe_harbor.v1, token_bounds.v1 end every chain, ... cannot be removed or moved
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from dataclasses import dataclass

from .. import schema
from ..document import Span
from ..errors import ConfigError, RegistryError
from ..settings import Section, check_value, section
from .provenance import Trace
from .steps import (
    PROCESSORS,
    ClinicalFilter,
    ContextUnion,
    JunkSpans,
    NameExtension,
    Note,
    RuleOverlay,
    SafeHarbor,
    SiteKnowledge,
    SpanProcessor,
    TokenBounds,
    TrimPunctuation,
    YoungAges,
    register,
)

__all__ = ["PROCESSORS", "TAIL", "HYGIENE", "NEEDS", "Chain", "ClinicalFilter", "ContextUnion", "JunkSpans",
           "NameExtension", "Note", "RuleOverlay", "SafeHarbor", "SiteKnowledge", "SpanProcessor", "TokenBounds",
           "TrimPunctuation", "YoungAges", "build_chain", "chain_of", "legacy_entries", "register"]

#: What ends every chain, in this order: the Safe Harbor layer, then token bounds.
TAIL = ("safe_harbor.v1", "token_bounds.v1")


#: Processors every chain a config's ``rules`` section implies has before the tail (issue 26).
HYGIENE = ("site.v1", "junk_spans.v1", "young_ages.v1", "trim_punctuation.v1")


#: What a processor needs from the model's config: English resources, the i2b2 2014 labels, a companion CRF.
NEEDS: dict[str, tuple[str, ...]] = {"rules.v1": ("english", "i2b2"), "name_extension.v1": ("english", "i2b2"),
                                     "context_union.v1": ("companion",)}


def legacy_entries(rules: Mapping | None) -> list:
    """The chain a config without ``postprocess`` implies, from its ``rules`` section.

    >>> legacy_entries({"enabled": False})[1:]
    ['site.v1', 'junk_spans.v1', 'young_ages.v1', 'trim_punctuation.v1', 'safe_harbor.v1', 'token_bounds.v1']
    >>> legacy_entries({"enabled": True, "date_check": False})[1]
    {'name': 'rules.v1', 'date_check': False}
    """
    rules = rules or {}
    entries: list = ["clinical_filter.v1"]
    if rules.get("enabled"):
        # The filter before the overlay keeps the name extension from growing out of a
        # clinical term ("a" of "a walker"); after it, it drops the rules' own clinical terms.
        entries += [{"name": "rules.v1", "date_check": rules.get("date_check", True)},
                    "name_extension.v1", "clinical_filter.v1"]
    # then what the site knows, and no span that cannot be PHI (docs/site.md)
    return entries + list(HYGIENE) + list(TAIL)


def _spec(entry, path) -> tuple[str, dict]:
    if isinstance(entry, str):
        return entry, {}
    if isinstance(entry, Mapping) and isinstance(entry.get("name"), str):
        return entry["name"], {k: v for k, v in entry.items() if k != "name"}
    raise ConfigError(f"postprocess: a processor is a name or a mapping with a 'name' key, not {entry!r}",
                      path=path)


def _build(name: str, args: dict, path):
    try:
        cls = PROCESSORS.get(name)
    except RegistryError as exc:
        raise ConfigError(f"postprocess: {exc}", path=path) from None
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(args) - set(fields))
    if unknown:
        raise ConfigError(f"postprocess: unknown argument(s) {', '.join(unknown)} of {name}; "
                          f"allowed: {', '.join(fields) or '(none)'}", path=path)
    for key, value in args.items():  # scalar fields by their type and bounds, as every config section
        check_value(f"postprocess: {name} {key}", value, str(fields[key].type), fields[key].metadata, path)
    try:
        return cls(**args)
    except ValueError as exc:  # a processor's own check of its arguments
        raise ConfigError(f"postprocess: {name}: {exc}", path=path) from None


class Chain:
    """The processors of a chain, in order; :meth:`run` applies them to one note's spans."""

    def __init__(self, steps: list[tuple[str, SpanProcessor]]):
        self.steps = steps

    def names(self) -> list[str]:
        """The processors' registered names, in order."""
        return [name for name, _ in self.steps]

    def entries(self) -> list:
        """The chain as config data (names, or mappings with the arguments that differ from the defaults)."""
        out: list = []
        for name, proc in self.steps:
            args = {f.name: getattr(proc, f.name) for f in dataclasses.fields(proc)}  # type: ignore[arg-type]
            out.append({"name": name, **args} if args else name)
        return out

    def with_processor(self, entry, path=None) -> Chain:
        """A copy with one more processor (a name or ``{name: ..., **args}``) before the pinned tail.

        For what a caller adds at tagging time (site knowledge); the Safe Harbor layer stays last.
        """
        name, args = _spec(entry, path)
        if name in TAIL:
            raise ConfigError(f"postprocess: {name} is pinned at the end of every chain", path=path)
        head = self.steps[:-len(TAIL)]
        return Chain([*head, (name, _build(name, args, path)), *self.steps[-len(TAIL):]])

    def prepare(self) -> None:
        """Load what the processors load lazily (word lists): not while tagging the first note."""
        for _, proc in self.steps:
            if hasattr(proc, "prepare"):
                proc.prepare()

    def run(self, note: Note, spans, trace: Trace | None = None) -> list[Span]:
        """``spans`` of ``note`` through every processor, in order; ``trace`` (a
        :class:`~crfdeid.recognizers.provenance.Trace`) records what each changed."""
        spans = list(spans)
        if trace is None:
            for _, proc in self.steps:
                spans = proc(note, spans)
            return spans
        for name, proc in self.steps:
            before = list(spans)
            spans = proc(note, spans)
            why = getattr(proc, "why", None)
            trace.record(name, before, spans, getattr(proc, "reasons", None),
                         None if why is None else functools.partial(why, note))
        return spans


def build_chain(entries, path=None, english: bool = True, i2b2: bool = True,
                companion: bool | None = None) -> Chain:
    """The chain a config's ``postprocess`` names, with the pinned tail appended when absent.

    ``english`` and ``i2b2`` say whether the model's resources are English and its labels
    i2b2 2014's, ``companion`` whether its config has a companion CRF (``None``: not checked):
    a processor that needs them (:data:`NEEDS`) is refused otherwise.

    Raises
    ------
    ConfigError
        Not a list, an unknown processor (listing the known ones) or argument (listing the
        allowed ones), or a tail processor named anywhere but at the end.
    """
    if not isinstance(entries, list):
        raise ConfigError(f"postprocess must be a list of processors, not {type(entries).__name__}", path=path)
    specs = [_spec(e, path) for e in entries]
    names = [name for name, _ in specs]
    if names[-len(TAIL):] == list(TAIL):
        if any(args for _, args in specs[-len(TAIL):]):
            raise ConfigError(f"postprocess: {', '.join(TAIL)} take no arguments", path=path)
        specs = specs[:-len(TAIL)]
    if any(name in TAIL for name, _ in specs):
        raise ConfigError(f"postprocess: {', '.join(TAIL)} end every chain, in that order, "
                          "and cannot be removed or moved", path=path)
    for name, _ in specs:
        needs = NEEDS.get(name, ())
        if "english" in needs and not english:
            raise ConfigError(f"postprocess: {name} is English (regexes, word lists); the config's "
                              "resources are not", path=path)
        if "i2b2" in needs and not i2b2:
            raise ConfigError(f"postprocess: {name} writes i2b2 2014 labels; the config declares "
                              "another scheme", path=path)
        if "companion" in needs and companion is False:
            raise ConfigError(f"postprocess: {name} tags with the companion CRF; the config has no "
                              "companion section", path=path)
    return Chain([(name, _build(name, args, path)) for name, args in specs + [(t, {}) for t in TAIL]])


def chain_of(config: Mapping, path=None) -> Chain:
    """The chain of a resolved config: its ``postprocess``, or the one its ``rules`` imply."""
    entries = config.get("postprocess")
    if entries is None:
        entries = legacy_entries(config.get("rules"))
    english, i2b2 = _english_i2b2(config)
    return build_chain(entries, path, english=english, i2b2=i2b2, companion=config.get("companion") is not None)


def _english_i2b2(config: Mapping) -> tuple[bool, bool]:
    """Whether a config's resources are English and its labels i2b2 2014's."""
    english = (config.get("resources") or {}).get("language", "en") == "en"
    return english, config.get("scheme") is None or schema.get(config.get("scheme")) is schema.I2B2


@section("rules")
@dataclass
class RulesSettings(Section):
    """The ``rules`` section: the chain of a config without ``postprocess`` (:func:`legacy_entries`).

    ``enabled``: the rule overlay and name extension; ``date_check``: DATE spans that cannot be
    dates dropped first. The overlay is English and writes i2b2 2014 labels. A shorthand: beside
    a ``postprocess`` list, anything but these defaults is an error naming both sections.
    """

    enabled: bool = False
    date_check: bool = True

    def check(self, config, path) -> None:
        english, i2b2 = _english_i2b2(config)
        if self.enabled and not english:
            raise ConfigError(f"rules: the rule overlay is English (regexes, word lists); with resources."
                              f"language {config['resources']['language']!r} set rules.enabled: false", path=path)
        if self.enabled and not i2b2:
            raise ConfigError("rules: the rule overlay writes i2b2 2014 labels; with a declared "
                              "scheme set rules.enabled: false", path=path)


@section("postprocess")
class PostprocessSettings(Section):
    """The ``postprocess`` section: the chain's processors in order (``null``: the one ``rules`` implies)."""

    missing = None

    @classmethod
    def resolve(cls, value, config: Mapping, key: str, path=None):
        companion = config.get("companion") is not None
        # A companion votes through its weight (the decoding), or else in the chain's context_union.v1.
        unheard = companion and not (config.get("companion") or {}).get("weight")
        if value is None:
            if unheard:
                raise ConfigError("companion: a companion CRF with no weight tags in the chain's "
                                  "context_union.v1; list the chain in postprocess with it", path=path)
            return None
        given = {k: v for k, v in (config.get("rules") or {}).items() if getattr(RulesSettings, k, v) != v}
        if given:  # a resolved config (a model's) holds the defaults: they configure nothing
            args = ", ".join(f"{k}: {str(v).lower()}" for k, v in sorted(given.items()))
            raise ConfigError(f"rules and postprocess both configure the post-CRF chain: rules ({args}) is "
                              "the shorthand of a config without postprocess and is not read beside a "
                              "postprocess list; name rules.v1 in postprocess instead (with its date_check) "
                              "and leave rules out", path=path)
        english, i2b2 = _english_i2b2(config)
        chain = build_chain(value, path, english=english, i2b2=i2b2, companion=companion)
        if unheard and "context_union.v1" not in chain.names():
            raise ConfigError("companion: a companion CRF with no weight tags in the chain's "
                              "context_union.v1; name it in postprocess (or give it a weight)", path=path)
        return chain.entries()  # the tail, every argument
