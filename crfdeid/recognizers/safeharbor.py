"""The Safe Harbor layer: HIPAA identifiers with fixed forms, caught by every model.

HIPAA's Safe Harbor method lists identifiers that must go whatever else a note
holds; several have forms a regex finds almost without false positives. This
layer finds them and adds them to what the CRF (and the optional rule overlay)
found, in :meth:`crfdeid.crf.Model.tag` and ``tag_each``, for every model: trained
or shipped, old or new, whatever its config says (``rules.enabled`` does not
touch it). It cannot be switched off. Forms (span = the identifier only):

* ``AGE``: ages of 90 and over written as ages (``Age: 94``, ``94 yo``, ``94 y/o``,
  ``94-year-old``, ``aged 101``, ``ninety-four year old``, ``in her 90s``);
* ``MEDICALRECORD``, ``ACCOUNT``, ``HEALTHPLAN``, ``LICENSE``, ``DEVICE``, ``VEHICLE``,
  ``SSN``, ``IDNUM``: a number with a digit after its label (``MRN 00482913``,
  ``MR# 123``, ``Acct: ...``, ``Medicare #``, ``policy no.``, ``DL``, ``VIN``,
  ``serial no.``, ``ID:``); a Medicare beneficiary identifier (``1EG4-TE5-MK72``) and
  letters then six or more digits (``LV-3381204``) without a label;
* ``SSN``, ``PHONE``, ``FAX`` (a phone number after "fax"), ``EMAIL``, ``URL``, ``IPADDR``;
* ``PATIENT``: a newborn's surname after ``Baby Boy``/``Baby Girl``/``BB``/``BG``;
* ``USERNAME``: a handle after the name of a social network (``Twitter @jlee_88``), after
  ``username:``/``user name is``, and a record system's user name alone after its user word in several languages
  (``(user rdebono2)``, ``Benutzer hoferb;``);
* ``DATE``: a numeric month/day (and year) right after a weekday (``Tues 9/3``, ``Monday,
  3/14/98``); dates in either order with a year, dotted, ISO, and with a month name
  (:mod:`.dateforms`); a bare ``3/4`` is the CRF's: written alone it is too like a ratio or a dose;
* checksums and other countries' formats (:mod:`.fixedforms`, checks by python-stdnum): card
  numbers (Luhn), IBANs (mod 97), national identity numbers with a check digit, international
  phone numbers and postal codes;
* postal codes of many countries inside an address of several lines (:mod:`.postcodes`);
* forms told by the words beside them (:mod:`.contextforms`): postal codes with their address,
  plates after their words, IPv6, group and store numbers, ages over 89 in prose;
* phone numbers phonenumbers holds valid for the note's country (:mod:`.phones`, which also
  tells that country: :func:`country`).

:func:`apply` only adds: a found span that overlaps predicted spans is joined with
them into their union; the union keeps the predicted subtype when it is of the
same category (a CRF ``FAX`` stays ``FAX``), else takes the layer's (a CRF
``PATIENT`` over ``MRN 00482913`` becomes ``MEDICALRECORD``). Predicted spans that
overlap nothing found are returned unchanged. See docs/safeharbor.md for what the
layer does not guarantee, its false positives and its speed.

>>> [(s.start, s.end, s.subtype) for s in find("Age: 94. MRN 00482913, fax 617-555-0199")]
[(5, 7, 'AGE'), (13, 21, 'MEDICALRECORD'), (27, 39, 'FAX')]
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from itertools import groupby

import regex

from .. import gazetteers
from ..document import Found, Span, make_span
from ..text.patterns import LazyPattern
from . import contextforms, dateforms, fixedforms, phones, postcodes
from .ruledata import table
from .rules import trie_pattern

_T = table("safeharbor")  # the forms, patterns, words and labels (crfdeid/_data/rules/safeharbor.tsv)
_R = _T.namespace()

#: Labels of identifiers, by subtype (lower case; the text is matched case-insensitively, except the
#: short labels of (?-i:...) that are other words in lower case: "dl" of mg/dl): the table's
#: ``item LABELS.<subtype>`` rows.
LABELS = _T.groups("LABELS")
#: The least number of characters of an identifier after a label, by subtype (``map MIN_LENGTH`` rows).
MIN_LENGTH = {sub: int(n) for sub, n in _T.mapping("MIN_LENGTH").items()}
#: A label whose identifier follows a few words later on its line, after ":", "=", "#", "is" or "was"
#: ("License plate noted for parking: ORE 4KJ-221"): only the labels that name nothing but an identifier
#: (not "ID", "policy", "account", "case"); the table's ``item FAR_LABELS.<subtype>`` rows.
FAR_LABELS = _T.groups("FAR_LABELS")


def _alternatives(labels: dict) -> str:
    """The labels as one alternation, a named group a subtype (the subtype is the group that matched)."""
    return "|".join(f"(?P<{sub}>{'|'.join(forms)})" for sub, forms in labels.items())


# What the forms' rows name and the module fills in.
_GIVEN = {"AGE_OVER_89": contextforms.AGE_OVER_89, "LABEL_ALTS": _alternatives(LABELS),
          "FAR_LABEL_ALTS": _alternatives(FAR_LABELS)}
_NEEDS = _T.mapping("NEEDS")
_ANCHORS = _T.mapping("ANCHORS")

#: Form name -> (subtype, regex, literals of which a match holds one (lower case) or None,
#: literals (lower case) at which every match starts, at the start of a word, or None): the table's
#: ``rule`` rows in order, compiled on first use (a note runs only the forms whose literals and
#: anchors it holds, so most start-ups need few of them), by ``re`` or (``REGEX_FORMS``) ``regex``.
#: With anchors the regex is tried only there (in ASCII text); else it scans the text.
FORMS = {name: (None if label == "-" else label,
                LazyPattern(regex.compile if name in _R.REGEX_FORMS else re.compile, _T.source(name, **_GIVEN), flags),
                tuple(_NEEDS[name].split()) if name in _NEEDS else None,
                tuple(_ANCHORS[name].split()) if name in _ANCHORS else None)
         for name, label, flags in _T.rules()}


@lru_cache(maxsize=1)
def _newborn_words() -> tuple[frozenset, frozenset]:
    """Plain words (common and clinical) and the 1,000 most frequent census surnames."""
    frequent = frozenset(w.lower() for w in gazetteers.entries("surnames")[:1000])
    return fixedforms.plain_words(), frequent - _R.GLUCOSE_WORDS


def _surname_after_initials(word: str) -> bool:
    plain, frequent = _newborn_words()
    low = word.lower()
    return low not in plain or low in frequent


def _user_name(value: str) -> bool:
    """``value`` after a user word is a user name: three letters at least, and a digit, ``.``, ``_`` or ``-`` in it
    or no common or clinical word and no English ending (``cannabis user daily.``, ``CPAP user nightly.``)."""
    if sum(c.isalpha() for c in value) < 3:
        return False
    if any(c.isdigit() or c in "._-" for c in value):
        return True
    return fixedforms.unplain(value.lower())


def _sign_cells(m) -> list[Span]:
    """A sign row's cells (``sign_row``) as DOCTOR spans when each is two to five letters (dots aside) with a letter
    in upper case, none of three letters or more a common or clinical word (``YES``), and one of them twice."""
    cells = [(c.start(1), c.end(1), c.group(1).replace(".", ""))
             for c in _R.SIGN_CELL.finditer(m.string, *m.span("cells"))]
    words = [w for *_, w in cells]
    if len(set(words)) == len(words) or not all(_initial(w, longest=5, abbreviation=True) for w in words):
        return []
    return [make_span(a, b, "DOCTOR") for a, b, _ in cells]


#: A table's cells by what parts them (the table's ``CELL_*`` rows).
_COLUMN_CELL = {"|": _R.CELL_PIPE, "\t": _R.CELL_TAB, "  ": _R.CELL_BLANKS}


def _initial(value: str, longest: int = 4, abbreviation: bool = False) -> bool:
    """Two to ``longest`` letters (dots aside) with a letter in upper case, none of three or more a common or clinical
    word, and (unless ``abbreviation``: a sign row's cells, whose repeat is their evidence) no clinical abbreviation
    (``IV``, ``PO``)."""
    w = value.replace(".", "")
    return 2 <= len(w) <= longest and w.isalpha() and any(c.isupper() for c in w) and (
        len(w) < 3 or w.lower() not in fixedforms.plain_words()) and (
        abbreviation or w.lower() not in fixedforms.abbreviations())


def _name_initials(text: str) -> frozenset:
    """The initials of every two or three words in a row of ``text`` that each start in upper case (``Kate Mulholland``
    -> ``KM``; ``Maria João Sardinha`` -> ``MJS``, ``MJ``, ``JS``)."""
    out: set[str] = set()
    for m in _R.WORD_RUN.finditer(text):
        heads = [w[0] if w[0].isupper() else "" for w in m.group().split()]
        out.update("".join(heads[i:i + k]) for k in (2, 3) for i in range(len(heads) - k + 1)
                   if all(heads[i:i + k]))
    return frozenset(out)


def sign_columns(text: str) -> list[Span]:
    """A table's column of staff initials (signcols38: ``| 08:00 | 420 | +110 | MJS |``, a tab column of ``SK``, a
    column aligned with blanks of ``KM``) as DOCTOR spans: in three rows or more of as many cells (a header row without
    digits above rows with them left out), a column whose cells are all initials (:func:`_initial`; a dash or one
    other cell allowed) with one of them twice and one of them the initials of a name the note writes (``SK Sanna
    Kivelä``, ``(RV)`` after ``Ruben Verhaeghe``): a column of another language's words (``OUI``, ``NEI``) or of
    abbreviations (``IV``, ``SR``) is no name's. The cells taken are those that repeat or are a name's initials. On
    the gold of the 45 development sets: 75 cells as written (75 in capitals, none in lower case), every one staff
    initials but a hospital's code (six times), 63 of them left by the shipped model."""
    found: list[Span] = []
    names = None
    if "|" not in text and "\t" not in text and "   " not in text:
        return found  # no table (most notes): not split into lines
    for body in _table_bodies(text):
        for col in zip(*body):
            cells = [c for c in col if _initial(c[2])]
            values = [v.replace(".", "") for *_, v in cells]
            others = len(col) - len(cells) - sum(v in "-–—" for *_, v in col)
            if len(cells) < 3 or others > 1 or len(set(values)) == len(values):
                continue
            names = _name_initials(text) if names is None else names
            if not names.isdisjoint(values):
                found += [make_span(a, b, "DOCTOR") for (a, b, _), v in zip(cells, values)
                          if values.count(v) > 1 or v in names]
    return found


