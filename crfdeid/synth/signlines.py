"""The ``signed`` style: charts and nursing lines signed with the staff's initials (issue 58, sign39).

The made-up sets of other countries leave most of their staff where a nurse signs with her initials
and no table says so to a rule (docs/history/check39-rule.md): at a timed line's end (``... settled.
– MR``), in brackets after a name (``Agnieszka Soltysik (AS)``), in a chart's last cell or in a row
of its own under the chart (``Sign | AB | AB | CD``), in a key under it (``AB = Anna Berg, RN``), after
``by`` or two together for a checked dose (``AB/CD``). ``synth:N,SEED,signed`` writes such notes for
the patients of the ``specialty`` style's eleven countries, so that a model learns these places:

* **charts** of observations, fluids, insulin, neurological signs or medicines in ``|`` cells, tabs or
  blanks, a column or a row of the staff's initials (DOCTOR), and in one chart of three a last column
  of routes, sites or results instead (``PO``, ``L abd``, ``held``: never PHI);
* **timed lines** (observations, doses, turns, sleep) ending in the signing nurse's initials after a
  dash, a slash, in brackets or after ``by``, beside lines ending in a clinical abbreviation or a
  word (``- NAD``, ``(PRN)``, ``- settled``: never PHI) in the same places;
* **staff lines**: a nurse's name with her initials in brackets, a key of initials and names, a dose
  checked by two (``Dbl checked AB/CD``).

The staff are the note's own (the patient's doctors of :func:`crfdeid.synth.specialty.specialty_patient`
and nurses drawn as they are), their initials those of their names (nine notes in ten name them in a staff line;
the names are kept as written where the other styles roughen names, :func:`crfdeid.synth.ward.roughen`); the note
is written as drawn, in lower case or in capitals. Two variants (:func:`signed_note`'s options) mend what the
first taught a model: ``signed_dated`` and ``signed_abbrevs`` (docs/history/sign39.md). Layout, events and
look-alikes are written for crfdeid (MIT); drug names, abbreviations, measurements and gene symbols come from
``gazetteers/`` (sourced).
"""

from __future__ import annotations

import datetime as dt
import random
from functools import cache

from ..features.initials import _plain_initials
from . import persona as ps
from . import specialty as sp
from . import world as wd
from .builder import NoteBuilder
from .phrases import fill_nested
from .specialty_vocab import VOCAB

#: Headers of a chart's column (or row) of initials, in the languages the sets write.
SIGN_HEADS = ("Sign", "Sign.", "Init", "Initials", "RN", "Nurse", "Sig", "Signature", "Chk", "Paraaf", "Visum",
              "Firma", "Hdz", "Ass.", "Rubrica", "Podpis", "Sign RN", "By")
#: Drugs of the timed lines beside the sourced list's (written for crfdeid: common ward drugs).
WARD_DRUGS = ("paracetamol", "morphine", "oxycodone", "ondansetron", "furosemide", "enoxaparin", "heparin",
              "metoclopramide", "lorazepam", "haloperidol", "salbutamol", "ipratropium", "insulin aspart",
              "tramadol", "cyclizine", "senna", "lactulose", "amoxicillin", "piperacillin-tazobactam", "ceftriaxone")
ROUTES = ("PO", "IV", "SC", "IM", "NG", "PR", "SL", "NEB", "TOP", "PEG", "IVI")
SITES = ("L abd", "R abd", "L thigh", "R thigh", "abdo", "L arm", "R arm", "buttock")
RESULTS = ("held", "refused", "given", "Y", "N", "NBM", "asleep", "nil", "n/a")
#: Endings of a timed line that are no initials (clinical abbreviations and words, never PHI).
PLAIN_ENDS = ("NAD", "nil", "PRN", "R/V", "IV", "PO", "settled", "stable", "obs", "NBM", "OOB", "IDC", "BNO",
              "PU", "BO", "N/V", "SOB", "TTO", "pain 2/10", "GCS 15", "ward round")
