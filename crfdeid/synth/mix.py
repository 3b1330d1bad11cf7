"""The ``mix`` style: ward notes in every way a hospital writes them, for the shipped default model.

``synth:N,SEED,mix`` keeps what the ``ward`` style does (sparse PHI, lower-case shorthand,
HIPAA ages and weekdays, unknown and ambiguous names, typing errors: :func:`roughen`) and
adds what a model trained on it missed or got wrong on real notes:

* **note kinds**: telegraphic ward notes in three case modes (:func:`mix_note`), the
  i2b2-style ICU nursing notes (mostly upper case, denser PHI), discharge summaries, letters;
* **dates** as ward notes write them: month/day without a year after a test or a procedure
  (``s/p cabg 4/2-``, ``bc 6/14 pending``), two-digit years (``10/05/81``), a date opening
  the note (``3-11-06 7a to 7p``), date ranges (``4/2-4/5``);
* **relatives and staff without a title**, in any case and punctuation (``son, pete,
  called``, ``DAUGHTER-LENA``, ``nsg (k. marsh and t. olsen)``, ``RABBI KLEIN``);
* **local institutions**: a person's, town's or street's name with a kind of place
  (``transfer to Ashford Rehab``, ``lives at Elm Manor``, ``per U Glenmore``);
* **ordinary clinical words where names stand** (:data:`crfdeid.synth.vocab.CLINICAL_LINES`:
  ``started heparin``, ``pt c/o sepsis``, ``d/w renal``), never labelled, so that the
  model learns that ``sepsis`` is no name; with a public vocabulary (ICD-10-CM words, drug
  names, common English words: :data:`~crfdeid.synth.vocab.LEXICON_LINES`) in every case, and
  numbers in clinical roles (:data:`~crfdeid.synth.vocab.NUMBER_LINES`: ``cpap 5/5``, ``1 1/2 hrs``).

Every phrase here was written for crfdeid from general clinical knowledge; names and places
come from the gazetteers (public lists with headers) or are letter strings found in no list.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from functools import partial
from operator import itemgetter

from . import persona as ps
from .builder import NoteBuilder
from .nursing import HEADERS, nursing_casing
from .nursing_events import EVENTS, ROLES
from .phrases import PLAN, SHIFT, SYSTEMS, fill
from .vocab import (
    CLINICAL_LINES,
    DRUGS,
    DX,
    ICU_DATED,
    ICU_LINES,
    LEXICON_LINES,
    NUMBER_LINES,
    PROCS,
    PUBLIC_LINES,
    SERVICES,
    SYMPTOMS,
    VERBS,
    clinical_line,
)
from .ward import WARD_LINES

#: Relations as ward notes write them (a relative named after one is PHI, the word is not).
RELATIONS = ["son", "daughter", "dtr", "wife", "husband", "sister", "brother", "niece", "nephew", "grandson",
             "granddaughter", "friend", "neighbor", "mother", "father", "aunt", "uncle", "cousin", "fiance",
             "partner", "sil", "dil", "stepson", "stepdaughter", "hcp", "brother-in-law", "sister-in-law"]
CLERGY = ["rabbi", "rev", "rev.", "reverend", "father", "fr.", "pastor", "chaplain", "imam", "deacon"]
#: Kinds of place that make a local institution of a name (``Ashford Rehab``).
PLACE_KINDS = ["rehab", "manor", "nursing home", "nursing center", "health care center", "house", "village",
               "hospice", "dialysis", "clinic", "medical center", "hospital", "hosp", "rehabilitation center",
               "extended care", "senior living", "commons", "court", "place", "vna", "home care", "healthcare",
               "care center", "health center", "nursing and rehab", "memorial", "general", "lodge", "gardens"]
#: Words that are never PHI in this style, even where the i2b2 style labels them (a department
#: named ``Oncology``, ``CT`` as a state): :func:`roughen` drops such spans.
PLAIN = frozenset(w.lower() for w in DRUGS + DX + SYMPTOMS + PROCS + VERBS + SERVICES + ps.DEPT_KINDS)
_SEPARATORS = [", ", " - ", "-", " ", ": "]


def _name_word(rng: random.Random) -> str:
    """A word that can name a local place: a surname, town or street word."""
    source = rng.choice(["surnames", "surnames", "cities", "street_names"])
    return rng.choice(ps.place_words(source))


def _institution(rng: random.Random) -> tuple[str, str]:
    """A local institution as a ``(SUBTYPE, text)`` pair: ``Ashford Rehab``, ``U Glenmore``, ``St. Elm``."""
    word = _name_word(rng)
    form = rng.randrange(10)
    if form == 0:
        return ("ORGANIZATION", rng.choice([f"U {word}", f"{word} U", f"University of {word}", f"{word} College"]))
    if form == 1:
        return ("HOSPITAL", rng.choice([f"St. {word}", f"St {word}", f"Saint {word}"]))
    if form == 2:
        return ("HOSPITAL", f"{word} {_name_word(rng)} {rng.choice(PLACE_KINDS).title()}")
    return ("HOSPITAL", f"{word} {rng.choice(PLACE_KINDS).title()}")


def _relative(rng: random.Random, p: ps.Patient) -> tuple[str, ps.Person]:
    if p.family and rng.random() < 0.6:
        return rng.choice(p.family)
    return rng.choice(RELATIONS), ps.person(rng)


def _rel_name(rng: random.Random, who: ps.Person) -> tuple[str, str]:
    return ("PATIENT", rng.choices([who.first, f"{who.first} {who.last}", who.last], weights=[70, 20, 10])[0])


def _relative_event(rng, p, day, b):
    rel, who = _relative(rng, p)
    rel = rng.choice([rel, rel, "dtr" if rel == "daughter" else rel])
    name = _rel_name(rng, who)
    doing = rng.choice(["called", "called for update", "in to visit", "at bedside", "updated by rn",
                        "updated on plan", "visited this eve", "aware of plan", "asking about dispo",
                        "will be in tomorrow", "very supportive", "spent the night", "questions answered"])
    forms = [[rel, rng.choice(_SEPARATORS), name, rng.choice([", ", " ", " - "]), doing],
             [rel, " (", name, ") ", doing], [name, " (", rel, ") ", doing], [name, ", ", rel, ", ", doing],
             [rng.choice(["spoke w/ ", "spoke with ", "updated ", "called ", "d/w "]), rel, " ", name,
              rng.choice([" re: plan", " re: goals of care", " by phone", "", " at length"])],
             [rel, " ", name, " and ", rng.choice(RELATIONS), " ", _rel_name(rng, ps.person(rng)), " ", doing],
             ["family (", rel, " ", name, ", ", rng.choice(RELATIONS), " ", _rel_name(rng, ps.person(rng)), ") ",
              doing],
             [rng.choice(["hcp is ", "hcp: ", "health care proxy is ", "contact: "]), rel, " ", name,
              *rng.choice([[" ", ("PHONE", ps.phone(rng))], [""]])],
             [rel, " is ", name, ", ", rng.choice(["lives nearby", "lives out of state", "visits daily"])],
             [rng.choice(["sons ", "daughters ", "children ", "family: ", "sisters "]), name, " and ",
              _rel_name(rng, ps.person(rng)), " ", doing]]
    b.line(*rng.choice(forms), rng.choice([".", "", "."]))


def _employer(rng: random.Random) -> tuple[str, str]:
    """An employer as notes name one: an acronym (``IBM``-like), a listed organization or a local business."""
    form = rng.randrange(3)
    if form == 0:
        return ("ORGANIZATION", ps.letters(rng, rng.randint(2, 4)))
    if form == 1:
        return ("ORGANIZATION", rng.choice(ps.pool("organizations")))
    return ("ORGANIZATION", f"{_name_word(rng)} {rng.choice(['Corp', 'Inc', 'Bank', 'School', 'Company', 'Mills'])}")


def _employer_event(rng, p, day, b):
    who = rng.choice(["pt", "pt", "husband", "wife", "son", "daughter"])
    b.line(who, rng.choice([" works for ", " retired from ", " employed by ", " works at ", " worked at "]),
           _employer(rng),
           *rng.choice([[""], [f" x{rng.randint(2, 30)} yrs"], [" as a ", ("PROFESSION", p.profession)]]),
           rng.choice([".", ""]))


def _clergy_event(rng, p, day, b):
    who = ps.person(rng)
    name = ("PATIENT", rng.choice([who.last, who.last, who.first, f"{who.first} {who.last}"]))
    b.line(*rng.choice([[rng.choice(CLERGY), " ", name, rng.choice([" in to see pt", " visited", " called"])],
                        ["seen by ", rng.choice(CLERGY), " ", name],
                        ["pt's ", rng.choice(CLERGY), " (", name, ") called"]]),
           rng.choice([".", ""]))


def _initial(who: ps.Person, dot: bool) -> str:
    return who.first[0] + (". " if dot else " ")


def _staff_name(rng: random.Random, who: ps.Person) -> tuple[str, str]:
    return ("DOCTOR", rng.choice([who.first, f"{who.first} {who.last}", who.last, _initial(who, True) + who.last,
                                  _initial(who, False) + who.last, f"{who.first[0]}{who.last}"]))


def _staff_event(rng, p, day, b):
    a, c = rng.sample(p.nurses + p.doctors, 2)
    na, nc = _staff_name(rng, a), _staff_name(rng, c)
    forms = [[rng.choice(["nsg (", "rn's (", "nursing (", "staff ("]), na, rng.choice([" and ", "/", ", "]), nc, ")"],
             [rng.choice(["report given to ", "report to ", "report from ", "care assumed by "]), na,
              rng.choice([" rn", ", rn", "", " on days", " on nights"])],
             [na, rng.choice([" rn aware", " (rn) aware", " rn in to see pt", " np aware", " np in to see pt"])],
             [rng.choice(["covering rn ", "charge rn ", "resident ", "np ", "pa ", "attending ", "fellow ", "intern "]),
              na, rng.choice([" aware", " paged", " in to see pt", " notified", " updated"])],
             [rng.choice(["d/w ", "per ", "discussed w/ ", "paged "]), na, " (", rng.choice(ROLES).lower(), ")"],
             ["seen by ", rng.choice(["ortho", "renal", "cards", "neuro", "surgery", "gi", "id"]), " (", na, ")"],
             ["team (", na, "/", nc, ") aware"]]
    b.line(*rng.choice(forms), rng.choice([".", "", ". no new orders.", ", will follow."]))


def _place_event(rng, p, day, b):
    place = _institution(rng)
    b.line(*rng.choice([
        [rng.choice(["transfer to ", "d/c to ", "dispo to ", "screened by ", "accepted at ", "bed offered at ",
                     "transferred from ", "came from ", "lives at ", "resident of ", "pt's pcp at ", "hd at ",
                     "family prefers ", "referral sent to ", "called "]), place,
         rng.choice(["", " when bed available", " tomorrow", " in am", " for rehab", " mwf", " tu/th/sa"])],
        ["per ", place, rng.choice([" scale", " protocol", " staff", " records"])],
        [place, rng.choice([" accepted pt", " to call back", " records requested", " aware", " bed available"])]]),
        rng.choice([".", ""]))


_MD_FORMS = ("{m}/{d}", "{m}/{d}", "{m}/{d}", "{mm}/{dd}")
_YY_FORMS = ("{mm}/{dd}/{y}", "{m}/{d}/{y}", "{m}-{d}-{y}", "{mm}-{dd}-{y}")


def _dated_event(rng, p, day, b):
    when = day - dt.timedelta(days=rng.randint(0, 12))
    date = ("DATE", ps.date_text(rng, when, rng.choice(_MD_FORMS)))
    test = rng.choice(["bc", "blood cx", "ucx", "urine cx", "sputum cx", "cx", "ct", "cxr", "echo", "mri", "last bm",
                       "last hd", "intubated", "extubated", "admitted", "picc placed", "foley changed", "line changed",
                       "s/p " + rng.choice(PROCS), "started " + rng.choice(["vanco", "zosyn", "abx", "tf", "heparin"])])
    after = rng.choice(["-", " -", ":", "", " pending", " neg", " - ngtd", " no growth"])
    b.line(*rng.choice([[test, " ", date, after], [test, " (", date, ")"], [test, " on ", date],
                        ["since ", date, ", ", clinical_line(rng, "<dx>")],
                        [date, rng.choice([" - ", ": ", " "]), test],
                        [test, " ", date, "-", ("DATE", ps.date_text(rng, when + dt.timedelta(days=rng.randint(1, 5)),
                                                                     rng.choice(_MD_FORMS)))]]),
           rng.choice([".", "", "."]))


def _past_event(rng, p, day, b):
    when = dt.date(p.admit.year - rng.randint(0, 30), rng.randint(1, 12), rng.randint(1, 28))
    date = ("DATE", ps.date_text(rng, when, rng.choice(_YY_FORMS + ("{m}/{y}",))))
    b.line(rng.choice(["s/p ", "hx ", "pmh: ", "", "dx "]), rng.choice(PROCS + DX),
           rng.choice([" ", " on ", " in ", " - "]), date, rng.choice([".", "", ", " + rng.choice(DX) + "."]))


#: PHI events of :func:`mix_note` (the i2b2-style :data:`~crfdeid.synth.nursing_events.EVENTS` are drawn too).
MIX_EVENTS = [_relative_event, _relative_event, _relative_event, _clergy_event, _staff_event, _staff_event,
              _staff_event, _place_event, _place_event, _dated_event, _dated_event, _dated_event, _past_event,
              _employer_event]


def _header(rng: random.Random, day: dt.date, b: NoteBuilder) -> None:
    header = rng.choice(HEADERS + ["nursing progress note", "npn", "nsg", "resp care", "social work",
                                   "case management", "micu nursing", "nursing note"])
    shift = rng.choice(["7a to 7p", "7p to 7a", "7a-7p", "7p-7a", "0700-1900", "1900-0700", "days", "nights", ""])
    where = rng.random()
    if where < 0.3:  # the note opens with its date
        date = ("DATE", ps.date_text(rng, day, rng.choice(_MD_FORMS + _YY_FORMS + ("{m}/{d}/{Y}",))))
        b.line(*rng.choice([[date, " ", shift], [date, " ", header],
                            [date, rng.choice([":", " -", ""]), " ", header, " ", shift]]))
    elif where < 0.45:
        b.line(header, " ", shift, " ", ("DATE", ps.date_text(rng, day, rng.choice(_MD_FORMS + _YY_FORMS))))
    else:
        b.line(header, rng.choice(["", " " + shift]))


def _icu_dated(rng: random.Random, day: dt.date, b: NoteBuilder) -> None:
    """A month/day date in telegraphic ICU context, glued to a neighbour at times (``labs on4/2>``)."""
    when = day - dt.timedelta(days=rng.randint(0, 20))
    head, _, tail = fill(rng, rng.choice(ICU_DATED).replace("{date}", "\0")).partition("\0")
    b.line(head, ("DATE", ps.date_text(rng, when, rng.choice(_MD_FORMS))), tail, rng.choice([".", "", ";"]))


def mix_note(rng: random.Random, p: ps.Patient, day: dt.date, b: NoteBuilder, vocab: bool = False,
             icu: bool = False) -> None:
    """Write one ``mix``-style ward note about ``p`` on ``day`` into ``b``; with ``vocab`` (style
    ``mix_vocab``) the public clinical vocabulary of issue 34 too, with ``icu`` (``mix_icu``) ICU
    shorthand with fractions and scores and telegraphic month/day dates, each from a stream of its own."""
    mode = nursing_casing(rng, b, {"lower": 40, "upper": 35, "mixed": 25}, lower_names=0.3)
    start = len(b)
    _header(rng, day, b)
    lines = [fill(rng, x) for x in rng.sample(WARD_LINES, rng.randint(2, 9))]
    lines += [clinical_line(rng, x) for x in rng.sample(CLINICAL_LINES, rng.randint(2, 8))]
    lines += [fill(rng, x) for x in rng.sample(SHIFT, rng.randint(0, 3))]
    lines += [clinical_line(rng, x) for x in rng.sample(LEXICON_LINES, rng.randint(3, 8))]
    lines += [fill(rng, x) for x in rng.sample(NUMBER_LINES, rng.randint(2, 5))]
    rng.shuffle(lines)
    # The public vocabulary of issue 34 from a stream of its own: the rest of the note draws as before.
    own = random.Random(repr(rng.getstate())) if vocab else None
    if own is not None:
        for x in own.sample(PUBLIC_LINES, own.randint(2, 6)):
            lines.insert(own.randint(0, len(lines)), clinical_line(own, x))
    # Lines written after line k by a stream of their own: (k, writer).
    after: list[tuple[int, Callable[[], None]]] = []
    if icu:
        icu_rng = random.Random("icu" + repr(rng.getstate()))
        for x in icu_rng.sample(ICU_LINES, icu_rng.randint(2, 6)):
            lines.insert(icu_rng.randint(0, len(lines)), fill(icu_rng, x))
        k_dated = icu_rng.choices([0, 1, 2], weights=[40, 40, 20])[0]
        after += [(k, partial(_icu_dated, icu_rng, day, b)) for k in icu_rng.choices(range(len(lines)), k=k_dated)]
    after.sort(key=itemgetter(0))  # stable: drawn order at the same k
    n_events = rng.choices([0, 1, 2, 3], weights=[30, 38, 22, 10])[0]
    events = [rng.choice(MIX_EVENTS) if rng.random() < 0.7 else rng.choice(EVENTS) for _ in range(n_events)]
    at = sorted(rng.choices(range(len(lines) + 1), k=n_events))
    for k, line in enumerate(lines + [None]):
        while at and at[0] == k:
            at.pop(0)
            events.pop()(rng, p, day, b)
        if line is not None:
            b.line(line, rng.choice([".", "", ";", ". ", ","]))
        while after and after[0][0] == k:
            after.pop(0)[1]()
    for name in rng.sample(list(SYSTEMS), rng.randint(1, len(SYSTEMS))):
        b.add(rng.choice([f"{name}: ", f"{name.lower()}: ", f"{name}- ", f"{name.lower()} ", f"{name}="]))
        phrases = [fill(rng, ph) for ph in rng.sample(SYSTEMS[name], rng.randint(1, 3))]
        phrases += [clinical_line(rng, rng.choice(CLINICAL_LINES)) for _ in range(rng.randint(0, 2))]
        phrases += [clinical_line(rng, rng.choice(LEXICON_LINES + NUMBER_LINES)) for _ in range(rng.randint(0, 2))]
        if own is not None:
            phrases += [clinical_line(own, own.choice(PUBLIC_LINES)) for _ in range(own.randint(0, 1))]
        b.line(rng.choice([". ", ", ", "; "]).join(phrases), ".")
    b.line(rng.choice(["PLAN: ", "A/P: ", "plan: ", "p: ", "P:"]),
           ", ".join([fill(rng, ph) for ph in rng.sample(PLAN, rng.randint(1, 2))]
                     + [clinical_line(rng, rng.choice(CLINICAL_LINES))]), ".")
    if rng.random() < 0.15:
        who = rng.choice(p.nurses)
        b.line(*rng.choice([[_staff_name(rng, who), rng.choice([" rn", ", rn", " RN", ""])],
                            ["-", _staff_name(rng, who)], ["signed: ", _staff_name(rng, who)]]))
    b.finish(start, mode)  # mixed: the case its styles wrote
