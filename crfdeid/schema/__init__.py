"""Label schemes as data: labels, their parent categories, the HIPAA subset, placeholders, surrogates.

A :class:`Scheme` lists its labels (the subtypes spans and BIO tags carry), each
with a parent category, whether it counts as HIPAA, the placeholder redacted
output writes for it and the surrogate generator it takes (a kind registered in
:mod:`crfdeid.deid.kinds`; none: the shape-keeping random replacement). Label
names are compared case-insensitively and written in the scheme's spelling.

:data:`I2B2` (the i2b2 2014 scheme, plus PhysioNet's ``OTHER``) is the default;
the module-level names of earlier versions (:data:`CATEGORIES`,
:data:`SUBTYPE_TO_PARENT`, :func:`parent_of`, ...) are its views. A config
declares another scheme with :meth:`Scheme.from_dict`; :data:`ANY` takes labels
as they are written (what readers do with the ``scheme=any`` option), and
:func:`infer` makes the scheme of a corpus read that way.

>>> parent_of("DOCTOR")
'NAME'
>>> is_hipaa("IDNUM"), is_hipaa("IDNUM", include_idnum=True)
(False, True)
>>> s = Scheme.from_dict({"name": "demo", "labels": {"Nombre": {"parent": "PERSONA", "hipaa": True},
...                                                   "Fecha": {"surrogate": "date"}}})
>>> s.parent_of("NOMBRE"), s.canonical("fecha"), sorted(s.hipaa_subtypes())
('PERSONA', 'Fecha', ['Nombre'])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from ..errors import ConfigError
from ..registry import Registry

#: The surrogate generators a declared label can name: kind -> ``(category, subtype)`` of the
#: i2b2 label whose generator, date shifting, age policy and leak checks it uses
#: (:func:`crfdeid.deid.kinds.stand_in`). Held here so that a scheme is checked when declared.
SURROGATE_KINDS = Registry("surrogate generator")
for _name, _proxy in {
    "name": ("NAME", "PATIENT"), "username": ("NAME", "USERNAME"),
    "profession": ("PROFESSION", "PROFESSION"),
    "room": ("LOCATION", "ROOM"), "department": ("LOCATION", "DEPARTMENT"),
    "hospital": ("LOCATION", "HOSPITAL"), "organization": ("LOCATION", "ORGANIZATION"),
    "street": ("LOCATION", "STREET"), "city": ("LOCATION", "CITY"), "state": ("LOCATION", "STATE"),
    "country": ("LOCATION", "COUNTRY"), "zip": ("LOCATION", "ZIP"),
    "location": ("LOCATION", "LOCATION-OTHER"),
    "age": ("AGE", "AGE"), "date": ("DATE", "DATE"),
    "phone": ("CONTACT", "PHONE"), "fax": ("CONTACT", "FAX"), "email": ("CONTACT", "EMAIL"),
    "url": ("CONTACT", "URL"), "ipaddr": ("CONTACT", "IPADDR"),
    "ssn": ("ID", "SSN"), "id": ("ID", "IDNUM"),
    "random": ("ID", "IDNUM"),
}.items():
    SURROGATE_KINDS.register(_name, _proxy)
#: The kind of a label whose scheme names none.
DEFAULT_KIND = "random"
#: The characters ``str.splitlines`` breaks lines at (``\r\n`` is one break of two).
LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def check_template(template: str) -> str:
    """``template`` when it formats with the fields ``{subtype}``, ``{category}``, ``{length}``
    and holds no line break (the output keeps the input's lines); :class:`ConfigError` otherwise."""
    if any(c in LINE_BREAKS for c in template):
        raise ConfigError("a redaction template must not hold a line break (the output keeps "
                          "the input's lines)")
    try:
        template.format(subtype="X", category="X", length=0)
    except (KeyError, IndexError, ValueError) as exc:
        raise ConfigError(f"bad redaction template {template!r} ({exc}); fields: "
                          "{subtype}, {category}, {length}") from None
    return template


@dataclass(frozen=True)
class Label:
    """One label of a scheme.

    ``placeholder`` is a redaction template (``str.format`` fields ``{subtype}``,
    ``{category}``, ``{length}``) or ``None`` for the redaction style's;
    ``surrogate`` names a registered surrogate kind or is ``None`` for the
    shape-keeping random replacement.
    """

    name: str
    parent: str
    hipaa: bool = False
    placeholder: str | None = None
    surrogate: str | None = None

    def as_dict(self) -> dict:
        return {"parent": self.parent, "hipaa": self.hipaa, "placeholder": self.placeholder,
                "surrogate": self.surrogate}


#: Keys a label of a declared scheme may have.
LABEL_KEYS = ("parent", "hipaa", "placeholder", "surrogate")
#: Keys of a declared scheme.
SCHEME_KEYS = ("name", "labels", "hipaa_optional")


class Scheme:
    """A label scheme (see the module docstring); build user schemes with :meth:`from_dict`.

    Parameters
    ----------
    name : str
    labels : iterable of Label
        In display order (tables list categories and labels in this order).
    hipaa_optional : iterable of str
        HIPAA labels counted only with ``include_idnum`` (i2b2: ``IDNUM``, which the
        official script leaves out).
    """

    open = False

    def __init__(self, name: str, labels: Iterable[Label], hipaa_optional: Iterable[str] = ()):
        self.name = name
        self.labels = tuple(labels)
        by_key: dict[str, Label] = {}
        for lab in self.labels:
            key = lab.name.upper()
            if key in by_key:
                raise ConfigError(f"scheme {name!r}: label {lab.name!r} is declared twice "
                                  "(names are compared case-insensitively)")
            by_key[key] = lab
        self._by_key = by_key
        cats: dict[str, list[str]] = {}
        for lab in self.labels:
            cats.setdefault(lab.parent, []).append(lab.name)
        self.categories = MappingProxyType({c: tuple(s) for c, s in cats.items()})
        self._cat_key = {c.upper(): c for c in cats}
        self.subtypes = tuple(lab.name for lab in self.labels)
        self.subtype_to_parent = MappingProxyType({lab.name: lab.parent for lab in self.labels})
        self.hipaa_optional = frozenset(hipaa_optional)
        unknown = self.hipaa_optional - set(self.subtypes)
        if unknown:
            raise ConfigError(f"scheme {name!r}: hipaa_optional names unknown label(s) "
                              f"{', '.join(sorted(unknown))}")
        self._hipaa = frozenset(lab.name for lab in self.labels if lab.hipaa) - self.hipaa_optional

    # -- look-ups -------------------------------------------------------------------
    def label(self, name: str) -> Label | None:
        """The label called ``name`` (any case), or ``None``."""
        return self._by_key.get(str(name).upper())

    def canonical(self, name: str) -> str:
        """``name`` in the scheme's spelling; unchanged when it is not a label of the scheme."""
        lab = self.label(name)
        return lab.name if lab is not None else name

    def parent_of(self, subtype: str) -> str:
        """Parent category of a label; ``KeyError`` listing the known labels."""
        lab = self.label(subtype)
        if lab is None:
            raise KeyError(f"unknown label {subtype!r} in scheme {self.name!r}; "
                           f"known: {', '.join(self.subtypes)}")
        return lab.parent

    def is_valid(self, category: str, subtype: str) -> bool:
        """Whether ``(category, subtype)`` is a pair of the scheme (any case)."""
        lab = self.label(subtype)
        return lab is not None and lab.parent.upper() == str(category).upper()

    def category(self, name: str) -> str | None:
        """A parent category of the scheme in its spelling, or ``None``."""
        return self._cat_key.get(str(name).upper())

    def resolve(self, label: str, category: str | None = None):
        """``(category, subtype)`` in the scheme's spelling for a label as a corpus writes it.

        Tried in order: the label itself (any case); ``CATEGORY-SUBTYPE``,
        ``CATEGORY/SUBTYPE`` or ``CATEGORY_SUBTYPE``. With ``category`` (formats that
        write one, e.g. an i2b2 element name) the pair must be valid. ``None`` when
        nothing fits.

        >>> I2B2.resolve("Location-Other"), I2B2.resolve("doctor", "name"), I2B2.resolve("DOCTOR", "DATE")
        (('LOCATION', 'LOCATION-OTHER'), ('NAME', 'DOCTOR'), None)
        """
        lab = self.label(label)
        if lab is not None:
            if category is not None and lab.parent.upper() != str(category).upper():
                return None
            return lab.parent, lab.name
        if category is None:
            for sep in "/-_":
                cat, found, sub = str(label).partition(sep)
                lab = self.label(sub) if found else None
                if lab is not None and lab.parent.upper() == cat.upper():
                    return lab.parent, lab.name
        return None

    # -- HIPAA ----------------------------------------------------------------------
    def hipaa_subtypes(self, include_idnum: bool = False) -> frozenset:
        """The HIPAA labels (with the ``hipaa_optional`` ones when ``include_idnum``)."""
        return self._hipaa | self.hipaa_optional if include_idnum else self._hipaa

    def is_hipaa(self, subtype: str, include_idnum: bool = False) -> bool:
        """Whether ``subtype`` is in the HIPAA subset."""
        return self.canonical(subtype) in self.hipaa_subtypes(include_idnum)

    @property
    def has_hipaa(self) -> bool:
        """Whether the scheme declares any HIPAA label (HIPAA rows are left out otherwise)."""
        return bool(self._hipaa or self.hipaa_optional)

    def summary(self) -> str:
        """One line for summaries: name, labels, categories, HIPAA labels."""
        hipaa = f"{len(self.hipaa_subtypes())} HIPAA" if self.has_hipaa else "no HIPAA labels"
        return (f"{self.name} ({len(self.labels)} labels in {len(self.categories)} categories, {hipaa})"
                if not self.open else "labels as written")

    # -- as data --------------------------------------------------------------------
    def to_dict(self) -> dict:
        """The scheme as a config mapping (:meth:`from_dict` reads it back)."""
        return {"name": self.name, "labels": {lab.name: lab.as_dict() for lab in self.labels},
                "hipaa_optional": sorted(self.hipaa_optional)}

    @classmethod
    def from_dict(cls, data, path=None) -> Scheme:
        """A scheme from a config mapping; :class:`ConfigError` for unknown keys or bad values.

        ``labels`` maps each label to ``{parent, hipaa, placeholder, surrogate}`` (all
        optional: parent defaults to the label itself, hipaa to false) or is a list
        of label names.
        """
        def bad(msg):
            raise ConfigError(f"scheme: {msg}", path=path)
        if not isinstance(data, Mapping):
            bad(f"a scheme is a mapping with {', '.join(SCHEME_KEYS)}, not {type(data).__name__}")
        unknown = set(data) - set(SCHEME_KEYS)
        if unknown:
            bad(f"unknown key(s) {', '.join(sorted(map(str, unknown)))}; allowed: {', '.join(SCHEME_KEYS)}")
        raw = data.get("labels")
        if isinstance(raw, list):
            raw = {name: {} for name in raw}
        if not isinstance(raw, Mapping) or not raw:
            bad("labels must be a non-empty mapping of label -> {parent, hipaa, placeholder, surrogate}")
        labels = []
        for name, spec in raw.items():
            spec = {} if spec is None else spec
            if not isinstance(name, str) or not name.strip() or any(c.isspace() for c in name):
                bad(f"label names are non-empty strings without white space, not {name!r}")
            if not isinstance(spec, Mapping):
                bad(f"label {name!r} must map to {{parent, hipaa, placeholder, surrogate}}")
            extra = set(spec) - set(LABEL_KEYS)
            if extra:
                bad(f"label {name!r}: unknown key(s) {', '.join(sorted(map(str, extra)))}; "
                    f"allowed: {', '.join(LABEL_KEYS)}")
            parent = spec.get("parent") or name
            if not isinstance(parent, str) or any(c.isspace() for c in parent):
                bad(f"label {name!r}: parent must be a name without white space")
            if not isinstance(spec.get("hipaa", False), bool):
                bad(f"label {name!r}: hipaa must be true or false")
            for key in ("placeholder", "surrogate"):
                if spec.get(key) is not None and not isinstance(spec[key], str):
                    bad(f"label {name!r}: {key} must be a string")
            labels.append(Label(name, parent, spec.get("hipaa", False), spec.get("placeholder"),
                                spec.get("surrogate")))
        optional = data.get("hipaa_optional") or ()
        if not isinstance(optional, (list, tuple)):
            bad("hipaa_optional must be a list of labels")
        scheme = cls(str(data.get("name") or "declared"), labels, optional)
        scheme._check_components(path)
        return scheme

    def _check_components(self, path=None) -> None:
        """Placeholders that format, surrogate kinds that are registered (the error lists them)."""
        for lab in self.labels:
            if lab.surrogate is not None and lab.surrogate not in SURROGATE_KINDS:
                raise ConfigError(f"scheme: label {lab.name!r}: unknown surrogate generator "
                                  f"{lab.surrogate!r}; known: {', '.join(SURROGATE_KINDS.names())}",
                                  path=path)
            if lab.placeholder is not None:
                try:
                    check_template(lab.placeholder)
                except ConfigError as exc:
                    raise ConfigError(f"scheme: label {lab.name!r}: {exc}", path=path) from None

    def __eq__(self, other) -> bool:
        return isinstance(other, Scheme) and self.open == other.open and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash((self.name, self.subtypes))

    def __repr__(self) -> str:
        return f"Scheme({self.name!r}, {len(self.labels)} labels)"


class OpenScheme(Scheme):
    """Labels as they are written: any label is valid; its parent is the one the format gives
    (an i2b2 element name, a JSONL ``category``) or the label itself."""

    open = True

    def __init__(self):
        super().__init__("any", ())

    def canonical(self, name: str) -> str:
        return name

    def parent_of(self, subtype: str) -> str:
        return subtype

    def is_valid(self, category: str, subtype: str) -> bool:
        return bool(category) and bool(subtype)

    def resolve(self, label: str, category: str | None = None):
        return (category or label), label


# -- the i2b2 2014 scheme ---------------------------------------------------------------

#: Parent category -> its subtypes, exactly as in the i2b2 2014 guidelines.
I2B2_CATEGORIES = MappingProxyType({
    "NAME": ("PATIENT", "DOCTOR", "USERNAME"),
    "PROFESSION": ("PROFESSION",),
    "LOCATION": ("ROOM", "DEPARTMENT", "HOSPITAL", "ORGANIZATION", "STREET",
                 "CITY", "STATE", "COUNTRY", "ZIP", "LOCATION-OTHER"),
    "AGE": ("AGE",),
    "DATE": ("DATE",),
    "CONTACT": ("PHONE", "FAX", "EMAIL", "URL", "IPADDR"),
    "ID": ("SSN", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE",
           "VEHICLE", "DEVICE", "BIOID", "IDNUM"),
})

#: Categories outside i2b2 2014 that a documented reader mapping may produce.
#: PhysioNet's ``Other`` (free identifiers such as study numbers) maps here.
EXTENSION_CATEGORIES = MappingProxyType({
    "OTHER": ("OTHER",),
})

#: HIPAA subtypes as the official i2b2 2014 evaluation script lists them.
#: The script spells IDNUM wrongly, so IDNUM never counts as HIPAA there;
#: pass ``include_idnum=True`` to the helpers below to count it.
HIPAA_SUBTYPES = frozenset({
    "PATIENT",
    "CITY", "STREET", "ZIP", "ORGANIZATION",
    "DATE",
    "AGE",
    "PHONE", "FAX", "EMAIL",
    "SSN", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE",
    "DEVICE", "BIOID",
})

#: The i2b2 subtypes of a person's name (a user name is a login, no person's name): the types whose
#: surrogates :mod:`crfdeid.deid.names` draws and whose words the surrogate writer judges as a name's.
PERSON_SUBTYPES = frozenset({"PATIENT", "DOCTOR"})

#: The default scheme. Its labels keep their own surrogate generators (``surrogate`` is
#: left empty: :class:`crfdeid.deid.Surrogator` knows every i2b2 subtype).
I2B2 = Scheme("i2b2-2014", [
    Label(sub, cat, sub in HIPAA_SUBTYPES or sub == "IDNUM")
    for cat, subs in {**I2B2_CATEGORIES, **EXTENSION_CATEGORIES}.items() for sub in subs
], hipaa_optional=("IDNUM",))
DEFAULT = I2B2
#: Labels as written (the ``scheme=any`` reader option).
ANY = OpenScheme()

CATEGORIES = I2B2.categories
SUBTYPE_TO_PARENT = I2B2.subtype_to_parent
#: The i2b2 2014 subtypes, in guideline order. The shared-task overview speaks of
#: "25 subcategories"; the guideline list it gives (and this tuple) has 30 names.
I2B2_SUBTYPES = tuple(sub for subs in I2B2_CATEGORIES.values() for sub in subs)
#: Names a config or a reader option may give instead of a scheme mapping.
NAMED = {"i2b2": I2B2, "i2b2-2014": I2B2, "any": ANY}


def hipaa_subtypes(include_idnum: bool = False) -> frozenset:
    """Return the i2b2 HIPAA subtypes, optionally with IDNUM (left out by the official script)."""
    return I2B2.hipaa_subtypes(include_idnum)


def is_hipaa(subtype: str, include_idnum: bool = False) -> bool:
    """Whether ``subtype`` is in the i2b2 HIPAA subset."""
    return subtype.upper() in hipaa_subtypes(include_idnum)


def parent_of(subtype: str) -> str:
    """Parent category of an i2b2 subtype; raises ``KeyError`` listing the known subtypes."""
    try:
        return SUBTYPE_TO_PARENT[subtype.upper()]
    except KeyError:
        raise KeyError(
            f"unknown PHI subtype {subtype!r}; known: {', '.join(SUBTYPE_TO_PARENT)}"
        ) from None


def is_valid(category: str, subtype: str) -> bool:
    """Whether ``(category, subtype)`` is a pair of the i2b2 scheme."""
    return SUBTYPE_TO_PARENT.get(subtype.upper()) == category.upper()


def get(spec, path=None) -> Scheme:
    """A scheme from what a config or a reader option gives.

    ``None`` or ``"i2b2"``: :data:`I2B2`; ``"any"``: :data:`ANY`; a mapping: a declared
    scheme (:meth:`Scheme.from_dict`); a :class:`Scheme`: itself.

    >>> get(None) is I2B2, get("any").open
    (True, True)
    """
    if spec is None:
        return I2B2
    if isinstance(spec, Scheme):
        return spec
    if isinstance(spec, str):
        try:
            return NAMED[spec.lower()]
        except KeyError:
            raise ConfigError(f"unknown scheme {spec!r}; give one of {', '.join(NAMED)} or a "
                              "mapping of labels", path=path) from None
    return Scheme.from_dict(spec, path)


def known_labels(scheme: Scheme) -> str:
    """The labels an error message lists for ``scheme``."""
    return "any label" if scheme.open else ", ".join(scheme.subtypes)


# A corpus' own scheme (labels as written): beside the schemes, under their names of old.
from .corpus import infer as infer  # noqa: E402
from .corpus import normalise as normalise  # noqa: E402
from .corpus import settle as settle  # noqa: E402
