"""Synthetic i2b2-style clinical notes with gold PHI spans, for tests, demos and a starter model.

Patients are made up from the gazetteers (Census names, GeoNames places,
fictional hospitals and organizations); each has several notes (ids
``NNN-NN``, record prefix = patient) that mention the same names, dates and
identifiers. Note kinds: telegraphic ICU nursing notes (often ALL CAPS),
discharge summaries and clinic letters. All 25 i2b2 subtypes occur, in many
surface forms, next to look-alike non-PHI (Coumadin, Swan-Ganz, 120/80...).

Deterministic: the documents depend only on ``seed`` (each patient has its own
``random.Random``), and ``generate(n, seed)`` is a prefix of
``generate(m, seed)`` for ``n < m``.

>>> docs = generate(3, seed=13)
>>> [d.doc_id for d in docs]
['100-01', '100-02', '101-01']
>>> docs == generate(3, seed=13)
True
"""

from __future__ import annotations

import datetime as dt
import functools
import random
from collections.abc import Iterator

from ..document import Document
from ..errors import ReaderError
from ..io import READERS
from . import persona
from .builder import NoteBuilder, recased_text
from .clinlines import clinical_note
from .dictated import dictated_note
from .discharge import discharge_summary
from .historydates import history_dates_note, history_events_note
from .letter import letter
from .mix import PLAIN, mix_note
from .nameforms import name_forms_note
from .nursing import nursing_note
from .operative import operative_note
from .signlines import signed_note
from .social import social_note
from .specialty import specialty_note
from .values import values_note
from .ward import roughen, ward_note
from .world import world_note
from .worlddates import world_dates_note

__all__ = ["generate", "iter_documents", "NoteBuilder"]

#: Note kinds and their relative frequency (nursing notes are what the default model meets most).
KINDS = {"nursing": (nursing_note, 55), "discharge": (discharge_summary, 30), "letter": (letter, 15)}
#: Styles of corpus: note kinds and weights (``ward``: :mod:`crfdeid.synth.ward`, ``mix``: :mod:`crfdeid.synth.mix`).
STYLES = {"i2b2": KINDS,
          "ward": {"ward": (ward_note, 94), "discharge": (discharge_summary, 3), "letter": (letter, 3)},
          "mix": {"mix": (mix_note, 62), "ward": (ward_note, 15), "nursing": (nursing_note, 12),
                  "discharge": (discharge_summary, 7), "letter": (letter, 4)}}