def _table_bodies(text: str):
    """Each table of ``text`` as its rows of ``(start, end, cell)``: consecutive lines parted the same way (``|``, a
    tab, or blanks), the rows of its most frequent width (three cells or more, three rows or more), a header row
    without digits above rows with digits left out."""
    lines, pos = [], 0
    for line in text.split("\n"):
        kind = "|" if "|" in line else "\t" if "\t" in line else "  " if "   " in line.strip() else None
        lines.append((pos, line, kind))
        pos += len(line) + 1
    for kind, group in groupby(lines, key=lambda line: line[2]):
        if kind is None:
            continue
        rows = [[(a + m.start(), a + m.end(), m.group()) for m in _COLUMN_CELL[kind].finditer(line)]
                for a, line, _ in group]
        widths = [len(r) for r in rows]
        width = max(widths, key=widths.count)
        body = [r for r in rows if len(r) == width]
        if not any(c.isdigit() for *_, v in body[0] for c in v) and any(
                c.isdigit() for r in body[1:] for *_, v in r for c in v):
            body = body[1:]  # a header row
        if width >= 3 and len(body) >= 3:
            yield body


def prepare() -> None:
    """Load the word lists the layer reads and build its anchor regex (a model does this at load)."""
    _newborn_words()
    _anchor_regex()


