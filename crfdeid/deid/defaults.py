"""The surrogates' defaults, apart from their code (:mod:`crfdeid.deid.surrogate`): the
writers and commands name them, and a redacted ``tag`` need not import the surrogates."""

#: Default per-patient date shift range in days (inclusive; 0, whole weeks and whole years
#: excluded). At least 366 days, so the year of every date changes too.
DEFAULT_SHIFT = (-1095, -366)
#: Spans the tagger is less sure of than this get a placeholder in surrogate output.
DEFAULT_MIN_CONFIDENCE = 0.5
#: ``surrogates: proven`` (:mod:`crfdeid.deid.proven`, docs/deid.md "Eighth round"): a predicted span
#: gets a made-up value only when a fixed form, this confidence (the tagger's and, with
#: ``proven_model``, the model's word) or a listed first name or title proves its type; ``proven=off``
#: turns it off. The default since 2026-11-26 (check11 falsified 24 -> 14 at 55 more placeholders).
DEFAULT_PROVEN = 0.95
