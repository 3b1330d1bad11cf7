"""PhysioNet deid gold standard layout: ``id.text`` plus ``id-phi.phrase``.

``id.text`` holds records ``START_OF_RECORD=<patient>||||<note>||||``, a
newline, the note body, then ``||||END_OF_RECORD``. Offsets in the phrase file
count characters from the first character after that first newline.
``id-phi.phrase`` has one PHI a line: ``<patient> <note> <start> <end>
<Category> <surface>`` (end exclusive). Document ids are ``<patient>-<note>``
and ``meta['patient']`` holds the patient, used for grouped splits.

Some gold spans include a trailing space (``Betschart ``); the reader checks
the surface against the phrase file first, then trims white space from span
edges and counts it in ``meta['trimmed_spans']``.

Categories map onto the i2b2 2014 scheme as ``../shared/corpora/README.md``
says; ``Location`` has no subtype in PhysioNet and becomes
``LOCATION/LOCATION-OTHER``; ``Other`` becomes the extension ``OTHER/OTHER``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from ..document import Document, Span, trim
from ..errors import InputError, ReaderError, SchemaError, described
from ..openfiles import kind
from .encoding import ENCODING_HINT, decode, foreign, read_input_bytes, sniff
from .files import check_encoding, read_text_file
from .registry import READERS

#: PhysioNet category -> (i2b2 category, subtype).
CATEGORY_MAP = {
    "PTName": ("NAME", "PATIENT"),
    "PTNameInitial": ("NAME", "PATIENT"),
    "RelativeProxyName": ("NAME", "PATIENT"),
    "HCPName": ("NAME", "DOCTOR"),
    "Location": ("LOCATION", "LOCATION-OTHER"),
    "Date": ("DATE", "DATE"),
    "DateYear": ("DATE", "DATE"),
    "Phone": ("CONTACT", "PHONE"),
    "Age": ("AGE", "AGE"),
    "Other": ("OTHER", "OTHER"),
}

_START = re.compile(r"^START_OF_RECORD=", re.MULTILINE)
_HEADER = re.compile(r"START_OF_RECORD=([^|\n]+)\|\|\|\|([^|\n]+)\|\|\|\|\r?\n")
_END = "||||END_OF_RECORD"
_NUMBER = re.compile(r"\d{1,12}")
#: A byte the encoding could not decode, as ``surrogateescape`` keeps it.
_BAD_BYTE = re.compile("[\udc80-\udcff]")


def _files(path: Path):
    if path.is_file():
        text = path
    else:
        if not path.exists():
            raise InputError("no such file or folder", path=path)
        if not path.is_dir():  # a FIFO, a device: named, never read
            raise InputError(f"{kind(path.stat().st_mode)}, not a PhysioNet folder or .text file: not read",
                             path=path)
        texts = sorted(path.glob("*.text")) if path.is_dir() else []
        if len(texts) != 1:
            raise InputError(f"expected a PhysioNet folder with exactly one *.text file, found "
                             f"{len(texts)}", path=path)
        text = texts[0]
    return text, text.with_name(text.stem + "-phi.phrase")


class _Lines:
    """Line numbers of positions of ``raw``, counted on from the last position asked for (the
    reader asks in order: counting from the start each time was quadratic in the file)."""

    def __init__(self, raw: str):
        self.raw, self.pos, self.line = raw, 0, 1

    def __call__(self, pos: int) -> int:
        if pos < self.pos:
            self.pos, self.line = 0, 1
        self.line += self.raw.count("\n", self.pos, pos)
        self.pos = pos
        return self.line


def iter_records(raw: str, path=None, report=None):
    r"""``(index, line, patient, note, body)`` of each well-formed record of a ``.text`` file.

    Each problem is reported (``ReaderError`` naming the file, record index and line, never
    text) and costs its record only: a header that does not parse, a record whose
    ``||||END_OF_RECORD`` is missing (it is not merged with the next record), and text
    outside every record (tests/test_robust_readers.py has examples).
    """
    line_of = _Lines(raw)

    def problem(message, index, pos, doc_id=None):
        err = ReaderError(f"record {index} (line {line_of(pos)}): {message}", path=path,
                          doc_id=doc_id)
        if report is None:
            raise err
        report(err)

    pos, index = 0, 0
    while True:
        start = _START.search(raw, pos)
        gap = raw[pos:start.start() if start else len(raw)]
        if gap.strip():
            at = pos + len(gap) - len(gap.lstrip())
            err = ReaderError(f"line {line_of(at)}: {len(gap.strip())} characters outside any "
                              "record (not read)", path=path)
            if report is None:
                raise err
            report(err)
        if start is None:
            return
        index += 1
        following = _START.search(raw, start.end())
        stop = following.start() if following else len(raw)
        end = raw.find(_END, start.end(), stop)
        header = _HEADER.match(raw, start.start())
        if header is None or header.end() > stop:
            problem("the header does not parse (want START_OF_RECORD=<patient>||||<note>||||); "
                    "record not read", index, start.start())
        elif end < 0:
            problem(f"no {_END[4:]} before the next record or the end of the file; record not "
                    "read", index, start.start(), f"{header.group(1).strip()}-{header.group(2).strip()}")
        else:
            yield (index, line_of(start.start()), header.group(1).strip(), header.group(2).strip(),
                   raw[header.end():end])
        pos = end + len(_END) if end >= 0 else stop


@READERS.register("physionet")
def read_physionet(path, report, category_map: dict | None = None, check_text: bool = True,
                   encoding: str | None = None):
    """Read a PhysioNet deid folder (one ``*.text`` and its ``*-phi.phrase``) or a ``.text`` file.

    Without a phrase file the notes are read without spans and ``meta['annotated']``
    is ``False``. Broken records are reported and skipped (:func:`iter_records`). ``encoding``:
    of the files without a byte-order mark (default UTF-8).
    """
    encoding = check_encoding(encoding)
    cmap = {**CATEGORY_MAP, **(category_map or {})}
    text_path, phrase_path = _files(Path(path))
    raw = _read_records(text_path, report, encoding)
    if raw is None:
        return
    annotated = phrase_path.exists()
    spans = _read_phrases(phrase_path, cmap, report, encoding) if annotated else {}
    if spans is None:  # notes without their annotations would read as notes without PHI
        report(ReaderError(f"no note of {text_path.name} is read: its phrase file cannot be read",
                           path=text_path))
        return
    seen: dict[tuple, int] = {}
    for index, line, patient, note, text in iter_records(raw, text_path, report):
        doc_id = f"{patient}-{note}"
        if (patient, note) in seen:  # before its annotations, which are the first record's
            report(ReaderError(f"record {index} (line {line}) repeats the id of record "
                               f"{seen[(patient, note)]}; not read", path=text_path, doc_id=doc_id))
            continue
        seen[(patient, note)] = index
        bad = _BAD_BYTE.search(text)
        if bad is not None or _BAD_BYTE.search(doc_id):  # a bad byte costs its record only
            at = line + 1 + text.count("\n", 0, bad.start()) if bad is not None else line
            report(ReaderError(f"record {index} (line {line}): not valid {_named(encoding)} at line {at}; record "
                               f"not read{'' if encoding else '; ' + ENCODING_HINT}", path=text_path,
                               doc_id=None if bad is None else doc_id))
            continue
        doc_spans = []
        problem = None
        n_trimmed = 0
        for lineno, row in spans.get((patient, note), ()):
            if isinstance(row, Exception):  # a bad phrase line fails its whole note
                problem = row
                break
            start, end, cat, sub, surface = row
            if not (0 <= start < end <= len(text)):
                problem = ReaderError(f"phrase line {lineno}: span [{start}, {end}) outside the note "
                                      f"(length {len(text)})", path=phrase_path, doc_id=doc_id, offset=start)
                break
            if check_text and text[start:end] != surface:
                problem = ReaderError(f"phrase line {lineno}: surface differs from the note text",
                                      path=phrase_path, doc_id=doc_id, offset=start)
                break
            trimmed = trim(text, start, end)
            n_trimmed += trimmed != (start, end)
            doc_spans.append(Span(*trimmed, cat, sub))
        if problem:
            report(problem)
            continue
        yield Document(doc_id, text, doc_spans,
                       {"patient": patient, "note": note, "source": str(text_path),
                        "record": index, "line": line, "annotated": annotated,
                        "trimmed_spans": n_trimmed})
    for key in sorted(spans.keys() - seen.keys()):
        # Ids of a damaged line could be words of the note: shown only when they are numbers.
        shown = "-".join(key) if all(_NUMBER.fullmatch(k) for k in key) else None
        report(ReaderError(f"phrase line {spans[key][0][0]}: annotations for a note not in "
                           f"{text_path.name}", path=phrase_path, doc_id=shown))


def _read_records(path: Path, report, encoding=None) -> str | None:
    """The text of a ``.text`` file; a bad byte (in its encoding) is kept as a lone surrogate
    (``surrogateescape``) for :func:`read_physionet` to fail that record only, not the file.
    A file in another encoding (:func:`~crfdeid.io.encoding.foreign`) or holding a NUL is
    reported and not read, as :func:`~crfdeid.io.encoding.decode` does."""
    try:
        data = read_input_bytes(path)
    except InputError as exc:
        report(ReaderError(exc.reason, path=path))
        return None
    enc, bom = sniff(data, encoding)
    if encoding is None and not bom and foreign(data):
        return decode(data, report, path, encoding=encoding)  # refused whole, with its reason
    try:
        text = data[bom:].decode(enc)
    except UnicodeDecodeError:
        text = data[bom:].decode(enc, "surrogateescape")
    if "\x00" in text:  # read in the wrong encoding: refused whole, as decode() tells
        return decode(data, report, path, encoding=encoding)
    return text


def _named(encoding) -> str:
    return (encoding or "utf-8").upper()


def _read_phrases(path: Path, cmap: dict, report, encoding=None) -> dict | None:
    """``{(patient, note): [(line, row or error), ...]}``; ``None`` (reported) when unreadable.

    A row is ``(start, end, category, subtype, surface)``. A key is a note id only when
    a record has that id, so the errors kept here name no text.
    """
    raw = read_text_file(path, report, encoding=encoding)
    if raw is None:
        return None
    out: dict[tuple, list[tuple[int, object]]] = defaultdict(list)
    for lineno, line in enumerate(raw.split("\n"), 1):
        line = line.removesuffix("\r")
        if not line.strip():
            continue
        parts = line.split(" ", 5)
        if len(parts) < 6:
            key = tuple(parts[:2]) if len(parts) >= 2 else None
            err = ReaderError(f"phrase line {lineno} does not parse (want 6 fields)", path=path,
                              doc_id="-".join(key) if key else None)
            if key is None:
                report(err)
            else:
                out[key].append((lineno, err))
            continue
        patient, note, start, end, category, surface = parts
        doc_id = f"{patient}-{note}"
        if category not in cmap:  # a line without its category has a name here: never show it
            out[(patient, note)].append((lineno, SchemaError(
                f"phrase line {lineno}: unknown PhysioNet category (of {described(category)}); "
                f"known: {', '.join(cmap)}", path=path, doc_id=doc_id)))
            continue
        try:
            s, e = int(start), int(end)
        except ValueError:
            out[(patient, note)].append((lineno, ReaderError(
                f"phrase line {lineno}: offsets are not integers", path=path, doc_id=doc_id)))
            continue
        out[(patient, note)].append((lineno, (s, e, *cmap[category], surface)))
    return out

