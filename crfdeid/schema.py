"""The i2b2 2014 PHI scheme as data: parent categories, subtypes and the HIPAA subset.

Subtype names are unique across categories, so a subtype alone identifies its
parent (``DOCTOR`` -> ``NAME``). BIO labels carry the subtype (``B-DOCTOR``).

>>> parent_of("DOCTOR")
'NAME'
>>> is_hipaa("IDNUM"), is_hipaa("IDNUM", include_idnum=True)
(False, True)
"""

from __future__ import annotations

from types import MappingProxyType

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

CATEGORIES = MappingProxyType({**I2B2_CATEGORIES, **EXTENSION_CATEGORIES})

SUBTYPE_TO_PARENT = MappingProxyType({
    sub: cat for cat, subs in CATEGORIES.items() for sub in subs
})

#: The i2b2 2014 subtypes, in guideline order. The shared-task overview speaks of
#: "25 subcategories"; the guideline list it gives (and this tuple) has 30 names.
I2B2_SUBTYPES = tuple(sub for subs in I2B2_CATEGORIES.values() for sub in subs)

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


def hipaa_subtypes(include_idnum: bool = False) -> frozenset:
    """Return the HIPAA subtypes, optionally with IDNUM (left out by the official script)."""
    return HIPAA_SUBTYPES | {"IDNUM"} if include_idnum else HIPAA_SUBTYPES


def is_hipaa(subtype: str, include_idnum: bool = False) -> bool:
    """Whether ``subtype`` is in the HIPAA subset."""
    return subtype.upper() in hipaa_subtypes(include_idnum)


def parent_of(subtype: str) -> str:
    """Parent category of a subtype; raises ``KeyError`` listing the known subtypes."""
    try:
        return SUBTYPE_TO_PARENT[subtype.upper()]
    except KeyError:
        raise KeyError(
            f"unknown PHI subtype {subtype!r}; known: {', '.join(SUBTYPE_TO_PARENT)}"
        ) from None


def is_valid(category: str, subtype: str) -> bool:
    """Whether ``(category, subtype)`` is a pair of the scheme."""
    return SUBTYPE_TO_PARENT.get(subtype.upper()) == category.upper()
