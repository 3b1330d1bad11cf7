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

import importlib
from pathlib import Path
from typing import TYPE_CHECKING

from ..document import Document, Span
from ..errors import ConfigError
from ..io import WRITERS, FolderWriter
from ..io.i2b2 import render as render_i2b2
from ..registry import PassesOn
from ..schema import get
from .defaults import SurrogateOptions, option_parameters
from .mapping import check_suffix
from .redact import mask, redact, scheme_templates
from .spans import LINE_BREAKS, deid_spans, has_line_break
from .spans import propagate as add_repeats

if TYPE_CHECKING:
    from .surrogate import Surrogator

#: The surrogates' module, imported by name when a surrogate writer is made (issue 37: a
#: redacted or masked ``tag`` does not import it).
SURROGATES = "crfdeid.deid.surrogate"

#: The marker of ``mark=true``: every surrogate is written ``⟦like this⟧``.
DEFAULT_MARK = "\u27e6{}\u27e7"


def _stdout_text(text: str, to_file: bool) -> str:
    """The text as written: on standard output a note that does not end its last line gets a
    newline, so that notes do not run together (a line as ``str.splitlines`` counts them)."""
    return text if to_file or not text or text[-1] in LINE_BREAKS else text + "\n"


#: What the spans of the note a de-identifying writer of this process rendered last became:
#: ``{doc_id: {(start, end): text written}}`` (for ``tag --explain FILE``; one note, in memory).
_LAST: dict[str, dict[tuple[int, int], str]] = {}


def _remember(spanned: Document, new: Document) -> Document:
    """Keep what each span of ``spanned`` became in ``new`` and return ``new``: the spans the writers replace
    (:func:`~crfdeid.deid.spans.deid_spans`: overlaps merged, cut at line breaks) one for one with the output's,
    in order (none kept when they are not as many). A span cut at a line break is its pieces (before 2026-11-28 a
    note with one was none, and :mod:`crfdeid.experiments.madeup_outputs` read its stretches from the text alone:
    ``DARIO JURKOVIĆ OIB 73633853454`` written as a placeholder and a number was read as ``DARIO`` and
    ``JURKOVIĆ OIB 73633853454``, the label falsified)."""
    _LAST.clear()
    replaced = deid_spans(spanned)
    if len(replaced) == len(new.spans):
        _LAST[spanned.doc_id] = {(a.start, a.end): new.text[b.start:b.end] for a, b in zip(replaced, new.spans)}
    return new


def became(doc_id: str) -> dict[tuple[int, int], str] | None:
    """What each span (``(start, end)`` in the original text, repeats included) of the note
    ``doc_id`` became in the output a de-identifying writer of this process wrote last (a
    placeholder, the masked or the surrogate text); None for another note or none rendered."""
    return _LAST.get(doc_id)


class _DeidWriter(FolderWriter):
    suffix = ".txt"

    def transform(self, doc: Document) -> Document:
        raise NotImplementedError

    def render(self, doc: Document) -> str | dict:
        return _stdout_text(self.transform(doc).text, self.out is not None)


def _scheme(scheme):
    return None if scheme is None else get(scheme)


@WRITERS.register("redacted")
class RedactedWriter(_DeidWriter):
    """Placeholders: ``style`` (``mimic``, ``xyz``, ``category``) or ``template`` (``[{subtype}]``).

    With a ``scheme`` (a :class:`~crfdeid.schema.Scheme`; ``tag`` passes its model's) and no
    ``style`` or ``template`` given, each label's declared placeholder is written, the
    ``mimic`` style's for labels that declare none.
    """

    def __init__(self, out, style: str | None = None, template: str | None = None,
                 propagate: bool = True, scheme=None):
        super().__init__(out)
        self.scheme = _scheme(scheme)
        chosen = template or style
        self.style = (scheme_templates(self.scheme) if chosen is None and self.scheme is not None
                      else chosen or "mimic")
        self.propagate = propagate

    def transform(self, doc):
        spanned = add_repeats(doc, scheme=self.scheme) if self.propagate else doc
        return _remember(spanned, redact(spanned, self.style))


@WRITERS.register("masked")
class MaskedWriter(_DeidWriter):
    """Same-length masking with ``char`` (offsets and layout unchanged)."""

    def __init__(self, out, char: str = "X", propagate: bool = True, scheme=None):
        super().__init__(out)
        self.char, self.propagate, self.scheme = char, propagate, _scheme(scheme)

    def transform(self, doc):
        spanned = add_repeats(doc, scheme=self.scheme) if self.propagate else doc
        return _remember(spanned, mask(spanned, self.char))


