"""The release audit: a reviewed random sample of a release gives its leak rate with a bound.

``python -m crfdeid audit plan | sample | verify | report`` (docs/audit.md). Modules:
:mod:`.sample` (strata, the seeded draw, the manifest and the review project the sample is
reviewed in), :mod:`.plan` (the officer's signed plan: every choice fixed before the draw),
:mod:`.statement` (the officer's signed statement), :mod:`.register` (the officer's ledger of
what they signed), :mod:`.findings` (what the reviewers found that the model missed, note by
note, from the project's store) and :mod:`.report` (the figures, JSON and the HTML page).
The statistics themselves are :mod:`crfdeid.scoring.audit`.
"""