#: ``mix_vocab``: the ``mix`` notes (same draws) with the public clinical vocabulary of issue 34 added
#: (eponyms, brands, departments, abbreviations, scores: :data:`crfdeid.synth.vocab.PUBLIC_LINES`).
STYLES["mix_vocab"] = dict(STYLES["mix"], mix=(functools.partial(mix_note, vocab=True), 62))
#: ``mix_icu``: the ``mix`` notes (same draws) with ICU shorthand added (fractions, strengths, scores,
#: never PHI, and month/day dates in telegraphic context or glued to a neighbour, PHI:
#: :data:`crfdeid.synth.vocab.ICU_LINES` and :data:`~crfdeid.synth.vocab.ICU_DATED`).
STYLES["mix_icu"] = dict(STYLES["mix"], mix=(functools.partial(mix_note, icu=True), 62))
#: ``world``: triage, discharge, radiology, psychiatry, social work, pharmacy, telephone notes, letters
#: and lower-case ward notes of US, UK, IE, AU, CA and IN patients (:mod:`crfdeid.synth.world`).
STYLES["world"] = {"world": (world_note, 100)}
#: ``specialty``: operative, pathology, radiology, cardiology, obstetric, urology, orthopaedic, EMS, genetics,
#: psychiatry, allergy/ENT, prior-authorisation, portal, handover and referral notes of eleven countries, their
#: clinical words from sourced lists (:mod:`crfdeid.synth.specialty`, issue 58).
STYLES["specialty"] = {"specialty": (specialty_note, 100)}
#: ``operative``: dictated US operative reports with a long narrative, UK operation notes, endoscopy reports and
#: consults, their anatomy, devices, approaches, instruments and brands from sourced lists
#: (:mod:`crfdeid.synth.operative`, issue 58 item 1).
STYLES["operative"] = {"operative": (operative_note, 100)}
#: ``dictated``: dictated US transcriptions of non-operative specialties (histories and physicals, consults,
#: discharge summaries, clinic letters, SOAP notes), their diagnoses, drugs, signs, scores and labs from
#: sourced lists (:mod:`crfdeid.synth.dictated`, issue 58 item 1).
STYLES["dictated"] = {"dictated": (dictated_note, 100)}
#: ``social``: social histories, referral letters and forms that name employers, schools, care homes, charities
#: and insurers, addresses of five European countries in their order, hospitals by their initials and ages over
#: 89, beside eponyms, brands, scores and departments left unlabelled (:mod:`crfdeid.synth.social`, issue 58).
STYLES["social"] = {"social": (social_note, 100)}
#: ``values``: specialty notes dense in clinical fractions (acuity, power, murmur grades, Apgar, Allred, gestation),
#: scores and ward numbers, never PHI, beside dates and month/day dates in the same layouts
#: (:mod:`crfdeid.synth.values`, issue 58 item 1).
STYLES["values"] = {"values": (values_note, 100)}
#: ``specialty_ids`` and ``operative_ids``: the ``specialty`` and ``operative`` notes (same draws) with one or two
#: lines naming national numbers of python-stdnum's catalogue, other numbers by their labels, and organisations and
#: addresses of many countries, beside clinical look-alikes (:mod:`crfdeid.synth.idlines`, issue 58 items 1-2).
STYLES["specialty_ids"] = {"specialty": (functools.partial(specialty_note, ids=True), 100)}
STYLES["operative_ids"] = {"operative": (functools.partial(operative_note, ids=True), 100)}
#: ``clinical``: specialty notes of headings, values with units, scores, eponyms, roles and credentials and
#: words that are also names, never PHI, beside the note's PHI (:mod:`crfdeid.synth.clinlines`, issue 58).
STYLES["clinical"] = {"clinical": (clinical_note, 100)}
#: ``clinical_phi``: the same without the lines of words that are also names, with a named service of the hospital
#: and the hospital in capitals (PHI) beside the departments' headings.
STYLES["clinical_phi"] = {"clinical": (functools.partial(clinical_note, phi=True), 100)}
#: ``clinical_look``: the ``clinical`` notes with combo16's falsified forms written as not PHI (eponyms in clinical
#: terms, fractions and years that are no date, imaging with its body part, post-nominals:
#: :mod:`crfdeid.synth.looklines`, look16).
STYLES["clinical_look"] = {"clinical": (functools.partial(clinical_note, look=True), 100)}
#: ``signed``: charts and timed nursing lines signed with the staff's initials (a column, a row, a line's end, brackets
#: after a name, a key), beside look-alike abbreviations in the same places (:mod:`crfdeid.synth.signlines`, sign39).
STYLES["signed"] = {"signed": (signed_note, 100)}
#: ``signed_dated``: the same notes, every one naming its staff, none in lower case, the day's date in charts and
#: timed lines now and then (the ``signed`` notes cost the ICU member month/day dates beside their fractions).
STYLES["signed_dated"] = {"signed": (functools.partial(signed_note, dated=True), 100)}
#: ``signed_abbrevs``: ``signed_dated``, all as written, with capitals that are no one's initials where initials stand.
STYLES["signed_abbrevs"] = {"signed": (functools.partial(signed_note, dated=True, abbrevs=True), 100)}
#: ``signed_roles``: ``signed_abbrevs`` with lines of a role, a service or a label before a staff name, plain.
STYLES["signed_roles"] = {"signed": (functools.partial(signed_note, dated=True, abbrevs=True, roles=True), 100)}
#: ``name_forms``: short ward, clinic, discharge and handover notes with the five forms a leak study found the shipped
#: model misses (names with particles, a first name or nickname alone, ordinal ages over 89, ``u of x`` hospitals,
#: street addresses in capitals), beside look-alikes, often in lower case or capitals (:mod:`crfdeid.synth.nameforms`).
STYLES["name_forms"] = {"name_forms": (name_forms_note, 100)}
#: ``history_dates``: short clinic, consult and ward notes whose history lines date their items (a month/day glued to
#: a heading's colon, ``HX:8/30``; a past item's year, ``S/P CABG '92``) beside values glued the same way that are no
#: date (``BP:120/80``, ``POWER:4/5``), often in capitals (:mod:`crfdeid.synth.historydates`, learn54).
STYLES["history_dates"] = {"history_dates": (history_dates_note, 100)}
#: ``history_events``: ``history_dates``' notes with sentences of past events dated by a month and year (``Graft
#: re-occluded in 11/91``) beside fractions in the same sentences that are no date (learn55).
STYLES["history_events"] = {"history_events": (history_events_note, 100)}
#: ``world_dates``: short notes whose dates are written in one language's own words and forms of the Unicode CLDR
#: (a year with its marker, a declined month, ``14 октября 2024 г.``, ``2024年10月14日``), beside that language's
#: spans of time that are no date (``12 дней назад``), often in capitals (:mod:`crfdeid.synth.worlddates`, learn56).
STYLES["world_dates"] = {"world_dates": (world_dates_note, 100)}
#: Styles whose notes are kept as written (:func:`~crfdeid.synth.ward.roughen` would make a particle a pseudo-word).
AS_WRITTEN = frozenset({"i2b2", "name_forms", "history_dates", "history_events", "world_dates"})
FIRST_RECORD = 100


