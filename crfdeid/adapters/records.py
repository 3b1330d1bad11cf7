"""Tag notes and render them in an output style, one record per note: what the Spark job and
the HTTP service run.

:class:`Deidentifier` is the tagging session of ``python -m crfdeid tag``
(:class:`crfdeid.tagging.session.Session`: same model, options, key and writer), limited to
the styles a record holds, so a record's text is byte for byte the file the command writes
for the same note, model and key. A note that fails gets an error message (document id and
exception type, never its text) and no text.

>>> from crfdeid.document import Document
>>> deid = Deidentifier(output_format="redacted")
>>> [rec] = deid.run([Document("n1", "Seen by Dr. Lee on 7/22/2098.")])
>>> rec.text
'Seen by Dr. [**DOCTOR**] on [**DATE**].'
>>> [(s["type"], s["start"], s["end"]) for s in rec.spans]
[('DOCTOR', 12, 15), ('DATE', 19, 28)]
"""

from __future__ import annotations

import os

from ..deid.key import read_key_file
from ..errors import ConfigError
from ..tagging.session import SPANS, Session

#: What a record's text can be: a writer of ``python -m crfdeid tag``, or ``spans`` (no text).
OUTPUT_FORMATS = ("redacted", "masked", "surrogate", SPANS)


#: Why surrogate output without a key or a seed is refused.
NO_KEY = ("surrogate output needs a key or a seed: without, a random key would give a patient "
          "other surrogates in every run. Pass key_file= (a secret key file: python -m crfdeid key new "
          "FILE) or key= (the key itself), or seed= (public: tests and demonstrations only)")


class Deidentifier(Session):
    """A loaded model and an output style, turning notes into
    :class:`~crfdeid.tagging.session.Record`\\ s (:meth:`run`).

    Parameters
    ----------
    model : TaggingModel, str or Path, optional
        A loaded model (:func:`crfdeid.load`) or a model file (default: the shipped model).
    output_format : str
        ``redacted``, ``masked``, ``surrogate`` or ``spans`` (:data:`OUTPUT_FORMATS`).
    key, seed : bytes or str, optional
        Surrogate output only: the secret key itself (or a public seed, for tests and
        demonstrations). Surrogate output needs one of them (or ``key_file``): without, a random
        key would give a patient other surrogates in every run, so it is refused
        (:class:`~crfdeid.errors.ConfigError`). A ``key`` that names an existing file is refused
        (the file's name would be the key): give the file as ``key_file``.
    key_file : str or Path, optional
        Surrogate output only: the file holding the secret key (``python -m crfdeid key new
        FILE``), as ``tag --key-file`` reads it.
    options : dict, optional
        Writer options as ``python -m crfdeid tag -o KEY=VALUE`` takes them.
    o_threshold : float or None, optional
        As ``--o-threshold`` (default: the model's configured decoding).
    site : crfdeid.site.Site, optional
        What the site knows, found in every note (docs/site.md), as ``tag --site`` does.
    explain : bool
        As ``tag --explain``: each record's spans get their ``steps`` and the record its
        ``explanation`` (the dropped spans too; offsets, types, steps and reasons, never text).
    site_mining : bool
        As ``tag --site-mining on``, over the notes of each call of :meth:`run` (docs/site.md).
    date_order : str, optional
        As ``tag --date-order``: how numeric dates are read when surrogates shift them, ``auto``
        (default, unless the site or the model's config says: decided from the dates that read
        one way only), ``mdy``, ``dmy`` or ``ymd`` (:mod:`crfdeid.text.dateorder`).
    """

    def __init__(self, model=None, output_format: str = "redacted", *, key=None, seed=None, key_file=None,
                 options: dict | None = None, o_threshold=..., backend: str = "numpy", site=None,
                 explain: bool = False, site_mining: bool = False, date_order: str | None = None):
        if output_format not in OUTPUT_FORMATS:
            raise ConfigError(f"unknown output format {output_format!r}; known: {', '.join(OUTPUT_FORMATS)}")
        if key_file is not None:
            if key is not None:
                raise ConfigError("give a surrogate key or a key file, not both")
            key = read_key_file(key_file)
        elif isinstance(key, (str, os.PathLike)) and _names_file(key):
            raise ConfigError("the surrogate key names an existing file: the key would be its name, not its "
                              "content; pass the file as key_file=")
        if output_format == "surrogate" and seed is not None and key is not None:
            raise ConfigError("give a surrogate seed or a key, not both")
        if output_format == "surrogate" and key is None and seed is None and not (
                (options or {}).get("key") is not None or (options or {}).get("seed") is not None):
            raise ConfigError(NO_KEY)
        if output_format != "surrogate" and (key is not None or seed is not None):
            raise ConfigError(f"a surrogate key or seed means nothing for output format {output_format!r}")
        super().__init__(model, output_format, options=options, key=key, seed=seed, o_threshold=o_threshold,
                         site=site, backend=backend, explain=explain, site_mining=site_mining,
                         date_order=date_order)
        self.writer()  # refuse bad options now, not at the first note


def _names_file(key) -> bool:
    """Whether a key given as text is the path of an existing file (a key passed by mistake)."""
    try:
        return os.path.isfile(os.fspath(key))
    except (TypeError, ValueError, OSError):  # a NUL byte, a name too long...
        return False
