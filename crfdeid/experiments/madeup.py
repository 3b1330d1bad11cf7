"""Made-up notes of other countries and styles: their reader and the legacy count of misses.

The notes ship beside this module, written by hand for crfdeid (no real person, place of care
or identifier), one note after a line ``=== ID ===``; lines starting with ``#`` before the
first note are a header. Two marks:

* ``[[SUBTYPE|text]]``: PHI of an i2b2 2014 subtype (``[[DOCTOR|Ann Lee]]``);
* ``{{text}}`` or ``{{kind|text}}``: a phrase that must survive de-identification as written
  (a score with its value, a heading, a drug with its strength, an age under 90...); ``kind``
  is one of :data:`KINDS`.

Marks do not nest. :data:`NOTE_SETS` names the shipped sets (``--notes NAME``): ``legacy`` (issue 34, PHI
marks only), ``dev`` to ``dev11``, ``short``, ``check`` to ``checkN`` (:data:`LAST_CHECK`), ``forms9``,
``falsify7``, ``falsify13``, ``falsify14`` and ``planted47``. What each set holds, when it was written and how it
may be used (tuned on, or scored once per change set) is written once, a paragraph a set, in docs/experiments.md
("Made-up notes of other countries and styles"): a new set's paragraph goes there, not here. :func:`read_notes`
reads a set's file (or one of your own in the same format) into documents, the PHI as gold spans and the phrases in
``meta['keep']``; :func:`read_sets` reads several at once.
:mod:`crfdeid.experiments.madeup_outputs` measures a model on them in redacted and surrogate output.

``python -m crfdeid experiments made-up`` without ``--notes`` tags the legacy notes with
``Model.tag_many`` and counts, per note and in all, the gold PHI tokens no predicted span
covers (Safe Harbor identifiers apart: every subtype but STATE, COUNTRY and PROFESSION) and the
predicted spans that overlap no gold span (placeholders on non-PHI).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterator
from pathlib import Path

from ..document import Document, make_span
from ..errors import ReaderError
from ..io.registry import READERS
from ..schema import I2B2_SUBTYPES
from ..text.tokenize import tokenize

_DATA = Path(__file__).resolve().parent / "data"
#: The legacy made-up notes (they ship with the package).
NOTES = _DATA / "made_up_notes.txt"
#: The number of the newest check set (``check``, ``check2`` ... ``checkN``): a new set is its file
#: ``data/made_up_checkN.txt`` and this number.
LAST_CHECK = 54
#: The shipped sets of made-up notes by name (``--notes NAME``): each but ``legacy`` is ``data/made_up_NAME.txt``.
NOTE_SETS = {"legacy": NOTES, **{name: _DATA / f"made_up_{name}.txt" for name in (
    "dev", *(f"dev{i}" for i in range(2, 12)), "short", "check", *(f"check{i}" for i in range(2, LAST_CHECK + 1)),
    "forms9", "falsify7", "falsify13", "falsify14", "planted47")}}
#: Subtypes HIPAA Safe Harbor does not ask to remove.
NOT_SAFE_HARBOR = frozenset({"STATE", "COUNTRY", "PROFESSION"})
#: Kinds of phrases that must survive (``{{kind|text}}``); ``{{text}}`` has the kind ``other``.
KINDS = ("heading", "label", "score", "value", "drug", "time", "age", "eponym", "role", "word", "other")
#: Every mark's start or end: ``[[SUBTYPE|``, ``{{kind|`` or ``{{``, ``]]``, ``}}``.
_MARK = re.compile(r"\[\[(?P<sub>[A-Za-z-]*)\||\[\[|\{\{(?:(?P<kind>[a-z]+)\|)?|\]\]|\}\}")


class NoteMarkError(ReaderError):
    """A made-up notes file whose marks cannot be read: nested, unclosed, stray, unknown label."""


def set_names() -> str:
    """The shipped sets' names for a help text, a numbered run written once (``dev2..dev11``).

    >>> set_names().startswith("legacy, dev, dev2..dev11, short, check, check2..check")
    True
    """
    out: list[str] = []
    run: list[tuple[str, int]] = []
    for name in [*NOTE_SETS, ""]:
        m = re.fullmatch(r"(\D+)(\d+)", name)
        if m and run and run[-1][0] == m[1] and run[-1][1] + 1 == int(m[2]):
            run.append((m[1], int(m[2])))
            continue
        if run:
            out.append(f"{run[0][0]}{run[0][1]}..{run[-1][0]}{run[-1][1]}" if len(run) > 2
                       else ", ".join(f"{a}{b}" for a, b in run))
        run = [(m[1], int(m[2]))] if m else []
        if name and not m:
            out.append(name)
    return ", ".join(out)


def note_set(name: str) -> Path:
    """The file of a shipped set (:func:`set_names`) or a path as given.

    >>> note_set("dev").name
    'made_up_dev.txt'
    """
    return NOTE_SETS.get(name, Path(name))


def _document(name: str, raw: str, path=None) -> Document:
    """One note: marks off, PHI as spans, must-survive phrases in ``meta['keep']`` as
    ``[start, end, kind]`` (half-open offsets into the text without marks)."""
    text: list[str] = []
    spans, keep = [], []
    pos = last = 0
    open_at: tuple | None = None  # (mark, label, start offset in the text, offset in the raw note)
    for m in _MARK.finditer(raw):
        chunk = raw[last:m.start()]
        text.append(chunk)
        pos += len(chunk)
        last = m.end()
        token = m.group(0)
        if token in ("]]", "}}"):
            want = "[[" if token == "]]" else "{{"
            if open_at is None or open_at[0] != want:
                raise NoteMarkError(f"{token} closes no {want} mark", path=path, doc_id=name, offset=m.start())
            mark, label, start, _ = open_at
            if pos == start or not "".join(text)[start:pos].strip():
                raise NoteMarkError(f"an empty {mark} mark", path=path, doc_id=name, offset=m.start())
            if mark == "[[":
                spans.append(make_span(start, pos, label))
            else:
                keep.append([start, pos, label])
            open_at = None
            continue
        if open_at is not None:
            raise NoteMarkError(f"a mark inside a {open_at[0]} mark (marks do not nest)", path=path,
                                doc_id=name, offset=m.start())
        if token.startswith("[["):
            sub = m.group("sub")
            if sub is None or sub.upper() not in I2B2_SUBTYPES:
                raise NoteMarkError(f"[[ wants an i2b2 2014 subtype and |, one of {', '.join(I2B2_SUBTYPES)}",
                                    path=path, doc_id=name, offset=m.start())
            open_at = ("[[", sub.upper(), pos, m.start())
        else:
            kind = m.group("kind") or "other"
            if kind not in KINDS:
                raise NoteMarkError(f"unknown kind of phrase; the kinds are {', '.join(KINDS)}", path=path,
                                    doc_id=name, offset=m.start())
            open_at = ("{{", kind, pos, m.start())
    if open_at is not None:
        raise NoteMarkError(f"a {open_at[0]} mark is not closed", path=path, doc_id=name, offset=open_at[3])
    text.append(raw[last:])
    return Document(name, "".join(text), spans, {"keep": keep})


def read_notes(path: Path | str = NOTES) -> list[Document]:
    """The made-up notes as documents with their gold spans and ``meta['keep']``.

    Parameters
    ----------
    path : Path or str
        A notes file (default: the legacy set), or a set's name (:data:`NOTE_SETS`).

    Raises
    ------
    NoteMarkError
        A mark nested in another, unclosed or stray, or a label or kind not known; a note id
        given twice.

    >>> docs = read_notes()
    >>> len(docs) >= 15 and all(d.spans for d in docs)
    True
    """
    path = note_set(str(path)) if isinstance(path, str) else path
    docs: list[Document] = []
    name: str | None = None
    lines: list[str] = []

    def add():
        if name in {d.doc_id for d in docs}:
            raise NoteMarkError("a note id given twice", path=path, doc_id=name)
        docs.append(_document(str(name), "\n".join(lines).strip("\n") + "\n", path))

    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") and name is None:
            continue
        m = re.fullmatch(r"=== (\S+) ===", line)
        if m:
            if name is not None:
                add()
            name, lines = m.group(1), []
        else:
            lines.append(line)
    if name is not None:
        add()
    return docs


def read_sets(value: str) -> list[Document]:
    """The notes of one or more sets or files, comma-separated (``dev,dev2``); with more than one,
    each note id is prefixed by its set's name and ``/`` (two sets may share an id).

    >>> ids = [d.doc_id for d in read_sets("dev,dev2")]
    >>> ids[0].startswith("dev/") and len(ids) == len(set(ids))
    True
    """
    names = [n.strip() for n in value.split(",") if n.strip()]
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise NoteMarkError("a set named twice", doc_id=dup)
    if len(names) == 1:
        return read_notes(note_set(names[0]))
    return [Document(f"{n}/{d.doc_id}", d.text, d.spans, d.meta) for n in names for d in read_notes(note_set(n))]


#: The casings a copy of a note can be written in (:func:`read_madeup`'s ``copies``).
#: ``recased`` is one copy in lower or upper case, drawn per note from its id.
COPIES = ("as-written", "lower", "upper", "recased")


@READERS.register("madeup")
def read_madeup(path: str, report, copies=("as-written",)) -> Iterator[Document]:
    """Reader ``madeup:SETS``: the notes of shipped sets or files (:func:`read_sets`, ``dev,dev2``) as training
    or test documents, the PHI marks as gold spans, every other word outside PHI (the must-survive phrases too).

    ``copies`` (a reader option: ``{format: madeup, path: "dev,dev2", copies: [as-written, lower, upper]}``) writes each
    note once per casing (``recased``: lower or upper case, drawn from the note's id), a recased copy's id ending
    ``~lower`` or ``~upper`` (every character keeps its length, so the spans stay right:
    :func:`crfdeid.synth.builder.recased_text`). Which sets a model may learn and which are kept to judge it is the
    user's decision: a set a model learnt measures nothing about it (docs/experiments.md).
    """
    from ..synth.builder import recased_text  # synth (a plug-in of its own) on reading, not on import

    wanted = [copies] if isinstance(copies, str) else list(copies)
    bad = [c for c in wanted if c not in COPIES]
    if bad or not wanted or len(set(wanted)) != len(wanted):
        report(NoteMarkError(f"madeup copies are distinct casings among {', '.join(COPIES)}, got {wanted!r}",
                             path=path))
        return
    try:
        docs = read_sets(path)
    except (ReaderError, OSError) as err:
        report(err if isinstance(err, ReaderError) else ReaderError(f"cannot read made-up notes ({type(err).__name__})",
                                                                    path=path))
        return
    for doc in docs:
        for case in wanted:
            if case == "recased":
                case = "lower" if zlib.crc32(doc.doc_id.encode("utf-8")) % 2 else "upper"
            if case == "as-written":
                yield doc
            else:
                yield Document(f"{doc.doc_id}~{case}", recased_text(doc.text, case), list(doc.spans),
                               dict(doc.meta, casing=case))


def score(gold: list[Document], pred: list[Document]) -> dict:
    """Missed gold tokens (all, Safe Harbor) and false spans, per note and in all."""
    notes: dict[str, dict] = {}
    missed_all = sh_all = false_all = gold_tokens = 0
    for g, p in zip(gold, pred):
        missed, sh = [], 0
        for sp in g.spans:
            for t in tokenize(g.text[sp.start:sp.end]):
                a, b = sp.start + t.start, sp.start + t.end
                gold_tokens += 1
                if not any(q.start < b and a < q.end for q in p.spans):
                    missed.append((g.text[a:b], sp.subtype))
                    sh += sp.subtype not in NOT_SAFE_HARBOR
        false = [(g.text[q.start:q.end], q.subtype) for q in p.spans if not any(q.overlaps(x) for x in g.spans)]
        notes[g.doc_id] = {"missed": missed, "false": false, "missed_safe_harbor": sh}
        missed_all += len(missed)
        sh_all += sh
        false_all += len(false)
    return {"notes": notes, "missed": missed_all, "missed_safe_harbor": sh_all, "false_spans": false_all,
            "gold_tokens": gold_tokens}
