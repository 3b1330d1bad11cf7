"""Notes inside health records (FHIR resources, HL7 v2 messages): the pieces a reader yields
and the writer that puts them back de-identified (:mod:`crfdeid.io.fhir`, :mod:`crfdeid.io.hl7`).

A reader reads *records* (a FHIR Bundle or resource, an NDJSON line, an HL7 message) and
yields one :class:`~crfdeid.document.Document` per text they hold (an attachment, an
``Observation.valueString``, the OBX and NTE text of a message), each carrying in ``meta``
its :class:`Record` (``meta["record"]`` is the record's number for messages), its place in
it (``meta["piece"]``), its patient (``meta["patient"]``, the surrogates' group) and what
the record says of that patient (``meta["known"]``, found in the text by ``site.v1``). A
record without text gives one empty document, so that its structured fields are written too.

:class:`RecordWriter` gathers a record's pieces as they are tagged and, once the last is in,
writes the record with each text de-identified by the writer named by ``text``
(``redacted``, ``masked`` or ``surrogate``, with their options) and its structured
identifiers removed (redacted, masked) or replaced by that writer's surrogates for the same
patient (surrogate), dates moved by the patient's offset. A record one of whose pieces failed
is reported and not written (fail closed); the others are.
"""

from __future__ import annotations

import datetime as dt
import inspect
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..document import Document, make_span
from ..errors import ConfigError, InputError, OutputError, ReaderError
from ..registry import PassesOn
from .date_pieces import whole_dates
from .encoding import max_input_bytes, read_input_bytes
from .files import atomic_write, is_stdio
from .outputs import file_key, make_folder
from .ownfiles import is_own
from .record_dates import as_date, shift_date, year_of
from .registry import writer_class

#: Between two values drawn in one document (:meth:`RecordWriter.values`): no value holds it.
_JOINT = "\n\ue001\n"
#: The writers that may de-identify the text of a record (``-o text=...``).
TEXT_STYLES = ("redacted", "masked", "surrogate")


@dataclass
class Record:
    """One record of an input: where it is (never its text), what it holds, how many pieces."""

    source: str                # the file it was read from ('-': standard input)
    name: str                  # the output file's name
    where: str                 # for messages: "file 'a.ndjson' line 3"
    payload: Any               # the parsed record (a JSON value, a message's segments)
    pieces: int = 1
    extra: dict = field(default_factory=dict)


def piece(record: Record, index: int, doc_id: str, text: str, patient: str | None,
          known: dict | None, number: int | None, unit: str) -> Document:
    """The document of one text of ``record``."""
    meta: dict = {"source": record.source, "container": record, "piece": index, "annotated": False}
    if number is not None:
        meta[unit] = number
    if patient is not None:
        meta["patient"] = patient
    if known:
        meta["known"] = known
    return Document(doc_id, text, [], meta)


def known_fields(fields: dict) -> dict:
    """``meta["known"]`` from collected values: empty fields left out, values unique, in order."""
    out = {}
    for key, values in fields.items():
        seen = list(dict.fromkeys(v.strip() for v in values if v and v.strip()))
        if seen:
            out[key] = seen
    return out


def input_files(path, report, suffixes: tuple[str, ...], stdin_name: str) -> list[tuple[str, bytes, str]]:
    """``(source, bytes, name)`` of each file of an input: a file, a folder's files ending in one
    of ``suffixes`` (sorted by name) or standard input (named ``stdin_name``)."""
    if is_stdio(path):
        data = sys.stdin.buffer.read(max_input_bytes() + 1)
        if len(data) > max_input_bytes():
            raise InputError(f"standard input holds more than {max_input_bytes():,} bytes, the most one input "
                             "may hold: not read (CRFDEID_MAX_INPUT_BYTES sets another limit)", path="-")
        return [("-", data, stdin_name)]
    p = Path(path)
    if p.is_dir():
        # not is_file(): a FIFO or device of the folder is named too (read_input_bytes refuses it)
        files_ = sorted(f for f in p.iterdir() if not f.is_dir() and not f.name.startswith(".") and not is_own(f))
        found = [f for f in files_ if f.suffix.lower() in suffixes]
        if not found:
            raise InputError(f"no {' or '.join('*' + x for x in suffixes)} files in this folder", path=p)
        for f in files_:  # a file of another kind is named, never passed over without a word
            if f.suffix.lower() not in suffixes:
                report(ReaderError(f"not read: only {' and '.join('*' + x for x in suffixes)} files of the folder "
                                   "are read (give this file by name to read it as one)", path=f))
    elif p.exists():
        found = [p]
    else:
        raise InputError("no such file or folder", path=p)
    files = []
    for f in found:
        try:
            files.append((str(f), read_input_bytes(f), f.name))
        except InputError as exc:  # a FIFO or device refused, a file over the limit: that file only
            report(ReaderError(exc.reason, path=f))
        except OSError as exc:
            report(ReaderError(f"cannot read: {exc.strerror}", path=f))
    return files


