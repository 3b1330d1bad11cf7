"""What a site knows beside its notes, used at tagging time without retraining.

A hospital knows each patient's identifiers in the record (names, relatives, record
numbers, birth date, address, phone), its staff, the institutions and towns around it,
and terms it knows are safe. :class:`Site` holds them; the post-CRF chain's ``site.v1``
(given a site with the call, ``model.tag(doc, options={"site": site})`` or ``tag --site``,
or a site file in the chain) finds every occurrence in the notes it tags
(:mod:`crfdeid.site.match`: case, initials, hyphen and apostrophe parts, possessives,
nicknames, words glued to a neighbour), adds them to the spans, and drops predicted spans
that are only allow-listed terms. The Safe
Harbor layer still runs last, so the allow-list never removes one of its identifiers, and
a known identifier is added after the allow-list, so it is never removed either.

Where the identifiers come from (the fields are :data:`FIELDS`):

* a table keyed by patient or by note (``patient`` or ``note`` column): CSV, JSON Lines,
  or the ``patient||||first||||last`` lines the deid package reads (``pid_patientname.txt``);
  a patient's rows apply to every note whose :attr:`~crfdeid.document.Document.group` is
  that patient (``--group-by`` and friends set it for plain files);
* ``meta["known"]`` of a note (JSON Lines input, the service's request): a mapping of the
  same fields, for that note only;
* word lists, one entry a line (``#`` starts a comment): ``staff`` (names, tagged DOCTOR),
  ``institutions`` (HOSPITAL), ``places`` (towns, CITY) and ``allow`` (safe terms).

A site file (YAML) names them; paths are relative to it::

    tables: [patients.csv]
    staff: roster.txt
    institutions: [hospitals.txt]
    places: towns.txt
    allow: safe_terms.txt
    nicknames: true          # first names also as their nicknames (gazetteer nicknames)
    date_order: dmy          # how its numeric dates are written: auto (default), mdy, dmy, ymd

>>> from crfdeid.document import Document
>>> site = Site(patients={"p1": {"first_name": "Kevin", "last_name": "Dorsey", "mrn": "00482913"}},
...             staff=["Tara Malloy"], institutions=["MGH"])
>>> doc = Document("n1", "nsg (k. dorsey, t. malloy) @ mgh; mrn 482913", meta={"patient": "p1"})
>>> [(doc.text[s.start:s.end], s.subtype) for s in site.apply(doc, doc.text, [])]
[('k. dorsey', 'PATIENT'), ('t. malloy', 'DOCTOR'), ('mgh', 'HOSPITAL'), ('482913', 'MEDICALRECORD')]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path

from .. import gazetteers
from ..document import Document, Span
from ..errors import ConfigError
from ..openfiles import read_regular_text
from ..text import dateorder
from . import match, tables
from .tables import FIELDS, KEYS, LISTS, read_list, read_table
from .use import MAPPING_HINT, TableUse

__all__ = ["Site", "FIELDS", "KEYS", "LISTS", "read_table", "read_list", "split_name", "add_arguments",
           "from_args", "TableUse", "add_mining_arguments"]

_SITE_KEYS = ("tables", *LISTS, "nicknames", "date_order")
_NUMBERS = {"MEDICALRECORD", "SSN", "ACCOUNT", "HEALTHPLAN", "IDNUM", "PHONE", "FAX", "ZIP"}


def split_name(full: str) -> tuple[str | None, list[str], str | None]:
    """``(first, middles, last)`` of a whole name: ``Dorsey, Kevin J`` or ``Kevin J Dorsey``.

    >>> split_name("Dorsey, Kevin J"), split_name("Abdulrahman bin Khalid Al-Qahtani")
    (('Kevin', ['J'], 'Dorsey'), ('Abdulrahman', ['bin', 'Khalid'], 'Al-Qahtani'))
    """
    if "," in full:
        last, _, rest = full.partition(",")
        words = rest.split()
        return (words[0] if words else None), words[1:], last.strip() or None
    words = full.split()
    if len(words) == 1:
        return None, [], words[0]
    return words[0], words[1:-1], words[-1]


@lru_cache(maxsize=256)
def record_matcher(record: tuple, nicknames: bool, allow: frozenset) -> match.Matcher:
    """The matcher of one patient's or note's identifiers (``record``: ``(field, value)``
    pairs, checked by :func:`crfdeid.site.tables.as_record`; people's names from ``name``/``relative`` and from
    the ``first_name``/``middle_name``/``last_name`` fields). Cached: a patient's notes share it."""
    nick = _nicknames() if nicknames else None
    forms: list[match.Form] = []
    patterns: list[tuple[str | None, str]] = []
    for fld, value in record:
        sub = FIELDS[fld]
        if fld in ("name", "relative"):
            first, middles, last = split_name(value)
            forms += match.name_forms(first, middles, last, sub, nick)
        elif fld in ("first_name", "middle_name", "last_name"):
            continue  # joined per row below
        elif sub in _NUMBERS:
            patterns.append((match.number_pattern(value, sub), sub))
        elif fld == "birth_date":
            patterns.append((match.date_pattern(tables.birth_date(value)), "DATE"))
        elif fld == "address":
            forms += _address_forms(value)
        else:
            forms += match.phrase_forms(value, sub)
    for first, middle, last in _people(record):
        forms += match.name_forms(first, [middle] if middle else [], last, "PATIENT", nick)
    return match.Matcher(forms, [(src, sub) for src, sub in patterns if src], allow)