def find(text: str) -> list[Span]:
    """The Safe Harbor identifiers in ``text``: sorted spans, possibly overlapping."""
    return sorted({sp for _, sp in matches(text)})


def matches(text: str, known: Found | None = None) -> list[tuple[str, Span]]:
    """``(form name, span)`` of every identifier found in ``text`` (forms: :data:`FORMS`).

    Cheap substring checks skip the forms a text cannot hold; in ASCII text the forms
    with anchors are tried only where one starts a word, found in one pass over the
    text (as :mod:`crfdeid.recognizers.rules` does). ``known``: what tagging found
    (``Document.found``), returned as it is when it was found in ``text`` (the same
    list this function gives: it depends on the text alone).
    """
    if known is not None and known.text == text:
        return list(known.matches)
    ascii_text = text.isascii()
    low = text.lower()
    digits = any(d in text for d in "0123456789")
    on = _forms_on(low, digits)
    found: list[tuple[str, Span]] = []
    if ascii_text:
        for a in _anchor_regex().finditer(low):
            for name in _ANCHOR_OF[a.group()]:
                if name in on:
                    sub, rx = FORMS[name][:2]
                    m = rx.match(text, a.start())
                    if m:
                        found.extend((name, sp) for sp in _spans(name, sub, m, text))
    for name in on:
        sub, rx, _, anchors = FORMS[name]
        if anchors is None or not ascii_text:
            for m in rx.finditer(text):
                found.extend((name, sp) for sp in _spans(name, sub, m, text))
    found.extend(("sign_column", sp) for sp in sign_columns(text))
    if digits:
        found.extend(fixedforms.matches(text))
        found.extend(dateforms.matches(text))
        found.extend(contextforms.matches(text))
        found.extend(postcodes.matches(text))
        found.extend(phones.matches(text, phones.country_of(text, [name for name, _ in found]),
                                    [sp for _, sp in found]))
        found.extend(phones.cued(text, [sp for _, sp in found]))
        # a number another form takes keeps that form's reading (``SSN 123-45-6789``: ``ssn``, not the catalogue's)
        taken = [sp for name, sp in found if name != "scheme_label"]
        found = [(name, sp) for name, sp in found if name != "scheme_label"
                 or not any(t.start < sp.end and sp.start < t.end for t in taken)]
    return found