@WRITERS.register("surrogate")
class SurrogateWriter(_DeidWriter):
    """Surrogate text; with ``xml=True`` also ``<doc_id>.xml`` (i2b2) carrying the new spans.

    Options: ``seed`` (tests and demonstrations only) or ``key``, ``propagate``
    (also replace unannotated repeats of a PHI string, default on), ``mapping``
    (path of a new PHI mapping file written on close, outside the output
    folder; off by default), ``mark`` (``True`` writes every surrogate as
    ``⟦surrogate⟧``; a string with one ``{}`` and no letter, digit or line
    break, such as ``[[{}]]``, gives another marker; the XML spans cover the
    surrogate without its marker). ``scheme``: the spans' label scheme; ``kinds``
    (``guess`` or ``LABEL:KIND,...``: generators for labels of a scheme of its own). ``options``: a
    :class:`~crfdeid.deid.defaults.SurrogateOptions` (what the surrogates may say: ``date_shift``,
    ``age_over_89``, ``age_bucket``, ``dob``, ``unparsed_dates``, ``min_confidence``, ``date_order``,
    ``proven``, ``proven_names``, ``proven_model``), or its fields by name (``-o proven=off``), handed
    to :class:`~crfdeid.deid.Surrogator` as they are.
    """

    __signature__ = PassesOn(option_parameters)  # its **given: the option fields, for the registry's check

    def __init__(self, out, seed=None, key=None, xml: bool = False, propagate: bool = True, mapping=None,
                 mark=False, scheme=None, kinds=None, options: SurrogateOptions | None = None, **given):
        self.marker = mark_template(mark)
        if mapping:  # an existing mapping is refused on close unless overwrite (set by io.writer)
            check_mapping_path(mapping, None if out is None or str(out) == "-" else out, exists_ok=True)
        surrogator_class = importlib.import_module(SURROGATES).Surrogator
        # the surrogator refuses a scheme's labels it has no generator for
        surrogator = surrogator_class(seed=seed, key=key, scheme=_scheme(scheme), kinds=kinds,
                                      options=SurrogateOptions.of(options, **given))
        super().__init__(out)
        self.surrogator = surrogator
        self.scheme = surrogator.scheme  # with the generators kinds gave
        self.xml, self.propagate, self.mapping = xml, propagate, mapping
        if mapping:
            surrogator.keep_mapping()

    def learn(self, doc) -> None:
        """Learn a note's originals before any of its patient's surrogates is drawn: a caller that
        learns every note of a batch first (``tag`` does) gives each original of a patient one
        surrogate, whatever the notes' order (:meth:`Surrogator.learn`)."""
        self.surrogator.learn(self._spanned(doc))

    def _spanned(self, doc):
        return add_repeats(doc, scheme=self.scheme) if self.propagate else doc

    def transform(self, doc):
        spanned = self._spanned(doc)
        new = self.surrogator.surrogate(spanned)
        return _remember(spanned, marked(new, self.marker) if self.marker else new)

    def suffixes(self) -> tuple[str, ...]:
        return (".txt", ".xml") if self.xml else (".txt",)

    def render(self, doc):
        new = self.transform(doc)
        if not self.xml:
            return _stdout_text(new.text, self.out is not None)
        return {".txt": new.text, ".xml": render_i2b2(new)}

    def summary(self) -> str:
        """One line for the command's report: dates that no pattern explains (by document id and
        offset, never text) and spans given a placeholder."""
        c = self.surrogator.summary()
        where = ", ".join(f"{u['doc_id']}@{u['offset']}" for u in c["dates_unparsed_at"][:20])
        more = "" if c["dates_unparsed"] <= 20 else f" and {c['dates_unparsed'] - 20} more"
        return (f"{c['date_order']}\n{c['date_order_notes']}\n"
                f"surrogates: {c['date_groups']} date(s) moved by their patient's offset except "
                f"{c['dates_unparsed']} not parsed, written as {self.surrogator.unparsed_dates}"
                + (f" ({where}{more})" if where else "")
                + f"; {c['birth_dates_generalized']} birth date(s) of patients over 89 generalized; "
                f"placeholders for {c['uncertain_spans']} uncertain span(s), {c['clinical_values']} "
                f"clinical value(s), {c['clinical_terms']} span(s) of clinical vocabulary and {c['digits_in_words']} "
                f"span(s) of a name or place that hold digits, {c['not_confident_spans']} span(s) not confidently an "
                f"identifier of their type ({c['clinical_forms']} of them a score, grade, stage, class, code, bed or "
                f"phrase in capitals{_gates(c['narrow_gates'])}){_by_type(c['not_confident_by_type'])}"
                + (f", {c['unproven_spans']} span(s) whose type no fixed form, confidence of "
                   f"{self.surrogator.proven} or listed name proves{_by_type(c['unproven_by_type'])}"
                   if self.surrogator.proven is not None else "")
                + f"; {c['digits_outside_safe_harbor']} digit(s) changed outside the spans of a Safe Harbor category"
                + (f"; generators from kinds: {', '.join(self.surrogator.kinds_given)}"
                   if self.surrogator.kinds_given else ""))

    def close(self):
        if self.mapping:
            write_mapping(self.surrogator, self.mapping, overwrite=self.overwrite)
        super().close()


