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

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .check import CheckReport, check
from .redact import mask, redact
from .spans import propagate

if TYPE_CHECKING:
    from .surrogate import Surrogator

#: The surrogates' module (and the name, place, date and number generators it imports),
#: imported by name when a surrogate is first asked for: a redacted or masked ``tag`` does not
#: import it (issue 37).
SURROGATES = "crfdeid.deid.surrogate"


def __getattr__(name: str):
    if name == "Surrogator":  # surrogates: imported by name on first use, never by redaction
        return importlib.import_module(SURROGATES).Surrogator
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["CheckReport", "Surrogator", "check", "mask", "propagate", "redact"]