def _patient_notes(seed: int, index: int, style: str = "i2b2") -> list[Document]:
    kinds = STYLES[style]
    stream = style.partition("_")[0]  # a variant (mix_icu) draws as its style (mix), then adds its lines
    rng = random.Random(f"crfdeid-synth:{seed}:{index}" if style == "i2b2"
                        else f"crfdeid-synth-{stream}:{seed}:{index}")
    record = FIRST_RECORD + index
    p = persona.patient(rng, record)
    names = list(kinds)
    weights = [kinds[k][1] for k in names]
    n_notes = rng.choice([1, 2, 2, 3, 3, 4, 5])
    docs = []
    for note in range(1, n_notes + 1):
        kind = rng.choices(names, weights)[0]
        later = rng.randint(2, 9) if kind not in ("nursing", "ward", "mix") else 0
        day = p.admit + dt.timedelta(days=note - 1 + later)
        b = NoteBuilder()
        b.line()  # i2b2 TEXT usually starts with a line break
        kinds[kind][0](rng, p, day, b)
        doc = b.build(f"{record:03d}-{note:02d}", {"note_type": kind})
        docs.append(doc if style in AS_WRITTEN else roughen(rng, doc, plain=PLAIN if stream == "mix" else frozenset(),
                                                        staff=stream == "signed"))
    return docs


def iter_documents(n: int, seed: int = 0, style: str = "i2b2") -> Iterator[Document]:
    """Yield ``n`` synthetic documents for ``seed``, patient by patient, in a :data:`STYLES` style."""
    if n < 0:
        raise ValueError(f"number of documents must be >= 0, got {n}")
    if style not in STYLES:
        raise ValueError(f"unknown synthetic style {style!r}; known: {', '.join(STYLES)}")
    made, index = 0, 0
    while made < n:
        for doc in _patient_notes(seed, index, style):
            if made == n:
                return
            yield doc
            made += 1
        index += 1


def generate(n: int, seed: int = 0, style: str = "i2b2") -> list[Document]:
    """``n`` synthetic documents with gold spans, deterministic for ``seed``.

    Parameters
    ----------
    n : int
        Number of documents.
    seed : int
        Random seed; the same seed gives the same documents on every machine.
    style : str
        ``"i2b2"`` (default), ``"ward"`` (closer to real ward notes, :mod:`crfdeid.synth.ward`) or
        ``"mix"`` (ward notes in every way a hospital writes them, :mod:`crfdeid.synth.mix`), its
        variants ``"mix_vocab"`` and ``"mix_icu"``, ``"world"`` (other note kinds and countries,
        :mod:`crfdeid.synth.world`), ``"specialty"`` (notes of every specialty, their clinical words
        from sourced lists: :mod:`crfdeid.synth.specialty`), ``"operative"`` (dictated operative,
        endoscopy and consult notes: :mod:`crfdeid.synth.operative`) ``"dictated"`` (dictated notes
        of non-operative specialties: :mod:`crfdeid.synth.dictated`) or ``"social"`` (social histories,
        letters and forms naming organisations, European addresses, hospital initials and ages over 89:
        :mod:`crfdeid.synth.social`) or ``"values"`` (notes dense in clinical fractions, scores and unit
        numbers beside dates: :mod:`crfdeid.synth.values`).

    Returns
    -------
    list of Document
        Ids ``NNN-NN`` (several notes per patient), spans aligned to tokens.
    """
    return list(iter_documents(n, seed, style))


