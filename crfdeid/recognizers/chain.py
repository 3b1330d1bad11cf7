"""The post-CRF chain: an ordered list of registered span processors, named in the config.

Every tagger (a CRF, a network, a committee's or stacker's model) decodes its labels into
spans and hands them to one chain, which each processor in turn rewrites. A processor is
one object behind one interface, ``processor(note, spans) -> spans``, registered under a
versioned name in :data:`PROCESSORS`; its arguments are the fields of its dataclass. The
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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Protocol

from .. import schema
from ..document import Document, Span
from ..errors import ConfigError, ModelError, RegistryError
from ..registry import Registry
from ..settings import Section, check_value, section
from ..site import Site
from ..text.tokenize import to_token_bounds
from . import clinical, hygiene, rules, safeharbor
from .provenance import Trace

#: Span processors by versioned name (``rules.v1``...): dataclasses whose fields are their arguments.
PROCESSORS = Registry("span processor")
#: What ends every chain, in this order: the Safe Harbor layer, then token bounds.
TAIL = ("safe_harbor.v1", "token_bounds.v1")


@dataclass
class Note:
    """What a processor knows of the note it rewrites spans of.

    ``text`` is the note as the tagger reads it (:func:`crfdeid.text.tokenize.for_tagging`:
    same length, so its offsets are the note's); ``meta`` the document's metadata and
    ``options`` what the caller passed for this call (``tag(..., options=...)``), for
    processors that need per-note knowledge (a patient's own identifiers); ``memo`` is
    scratch shared by the chain's processors for this note only. ``companion`` tags the note
    with the model's companion CRF (None without one): ``companion(o_threshold)`` gives its
    decoded spans with their confidences, before any processor.
    """

    text: str
    split_glued: bool = True
    english: bool = True
    scheme: schema.Scheme = schema.I2B2
    doc_id: str = "-"
    meta: Mapping[str, Any] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)
    memo: dict = field(default_factory=dict)
    companion: Callable[[float | None], Mapping[Span, float]] | None = None


class SpanProcessor(Protocol):
    """One step of the chain: the spans of ``note`` rewritten (sorted, half-open offsets)."""

    def __call__(self, note: Note, spans: list[Span]) -> list[Span]: ...


def register(name: str):
    """Register a span processor class (a dataclass: its fields are its config arguments)."""
    return PROCESSORS.register(name)


@register("clinical_filter.v1")
@dataclass(frozen=True)
class ClinicalFilter:
    """Spans that are clinical terms in their context dropped (:mod:`.clinical`; English notes only).

    A span is judged once per note, however often the chain lists the filter: a second
    listing only judges what the steps in between added or changed.
    """

    reasons: ClassVar[dict] = {"dropped": "a clinical term in its context"}

    def prepare(self) -> None:
        clinical.prepare()

    def __call__(self, note: Note, spans: list[Span]) -> list[Span]:
        if not note.english:  # the term list is English: other languages keep their spans
            return list(spans)
        judged = note.memo.setdefault("clinical_filter.v1", {})  # span -> why it is clinical ("": PHI)
        out = []
        for sp in spans:
            why = judged.get(sp)
            if why is None:
                why = judged[sp] = clinical.why_clinical(note.text, sp) or ""
            if not why:
                out.append(sp)
        return out

    def why(self, note: Note, sp: Span) -> str | None:
        """Why a dropped span is clinical (``a clinical term (dose)``: the kind, never the words)."""
        kind = note.memo.get("clinical_filter.v1", {}).get(sp)
        return f"a clinical term ({kind})" if kind else None


@register("rules.v1")
@dataclass(frozen=True)
class RuleOverlay:
    """The rule overlay (:func:`.rules.overlay`, English, i2b2 2014 labels): rule spans merged in.

    ``date_check``: DATE spans that cannot be dates (``bp 80/60``) dropped first.
    """

    date_check: bool = True
    reasons: ClassVar[dict] = {"found": "a rule's pattern", "widened": "joined with a rule's span",
                               "merged": "joined with a rule's span", "dropped": "a DATE that cannot be a date"}

    def prepare(self) -> None:
        rules.prepare()

    def __call__(self, note: Note, spans: list[Span]) -> list[Span]:
        return rules.overlay(note.text, spans, date_check=self.date_check, extend=False)


@register("name_extension.v1")
@dataclass(frozen=True)
class NameExtension:
    """Name spans grown over the name words next to them (:func:`.rules.extend_names`, English)."""

    reasons: ClassVar[dict] = dict.fromkeys(("found", "widened", "merged"), "the name words next to a name")

    def prepare(self) -> None:
        rules.prepare()

    def __call__(self, note: Note, spans: list[Span]) -> list[Span]:
        return rules.extend_names(note.text, spans)


@register("safe_harbor.v1")
@dataclass(frozen=True)
class SafeHarbor:
    """The Safe Harbor layer (:mod:`.safeharbor`), pinned near the end of every chain.

    A scheme other than i2b2 2014 keeps its own label where the layer's span joins a
    predicted one.
    """

    reasons: ClassVar[dict] = dict.fromkeys(("found", "widened", "narrowed", "moved", "retyped", "merged"),
                                            "a Safe Harbor identifier's form")

    def prepare(self) -> None:
        safeharbor.prepare()

    def __call__(self, note: Note, spans: list[Span]) -> list[Span]:
        return safeharbor.apply(note.text, spans, keep_predicted=note.scheme is not schema.I2B2)


@register("token_bounds.v1")
@dataclass(frozen=True)
class TokenBounds:
    """Every span widened to the tokens it touches (:func:`crfdeid.text.tokenize.to_token_bounds`), last."""

    reasons: ClassVar[dict] = dict.fromkeys(("widened", "merged", "moved"), "the tokens it touches")

    def __call__(self, note: Note, spans: list[Span]) -> list[Span]:
        return to_token_bounds(note.text, spans, note.split_glued)


@register("site.v1")
@dataclass(frozen=True)
class SiteKnowledge:
    """What the site knows (:mod:`crfdeid.site`, docs/site.md) found in the note and added,
    allow-listed terms dropped: the note's ``meta["known"]``, the site given with the call
    (``options={"site": Site}``: ``tag --site``, the service, Spark) and the site file named
    here (``file``: a YAML site file). Without any of them it changes nothing."""

    file: str | None = None
    reasons: ClassVar[dict] = {"found": "known to the site", "retyped": "known to the site",
                               "dropped": "a safe term of the site",
                               **dict.fromkeys(("widened", "merged"), "joined with what the site knows")}

    def prepare(self) -> None:
        if self.file is not None:
            _site_file(self.file)

    def __call__(self, note: Note, spans: list[Span]) -> list[Span]:
        given, own = note.options.get("site"), (_site_file(self.file) if self.file is not None else None)
        site = own.merged(given) if own is not None and given is not None else (given or own)
        if site is None:
            if note.meta.get("known") is None:
                return list(spans)
            site = Site()
        return site.apply(Document(note.doc_id, "", meta=dict(note.meta)), note.text, spans)


@functools.lru_cache(maxsize=8)
def _site_file(path: str):
    return Site.load(path)


@register("junk_spans.v1")
@dataclass(frozen=True)
class JunkSpans:
    """Spans of nothing but punctuation, one letter (the i2b2 2014 labels) or stop words (English
    notes) dropped; initials and the joints of a name kept (:func:`.hygiene.drop_junk`). A model
    with labels of its own keeps its one-letter spans (a sex field written ``H`` or ``M``)."""

    reasons: ClassVar[dict] = {"dropped": "punctuation, one letter or stop words only"}

    def prepare(self) -> None:
        hygiene.prepare()

    def __call__(self, note: Note, spans: list[Span]) -> list[Span]:
        return hygiene.drop_junk(note.text, spans, stop_words=note.english, letters=note.scheme is schema.I2B2)


@register("young_ages.v1")
@dataclass(frozen=True)
class YoungAges:
    """AGE spans of ages under 90 dropped (:func:`.hygiene.drop_young_ages`: Safe Harbor's
    ages), for the i2b2 2014 labels; a model with labels of its own keeps its ages."""

    reasons: ClassVar[dict] = {"dropped": "an age under 90 (no Safe Harbor identifier)"}

    def __call__(self, note: Note, spans: list[Span]) -> list[Span]:
        return hygiene.drop_young_ages(note.text, spans) if note.scheme is schema.I2B2 else list(spans)


@register("trim_punctuation.v1")
@dataclass(frozen=True)
class TrimPunctuation:
    """Punctuation at a span's ends left outside it (:func:`.hygiene.trim_punctuation`: the full
    stop of ``Keene.``, not an initial's or an abbreviation's); English notes of the i2b2 2014
    labels only, as the rules that read the full stops are."""

    reasons: ClassVar[dict] = {"narrowed": "punctuation at its ends left outside", "dropped": "punctuation only"}

    def __call__(self, note: Note, spans: list[Span]) -> list[Span]:
        if not note.english or note.scheme is not schema.I2B2:
            return list(spans)
        return hygiene.trim_punctuation(note.text, spans)


@register("context_union.v1")
@dataclass(frozen=True)
class ContextUnion:
    """The companion CRF's spans of ``categories`` that overlap none of the spans so far, added
    (a model whose config has a ``companion``: a context model trained on unseen name and place
    words, docs/stress.md). ``o_threshold``: the companion's decoding (``None``: Viterbi)."""

    categories: tuple[str, ...] = ("NAME", "LOCATION")
    o_threshold: float | None = field(default=None, metadata={"min": 0, "max": 1})
    reasons: ClassVar[dict] = {"found": "the companion CRF (context model)"}

    def __post_init__(self) -> None:
        cats = self.categories
        if isinstance(cats, str) or not isinstance(cats, (list, tuple)) or not all(
                isinstance(c, str) for c in cats) or not cats:
            raise ValueError(f"categories must be a list of category names, not {cats!r}")
        object.__setattr__(self, "categories", tuple(c.upper() for c in cats))

    def __call__(self, note: Note, spans: list[Span]) -> list[Span]:
        if note.companion is None:
            raise ModelError("postprocess: context_union.v1 needs a model with a companion CRF "
                             "(the config's companion section)")
        memo = note.memo.setdefault("context_union.v1", {})  # the companion tags a note once per threshold
        found = memo.get(self.o_threshold)
        if found is None:
            found = memo[self.o_threshold] = note.companion(self.o_threshold)
        add = [replace(sp, confidence=c) for sp, c in found.items()
               if sp.category in self.categories and not any(sp.overlaps(b) for b in spans)]
        return sorted([*spans, *add]) if add else list(spans)


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
