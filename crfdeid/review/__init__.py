"""Clinician review and adjudication in the browser (Douglass 2005), with active learning.

``python -m crfdeid review`` (or ``python -m crfdeid.review``) runs it: ``init`` a project folder, ``import`` notes
through any reader (pre-annotated by a model), ``serve`` the local web page where
clinicians accept, alter, delete and add PHI spans, an adjudicator combines several
annotators and the model (aggregate mode) and reviews the suggested surrogates,
then ``export`` through any writer. ``simulate`` replays annotation with a gold
standard as the annotator to compare note orderings. See ``docs/review.md``.

Modules: :mod:`.db` (SQLite/PostgreSQL connection and dialect), :mod:`.store`
(notes, annotations, reviews, audit log), :mod:`.project` (project folder, import,
export), :mod:`.agreement` (aggregate items, agreement, decisions, annotator scores),
:mod:`.surrogates` (surrogate review), :mod:`.active` (note priorities),
:mod:`.retrain` (background retraining, estimated recall), :mod:`.server` (FastAPI
app), :mod:`.guard` (host, token, limits, logs), :mod:`.cli` (the commands),
:mod:`.simulate` (the active-learning replay), :mod:`.headless` (live server and
headless Chromium for tests, screenshots and benches); ``static/`` holds the page.
"""