def parse_source(path: str) -> tuple[int, int, str]:
    """``"N,SEED[,STYLE[,CASE:PCT]]"`` (or ``"N"``, seed 0, style i2b2) as used by ``read("synth:N,SEED")``;
    the casing field is checked and read by :func:`parse_recase`.

    >>> parse_source("1000,13"), parse_source("50,1,ward"), parse_source("50,1,ward,lower:30")
    ((1000, 13, 'i2b2'), (50, 1, 'ward'), (50, 1, 'ward'))
    """
    n, _, rest = path.partition(",")
    seed, _, style = rest.partition(",")
    style, _, casing = style.partition(",")
    style = style or "i2b2"
    try:
        got = int(n), int(seed or 0), style
    except ValueError:
        got = None
    if got is None or style not in STYLES:
        raise ReaderError(f"synth source must be N, N,SEED, N,SEED,STYLE or N,SEED,STYLE,CASE:PCT (integers; "
                          f"style one of {', '.join(STYLES)}), got {path!r}", path=path)
    parse_recase(path)
    return got


def parse_recase(path: str) -> tuple[str, int]:
    """The casing field of ``"N,SEED,STYLE,CASE[:PCT]"``: ``(CASE, PCT)``, ``("", 0)`` without one.

    ``CASE`` is ``lower`` or ``upper``; ``PCT`` (0 to 100, default 100) the share of notes recased.

    >>> parse_recase("300,13,specialty,lower:30"), parse_recase("5,1,mix,upper"), parse_recase("5,1")
    (('lower', 30), ('upper', 100), ('', 0))
    """
    field = path.split(",", 3)[3] if path.count(",") >= 3 else ""
    if not field:
        return "", 0
    case, colon, pct = field.partition(":")
    share = int(pct) if pct.isdigit() else -1 if colon else 100
    if case not in ("lower", "upper") or not 0 <= share <= 100:
        raise ReaderError(f"synth casing must be lower or upper, optionally :PCT (0 to 100), got {field!r} "
                          f"in {path!r}", path=path)
    return case, share


def recase_share(docs: Iterator[Document], seed: int, case: str, share: int) -> Iterator[Document]:
    """``docs`` with ``share`` percent of them in ``case`` (``lower``/``upper``), the rest as drawn.

    A note is chosen by its id and ``seed`` alone (the notes' own draws are untouched, so
    ``synth:N,S,STYLE,lower:P`` is ``synth:N,S,STYLE`` with some notes recased); every character
    keeps its length (:func:`crfdeid.synth.builder.recased_text`), so the gold spans stay right.
    """
    for doc in docs:
        if share and random.Random(f"crfdeid-synth-case:{seed}:{doc.doc_id}").random() * 100 < share:
            doc = Document(doc.doc_id, recased_text(doc.text, case), list(doc.spans),
                           dict(doc.meta, casing=case))
        yield doc


@READERS.register("synth")
def read_synth(path: str, report, **options) -> Iterator[Document]:
    """Reader ``synth:N,SEED[,STYLE[,CASE:PCT]]``: ``N`` generated documents, nothing read from disk;
    with ``CASE:PCT`` (``lower:30``) that share of them lower- or upper-cased (:func:`recase_share`)."""
    try:
        n, seed, style = parse_source(path)
        case, share = parse_recase(path)
    except ReaderError as err:
        report(err)
        return
    yield from recase_share(iter_documents(n, seed, style), seed, case, share)