def _by_type(counts: dict) -> str:
    """The spans not confidently an identifier, by type, for the run summary (empty without any).

    >>> _by_type({"DOCTOR": 3, "DATE": 1}), _by_type({})
    (' [by type: DATE 1, DOCTOR 3]', '')
    """
    return f" [by type: {', '.join(f'{t} {n}' for t, n in sorted(counts.items()))}]" if counts else ""


def _gates(counts: dict) -> str:
    """The spans a narrow gate held (:mod:`crfdeid.deid.gates`), by gate, for the run summary (empty without any).

    >>> _gates({"fraction": 2, "number_label": 1}), _gates({})
    (', 3 held by a narrow gate: fraction 2, number_label 1', '')
    """
    by_gate = ", ".join(f"{g} {n}" for g, n in sorted(counts.items()))
    return f", {sum(counts.values())} held by a narrow gate: {by_gate}" if counts else ""


def write_mapping(surrogator: Surrogator, path, overwrite: bool = False) -> None:
    """Write the original -> surrogate table (PHI!) as CSV or TSV by the file's suffix
    (:mod:`crfdeid.deid.mapping`, mode 0600); an existing file is replaced only with ``overwrite``."""
    surrogator.keep_mapping().write(path, overwrite=overwrite)


def check_mapping_path(path, out=None, exists_ok: bool = False) -> None:
    """Refuse a mapping file not named ``.csv`` or ``.tsv``, one that exists already (unless
    ``exists_ok``) or one that would land inside the output folder ``out``.

    The mapping holds original PHI: it must never be released with the
    surrogates, nor replace a file the user has without being asked to.
    """
    check_suffix(path)
    path = Path(path)
    if path.exists() and not exists_ok:
        raise ConfigError("the mapping file exists already; it is not overwritten", path=path)
    if out is not None:
        where, folder = path.resolve(), Path(out).resolve()
        if where == folder or folder in where.parents:
            raise ConfigError("the mapping file (original PHI) must not be written inside the "
                              "output folder", path=path)


def mark_template(mark) -> str | None:
    """The marker template of the ``mark`` option (``None`` for no marking)."""
    if mark is None or mark is False:
        return None
    if mark is True:
        return DEFAULT_MARK
    if (not isinstance(mark, str) or mark.count("{}") != 1 or has_line_break(mark)
            or any(c.isalnum() for c in mark.replace("{}", ""))):
        raise ConfigError("mark= wants true or a marker with one {} and no letter, digit or line "
                          "break, e.g. mark='[[{}]]'")
    return mark


def marked(doc: Document, template: str) -> Document:
    """``doc`` with every span's text wrapped in ``template``; spans cover the inner text.

    >>> from crfdeid.document import make_span
    >>> marked(Document("1", "Seen by Ann.", [make_span(8, 11, "DOCTOR")]), "[[{}]]").text
    'Seen by [[Ann]].'
    """
    before, after = template.split("{}")
    parts, spans, pos, delta = [], [], 0, 0
    for sp in doc.spans:
        parts += [doc.text[pos:sp.start], before, doc.text[sp.start:sp.end], after]
        delta += len(before)
        spans.append(Span(sp.start + delta, sp.end + delta, sp.category, sp.subtype))
        delta += len(after)
        pos = sp.end
    parts.append(doc.text[pos:])
    return Document(doc.doc_id, "".join(parts), spans, dict(doc.meta))