#: Timed events (``{a|b}`` and ``{3-9}`` drawn by :func:`crfdeid.synth.phrases.fill_nested`; ``<drug>`` a drug).
EVENTS = (
    "BP {92-165}/{48-96}, HR {54-124}, RR {12-28}, SpO2 {89-100} % {on RA|on {1-4} L NC|on 28 % VM}",
    "T {35-38}.{0-9}, HR {60-118}, NEWS {0-7}", "repositioned {L|R} side, pressure areas intact",
    "<drug> {1 g|500 mg|5 mg|10 mg|2.5 mg|40 mg} {PO|IV|SC} given for {pain {3-8}/10|nausea|agitation}",
    "BGL {4-17}.{0-9} mmol/L, {no insulin|{2-8} units SC}", "GCS {9-15}, pupils {2-4} mm PERL",
    "urine {20-320} ml via IDC", "slept {in short naps|well|poorly}", "IV {0.9 % NaCl|Hartmann's|5 % glucose} "
    "{42-125} ml/h", "cannula resited {L|R} forearm", "{settled|restless|calling out}, reoriented",
    "fluid balance {+|-}{50-900} ml", "pain {0-9}/10, {oxycodone|morphine} {2.5|5} mg PO", "mouth care given",
    "dressing changed, {dry|ooze+|clean}", "mobilised to chair with {1|2} assist", "obs within range",
)
#: Charts: the columns before the sign column and how each cell is drawn.
CHARTS = {
    "vitals": ("BP|HR|RR|SpO2|Temp|Pain", ("{92-165}/{48-96}", "{54-124}", "{12-28}", "{89-100}",
                                           "{35-38}.{0-9}", "{0-9}")),
    "fluids": ("IV in|Oral|Urine|Drain|Bal", ("{0-150}", "{0-200}", "{0-320}", "{0-80}", "{+|-}{0-400}")),
    "insulin": ("BGL|Units|Insulin|Route|Site", ("{4-17}.{0-9}", "{0-8}", "{aspart|lispro|glargine|actrapid}",
                                                 "SC", "{L|R} {abd|thigh|arm}")),
    "neuro": ("GCS|E|V|M|Pupils|Limbs", ("{9-15}", "{2-4}", "{3-5}", "{5|6}", "{2-4}/{2-4} R", "{N|W L|W R}")),
    "meds": ("Drug|Dose|Route|Given", ("<drug>", "{1 g|5 mg|40 mg|2.5 mg|8 mg|0.5 mg}", "<route>", "{Y|given|✓}")),
}


@cache
def _abbreviations() -> tuple[str, ...]:
    """Capitals that are no one's initials: measurements, clinical abbreviations and gene symbols of the sourced
    lists (``LVEF``, ``FBC``, ``BRCA1``), two to five characters."""
    words = {w.upper() for w in ps.term_pool("clinical_abbrevs") if w.isalpha() and 2 <= len(w) <= 4}
    words |= {w for n in ("measure_abbrevs", "gene_symbols") for w in ps.term_pool(n)
              if w.isupper() and w.isalnum() and 2 <= len(w) <= 5}
    return tuple(sorted(words))


def _taken_initials() -> frozenset:
    """Initials that are a word or an abbreviation first (``AM``, ``SC``): no signing nurse of the ``signed_abbrevs``
    notes has them (``name_initials.v1`` leaves them out, so they would teach the shape alone)."""
    return _plain_initials()


def _abbrev(rng: random.Random, people: list) -> str:
    """A clinical abbreviation in capitals (most from the lists, some letters no list holds), never the initials of
    the note's staff: what a signature's place holds when no one signs there."""
    taken = {ini.replace(".", "") for _, ini in people}
    while True:
        word = rng.choice(_abbreviations()) if rng.random() < 0.7 else ps.letters(rng, rng.choice([2, 3, 3]))
        if word not in taken:
            return word


def _drug(rng: random.Random) -> str:
    return rng.choice(WARD_DRUGS) if rng.random() < 0.7 else VOCAB["drug"](rng)


def _fill(rng: random.Random, text: str) -> str:
    return fill_nested(rng, text.replace("<drug>", _drug(rng)).replace("<route>", rng.choice(ROUTES)))


