r"""Writers ``redacted``, ``masked`` and ``surrogate``: de-identified text, one file per note.

Each writes ``<doc_id>.txt`` into a folder (atomically), or the text to
standard output for ``out='-'``. A document is rendered completely before
anything is written, so one that fails raises and leaves no file (fail closed).

>>> from crfdeid.document import Document, make_span
>>> import io, contextlib
>>> doc = Document("1", "Seen by Smith.", [make_span(8, 13, "DOCTOR")])
>>> buf = io.StringIO()
>>> with contextlib.redirect_stdout(buf), RedactedWriter("-", style="category") as w:
...     w.write(doc)
>>> buf.getvalue()
'Seen by [NAME].\n'
"""

from __future__ import annotations

from ..document import Document
from ..io import WRITERS, FolderWriter, atomic_write
from ..io.i2b2 import render as render_i2b2
from .redact import mask, redact
from .spans import propagate as add_repeats
from .surrogate import DEFAULT_SHIFT, Surrogator

#: First line of every mapping file: it holds original PHI.
MAPPING_HEADER = ("# PHI - CONTAINS ORIGINAL PROTECTED HEALTH INFORMATION. crfdeid surrogate mapping "
                  "(patient, kind, original, surrogate). Store and delete it as PHI.\n")


class _DeidWriter(FolderWriter):
    suffix = ".txt"

    def transform(self, doc: Document) -> Document:
        raise NotImplementedError

    def render(self, doc: Document) -> str | dict:
        text = self.transform(doc).text
        return text if self.out is not None or text.endswith("\n") else text + "\n"


@WRITERS.register("redacted")
class RedactedWriter(_DeidWriter):
    """Placeholders: ``style`` (``mimic``, ``xyz``, ``category``) or ``template`` (``[{subtype}]``)."""

    def __init__(self, out, style: str = "mimic", template: str | None = None, propagate: bool = True):
        super().__init__(out)
        self.style, self.propagate = template or style, propagate

    def transform(self, doc):
        return redact(add_repeats(doc) if self.propagate else doc, self.style)


@WRITERS.register("masked")
class MaskedWriter(_DeidWriter):
    """Same-length masking with ``char`` (offsets and layout unchanged)."""

    def __init__(self, out, char: str = "X", propagate: bool = True):
        super().__init__(out)
        self.char, self.propagate = char, propagate

    def transform(self, doc):
        return mask(add_repeats(doc) if self.propagate else doc, self.char)


@WRITERS.register("surrogate")
class SurrogateWriter(_DeidWriter):
    """Surrogate text; with ``xml=True`` also ``<doc_id>.xml`` (i2b2) carrying the new spans.

    Options: ``seed`` or ``key``, ``date_shift=(MIN, MAX)``, ``age_over_89``,
    ``age_bucket``, ``propagate`` (also replace unannotated repeats of a PHI
    string, default on), ``mapping`` (path of a PHI mapping file written on
    close; off by default).
    """

    def __init__(self, out, seed=None, key=None, date_shift=DEFAULT_SHIFT, age_over_89: str = "90+",
                 age_bucket: int | None = None, xml: bool = False, propagate: bool = True,
                 mapping=None):
        super().__init__(out)
        self.surrogator = Surrogator(seed=seed, key=key, date_shift=tuple(date_shift),
                                     age_over_89=age_over_89, age_bucket=age_bucket)
        self.xml, self.propagate, self.mapping = xml, propagate, mapping

    def transform(self, doc):
        return self.surrogator.surrogate(add_repeats(doc) if self.propagate else doc)

    def render(self, doc):
        new = self.transform(doc)
        if not self.xml:
            return new.text if self.out is not None or new.text.endswith("\n") else new.text + "\n"
        return {".txt": new.text, ".xml": render_i2b2(new)}

    def close(self):
        if self.mapping:
            write_mapping(self.surrogator, self.mapping)
        super().close()


def write_mapping(surrogator: Surrogator, path) -> None:
    """Write the original -> surrogate table (PHI!) as TSV with a PHI warning header."""
    rows = ["\t".join(r) + "\n" for r in surrogator.mapping()]
    atomic_write(path, MAPPING_HEADER + "".join(rows))