def country(text: str) -> str:
    """The country whose forms ``text`` holds (:func:`.phones.country_of`), ``US`` by default."""
    return phones.country_of(text, [name for name, _ in matches(text)])


def _forms_on(low: str, digits: bool) -> list[str]:
    """The forms a text can hold, in :data:`FORMS` order: a digit where they need one, and
    one of their literals (plain loops: this runs once per note)."""
    on = []
    for name, (_, _, needs, _) in FORMS.items():
        if not digits and name not in _R.NO_DIGIT_FORMS:
            continue
        if needs is not None:
            for literal in needs:
                if literal in low:
                    break
            else:
                continue
        on.append(name)
    return on


#: Anchor literal -> the forms it starts.
_ANCHOR_OF: dict[str, list[str]] = {}
for _name, (*_, _anchors) in FORMS.items():
    for _a in _anchors or ():
        _ANCHOR_OF.setdefault(_a, []).append(_name)


@lru_cache(maxsize=1)
def _anchor_regex() -> re.Pattern:
    """Every anchor at the start of a word, as one trie-shaped regex over lower-case text."""
    return re.compile(rf"(?<![a-z0-9])(?:{trie_pattern(_ANCHOR_OF)})")


def _spans(name: str, sub, m, text: str) -> list[Span]:
    if name in ("id_label", "id_far_label"):
        sub = next(k for k in (LABELS if name == "id_label" else FAR_LABELS) if m.group(k) is not None)
        value = m.group("value")
        if len(value) < MIN_LENGTH.get(sub, 4) or (sub == "SSN" and sum(c.isdigit() for c in value) != 9):
            return []
        return [make_span(m.start("value"), m.end("value"), sub)]
    if name == "newborn":
        word = m.group("value")
        if word.lower() in _R.NOT_SURNAMES or (m.group()[:2] in ("BB", "BG") and not _surname_after_initials(word)):
            return []
    if name == "username_after" and not _user_name(m.group("value")):
        return []
    if name == "sign_row":
        return _sign_cells(m)
    if name == "phone_label" and m.group("label").lower() == "fax":
        sub = "FAX"
    if name == "phone" and _R.FAX_BEFORE.search(text, max(0, m.start() - 24), m.start()):
        sub = "FAX"
    group = "value" if "value" in m.re.groupindex else 0
    start = m.start("start") if "start" in m.re.groupindex else m.start(group)
    return [make_span(start, m.end(group), sub)]