def staff(rng: random.Random, w: wd.World, dated: bool = False,
          plain: frozenset = frozenset()) -> list[tuple[str, str]]:
    """Two to four of the note's staff as ``(name, initials)``: its doctors and nurses drawn as they are, their
    initials the capitals of the name as written (a middle name now and then, dots now and then; one in twenty the
    first letter and the surname's first two, ``CAl``, as some sign); none whose initials are in ``plain``."""
    given = sp._split(sp._NEW[w.country][0]) if w.country in sp._NEW else None
    people = list(w.doctors)
    people.append((rng.choice(given), rng.choice(sp._split(sp._NEW[w.country][1]))) if given
                  else (wd._given(rng, rng.choice("MF")), wd._surname(rng)))
    out, seen = [], set()
    for first, last in rng.sample(people, rng.randint(2, 4)):
        words = [first, last]
        if rng.random() < 0.2:  # a middle name, in the initials too
            words.insert(1, rng.choice(given) if given else wd._given(rng, rng.choice("MF")))
        letters = "".join(x[0] for x in words)
        forms = {letters: 80, ".".join(letters) + ".": 20} if dated else \
            {letters: 75, ".".join(letters) + ".": 20, first[0] + last[:2]: 5}
        initials = ps.weighted(rng, forms).upper()
        if initials not in seen and initials.replace(".", "") not in plain:  # no shared initials, no word's
            seen.add(initials)
            out.append((" ".join(words), initials))
    return out


def _sign(rng: random.Random, people: list) -> tuple[str, str]:
    """A signing nurse's initials (the first of the staff signs most)."""
    who = people[0] if rng.random() < 0.5 else rng.choice(people)
    return ("DOCTOR", who[1])


def _timed_line(rng: random.Random, people: list, day: list | None = None, abbrevs: bool = False) -> list:
    """A timed event ending in the nurse's initials (most), a plain abbreviation or word, or nothing; after the
    day's date (``day``: DATE pieces) where given; with ``abbrevs`` capitals that are no one's initials in the
    event and at the end too (:func:`_abbrev`)."""
    when = rng.choice(["{h:02d}:{m:02d}", "{h:02d}{m:02d}", "{h:02d}.{m:02d}", "{h}h{m:02d}"]).format(
        h=rng.randint(0, 23), m=rng.choice([0, 0, 15, 30, 45, rng.randint(0, 59)]))
    gap = rng.choice([" ", "  ", "\t", " - "])
    event = _fill(rng, rng.choice(EVENTS))
    if abbrevs and rng.random() < 0.3:
        event = _fill(rng, f"{_abbrev(rng, people)} {{sent|requested|done|reviewed|pending|normal|booked|repeated}}")
    pieces: list = [*(day + [" "] if day else []), when, gap, event]
    end = ps.weighted(rng, {"sign": 45, "plain": 40, "": 15} if abbrevs else {"sign": 60, "plain": 25, "": 15})
    if end:
        tail: str | tuple[str, str]
        if end == "sign":
            tail = _sign(rng, people)
        else:
            tail = _abbrev(rng, people) if abbrevs and rng.random() < 0.6 else rng.choice(PLAIN_ENDS)
        before, after = rng.choice([(" – ", ""), (" - ", ""), (". ", ""), (" /", ""), (" / ", ""), (" (", ")"),
                                    ("; ", ""), ("  ", ""), (" –", "."), *([(", by ", "")] if end == "sign" else [])])
        pieces += [before, tail, after]
    return pieces


_ROLES = ("RN", "EN", "HCA", "RM", "SN", "CNA", "LPN", "Nurse", "Night RN", "Charge nurse")


def _key_line(rng: random.Random, people: list) -> list:
    """Every signing nurse named: a key of initials and names, or names with their initials in brackets."""
    role = rng.choice(_ROLES)
    pieces: list = [rng.choice(["Initials: ", "Key: ", "Signatures: ", "Staff: ", f"{role}s: ", ""])]
    brackets = rng.random() < 0.5
    for n, (name, ini) in enumerate(people):
        pieces.append(", " if n and rng.random() < 0.5 else "; " if n else "")
        if brackets:
            pieces += [("DOCTOR", name), " (", ("DOCTOR", ini), rng.choice([")", f", {role})"])]
        else:
            pieces += [("DOCTOR", ini), rng.choice([" = ", " - ", " ", ": "]), ("DOCTOR", name),
                       rng.choice(["", f", {role}", ""])]
    return pieces


def _role_line(rng: random.Random, people: list) -> list:
    """A role, a service or a label before a staff name, plain (``Scrub: Anna Berg``, ``ANAESTHESIA ANNA BERG``,
    ``Cardiology - Anna Berg (AB)``): the name starts after it. Roles and services from the sourced lists."""
    name, ini = rng.choice(people)
    role = rng.choice(ps.term_pool("staff_roles") if rng.random() < 0.5 else ps.term_pool("departments"))
    role = role.upper() if len(role) <= 4 else rng.choice([role.capitalize(), role.upper(), role])
    if rng.random() < 0.25:  # the whole line in capitals, as charts' footers write it
        return [f"{role.upper()}{rng.choice([': ', ' ', ' - '])}", ("DOCTOR", name.upper())]
    gap = rng.choice([": ", " ", " - ", ", "])
    tail: list = rng.choice([[], [" (", ("DOCTOR", ini), ")"], [", ", rng.choice(_ROLES)]])
    return [role, gap, ("DOCTOR", name), *tail]


