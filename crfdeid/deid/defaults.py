"""The surrogates' defaults, apart from their code (:mod:`crfdeid.deid.surrogate`): the
writers and commands name them, and a redacted ``tag`` need not import the surrogates."""

#: Default per-patient date shift range in days (inclusive; 0, whole weeks and whole years
#: excluded). At least 366 days, so the year of every date changes too.
DEFAULT_SHIFT = (-1095, -366)
#: Spans the tagger is less sure of than this get a placeholder in surrogate output.
DEFAULT_MIN_CONFIDENCE = 0.5
