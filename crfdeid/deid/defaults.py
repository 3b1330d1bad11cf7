"""The surrogates' defaults and options, apart from their code (:mod:`crfdeid.deid.surrogate`): the
writers and commands name them, and a redacted ``tag`` need not import the surrogates."""

from __future__ import annotations

import inspect
from dataclasses import dataclass, fields, replace

#: Default per-patient date shift range in days (inclusive; 0, whole weeks and whole years
#: excluded). At least 366 days, so the year of every date changes too.
DEFAULT_SHIFT = (-1095, -366)
#: Spans the tagger is less sure of than this get a placeholder in surrogate output.
DEFAULT_MIN_CONFIDENCE = 0.5
#: ``surrogates: proven`` (:mod:`crfdeid.deid.proven`, docs/deid.md "Eighth round"): a predicted span
#: gets a made-up value only when a fixed form, this confidence (the tagger's and, with
#: ``proven_model``, the model's word) or, for a name, a listed first name among its words or a title or
#: person's mark right before it (``Dr.``, ``Pt``, ``nurse``, ``seen by``) proves its type; ``proven=off``
#: turns it off. The default since 2026-11-26 (check11 falsified 24 -> 14 at 55 more placeholders).
DEFAULT_PROVEN = 0.95
#: The narrow gates on by default (:mod:`crfdeid.deid.gates`; docs/synth.md, "Narrow gates measured").
NARROW_GATES = ("number_label", "fraction", "heading_line")


@dataclass(frozen=True)
class SurrogateOptions:
    """What surrogates may say: the options of :class:`~crfdeid.deid.Surrogator` apart from its key,
    label scheme and generators, taken as one object by every writer that draws surrogates
    (``surrogate``, ``fhir``, ``hl7``) and passed on as it is (``-o NAME=VALUE`` gives its fields by
    name). The values are checked where they are used (:class:`~crfdeid.deid.Surrogator`).

    Parameters
    ----------
    date_shift : (int, int)
        Range of the per-patient day offset (one offset per patient and key).
    age_over_89 : str
        What ages above 89 become (in words: ``ninety-plus``).
    age_bucket : int, optional
        Bucket width for other ages (kept as they are by default).
    dob : str
        A patient over 89's birth dates (and dates 90 years or more before the patient's
        latest date): ``placeholder`` (``[**DATE**]``, default) or ``no-year`` (shifted
        month and day, year left out).
    unparsed_dates : str
        A date span no date pattern explains (a bare day ``21``, ``052647``, a holiday):
        ``placeholder`` (default) or ``random`` (same-shape random digits, another holiday).
        Either way it is counted and named in :attr:`~crfdeid.deid.Surrogator.unparsed`.
    min_confidence : float or None
        A predicted span whose confidence is below this gets a placeholder, not a
        realistic value (gold spans have none and are never affected); None: never.
    date_order : str
        How a numeric date that reads both ways (``12/03/2024``) is read, and so shifted
        (:mod:`crfdeid.text.dateorder`), note by note (:func:`crfdeid.text.dateorder.note_order`):
        the note's own dates that read one way only (``17/10/2023`` day first), else its patient's,
        else its country's forms, else its spelling (``color``, ``hemorrhage``: month first), else
        this setting (``mdy``, ``dmy`` or ``ymd``; ``auto``, the default, sets none), else the
        batch's majority (learnt first, as ``tag`` does; undecided: month first). A date that reads
        one way only is read that way.
    proven : float, str or None
        ``surrogates: proven`` (:mod:`crfdeid.deid.proven`): a predicted span gets a made-up value only
        when a fixed Safe Harbor form, a confidence of at least this bar or (``proven_names``) a name's
        evidence proves its type, a placeholder otherwise (counted as ``unproven``); default 0.95
        (:data:`DEFAULT_PROVEN`); None, ``off`` or ``none``: off.
    proven_names : bool
        With ``proven``: a listed first name among a name's words, or a title or a person's mark right
        before it (``Dr.``, ``Pt``, ``nurse``, ``seen by``), proves a name (default True).
    proven_model : bool
        With ``proven``: the model's word on the span's words (``crf_confidence``) is held to the bar
        too, so a rule's span (confidence 1.0) needs the model's agreement (default True).
    narrow_gates : str
        The narrow gates (:mod:`crfdeid.deid.gates`) whose shapes a predicted span is written in as a
        placeholder however confident the tagger: comma-separated names of :data:`NARROW_GATES`, or
        ``off`` (default: all of them).

    >>> SurrogateOptions.of(None, proven="off", date_shift=[-400, -370]).date_shift
    (-400, -370)
    """

    date_shift: tuple[int, int] = DEFAULT_SHIFT
    age_over_89: str = "90+"
    age_bucket: int | None = None
    dob: str = "placeholder"
    unparsed_dates: str = "placeholder"
    min_confidence: float | None = DEFAULT_MIN_CONFIDENCE
    date_order: str = "auto"
    proven: float | str | None = DEFAULT_PROVEN
    proven_names: bool = True
    proven_model: bool = True
    narrow_gates: str = ",".join(NARROW_GATES)

    def __post_init__(self):
        object.__setattr__(self, "date_shift", tuple(self.date_shift))  # a list from a config or -o

    @classmethod
    def of(cls, options: SurrogateOptions | None = None, **given) -> SurrogateOptions:
        """``options`` (default: the defaults) with the fields ``given`` by name.

        Raises
        ------
        TypeError
            A name that is no field (the writers' callers turn it into a ``ConfigError``).
        """
        unknown = sorted(set(given) - {f.name for f in fields(cls)})
        if unknown:
            raise TypeError(f"unknown surrogate option(s) {', '.join(unknown)}")
        if options is None:
            return cls(**given)
        return replace(options, **given) if given else options


def option_parameters(cls=None) -> list[inspect.Parameter]:
    """The :class:`SurrogateOptions` fields as keyword-only parameters with their defaults: what the
    ``**given`` of :class:`~crfdeid.deid.Surrogator` and the ``surrogate`` writer pass on
    (``__signature__ = PassesOn(option_parameters)``, :class:`crfdeid.registry.PassesOn`)."""
    return [inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=f.default)
            for f in fields(SurrogateOptions)]
