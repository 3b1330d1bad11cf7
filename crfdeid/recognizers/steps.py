"""The span processors of the post-CRF chain (:mod:`.chain`), each registered under a versioned name.

A processor is a frozen dataclass whose fields are its config arguments; ``processor(note,
spans) -> spans`` rewrites one note's spans. :mod:`.chain` orders them (from the config's
``postprocess``) and pins the Safe Harbor layer and token bounds at the end.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Protocol

from .. import schema
from ..document import Document, Found, Span
from ..errors import ModelError
from ..registry import Registry
from ..site import Site
from ..text.tokenize import to_token_bounds
from . import addresses, clinical, hygiene, joints, phrases, rules, safeharbor, values

#: Span processors by versioned name (``rules.v1``...): dataclasses whose fields are their arguments.
PROCESSORS = Registry("span processor")


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
    #: The model's own scheme's labels for the Safe Harbor layer's finds
    #: (:class:`crfdeid.crf.safeharbor_labels.LabelCounts`).
    safe_harbor_labels: Mapping[str, Any] = field(default_factory=dict)


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

    reasons: ClassVar[dict] = {"dropped": "a clinical term in its context",
                               "narrowed": "a field label, a field gap or a number that is not of it left outside"}

    def prepare(self) -> None:
        clinical.prepare()

    def __call__(self, note: Note, spans: list[Span]) -> list[Span]:
        if not note.english:  # the term list is English: other languages keep their spans
            return list(spans)
        judged = note.memo.setdefault("clinical_filter.v1", {})  # span -> why it is clinical ("": PHI)
        out = []
        for sp in (p for s in spans for p in values.pieces(note.text, s)):
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
        return rules.extend_names(note.text, joints.join_names(note.text, spans))


#: The key of :class:`SafeHarbor`'s :class:`~crfdeid.document.Found` in ``Note.memo``.
FOUND = "safe_harbor.v1"


@register("safe_harbor.v1")
@dataclass(frozen=True)
class SafeHarbor:
    """The Safe Harbor layer (:mod:`.safeharbor`), pinned near the end of every chain; then, for
    English notes of the i2b2 2014 labels, places, organisations and streets by the shape of
    their names and adjacent name spans joined (:mod:`.phrases`, issue 50).

    A scheme other than i2b2 2014 keeps its own label where the layer's span joins a
    predicted one, and a find alone takes the label the model's training notes gave its kind
    (``note.safe_harbor_labels``), if any.
    """

    reasons: ClassVar[dict] = dict.fromkeys(("found", "widened", "narrowed", "moved", "retyped", "merged"),
                                            "a Safe Harbor identifier's form, or a place's name's shape")

    def prepare(self) -> None:
        safeharbor.prepare()
        phrases.prepare()

    def __call__(self, note: Note, spans: list[Span]) -> list[Span]:
        matched = safeharbor.matches(note.text)
        note.memo[FOUND] = Found(note.text, tuple(matched))  # for the tagged note (the surrogate writer reads it)
        # safe_harbor_labels: only a model of the user's own scheme has them (crf/train.py)
        found = safeharbor.apply(note.text, spans, note.scheme is not schema.I2B2, note.safe_harbor_labels, matched)
        if not note.english or note.scheme is not schema.I2B2:
            return found
        # places and streets by their names' shapes, then towns by their place in an address (English, i2b2)
        return addresses.apply(note.text, phrases.apply(note.text, found))


@register("token_bounds.v1")
@dataclass(frozen=True)
class TokenBounds:
    """Every span widened to the tokens it touches (:func:`crfdeid.text.tokenize.to_token_bounds`), last;
    a name's pieces joined by an apostrophe or a hyphen first made one span (:mod:`.joints`)."""

    reasons: ClassVar[dict] = {**dict.fromkeys(("widened", "merged", "moved"), "the tokens it touches"),
                               "retyped": "a name's pieces joined"}

    def __call__(self, note: Note, spans: list[Span]) -> list[Span]:
        joined = joints.join_names(note.text, spans, dates=note.scheme is schema.I2B2)
        return to_token_bounds(note.text, joined, note.split_glued)


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
    """Spans of nothing but punctuation, one letter or a table row's values (the i2b2 2014 labels) or stop
    words (English notes) dropped; initials and the joints of a name kept (:func:`.hygiene.drop_junk`). A model
    with labels of its own keeps its one-letter spans (a sex field written ``H`` or ``M``)."""

    reasons: ClassVar[dict] = {"dropped": "punctuation, one letter, stop words or a table row's values only"}

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
    """Punctuation and lower-case stop words at a span's ends left outside it
    (:func:`.hygiene.trim_punctuation`: the full stop of ``Keene.``, not an initial's or an
    abbreviation's; ``through`` of ``through Bayline Home Care``); English notes of the i2b2 2014
    labels only, as the rules that read the full stops are. In a chain with the clinical filter,
    a name the trim narrowed to an eponym of its lists is dropped as the filter drops one
    (``. Dix-Hallpike``: the filter saw the full stop and the space, not the eponym)."""

    reasons: ClassVar[dict] = {"narrowed": "punctuation or a lower-case stop word at its ends left outside",
                               "dropped": "punctuation only, or narrowed to an eponym"}

    def __call__(self, note: Note, spans: list[Span]) -> list[Span]:
        if not note.english or note.scheme is not schema.I2B2:
            return list(spans)
        trimmed = hygiene.trim_punctuation(note.text, spans)
        judged = note.memo.get("clinical_filter.v1")
        if judged is None:  # no clinical filter in this chain: none applied here either
            return trimmed
        # A name the trim narrowed to a term of the clinical filter's eponym lists (``. Dix-Hallpike``
        # -> ``Dix-Hallpike``) is judged as the filter judged every span before it: issue 50.
        before = set(spans)  # a set: a long note has thousands of spans
        return [sp for sp in trimmed if sp in before or sp.category != "NAME"
                or clinical.why_clinical(note.text, sp) not in ("eponym", "vocabulary")]


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