def _text_options(cls) -> list[inspect.Parameter]:
    """What a record writer's ``**options`` pass on: the text writers' options (but ``out`` and ``xml``),
    each None by default (that writer's own default)."""
    return [p.replace(default=None, annotation=p.empty)
            for style in TEXT_STYLES for p in inspect.signature(writer_class(style)).parameters.values()
            if p.name not in ("out", "xml")]


class RecordWriter:
    """Base of the ``fhir`` and ``hl7`` writers: one output file per input file (same name),
    or each record on standard output as soon as it is complete.

    Parameters
    ----------
    out : path, '-' or None
        A folder, standard output, or None: the rendered records are kept in :attr:`rendered`.
    text : str
        How the text is de-identified: ``redacted`` (default), ``masked`` or ``surrogate``.
    scheme : Scheme, optional
        The spans' label scheme, as the text writer takes it.
    **options
        The text writer's options, passed on as they are (``style``, ``seed``, ``mark``..., ``options``: a
        :class:`~crfdeid.deid.defaults.SurrogateOptions`, or its fields by name); one None keeps that
        writer's default, one it does not take is an error (``date_order`` but with surrogates is dropped).
    """

    overwrite = False
    __signature__ = PassesOn(_text_options)  # for the registry's option check and tag's date_order

    def __init__(self, out, text: str = "redacted", scheme=None, **options):
        if text not in TEXT_STYLES:
            raise ConfigError(f"text={text!r}: known: {', '.join(TEXT_STYLES)}")
        given = {k: v for k, v in options.items() if v is not None}
        if text != "surrogate":  # only shifted dates are read in an order (a run's setting, any output)
            given.pop("date_order", None)
        try:
            self.inner = writer_class(text)("-", scheme=scheme, **given)
        except TypeError:
            raise ConfigError(f"text={text} takes none of {', '.join(sorted(given))}; see "
                              "docs/deid.md for its options") from None
        self.style = text
        self.memory = out is None  # the service: rendered records kept in :attr:`rendered`
        self.rendered: list[str] = []
        self.to_stdout = not self.memory and is_stdio(out)
        self.out = None if self.to_stdout or self.memory else Path(out)
        if self.out is not None:
            make_folder(self.out)
        self._got: dict[tuple, dict[int, Document]] = {}
        self._files: dict[str, list[str]] = {}   # output name -> rendered records, in order
        self._sources: dict[str, str] = {}       # folded output name -> its source
        self.written = 0
        self.counts: dict[str, int] = {}
        # (group, value, subtype) -> its surrogate: a patient's original always gets the same one
        self._drawn: dict[tuple[str, str, str], str | None] = {}

    # -- what subclasses call ------------------------------------------------------------------
    @property
    def surrogates(self) -> bool:
        return self.style == "surrogate"

    def learn(self, doc: Document) -> None:
        """With surrogates: learn a piece's originals before any surrogate is drawn (as the
        ``surrogate`` writer's :meth:`~crfdeid.deid.writers.SurrogateWriter.learn`)."""
        if self.surrogates:
            self.inner.learn(doc)

    def text(self, doc: Document) -> str:
        """A piece's text de-identified as the text writer does, a date span widened over the
        pieces of its date the model left beside it (``2098-07-[12]``: never ``[**DATE**]-12``)."""
        return self.inner.transform(whole_dates(doc)).text

    def value(self, group: str, value: str, subtype: str, where: str) -> str | None:
        """A structured identifier: None (to be removed) unless surrogates are made, then the
        surrogate of ``value`` as a span of ``subtype`` in the patient ``group``'s notes (None
        too where it would be the original)."""
        if not self.surrogates:
            return None
        return self.values(group, [(value, subtype)], where)[0]

    def _one(self, group: str, value: str, subtype: str, where: str) -> str | None:
        """:meth:`value` drawn alone (None: the surrogate is the original)."""
        lead = len(value) - len(value.lstrip())
        core = value.strip()
        if not core:
            return value
        doc = Document(where, value, [make_span(lead, lead + len(core), subtype)], {"patient": group})
        new = self.inner.transform(doc).text
        return None if new.strip().casefold() == core.casefold() else new

    def values(self, group: str, items: list[tuple[str, str]], where: str) -> list[str | None]:
        """The surrogates of many structured values of one record, ``(value, subtype)`` each, as
        :meth:`value` gives them (None: removed), drawn in one document (one pass of the
        surrogate writer a record, not one a value); each alone where the one document does not
        give them back apart. A patient's value drawn before is not drawn again: the surrogate
        writer gives a patient's original one surrogate, so the one it gave is reused."""
        if not self.surrogates:
            return [None] * len(items)
        if len(self._drawn) > 100_000:  # bounded: a long feed's older patients drawn again if met again
            self._drawn.clear()
        todo = list(dict.fromkeys(it for it in items if (group, *it) not in self._drawn))
        if todo:
            for it, got in zip(todo, self._draw(group, todo, where)):
                self._drawn[(group, *it)] = got
        out = []
        for value, subtype in items:
            got = self._drawn[(group, value, subtype)]
            if got is None and value.strip():
                self.count("surrogate(s) equal to the original removed")
            out.append(got)
        return out

    def _draw(self, group: str, items: list[tuple[str, str]], where: str) -> list[str | None]:
        """:meth:`values` for distinct values not drawn before (one document)."""
        spans, pos = [], 0
        for value, subtype in items:
            lead, core = len(value) - len(value.lstrip()), value.strip()
            if core:
                spans.append(make_span(pos + lead, pos + lead + len(core), subtype))
            pos += len(value) + len(_JOINT)
        doc = Document(where, _JOINT.join(v for v, _ in items), spans, {"patient": group})
        new = self.inner.transform(doc).text.split(_JOINT) if spans else [v for v, _ in items]
        if len(new) != len(items):
            return [self._one(group, v, sub, where) for v, sub in items]
        return [None if value.strip() and got.strip().casefold() == value.strip().casefold() else got
                for (value, _), got in zip(items, new)]

    def name(self, group: str, parts: list[str], subtype: str, where: str) -> list[str] | None:
        """The parts of one person's name (given, middle, family...) replaced together, so that
        the whole name and its parts get the surrogates the notes give them; None to remove."""
        if not self.surrogates:
            return None
        whole = " ".join(" ".join(parts).split())
        if not whole:
            return parts
        return self.name_parts(parts, self.value(group, whole, subtype, where))

    def name_parts(self, parts: list[str], surrogate: str | None) -> list[str]:
        """A whole name's surrogate cut into the parts of the original (:meth:`name`)."""
        words = [p.split() for p in parts]
        new = (surrogate or "").split()
        counts = [len(ws) for ws in words]
        if len(new) != sum(counts):  # a surrogate of another length: the last part takes the rest
            filled = [c for c in counts if c]
            new = new[:len(filled) - 1] + [" ".join(new[len(filled) - 1:])] if len(new) >= len(filled) \
                else new + [new[-1] if new else ""] * (len(filled) - len(new))
            counts = [1 if c else 0 for c in counts]
        out, i = [], 0
        for c in counts:
            out.append(" ".join(new[i:i + c]))
            i += c
        same = [k for k, (a, b) in enumerate(zip(parts, out)) if a.strip() and a.strip().casefold() == b.casefold()]
        for k in same:  # a part whose surrogate is the original (CYNTHIA for CYNTHIA): removed
            out[k] = ""
        if same:
            self.count("name part(s) whose surrogate was the original removed", len(same))
        return out

    def days(self, group: str) -> int:
        """The patient's date offset (the one the notes' dates move by)."""
        surrogator = self.inner.surrogator
        st = surrogator.state(group)
        if st.shift_days is None:
            st.shift_days = surrogator.shift_for(st)
        return st.shift_days

    def date(self, group: str, value: str, compact: bool = False, birth: bool = False,
             own: bool = True) -> str | None:
        """A structured date: moved by the patient's offset (surrogate), else its year only; a birth
        date removed when redacting, or when it makes its person 90 or older (None); ``own``: the
        patient's own birth date (not a relative's)."""
        if birth and (not self.surrogates or self.over_89(group, value, compact, own)):
            self.count("birth date(s) removed")
            return None
        if not self.surrogates:
            return year_of(value)
        return shift_date(value, self.days(group), compact)

    def over_89(self, group: str, birth: str, compact: bool = False, own: bool = True) -> bool:
        """Whether a birth date makes its person 90 or older (at the latest date of the patient's
        notes, else today); the patient's own (``own``): the notes are told so (their birth dates
        are generalized)."""
        born = as_date(birth, compact)
        if born is None or not self.surrogates:
            return False
        st = self.inner.surrogator.state(group)
        at = st.latest or dt.date.today()
        old = (at.year - born.year - ((at.month, at.day) < (born.month, born.day))) >= 90
        if old and own:
            st.over_89 = True
        return old

    def count(self, what: str, n: int = 1) -> None:
        self.counts[what] = self.counts.get(what, 0) + n

    # -- what subclasses define ----------------------------------------------------------------
    def render(self, record: Record, docs: list[Document]) -> str:
        """The record written back, its texts and identifiers de-identified."""
        raise NotImplementedError

    # -- the writer interface ------------------------------------------------------------------
    def write(self, doc: Document) -> None:
        record: Record = doc.meta["container"]
        index = doc.meta["piece"]
        self._claim(record)
        key = (record.source, record.where)  # not the object: a --jobs worker sends back a copy
        got = self._got.setdefault(key, {})
        got[index] = doc
        if index != record.pieces - 1:
            return
        del self._got[key]
        missing = record.pieces - len(got)
        if missing:
            raise OutputError(f"{record.where}: not written, {missing} of its {record.pieces} text(s) "
                              "failed (see above)", doc_id=doc.doc_id)
        data = self.render(record, [got[i] for i in range(record.pieces)])  # whole, before writing
        self.written += 1
        if self.memory:
            self.rendered.append(data)
        elif self.to_stdout:
            sys.stdout.write(data)
        else:
            self._files[record.name].append(data)

    def existing(self, doc: Document) -> list[Path]:
        """The output file of ``doc``'s input file when it exists and would be refused: known before
        anything is tagged, so that ``tag`` refuses a re-run into the same folder at once."""
        record = doc.meta.get("container")
        if self.out is None or self.overwrite or not isinstance(record, Record):
            return []
        path = self.out / record.name
        return [path] if os.path.lexists(path) else []

    def _claim(self, record: Record) -> None:
        """Refuse, at a record's first piece, an output file another input takes or that exists."""
        if self.to_stdout or self.memory or record.name in self._files:
            return
        key = file_key(record.name)
        other = self._sources.get(key)
        if other is not None and other != record.source:
            raise OutputError(f"its output file name {record.name!r} is taken by {other!r} in this run; "
                              f"{record.where} not written")
        path = self.out / record.name  # type: ignore[operator]
        if not self.overwrite and os.path.lexists(path):
            raise OutputError("exists already (to replace it: --overwrite)", path=path)
        self._sources[key] = record.source
        self._files[record.name] = []

    def summary(self) -> str:
        """One line for the command's report: records written, what was removed (counts)."""
        parts = [f"{self.written} record(s) written"] + [f"{n} {what}" for what, n in sorted(self.counts.items())]
        line = f"{self.name_of()}: " + ", ".join(parts)
        inner = getattr(self.inner, "summary", None)
        return line + ("\n" + inner() if inner is not None else "")

    def name_of(self) -> str:
        return type(self).__name__

    def close(self) -> None:
        try:
            if self.out is not None:
                for name, parts in self._files.items():
                    if not parts:  # every record of that file failed: no empty file
                        continue
                    atomic_write(self.out / name, "".join(parts), overwrite=self.overwrite)
        finally:
            self._files = {}
            self.inner.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def link_key(writer: RecordWriter, key=None, seed=None) -> bytes:
    """The key of the hashes that keep records linked (FHIR ids, HL7 message and order numbers):
    the surrogates' (a seed's too), else ``key`` or ``seed`` given, else one made for the run."""
    if writer.surrogates:
        return writer.inner.surrogator.keyed.key
    if key:
        return key.encode("utf-8") if isinstance(key, str) else bytes(key)
    return f"crfdeid-seed:{seed}".encode() if seed is not None else os.urandom(32)
