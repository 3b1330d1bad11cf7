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
from ..errors import ReaderError, SchemaError
from . import READERS, read_text_file

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

_RECORD = re.compile(r"START_OF_RECORD=([^|\n]+)\|\|\|\|([^|\n]+)\|\|\|\|\r?\n(.*?)\|\|\|\|END_OF_RECORD",
                     re.S)


def _files(path: Path):
    if path.is_file():
        text = path
    else:
        texts = sorted(path.glob("*.text")) if path.is_dir() else []
        if len(texts) != 1:
            return None, None
        text = texts[0]
    return text, text.with_name(text.stem + "-phi.phrase")


@READERS.register("physionet")
def read_physionet(path, report, category_map: dict | None = None, check_text: bool = True):
    """Read a PhysioNet deid folder (one ``*.text`` and its ``*-phi.phrase``) or a ``.text`` file.

    Without a phrase file the notes are read without spans and ``meta['annotated']``
    is ``False``.
    """
    cmap = {**CATEGORY_MAP, **(category_map or {})}
    text_path, phrase_path = _files(Path(path))
    if text_path is None:
        report(ReaderError("expected a PhysioNet folder with exactly one *.text file", path=path))
        return
    raw = read_text_file(text_path, report)
    if raw is None:
        return
    annotated = phrase_path.exists()
    spans = _read_phrases(phrase_path, cmap, report) if annotated else {}
    seen = set()
    for m in _RECORD.finditer(raw):
        patient, note, text = m.group(1).strip(), m.group(2).strip(), m.group(3)
        doc_id = f"{patient}-{note}"
        seen.add((patient, note))
        doc_spans = []
        problem = None
        n_trimmed = 0
        for row in spans.get((patient, note), ()):
            if isinstance(row, Exception):  # a bad phrase line fails its whole note
                problem = row
                break
            lineno, start, end, cat, sub, surface = row
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
                        "annotated": annotated, "trimmed_spans": n_trimmed})
    for (patient, note) in spans.keys() - seen:
        report(ReaderError(f"annotations for a note not in {text_path.name}",
                           path=phrase_path, doc_id=f"{patient}-{note}"))


def _read_phrases(path: Path, cmap: dict, report) -> dict:
    raw = read_text_file(path, report)
    out = defaultdict(list)
    for lineno, line in enumerate((raw or "").splitlines(), 1):
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
                out[key].append(err)
            continue
        patient, note, start, end, category, surface = parts
        doc_id = f"{patient}-{note}"
        if category not in cmap:
            out[(patient, note)].append(SchemaError(
                f"phrase line {lineno}: unknown PhysioNet category {category!r}; "
                f"known: {', '.join(cmap)}", path=path, doc_id=doc_id))
            continue
        try:
            s, e = int(start), int(end)
        except ValueError:
            out[(patient, note)].append(ReaderError(
                f"phrase line {lineno}: offsets are not integers", path=path, doc_id=doc_id))
            continue
        out[(patient, note)].append((lineno, s, e, *cmap[category], surface))
    return out
