"""Opening a run's inputs before any note is tagged (``python -m crfdeid tag``): every input
checked, and a re-run into a folder that holds its outputs refused."""

from __future__ import annotations

import stat
from pathlib import Path

from .. import schema
from ..errors import CrfdeidError, OutputError
from ..io import read, spec_path
from ..io.labelled import takes_scheme
from ..io.registry import input_parts
from ..io.text import note_files


def open_inputs(specs, input_format: str, errors: list, options: dict | None = None) -> list:
    """Every input opened (checked) before any is tagged: their document iterators; a document
    that cannot be read is appended to ``errors``.

    An annotated input's labels are taken as written (``scheme=any``), whatever the model's
    scheme: the model's spans replace them, so gold labels of another scheme (a BRAT test
    folder with the corpus' own labels, tagged with the i2b2 model) must not fail a note
    (issue 36). An explicit reader option ``scheme`` still checks them."""
    labels = {"scheme": schema.ANY}
    return [read(spec, errors=errors, default_format=input_format,
                 **{**(labels if takes_scheme(spec, input_format) else {}), **(options or {})})
            for spec in specs]


def refuse_existing(out, specs, inputs: list, input_format: str, options: dict | None = None) -> list:
    """Refuse, before any note is tagged, a folder output that already holds files of the
    inputs' documents (a re-run without ``--overwrite``): every input is read once more for its
    document ids, and each document's planned files are checked (issue 36: a re-run tagged
    every note, then refused each write).

    Returns ``inputs`` with standard input read into a list (it cannot be read twice). A
    document that cannot be read is skipped here; the run reports it.

    Raises
    ------
    OutputError
        Naming how many of the planned files exist, the first one and the fix.
    """
    existing = getattr(out, "existing", None)
    folder = getattr(out, "out", None)
    if existing is None or getattr(out, "overwrite", True) or folder is None or not folder.is_dir() \
            or not any(folder.iterdir()):
        return inputs
    inputs = [list(docs) if spec_path(spec, input_format) == "-" else docs for spec, docs in zip(specs, inputs)]
    again = [docs if isinstance(docs, list) else doc_iter
             for docs, doc_iter in zip(inputs, open_inputs(specs, input_format, [], options))]
    found: list = []
    total = 0
    for docs in again:
        for doc in docs:
            files = existing(doc)
            found += files
            total += len(files) > 0
    if found:
        raise OutputError(f"{len(found)} output file(s) of {total} document(s) exist already in "
                          f"{str(folder)!r} (the first: {found[0].name!r}), and were not replaced; nothing "
                          "was tagged (to replace them: --overwrite; or another --output-dir)")
    return inputs


#: Bytes read at a time when counting a JSONL file's lines.
_CHUNK = 1 << 20


def count_documents(specs, input_format: str, options: dict | None = None) -> int | None:
    """How many documents the inputs hold, when that is cheap to know without reading them as
    notes (the total of ``tag``'s progress display), else ``None``.

    A ``text`` input counts its note files (the reader's own listing); a ``jsonl`` file its
    lines that are not blank. Standard input, a special file (a FIFO is never read twice) and
    every other format give ``None``: the display then shows a count and a rate without a total.

    >>> count_documents(["-"], "text") is None
    True
    """
    options = options or {}
    total = 0
    for spec in specs:
        fmt, path, own = input_parts(spec, input_format)
        if spec_path(spec, input_format) == "-":
            return None
        opts = {**options, **own}
        try:
            if fmt == "text":
                files = note_files(path, str(opts.get("suffix", ".txt")), bool(opts.get("recursive")))
                total += sum(1 for f in files if f.is_file())
            elif fmt == "jsonl" and Path(path).is_file() and stat.S_ISREG(Path(path).stat().st_mode):
                total += _lines(Path(path))
            else:
                return None
        except (OSError, CrfdeidError):  # the reader itself names the problem
            return None
    return total


def _lines(path: Path) -> int:
    """The lines of a file that hold more than white space."""
    count = 0
    with path.open("rb") as f:
        tail = b""
        while chunk := f.read(_CHUNK):
            lines = (tail + chunk).split(b"\n")
            tail = lines.pop()
            count += sum(1 for line in lines if line.strip())
    return count + bool(tail.strip())
