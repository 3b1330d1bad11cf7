"""BRAT standoff: ``<id>.txt`` (the text) beside ``<id>.ann`` (the annotations).

Only text-bound annotations carry PHI; a ``T`` line has three tab-separated
fields::

    T1<TAB>DOCTOR 12 17<TAB>Smith
    T2<TAB>DATE 20 24;25 29<TAB>July 2097

Offsets are half-open character offsets into the ``.txt`` file, read as UTF-8 (or as
its byte-order mark or the ``encoding`` option says: :mod:`crfdeid.io.files`)
with line endings kept (``\\r\\n`` counts two characters). A byte-order mark
(U+FEFF) at the start of a ``.txt`` is part of the text and counts one character,
as BRAT counts it; the writer writes the text as it is, BOM included, so offsets
agree with the user's own files and tools. A BOM starting an ``.ann`` is dropped.

Policies (documented, counted, never silent):

* **Labels** are resolved through ``label_map`` first (a dict, or the path of a
  YAML/JSON file holding one), then in the label scheme (option ``scheme``: the
  i2b2 2014 scheme (``i2b2``), a declared :class:`~crfdeid.schema.Scheme`, or
  ``any`` for labels as written, each its own parent) as a label name (``DOCTOR``),
  then as ``CATEGORY-SUBTYPE``/``CATEGORY/SUBTYPE``/``CATEGORY_SUBTYPE``
  (``NAME-DOCTOR``), case-insensitively. A label that resolves to nothing fails the
  document with a :class:`~crfdeid.errors.SchemaError` naming file, document,
  ``.ann`` line and offset, and the label's length only (a damaged line may hold
  note text there). A ``label_map`` value of ``null`` drops that label on purpose;
  the drops are counted in ``meta['brat_dropped']``. :func:`crfdeid.io.read` without a
  ``scheme`` reads labels as written and settles the corpus' scheme, as the commands do.
* **Discontinuous** annotations (``a b;c d``) become one span per fragment, all
  with the annotation's subtype; the extra fragments are counted in
  ``meta['brat_fragments']``.
* ``A``, ``R``, ``E``, ``N``, ``M`` and ``#`` lines (attributes, relations,
  events, normalisations, notes) are ignored and counted by kind in
  ``meta['brat_ignored']``.
* A line that does not parse, offsets outside the text or reversed fail the
  document (reported, the other documents are still read).

A ``.txt`` without its ``.ann`` is read without spans (``meta['annotated']`` is
``False``); an ``.ann`` without its ``.txt`` is reported as an error. The writer
writes each span as its own ``T`` line labelled with its subtype; white space
inside the surface field is written as plain spaces.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from .. import schema
from ..document import Document, Span
from ..errors import ConfigError, ReaderError, SchemaError, described
from ..openfiles import read_regular_text
from .files import check_encoding, list_files, read_text_file
from .outputs import FolderWriter
from .registry import READERS, WRITERS

_IGNORED = frozenset("ARENM#")
#: Most digits of an offset read (a longer one is outside any note, and Python's int() refuses 4,300+).
_MAX_DIGITS = 18
_FRAGMENT = re.compile(r"^(\d+) (\d+)$")
_WS = re.compile(r"\s+")
_LINES = re.compile(r"\r\n|\r|\n")
_ID = re.compile(r"[A-Z#]\d+\t")


def load_label_map(label_map, scheme=None) -> dict:
    """A label map as a dict ``{BRAT label: (category, subtype) or None}``, upper-cased keys.

    ``label_map`` is a dict, or the path of a YAML or JSON file holding one; its
    targets must be labels of ``scheme`` (default i2b2 2014).
    """
    scheme = schema.get(scheme)
    if label_map is None:
        return {}
    if not isinstance(label_map, dict):
        path = Path(label_map)
        text = read_regular_text(path, ConfigError, "the label map")  # a FIFO or device refused, never read
        try:
            import yaml
            label_map = yaml.safe_load(text)
        except yaml.YAMLError:
            raise ConfigError("label map is not valid YAML/JSON", path=path) from None
        if not isinstance(label_map, dict):
            raise ConfigError("label map must be a mapping of BRAT label -> subtype", path=path)
    out = {}
    for label, target in label_map.items():
        found = None if target is None else resolve_label(str(target), {}, scheme)
        if target is not None and not found:
            raise ConfigError(f"label map sends {label!r} to unknown subtype {target!r}; known: "
                              f"{schema.known_labels(scheme)}")
        out[str(label).upper()] = found
    return out


def resolve_label(label: str, label_map: dict, scheme=None):
    """``(category, subtype)`` for a BRAT label, ``None`` when unknown, ``False`` when mapped away.

    >>> resolve_label("NAME-DOCTOR", {}), resolve_label("Location-Other", {})
    (('NAME', 'DOCTOR'), ('LOCATION', 'LOCATION-OTHER'))
    >>> resolve_label("Fecha", {}, "any")
    ('Fecha', 'Fecha')
    """
    key = label.upper()
    if key in label_map:
        target = label_map[key]
        return False if target is None else target
    return schema.get(scheme).resolve(label)


def parse_ann(ann: str, text: str, path=None, doc_id=None, label_map=None,
              check_text: bool = True, scheme=None) -> tuple[list, dict]:
    """Spans and counts from the content of a ``.ann`` file; raise on the first bad line.

    Returns
    -------
    spans : list of Span
    counts : dict
        ``fragments`` (extra fragments of discontinuous annotations), ``ignored``
        (a Counter of ignored line kinds) and ``dropped`` (labels mapped to ``null``).
    """
    label_map = label_map or {}
    scheme = schema.get(scheme)
    spans: list[Span] = []
    ignored: Counter[str] = Counter()
    fragments = dropped = 0
    for lineno, line in enumerate(_LINES.split(ann), 1):  # as BRAT: \n, \r\n or \r only
        if not line.strip():
            continue
        kind = line[0]
        where = {"path": path, "doc_id": doc_id}
        if not _ID.match(line):  # "Marigold..." is not an M line: an id and a tab come first
            raise ReaderError(f".ann line {lineno} does not parse (want an id such as T1 or A1 "
                              "and a tab first)", **where)
        if kind != "T":
            if kind not in _IGNORED:
                raise ReaderError(f".ann line {lineno} does not parse (unknown line kind)", **where)
            ignored[kind] += 1
            continue
        fields = line.split("\t")
        if len(fields) < 2 or " " not in fields[1]:
            raise ReaderError(f".ann line {lineno} does not parse (want 'T<n><TAB>LABEL START END"
                              "<TAB>text')", **where)
        label, _, offsets = fields[1].partition(" ")
        frags = []
        for frag in offsets.split(";"):
            m = _FRAGMENT.match(frag.strip())
            if not m:
                raise ReaderError(f".ann line {lineno}: offsets do not parse (want 'START END', "
                                  "fragments separated by ';')", **where)
            if max(len(m.group(1)), len(m.group(2))) > _MAX_DIGITS:  # int() refuses 4,300+ digits
                raise ReaderError(f".ann line {lineno}: an offset of more than {_MAX_DIGITS} digits, outside "
                                  f"any text (length {len(text)})", **where)
            start, end = int(m.group(1)), int(m.group(2))
            if not (0 <= start < end <= len(text)):
                raise ReaderError(f".ann line {lineno}: span [{start}, {end}) is empty, reversed or "
                                  f"outside the text (length {len(text)})", offset=start, **where)
            frags.append((start, end))
        if check_text and len(fields) >= 3:
            surface = " ".join(text[s:e] for s, e in frags)
            if _WS.sub(" ", surface) != _WS.sub(" ", fields[2]):
                raise ReaderError(f".ann line {lineno}: text field differs from the .txt at the "
                                  "given offsets (pass check_text=False to ignore)",
                                  offset=frags[0][0], **where)
        target = resolve_label(label, label_map, scheme)
        if target is None:
            raise SchemaError(f".ann line {lineno}: unknown label (of {described(label)}; see that "
                              f"line); known subtypes: {schema.known_labels(scheme)} (pass label_map, "
                              "or scheme=any to take labels as written)", offset=frags[0][0], **where)
        if target is False:
            dropped += 1
            continue
        fragments += len(frags) - 1
        spans.extend(Span(s, e, *target) for s, e in frags)
    return spans, {"fragments": fragments, "ignored": dict(ignored), "dropped": dropped}


@READERS.register("brat")
def read_brat(path, report, label_map=None, check_text: bool = True, scheme=None, encoding: str | None = None):
    """Read a folder of BRAT ``.txt``/``.ann`` pairs (sorted by name), or one ``.txt``/``.ann`` file.

    Suffixes match in any case (``a.TXT`` with ``a.ANN``); two ``.ann`` files for one
    ``.txt`` (``a.ann`` and ``a.ANN``) fail that document rather than pick one.
    ``scheme``: the labels allowed (module docstring); ``encoding``: of the files without a
    byte-order mark (default UTF-8).
    """
    scheme = schema.get(scheme)
    encoding = check_encoding(encoding)
    lmap = load_label_map(label_map, scheme)
    path = Path(path)
    if path.suffix.lower() == ".ann":
        path = path.with_suffix(".txt")
    texts = list_files(path, ".txt")
    folder = path if path.is_dir() else path.parent
    anns: dict[str, list[Path]] = {}
    for p in folder.iterdir():
        if p.suffix.lower() == ".ann" and (path.is_dir() or p.stem == path.stem):
            anns.setdefault(p.stem, []).append(p)
    for txt in texts:
        doc_id = txt.stem
        text = read_text_file(txt, report, doc_id, keep_bom=True, encoding=encoding)
        if text is None:
            continue
        ann_paths = sorted(anns.get(doc_id, ()))
        if len(ann_paths) > 1:
            report(ReaderError(f"{len(ann_paths)} annotation files for one text: "
                               f"{', '.join(p.name for p in ann_paths)}", path=txt, doc_id=doc_id))
            continue
        meta = {"source": str(txt), "file": txt.name, "annotated": bool(ann_paths)}
        spans: list[Span] = []
        if ann_paths:
            ann = read_text_file(ann_paths[0], report, doc_id, encoding=encoding)
            if ann is None:
                continue
            try:
                spans, counts = parse_ann(ann, text, ann_paths[0], doc_id, lmap, check_text, scheme)
            except (ReaderError, SchemaError) as exc:
                report(exc)
                continue
            except Exception as exc:  # a parser bug costs this document only, and names it
                report(ReaderError(f"unexpected {type(exc).__name__} in the .ann file", path=ann_paths[0],
                                   doc_id=doc_id))
                continue
            meta.update({f"brat_{k}": v for k, v in counts.items()})
        yield Document(doc_id, text, spans, meta)
    if path.is_dir():  # annotations whose text is missing must not vanish silently
        stems = {t.stem for t in texts}
        for orphan in sorted(p for ps in anns.values() for p in ps if p.stem not in stems):
            report(ReaderError("annotations without their .txt file", path=orphan, doc_id=orphan.stem))


def render_ann(doc: Document) -> str:
    """The ``.ann`` content for ``doc``: one ``T`` line per span, labelled with its subtype."""
    return "".join(f"T{i}\t{sp.subtype} {sp.start} {sp.end}\t{_WS.sub(' ', doc.surface(sp))}\n"
                   for i, sp in enumerate(doc.spans, 1))


@WRITERS.register("brat")
class BratWriter(FolderWriter):
    """Write ``<doc_id>.txt`` (the exact text) and ``<doc_id>.ann``."""

    suffix = ".txt"

    def suffixes(self) -> tuple[str, ...]:
        return (".txt", ".ann")

    def render(self, doc: Document) -> dict:
        return {".txt": doc.text, ".ann": render_ann(doc)}