def apply(text: str, spans, keep_predicted: bool = False, relabel: Mapping | None = None,
          matched: list[tuple[str, Span]] | None = None) -> list[Span]:
    """``spans`` (predicted) with the Safe Harbor identifiers of ``text`` added.

    Nothing is removed: a found span joins the predicted spans it overlaps into their
    union, whose subtype is the first such predicted span's of the same category (with
    ``keep_predicted``, of any category: labels of another scheme), else the layer's.
    Found spans that overlap each other are joined too. A found span that joins no
    predicted span takes ``relabel[subtype]`` (``[category, label]``, a model's own
    scheme's label for the layer's subtype: :class:`crfdeid.crf.safeharbor_labels.LabelCounts`) when there is one.
    ``matched``: :func:`matches` of ``text`` when the caller has them (a user word: :func:`_after_user_word`).

    >>> from crfdeid.document import make_span
    >>> apply("MRN 00482913", [make_span(4, 8, "PATIENT")])
    [Span(start=4, end=12, category='ID', subtype='MEDICALRECORD')]
    """
    pairs = matches(text) if matched is None else matched
    found = sorted({sp for _, sp in pairs})
    if not found:
        return sorted(spans)
    users = {sp for name, sp in pairs if name == "username_after"}
    out: list[Span] = []
    for group in overlap_groups(spans, found):
        layer = [sp for _, _, kind, sp in group if kind == 0]
        if not layer:
            out.extend(sp for *_, sp in group)
            continue
        start = _after_user_word(text, min(g[0] for g in group), [sp for sp in layer if sp in users])
        end = max(g[1] for g in group)
        same = [sp for _, _, kind, sp in group
                if kind == 1 and (keep_predicted or sp.category == layer[0].category)]
        keep = same[0] if same else layer[0]
        own = (relabel or {}).get(keep.subtype) if not same else None  # a find alone: the model's own label
        category, subtype = own or (keep.category, keep.subtype)
        out.append(Span(start, end, category, subtype))
    return sorted(out)


def _after_user_word(text: str, start: int, users: list[Span]) -> int:
    """A union's start, or its user name's when all before the name is the user word (``usuario nospina``: a CRF span
    over both, the word kept out of the made-up name the writer gives a proven span). It takes from a span the model
    found only the user word itself (``USER_PREFIX`` must match all of it). Evidence (docs/rules.md, "The ledger of
    dates28 and users28"): on the 35 development sets of other countries and styles (day-first dates, UK and other
    postcodes, notes in lower and upper case) the form without it wrote the word into a made-up name twice in each
    casing and left no identifier fewer; with it no identifier more is left there or on check28-check30."""
    for sp in sorted(users):
        if start < sp.start and _R.USER_PREFIX.fullmatch(text, start, sp.start):
            return sp.start
    return start


def overlap_groups(predicted, found) -> list[list[tuple]]:
    """Predicted and found spans as runs of overlapping ones, in order: each a list of
    ``(start, end, kind, span)``, ``kind`` 1 for a predicted span and 0 for a found one."""
    items = sorted([(sp.start, sp.end, 1, sp) for sp in predicted] + [(sp.start, sp.end, 0, sp) for sp in found])
    groups: list[list[tuple]] = []
    end = -1
    for item in items:
        if groups and item[0] < end:
            groups[-1].append(item)
            end = max(end, item[1])
        else:
            groups.append([item])
            end = item[1]
    return groups
