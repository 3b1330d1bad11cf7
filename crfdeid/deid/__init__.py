"""De-identified output: placeholders, masks and realistic, consistent surrogates.

Every function takes a :class:`~crfdeid.document.Document` and returns a new one
(new text, new spans with offsets into it, same ``doc_id`` and ``meta``):

- :func:`redact` (``[**DOCTOR**]``, ``XYZ_DOCTOR``, ``[NAME]`` or a template),
- :func:`mask` (same-length mask characters, offsets unchanged),
- :class:`Surrogator` ``.surrogate(doc)`` (per-patient consistent surrogates),
- :func:`propagate` (also mark unannotated repeats of an annotated PHI string),
- :func:`check` (no leak, aligned spans, date intervals kept).

Writers ``redacted``, ``masked`` and ``surrogate`` live in :mod:`crfdeid.deid.writers`;
the ``corpus surrogate`` subcommand in :mod:`crfdeid.cli.surrogate`.
"""

from .check import CheckReport, check
from .redact import mask, redact
from .spans import propagate
from .surrogate import Surrogator

__all__ = ["CheckReport", "Surrogator", "check", "mask", "propagate", "redact"]
