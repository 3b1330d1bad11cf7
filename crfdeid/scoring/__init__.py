"""Scoring that reproduces the official i2b2 2014 de-identification evaluation.

Every number in crfdeid (evaluation CLI, cross-validation, ablations) comes
from :func:`evaluate`::

    report = evaluate(gold_docs, pred_docs)
    report.micro["strict"].f1, report.macro["token"].recall
    report.by_category["NAME"]["token"], report.by_subtype["DOCTOR"]["relaxed"]
    report.leak.fully_removed

Modules: :mod:`.keys` (annotation keys and token runs), :mod:`.metrics`
(strategies, metrics, micro/macro), :mod:`.pairing` (gold/system documents by
id), :mod:`.leak` (fully removed PHI), :mod:`.report` (``evaluate``),
:mod:`.analysis` (error classes, confusion matrix), :mod:`.tables` (text,
CSV and plot output).
"""

from .analysis import ErrorAnalysis, analyse_errors
from .leak import Leak
from .metrics import METRICS, STRATEGIES, Accumulator, Counts, Metric, Scores
from .pairing import ScoringError
from .report import Report, evaluate

__all__ = ["evaluate", "Report", "Scores", "Counts", "Accumulator", "Metric", "METRICS", "STRATEGIES", "Leak",
           "ScoringError", "analyse_errors", "ErrorAnalysis"]
