"""Where data teams run crfdeid: the code shared by the Spark job, the HTTP service and the
Presidio and spaCy adapters.

- :mod:`crfdeid.adapters.records`: tag documents and render them in an output style as rows
  (spans with confidences, de-identified text, an error), through the same model and writer
  objects as ``python -m crfdeid tag``;
- :mod:`crfdeid.adapters.presidio`: a Presidio ``EntityRecognizer`` (extra ``[presidio]``);
- :mod:`crfdeid.adapters.spacy`: a spaCy pipeline component ``crfdeid`` (extra ``[spacy]``);
- :mod:`crfdeid.spark` and :mod:`crfdeid.serve` build on the records (extras ``[spark]``,
  ``[serve]``).
"""

from __future__ import annotations

import importlib

from .._data import install_hint
from ..errors import ExtraError


def require(module: str, extra: str, feature: str):
    """Import ``module``, or raise :class:`~crfdeid.errors.ExtraError` naming the extra to install.

    >>> require("json", "none", "a test").__name__
    'json'
    >>> require("no_such_module_xyz", "spark", "crfdeid.spark")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    crfdeid.errors.ExtraError: crfdeid.spark needs ... 'no_such_module_xyz': pip install ...[spark]'
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        if exc.name is not None and not module.startswith(exc.name):
            raise  # the module is there but broken: say so, not "install it"
        raise ExtraError(f"{feature} needs the optional package {module!r}: "
                         f"{install_hint(extra)}") from None