def _people(record: tuple) -> list[tuple]:
    """``(first, middle, last)`` of the part fields (every first with every last)."""
    parts = {f: [v for g, v in record if g == f] for f in ("first_name", "middle_name", "last_name")}
    firsts, lasts = parts["first_name"] or [None], parts["last_name"] or [None]
    middle = parts["middle_name"][0] if len(parts["middle_name"]) == 1 else None
    return [(f, middle, la) for f in firsts for la in lasts if f or la]


def _address_forms(address: str) -> list[match.Form]:
    """An address ``45 Maple Rd, Suite 210, Hartwell, MA 01234`` in pieces: parts with a digit
    and a word are STREET, five-digit codes ZIP, other parts CITY (a two-letter state is
    left alone: states are no identifier under Safe Harbor)."""
    forms: list[match.Form] = []
    for part in (p.strip() for p in address.split(",")):
        toks = match.tokens(part)
        if not toks:
            continue
        zips = [t for t in toks if len(t) == 5 and t.isdecimal()]
        words = [t for t in toks if not t.isdecimal()]
        if any(t.isdecimal() for t in toks) and words and not (zips and len(words) <= 1):
            forms += match.phrase_forms(part, "STREET")
        elif zips:
            forms += [f for z in zips for f in match.phrase_forms(z, "ZIP")]
        elif not (len(toks) == 1 and len(toks[0]) == 2):
            forms += match.phrase_forms(part, "CITY")
    return forms


@lru_cache(maxsize=1)
def _nicknames() -> dict:
    """Lower-cased first name -> the names it may be written as (nicknames and back)."""
    out: dict[str, set] = {}
    for line in gazetteers.entries("nicknames"):
        name, _, nick = line.lower().partition(" ")
        if nick:
            out.setdefault(name, set()).add(nick)
            out.setdefault(nick, set()).add(name)
    return {k: frozenset(v) for k, v in out.items()}


