"""Config sections declared beside their components: typed dataclasses, checked in one place.

A component declares the section of the config it reads (``tokenizer``, ``decoding``,
``committee``...) as a dataclass registered under the section's key with :func:`section`:
its fields are the section's keys, with their types and defaults, and ``metadata`` may bound
a number (``min``, ``max``) or list the ``choices`` of a value. A ``check(self, config, path)``
method checks what those cannot and may return the resolved section; a section that is not
a mapping of keys (``crf``'s options depend on its algorithm, ``postprocess`` is a list)
overrides :meth:`Section.resolve`. :func:`resolve` is the one place that refuses an unknown
key, listing the allowed ones, and checks the declared types.

:mod:`crfdeid.config` reads, merges and dispatches; it imports none of the components:
the module that declares each section is named in :data:`PROVIDERS` and imported when a
config is resolved (the sections in that order: a section's check may read the ones
resolved before it).

>>> from dataclasses import dataclass, field
>>> @dataclass
... class Lights(Section):
...     colour: str = field(default="red", metadata={"choices": ("red", "green")})
...     count: int = field(default=1, metadata={"min": 1})
>>> Lights.resolve({"count": 2}, {}, "lights")
{'colour': 'red', 'count': 2}
>>> Lights.resolve({"colour": "blue"}, {}, "lights")
Traceback (most recent call last):
...
crfdeid.errors.ConfigError: unknown lights.colour 'blue'; known: red, green
>>> Lights.resolve({"size": 3}, {}, "lights")
Traceback (most recent call last):
...
crfdeid.errors.ConfigError: unknown lights key(s) size; allowed: colour, count
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Iterable, Mapping
from typing import Any

from .errors import ConfigError

#: Declared sections by config key (filled as their modules are imported).
SECTIONS: dict[str, type[Section]] = {}
#: The module declaring each section, in the order sections are resolved.
PROVIDERS: dict[str, str] = {
    "train": "crfdeid.io.settings",
    "dev": "crfdeid.io.settings",
    "tokenizer": "crfdeid.text.tokenize",
    "segment": "crfdeid.text.tokenize",
    "crf": "crfdeid.crf.settings",
    "decoding": "crfdeid.tagging.decoding",
    "training": "crfdeid.crf.settings",
    "resources": "crfdeid.resources",
    "rules": "crfdeid.recognizers.chain",
    "committee": "crfdeid.recognizers.committee",
    "companion": "crfdeid.crf.settings",
    "prior": "crfdeid.crf.settings",
    "postprocess": "crfdeid.recognizers.chain",
    "neural": "crfdeid.neural.settings",
    "routing": "crfdeid.routing.settings",
}


def check_keys(given: Iterable, allowed: Iterable, what: str, path=None, noun: str = "key") -> None:
    """Refuse keys of ``given`` that are not ``allowed``; the message lists the allowed ones.

    >>> check_keys({"c3": 1}, ["c1", "c2"], "crf")
    Traceback (most recent call last):
    ...
    crfdeid.errors.ConfigError: unknown crf key(s) c3; allowed: c1, c2
    """
    allowed = list(allowed)
    unknown = sorted(set(map(str, given)) - set(map(str, allowed)))
    if unknown:
        raise ConfigError(f"unknown {what} {noun}(s) {', '.join(unknown)}; allowed: "
                          f"{', '.join(map(str, allowed)) or '(none)'}", path=path)


def _kind_error(where: str, kind: str, value, none_ok: bool) -> str:
    what = {"bool": "true or false", "int": "an integer", "float": "a number", "str": "a string"}[kind]
    return f"{where} must be {what}{' or null' if none_ok else ''}, not {value!r}"


def check_value(where: str, value, kind: str, meta: Mapping, path=None) -> None:
    """``value`` of ``kind`` (``"bool"``, ``"int"``, ``"float"``, ``"str"``, with ``" | None"``
    for null), within ``meta``'s ``min``/``max`` and among its ``choices``."""
    none_ok = kind.endswith("| None")
    kind = kind.removesuffix("| None").strip()
    if value is None:
        if none_ok or kind not in ("bool", "int", "float", "str"):
            return
        raise ConfigError(_kind_error(where, kind, value, none_ok), path=path)
    choices = meta.get("choices")
    if choices is not None and value not in choices:
        raise ConfigError(f"unknown {where} {value!r}; known: {', '.join(map(str, choices))}"
                          f"{' (or null)' if none_ok else ''}", path=path)
    ok = {"bool": lambda v: isinstance(v, bool),
          "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
          "float": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
          "str": lambda v: isinstance(v, str)}.get(kind)
    if ok is not None and not ok(value):
        raise ConfigError(_kind_error(where, kind, value, none_ok), path=path)
    low, high = meta.get("min"), meta.get("max")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = (f"in [{low}, {high}]" if low is not None and high is not None
                  else f">= {low}" if low is not None else f"<= {high}")
        noun = "an integer" if kind == "int" else "a number"
        raise ConfigError(f"{where} must be {noun} {bounds}{' or null' if none_ok else ''}, not {value!r}",
                          path=path)


class Section:
    """Base of a declared section (a dataclass): :meth:`resolve` checks and fills it in."""

    #: A ``null`` section is its defaults (otherwise it must be a mapping).
    nullable = False
    #: The value of a section a config leaves out.
    missing: Any = {}

    @classmethod
    def resolve(cls, value, config: Mapping, key: str, path=None) -> Any:
        """The section ``value`` of ``config`` checked, with every default filled in."""
        if value is None and cls.nullable:
            value = {}
        if not isinstance(value, Mapping):
            raise ConfigError(f"{key} must be a mapping, not {type(value).__name__}", path=path)
        fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        check_keys(value, fields, key, path)
        for name, f in fields.items():
            if name in value:
                check_value(f"{key}.{name}", value[name], str(f.type), f.metadata, path)
        obj = cls(**value)
        out = obj.check(config, path)
        return dataclasses.asdict(obj) if out is None else out  # type: ignore[call-overload]

    def check(self, config: Mapping, path) -> Any:
        """What the declared types cannot check (default: nothing); may return the resolved section."""
        return None


def section(key: str):
    """Register a :class:`Section` dataclass as the declaration of the config section ``key``."""
    if key not in PROVIDERS:
        raise ValueError(f"config section {key!r} is not listed in crfdeid.settings.PROVIDERS")

    def add(cls):
        SECTIONS[key] = cls
        return cls
    return add


def declared(key: str) -> type[Section]:
    """The section declared under ``key``, importing the module that declares it first."""
    if key not in SECTIONS:
        importlib.import_module(PROVIDERS[key])
    return SECTIONS[key]


def resolve(config: dict, path=None) -> dict:
    """Every declared section of ``config`` resolved in place (in :data:`PROVIDERS` order)."""
    for key in PROVIDERS:
        cls = declared(key)
        config[key] = cls.resolve(config[key] if key in config else cls.missing, config, key, path)
    return config