def _staff_line(rng: random.Random, people: list) -> list:
    """A line about one or two of the staff: a name and initials, a dose checked by two, a handover."""
    (n1, i1), (n2, i2) = people[0], people[1]
    role = rng.choice(_ROLES)
    kind = rng.randrange(4)
    if kind == 0:
        return [("DOCTOR", n1), " (", ("DOCTOR", i1), f", {role})"]
    if kind == 1:
        return [rng.choice(["Dbl checked ", "Checked ", "Witness ", "2nd check "]), ("DOCTOR", i1), "/", ("DOCTOR", i2),
                rng.choice(["", f" {_drug(rng)}", " (CD)"])]
    if kind == 2:
        return [rng.choice(["Handover to ", "Care handed over to ", "Relieved by "]), ("DOCTOR", n2), " (",
                ("DOCTOR", i2), ")", rng.choice(["", " at 07:00", " 0730"])]
    return [f"{role}: ", ("DOCTOR", i1), " (", ("DOCTOR", n1), ")"]


def _cells(rng: random.Random, kind: str, people: list, sign: bool,
           day=None, abbrevs: bool = False) -> tuple[list[str], list[list]]:
    """A chart's header and rows (pieces per cell), the sign column last (or a plain column of routes); with
    ``day`` (a draw of DATE pieces) a first column of the day's date; with ``abbrevs`` the plain column holds
    capitals that are no one's initials too."""
    heads, draws = CHARTS[kind]
    header = [rng.choice(["Time", "Tijd", "Hora", "Zeit", "Ora", "Time/date"]), *heads.split("|")]
    if day:
        header.insert(0, rng.choice(["Date", "Datum", "Fecha", "Data", "Date/day"]))
    header.append(rng.choice(SIGN_HEADS) if sign else rng.choice(["Comment", "Result", "Note", "Remarks"]))
    rows = []
    for _ in range(rng.randint(4, 9)):
        row: list[list] = [[f"{rng.randint(0, 23):02d}{rng.choice([':', '', '.'])}{rng.choice(['00', '30', '15'])}"]]
        if day:
            row.insert(0, day())
        row += [[_fill(rng, draw)] for draw in draws]
        if sign:
            row.append([_sign(rng, people)] if rng.random() < 0.92 else [rng.choice(["-", "—", ""])])
        else:
            row.append([_abbrev(rng, people) if abbrevs and rng.random() < 0.5
                        else rng.choice(rng.choice([ROUTES, SITES, RESULTS]))])
        rows.append(row)
    return header, rows


def _text(cell: list) -> str:
    return "".join(x if isinstance(x, str) else x[1] for x in cell)


def _layout(rng: random.Random, header: list[str], rows: list[list]) -> list[list]:
    """The chart's lines in ``|`` cells, tabs or blanks (padded to the widest cell of the column)."""
    table = [[[h] for h in header], *rows]
    way = rng.choice(["pipe", "pipe", "tab", "blank"])
    if way == "blank":
        widths = [max(len(_text(r[c])) for r in table) + rng.choice([2, 3, 4]) for c in range(len(header))]
    lines = []
    for row in table:
        pieces: list = ["| "] if way == "pipe" and rng.random() < 0.7 else []
        for c, cell in enumerate(row):
            if c:
                pieces.append(" | " if way == "pipe" else "\t" if way == "tab" else "")
            pieces += cell
            if way == "blank" and c < len(row) - 1:
                pieces.append(" " * (widths[c] - len(_text(cell))))
        if pieces and pieces[0] == "| ":
            pieces.append(" |")
        lines.append(pieces)
    return lines