class Site:
    """What a site knows: identifiers by patient and by note, staff, institutions, towns,
    safe terms (module docstring).

    Parameters
    ----------
    patients, notes : mapping, optional
        Patient key (or note id) -> ``{field: value or [values]}`` (:data:`FIELDS`); a list of
        such mappings is several rows (several people) of one patient.
    staff, institutions, places, allow : iterable of str
    nicknames : bool
        Match first names also as their nicknames (and nicknames as their names).
    date_order : str or None
        How the site writes numeric dates (``auto``, ``mdy``, ``dmy``, ``ymd``:
        :mod:`crfdeid.text.dateorder`); None: not said (the run's setting, else ``auto``).
    """

    def __init__(self, patients: Mapping | None = None, notes: Mapping | None = None,
                 staff: Iterable[str] = (), institutions: Iterable[str] = (),
                 places: Iterable[str] = (), allow: Iterable[str] = (), nicknames: bool = True,
                 date_order: str | None = None):
        self.date_order = None if date_order is None else dateorder.check_order(date_order, "site date_order")
        self.patients = {str(k): tables.as_record(v, f"patient {k!r}") for k, v in (patients or {}).items()}
        self.notes = {str(k): tables.as_record(v, f"note {k!r}") for k, v in (notes or {}).items()}
        self.staff, self.institutions = list(staff), list(institutions)
        self.places, self.nicknames = list(places), nicknames
        self.allow = frozenset(" ".join(match.tokens(a)) for a in allow if match.tokens(a))
        self.dropped = 0  # entries of a mined site file that no mining would learn now (load)
        self._global: match.Matcher | None = None
        self._allowed: match.Matcher | None = None

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_global"] = state["_allowed"] = None  # rebuilt where it is used (Spark executors)
        return state

    def merged(self, other: Site) -> Site:
        """A site that knows what both know (rows of a patient in both are both kept)."""
        orders = {o for o in (self.date_order, other.date_order) if o is not None}
        if len(orders) > 1:
            raise ConfigError(f"two sites give two date orders ({', '.join(sorted(orders))}); give one")
        out = Site(nicknames=self.nicknames and other.nicknames, date_order=next(iter(orders), None))
        for mine, theirs, into in ((self.patients, other.patients, out.patients),
                                   (self.notes, other.notes, out.notes)):
            for key in {**mine, **theirs}:
                into[key] = mine.get(key, ()) + theirs.get(key, ())
        out.staff, out.institutions = self.staff + other.staff, self.institutions + other.institutions
        out.places, out.allow = self.places + other.places, self.allow | other.allow
        out.dropped = self.dropped + other.dropped
        return out

    # -- reading ---------------------------------------------------------------
    @classmethod
    def load(cls, path) -> Site:
        """A site file (YAML, module docstring).

        Raises
        ------
        ConfigError
            Unreadable file, unknown keys, unreadable tables or lists.
        """
        import yaml
        path = Path(path)
        text = read_regular_text(path, ConfigError, "the site file")  # a FIFO or device refused, never read
        try:
            spec = yaml.safe_load(text) or {}
        except yaml.YAMLError as exc:
            raise ConfigError(f"cannot read the site file ({type(exc).__name__})", path=path) from None
        if not isinstance(spec, dict):
            raise ConfigError("a site file is a mapping", path=path)
        bad = sorted(set(spec) - set(_SITE_KEYS))
        if bad:
            raise ConfigError(f"unknown key(s) {', '.join(bad)}; known: {', '.join(_SITE_KEYS)}", path=path)

        def paths(key):
            value = spec.get(key) or []
            return [path.parent / p for p in ([value] if isinstance(value, str) else value)]
        site = cls.from_files(paths("tables"), {k: paths(k) for k in LISTS},
                              nicknames=bool(spec.get("nicknames", True)))
        try:
            site.date_order = None if spec.get("date_order") is None else dateorder.check_order(
                spec["date_order"], "site file date_order")
        except ConfigError as exc:
            raise ConfigError(str(exc), path=path) from None
        from .learnt import HEADER  # learnt and mining import this package: not at the top
        if text.startswith(HEADER):  # written by site mining (learnt.save)
            site.clean_learnt()
        return site

    def dropped_message(self) -> str:
        """What :meth:`clean_learnt` dropped, in the run summary (a count, never an entry)."""
        return (f"site file: {self.dropped} learnt entr{'y' if self.dropped == 1 else 'ies'} dropped (a field "
                "label, a clinical term or a common word: site mining no longer learns them; docs/site.md)")

    def clean_learnt(self) -> int:
        """Drop the names, places and patients' values that site mining would not learn now
        (:func:`crfdeid.site.mining.refused`: field labels, clinical terms, common words), as a
        site file that mining wrote before the guard may hold (issue 50: ``may``, ``hope``);
        how many were dropped (also added to :attr:`dropped`). For mined site files only: a
        roster the site gives is its own."""
        from .mining import refused  # mining imports this package: not at the top

        def keep(value: str) -> bool:
            return not refused(tuple(match.tokens(value)))
        before = len(self.staff) + len(self.institutions) + len(self.places)
        self.staff = [w for w in self.staff if keep(w)]
        self.institutions = [w for w in self.institutions if keep(w)]
        self.places = [w for w in self.places if keep(w)]
        dropped = before - len(self.staff) - len(self.institutions) - len(self.places)
        for table in (self.patients, self.notes):
            for key, pairs in table.items():
                kept = tuple(p for p in pairs if p[0] not in ("name", "city", "relative") or keep(p[1]))
                dropped += len(pairs) - len(kept)
                table[key] = kept
        self.dropped += dropped
        self._global = None
        return dropped

    @classmethod
    def from_files(cls, tables: Iterable = (), lists: Mapping | None = None, nicknames: bool = True) -> Site:
        """A site from tables (:func:`read_table`) and word lists (``{kind: [paths]}``)."""
        patients: dict = {}
        notes: dict = {}
        for t in tables:
            for key, value, row in read_table(t):
                (patients if key == "patient" else notes).setdefault(value, []).append(row)
        words = {k: [w for p in (lists or {}).get(k, ()) for w in read_list(p)] for k in LISTS}
        bad = sorted(set(lists or {}) - set(LISTS))
        if bad:
            raise ConfigError(f"unknown list kind(s) {', '.join(bad)}; known: {', '.join(LISTS)}")
        return cls(patients, notes, words["staff"], words["institutions"], words["places"],
                   words["allow"], nicknames)

    # -- tagging ---------------------------------------------------------------
    def known(self, doc: Document) -> tuple:
        """The record of identifiers known for ``doc``: its patient's, its note's and its
        ``meta["known"]`` (sorted ``(field, value)`` pairs)."""
        pairs = list(self.patients.get(doc.group, ())) + list(self.notes.get(doc.doc_id, ()))
        meta = doc.meta.get("known")
        if meta is not None:
            pairs += tables.as_record(meta, "meta['known']", doc_id=doc.doc_id, echo=False)
        return tuple(pairs)

    def _site_matcher(self) -> match.Matcher:
        if self._global is None:
            nick = _nicknames() if self.nicknames else None
            forms = [f for name in self.staff for f in match.name_forms(*split_name(name), "DOCTOR", nick)]
            forms += [f for inst in self.institutions for f in match.phrase_forms(inst, "HOSPITAL")]
            forms += [f for place in self.places for f in match.phrase_forms(place, "CITY")]
            self._global = match.Matcher(forms, allow=self.allow)
        return self._global

    def _allow_matcher(self) -> match.Matcher:
        if self._allowed is None:
            self._allowed = match.Matcher([match.Form(tuple(a.split()), (match.PHRASE,) * a.count(" "), "OTHER")
                                           for a in self.allow])
        return self._allowed

    def drop_allowed(self, text: str, spans, strictly: bool = False) -> list[Span]:
        """``spans`` without those that lie inside an occurrence of an allow-listed term
        (``strictly``: inside a longer one)."""
        if not self.allow:
            return list(spans)
        safe = self._allow_matcher().find(text)
        return [sp for sp in spans if not any(a.start <= sp.start and sp.end <= a.end
                                              and (not strictly or len(a) > len(sp)) for a in safe)]

    def find(self, doc: Document, text: str) -> list[Span]:
        """Every occurrence of what is known for ``doc`` in ``text`` (its text as the tagger
        reads it): the note's and patient's identifiers first, then the site's lists."""
        record = self.known(doc)
        found = record_matcher(record, self.nicknames, self.allow).find(text) if record else []
        found += self._site_matcher().find(text)
        found.sort(key=lambda sp: (sp.start, -sp.end))  # the longest match wins where two overlap
        out: list[Span] = []
        for sp in found:
            if not out or sp.start >= out[-1].end:
                out.append(sp)
        return out

    def apply(self, doc: Document, text: str, spans) -> list[Span]:
        """Predicted ``spans`` with allow-listed terms dropped, then what is known added
        (:func:`crfdeid.site.match.join`), but for known words inside a longer allow-listed
        term (``Ward`` of ``Ward 5`` in Ms. Ward's notes)."""
        known = self.drop_allowed(text, self.find(doc, text), strictly=True)  # "ward" of "Ward 5"
        return match.join(self.drop_allowed(text, spans), known)


