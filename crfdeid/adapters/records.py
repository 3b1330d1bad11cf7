"""Tag notes and render them in an output style, one record per note: what the Spark job and
the HTTP service run.

The tagging is :meth:`crfdeid.crf.Model.tag_each` and the rendering is the writer that
``python -m crfdeid tag --output-format FORMAT`` builds (same options, same key, same
``transform``), so a record's text is byte for byte the file the command writes for the
same note, model and key. A note that fails gets an error message (document id and
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
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from ..crf import Model
from ..document import Document
from ..errors import ConfigError, CrfdeidError, describe
from ..io import open_writer

#: What a record's text can be: a writer of ``python -m crfdeid tag``, or ``spans`` (no text).
OUTPUT_FORMATS = ("redacted", "masked", "surrogate", "spans")


@dataclass(frozen=True)
class Record:
    """One note's result: id, spans (None on failure), text (None for ``spans``/failure), error."""

    id: str
    spans: list | None
    text: str | None
    error: str | None = None


def span_records(doc: Document) -> list[dict]:
    """The spans of a tagged document as ``{type, category, start, end, confidence}`` dicts.

    ``type`` is the subtype (``DOCTOR``), offsets are half-open into the note's text and
    ``confidence`` the tagger's (``Span.confidence``; 1.0 where it gave none).
    """
    return [{"type": sp.subtype, "category": sp.category, "start": sp.start, "end": sp.end,
             "confidence": 1.0 if sp.confidence is None else float(sp.confidence)}
            for sp in doc.spans]


class Deidentifier:
    """A loaded model and an output style, turning notes into :class:`Record`\\ s.

    Parameters
    ----------
    model : Model, str or Path, optional
        A loaded :class:`~crfdeid.crf.Model` or a model file (default: the shipped model).
    output_format : str
        ``redacted``, ``masked``, ``surrogate`` or ``spans`` (:data:`OUTPUT_FORMATS`).
    key, seed : bytes or str, optional
        Surrogate output only: the secret key (or a public seed). With neither, one random
        key is drawn here, so every writer of this object (every Spark partition, every
        request) agrees, but another run does not.
    options : dict, optional
        Writer options as ``python -m crfdeid tag -o KEY=VALUE`` takes them.
    o_threshold : float or None, optional
        As ``--o-threshold`` (default: the model's configured decoding).
    site : crfdeid.site.Site, optional
        What the site knows, found in every note (docs/site.md), as ``tag --site`` does.
    """

    def __init__(self, model=None, output_format: str = "redacted", *, key=None, seed=None,
                 options: dict | None = None, o_threshold=..., backend: str = "numpy", site=None):
        if output_format not in OUTPUT_FORMATS:
            raise ConfigError(f"unknown output format {output_format!r}; known: {', '.join(OUTPUT_FORMATS)}")
        self.model = model if isinstance(model, Model) else Model.load(model, backend=backend)
        self.output_format = output_format
        self.o_threshold = o_threshold
        self.site = site
        self.options = dict(options or {})
        if output_format == "surrogate":
            if seed is not None and key is not None:
                raise ConfigError("give a surrogate seed or a key, not both")
            if seed is not None or key is not None:
                self.options.update({"seed": seed} if seed is not None else {"key": key})
            elif "seed" not in self.options and "key" not in self.options:
                self.options["key"] = os.urandom(32)
        elif key is not None or seed is not None:
            raise ConfigError(f"a surrogate key or seed means nothing for output format {output_format!r}")
        self.writer()  # refuse bad options now, not at the first note

    def writer(self):
        """A new writer of the output style (None for ``spans``), built as ``crfdeid tag`` builds it.

        A surrogate writer holds the patients' state (names seen, surrogates drawn): give one
        patient's notes to the same writer, in order, for the command's result.
        """
        if self.output_format == "spans":
            return None
        return open_writer(self.output_format, None, self.options)

    def run(self, docs: Iterable[Document], writer=None) -> Iterator[Record]:
        """A record per document, in order.

        ``writer`` renders the text: a writer (default: a new one for this call), or a
        callable giving the writer of each tagged document (:class:`PatientWriters`).
        """
        if not callable(writer):
            one = writer if writer is not None else self.writer()

            def writer(doc, one=one):
                return one
        chain_options = {} if self.site is None else {"site": self.site}
        for doc, tagged in self.model.tag_each(docs, self.o_threshold, options=chain_options):
            doc_id, tagged, err = tag_result(doc, tagged)
            if err is not None:
                yield Record(doc_id, None, None, err)
                continue
            text = None
            if self.output_format != "spans":
                try:
                    text = writer(tagged).transform(tagged).text
                except CrfdeidError as exc:
                    err = str(exc)
                except Exception as exc:  # noqa: BLE001 - as crfdeid.cli.write_document: never the text
                    err = f"document {doc_id!r}: writing failed ({describe(exc)})"
            if err is not None:
                yield Record(doc_id, None, None, err)
            else:
                yield Record(doc_id, span_records(tagged), text)


class PatientWriters:
    """The writer of each document for notes grouped by patient (``doc.group``): a new one
    whenever the patient changes, so a patient's state lives only while its notes are
    rendered. Given each patient's notes one after another, the text is that of one writer
    for all notes (a writer keeps the patients apart)."""

    def __init__(self, deid: Deidentifier):
        self.deid = deid
        self.group: str | None = None
        self.current = None

    def __call__(self, doc: Document):
        if self.current is None or doc.group != self.group:
            self.group, self.current = doc.group, self.deid.writer()
        return self.current


def tag_result(doc: Document, tagged) -> tuple:
    """``(doc_id, tagged, None)``, or ``(doc_id, None, message)`` when ``tagged`` is an exception
    (the message never holds note text)."""
    if isinstance(tagged, CrfdeidError):
        return doc.doc_id, None, str(tagged)
    if isinstance(tagged, Exception):  # a bug must name the document, never its text
        return doc.doc_id, None, f"document {doc.doc_id!r}: tagging failed ({type(tagged).__name__})"
    return doc.doc_id, tagged, None
