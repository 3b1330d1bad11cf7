"""Annotated corpora read under a label scheme: declared, i2b2 2014, or the corpus' own.

Readers that carry labels (``brat``, ``i2b2``, ``jsonl``, ``csv``) check them
against their ``scheme`` option. The commands that read annotated corpora
(``train``, ``evaluate``, ``crossval``, ``curve``, ``ablate``, ``pipeline``) choose
it from the config:

* a declared scheme, or ``i2b2``: every reader checks against it, and a label
  outside it fails its document with a :class:`~crfdeid.errors.SchemaError`
  (file, document, offset), as i2b2 labels always did;
* no scheme (``scheme: null``, the default): the corpus is read with labels as
  written (``scheme=any``) and :func:`crfdeid.schema.infer` decides: when every
  label is an i2b2 2014 label it is the i2b2 scheme (spans get i2b2 names and
  parents), otherwise the corpus' own labels, as written, each its own parent
  (or the parent the format writes), none HIPAA.

An input's own ``scheme`` option wins. Readers without labels of their own
(``text``, ``physionet``, ``synth``) are read as they are.

:func:`crfdeid.io.read` without a ``scheme`` reads an input the same way
(:func:`crfdeid.schema.settle`), and :func:`crfdeid.scoring.evaluate` without one scores in the
scheme settled from gold and system together, as ``evaluate`` and ``pipeline`` do.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable

from .. import schema
from ..document import Document
from ..schema import settle
from .registry import input_parts, read, reader_for


def takes_scheme(spec, default_format: str | None = None) -> bool:
    """Whether the reader of ``spec`` has a ``scheme`` option."""
    fmt = input_parts(spec, default_format)[0]
    return "scheme" in inspect.signature(reader_for(fmt)).parameters


def read_labelled(specs: Iterable, scheme=None, *, errors: list | None = None,
                  default_format: str | None = None, **options) -> list[Document]:
    """The documents of ``specs`` read under ``scheme`` (``None``: labels as written)."""
    wanted = schema.ANY if scheme is None else schema.get(scheme)
    docs: list[Document] = []
    for spec in specs:
        extra = {"scheme": wanted} if takes_scheme(spec, default_format) else {}
        docs.extend(read(spec, errors=errors, default_format=default_format, **{**extra, **options}))
    return docs


def read_corpus(specs: Iterable, scheme=None, /, *, errors: list | None = None,
                default_format: str | None = None, **options) -> tuple[list[Document], schema.Scheme]:
    """``(documents, scheme)`` of annotated inputs under a config's ``scheme`` (module docstring).

    ``options`` go to every reader (an input mapping's own options win). A reader option
    ``scheme`` (``--reader-option scheme=any``) replaces the config's: ``any`` reads the labels
    as written and infers the scheme, as a config without one does.
    """
    if "scheme" in options:
        given = options.pop("scheme")
        scheme = None if given is None or schema.get(given).open else given
    docs = read_labelled(specs, scheme, errors=errors, default_format=default_format, **options)
    (docs,), found = settle([docs], scheme)
    return docs, found


def as_setting(scheme: schema.Scheme):
    """How a config keeps ``scheme`` (what a model stores): ``"i2b2"`` or the scheme as a mapping."""
    return "i2b2" if scheme is schema.I2B2 else scheme.to_dict()