def add_arguments(p) -> None:
    """The site options of ``tag`` (and ``serve``, ``spark``)."""
    g = p.add_argument_group("site knowledge (docs/site.md)")
    g.add_argument("--site", metavar="FILE", help="site file (YAML) naming tables and word lists")
    g.add_argument("--site-table", action="append", metavar="FILE",
                   help="identifiers by patient or note (CSV, JSONL, or patient||||first||||last lines); "
                        + MAPPING_HINT.replace("%", "%%"))
    g.add_argument("--site-list", action="append", metavar="KIND=FILE",
                   help=f"a word list, KIND one of {', '.join(LISTS)}")


def add_mining_arguments(p, save: bool = True) -> None:
    """The site-mining options of ``tag`` and ``spark`` (:mod:`crfdeid.site.mining`)."""
    g = p.add_argument_group("site mining (docs/site.md)")
    g.add_argument("--site-mining", choices=("on", "off"), default="on",
                   help="find what the model tagged confidently in some notes wherever it recurs in the "
                        "batch, per patient and per site, behind word-list guards (default: on; the "
                        "output comes once the whole batch is tagged)")
    if save:
        g.add_argument("--site-mining-save", metavar="FILE",
                       help="write what the batch taught as a site file (YAML, lists beside it) for "
                            "--site on the next batch; it holds names and places: store it as PHI")


def from_args(args) -> Site | None:
    """The :class:`Site` the options name, or None.

    Raises
    ------
    ConfigError
        A bad file or ``KIND=FILE``.
    """
    tables = list(args.site_table or ())
    lists: dict[str, list] = {}
    for pair in args.site_list or ():
        kind, sep, file = pair.partition("=")
        if not sep or kind not in LISTS:
            raise ConfigError(f"--site-list wants KIND=FILE with KIND one of {', '.join(LISTS)}")
        lists.setdefault(kind, []).append(file)
    if not (args.site or tables or lists):
        return None
    extra = Site.from_files(tables, lists)
    if not args.site:
        return extra
    site = Site.load(args.site)
    return site.merged(extra)