def _transposed(rng: random.Random, people: list) -> list[list]:
    """A chart by the clock across: parameters down, times across, the last row the nurses' initials."""
    times = [f"{h:02d}{rng.choice([':00', '00', 'h'])}" for h in sorted(rng.sample(range(24), rng.randint(3, 6)))]
    sep = rng.choice([" | ", "\t", "    "])
    lines = [["Time", sep, sep.join(times)]]
    for name, draw in rng.sample([("BP", "{92-165}/{48-96}"), ("HR", "{54-124}"), ("SpO2", "{89-100}"),
                                  ("GCS", "{9-15}"), ("Pain", "{0-9}"), ("Urine", "{0-320}"), ("BGL", "{4-17}.{0-9}")],
                                 rng.randint(2, 5)):
        lines.append([name, *(piece for _ in times for piece in (sep, _fill(rng, draw)))])
    sign: list = [rng.choice(SIGN_HEADS)]
    for _ in times:
        sign += [sep, _sign(rng, people)]
    lines.append(sign)
    return lines


def signed_note(rng: random.Random, p: ps.Patient, day: dt.date, b: NoteBuilder, dated: bool = False,
                abbrevs: bool = False, roles: bool = False) -> None:
    """Write one ``signed`` note (a chart and timed lines signed with the staff's initials) into ``b``; with
    ``dated`` (the ``signed_dated`` style) every note names its staff, none is in lower case, no initials are
    written ``CAl``, and charts and timed lines carry the day's date (month/day, as the country writes it) now and
    then: a model that learnt the first notes lost dates written so (``10/3``) beside their fractions. With
    ``abbrevs`` too (the ``signed_abbrevs`` style) every note is as written (a name in capitals is no listed name's
    to ``name_initials.v1``), and capitals that are no one's initials stand where initials stand (a timed line's
    end, its event, a chart's last column): the first notes taught the specialty member that short capitals are
    a doctor (``DWI``, ``FNA``, ``TB`` on the development sets). With ``roles`` too (the ``signed_roles`` style)
    one to three lines of a role, a service or a label before a staff name (:func:`_role_line`): sign39t took such
    words into the name and wrote them as a made-up one."""
    w = sp.specialty_patient(rng, p)
    people = staff(rng, w, dated, _taken_initials() if abbrevs else frozenset())
    for fallback in (("Alex Quinn", "AQ"), ("Kim Ulver", "KU")):  # two drawn with the same initials, or none kept
        if len(people) < 2 and fallback not in people:
            people.append(fallback)
    start = len(b)
    b.line(("HOSPITAL", w.hospital), rng.choice([" - ", ", ", " | "]),
           rng.choice(["Ward ", "Unit ", "Bay ", "Room "]), str(rng.randint(1, 40)), rng.choice(["", "A", "B"]))
    name = wd._person_name(rng, w.first, w.last, w.sex, w.nick)
    b.line(rng.choice(["Name: ", "Patient: ", "Pt: ", ""]), *name, rng.choice(["  ", "   ", "\t", ", "]),
           *sp._identifier(rng, w, day))
    b.line(rng.choice(["Night shift ", "Nursing notes ", "Observation chart ", "Shift report ", ""]),
           *sp._date(rng, w, day), rng.choice(["", " 19:00-07:00", " 2000-0800", " (night)"]))
    if dated:
        blocks = rng.sample(["chart", "timed", "staff"], 3)
    else:
        blocks = rng.sample(["chart", "timed", "staff"], 3) if rng.random() < 0.9 else rng.sample(["chart", "timed"], 2)
    for block in blocks:
        if block == "chart":
            if rng.random() < 0.25:
                lines = _transposed(rng, people)
            else:
                kind, sign = rng.choice(list(CHARTS)), rng.random() < 0.7
                dates = (lambda: sp._month_day(rng, w, day)) if dated and rng.random() < 0.5 else None
                lines = _layout(rng, *_cells(rng, kind, people, sign, dates, abbrevs))
        elif block == "timed":
            lines = [_timed_line(rng, people, sp._month_day(rng, w, day) if dated and rng.random() < 0.3 else None,
                                 abbrevs) for _ in range(rng.randint(3, 8))]
        else:
            lines = [_key_line(rng, people)] + [_staff_line(rng, people) for _ in range(rng.randint(0, 1))]
            if roles:
                lines += [_role_line(rng, people) for _ in range(rng.randint(1, 3))]
        for pieces in lines:
            b.line(*pieces)
    if abbrevs:
        b.finish(start, "")
    else:
        b.finish(start, ps.weighted(rng, {"": 85, "upper": 15} if dated else {"": 78, "lower": 12, "upper": 10}))
