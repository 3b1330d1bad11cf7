r"""The recognizers' data: patterns, word lists and context words read from ``crfdeid/_data/rules/*.tsv``.

A rule whose logic is a pattern, its context and a label is a row of a table, not a function. Each
table is a UTF-8 file of tab-separated rows; lines that start with ``#`` are its header (source,
licence) and the comments on the rows after them:

* ``define  NAME  TEXT``: a piece of pattern other rows name as ``${NAME}`` (a ``pattern`` or ``regex``
  row's name too);
* ``pattern NAME  FLAGS  TEXT``: a regex (``FLAGS``: letters of ``imsx``, ``-`` for none); the
  ``${NAME}`` in it are the table's defines, or values the caller gives (:meth:`Table.source`);
  ``regex NAME FLAGS TEXT``: the same for the ``regex`` module (Unicode classes such as ``\p{Lu}``);
  ``lazy NAME FLAGS TEXT``: a ``regex`` one compiled on first use (a pattern few notes need);
  ``template NAME FLAGS TEXT``: a ``regex`` pattern the caller fills and compiles (:meth:`Table.templates`;
  the flag ``t``: run by its ASCII twin on ASCII text, :class:`crfdeid.text.patterns.AsciiTwin`);
* ``rule NAME LABEL FLAGS TEXT``: a ``regex`` pattern that marks its match (or its ``phi`` group) as
  ``LABEL``, filled and compiled by the caller (:meth:`Table.rules`; the rule overlay's table);
* ``item NAME TEXT``: one entry of the list ``NAME`` (rows of one name, in order; ``${NAME}`` filled;
  the lists ``PREFIX.KEY`` by key: :meth:`Table.groups`);
  ``map NAME KEY TEXT``: the entry ``KEY`` of the mapping ``NAME`` (:meth:`Table.mapping`);
* ``words   NAME  TEXT``: a word list, white-space separated; ``phrases NAME TEXT``: ``|``-separated;
* ``+       TEXT``: more of the row above (a long pattern written over lines, as Python joins strings).

>>> t = table("values")
>>> t.re("AGE").match("67 yo").group(1), "rusty" in t.words("COLOURS")
('67', True)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache, partial
from importlib import resources
from types import SimpleNamespace

import regex

from .. import gazetteers
from ..errors import RegistryError
from ..text.patterns import LazyPattern

_FLAGS = {"i": re.I, "m": re.M, "s": re.S, "x": re.X, "-": 0, "t": 0}
_KINDS = ("define", "pattern", "regex", "lazy", "template", "rule", "words", "phrases", "item", "map")
_FILLED = ("define", "regex", "lazy", "template", "rule")  # rows whose text :meth:`Table.source` gives
_TWIN = 1 << 30  # a template's flag: run by a stdlib ``re`` twin on ASCII text (the caller's)
_MACRO = re.compile(r"\$\{(\w+)\}")
#: ``regex.compile(pattern, flags)`` on first use (a note needs few of the patterns; compiling them all
#: cost each start-up time): ``lazy(pattern, flags)``.
lazy = partial(LazyPattern, regex.compile)


class Table:
    """One table's rows by name (``define``, ``pattern``, ``words`` and ``phrases`` rows)."""

    def __init__(self, name: str, rows: dict[str, tuple[str, int, str]], labels: dict[str, str] | None = None,
                 lists: dict[str, list[str]] | None = None, maps: dict[str, dict[str, str]] | None = None):
        self.name = name
        self.rows = rows
        self.labels = labels or {}
        self.lists = lists or {}
        self.maps = maps or {}
        self._compiled: dict[str, re.Pattern[str]] = {}
        self._namespace: SimpleNamespace | None = None

    def _row(self, name: str, kind: str) -> tuple[str, int, str]:
        row = self.rows.get(name)
        if row is None or row[0] != kind:
            known = ", ".join(k for k, r in self.rows.items() if r[0] == kind)
            raise RegistryError(f"no {kind} {name!r} in rules table {self.name!r}; known: {known}")
        return row

    def source(self, name: str, **given: str) -> str:
        """The text of a ``pattern`` (or ``define``) row, its ``${NAME}`` replaced by the table's
        defines and by ``given``."""
        kind = self.rows.get(name, ("pattern",))[0]
        return self._expand(self._row(name, kind if kind in _FILLED else "pattern")[2], given)

    def _expand(self, text: str, given: dict[str, str]) -> str:
        def value(m: re.Match) -> str:
            key = m.group(1)
            if key in given:
                return given[key]
            row = self.rows.get(key)
            if row is not None and row[0] in ("pattern", "regex", "lazy"):  # a row's pattern inside another's
                return self._expand(row[2], given)
            return self._expand(self._row(key, "define")[2], given)
        return _MACRO.sub(value, text)

    def flags(self, name: str) -> int:
        """A ``pattern``, ``regex`` or ``template`` row's flags (a template's without its ``t``)."""
        kind = self.rows.get(name, ("pattern",))[0]
        return self._row(name, kind if kind in _FILLED[1:] else "pattern")[1] & ~_TWIN

    def items(self, name: str, **given: str) -> list[str]:
        """The ``item`` rows of the list ``name`` in order, each's ``${NAME}`` filled as :meth:`source` does."""
        if name not in self.lists:
            raise RegistryError(f"no item list {name!r} in rules table {self.name!r}; known: {', '.join(self.lists)}")
        return [self._expand(text, given) for text in self.lists[name]]

    def groups(self, prefix: str, **given: str) -> dict[str, list[str]]:
        """The item lists named ``PREFIX.KEY`` by their ``KEY``, in the table's order (:meth:`items`)."""
        return {name.partition(".")[2]: self.items(name, **given) for name in self.lists
                if name.partition(".")[0] == prefix}

    def mapping(self, name: str, **given: str) -> dict[str, str]:
        """The ``map`` rows of the mapping ``name``: key -> text (``${NAME}`` filled), in the rows' order."""
        if name not in self.maps:
            raise RegistryError(f"no map {name!r} in rules table {self.name!r}; known: {', '.join(self.maps)}")
        return {key: self._expand(text, given) for key, text in self.maps[name].items()}

    def gate(self, name: str) -> tuple[str, ...] | re.Pattern[str] | None:
        """What a note must hold for the ``rule`` row ``name`` to be tried (the row ``NAME.needs``): one of
        its lower-case literals (a ``phrases`` row) or a match of its ``re`` pattern; None: no gate."""
        kind = self.rows.get(f"{name}.needs", ("",))[0]
        return self.entries(f"{name}.needs") if kind == "phrases" else self.re(f"{name}.needs") if kind == "pattern" \
            else None

    def rules(self) -> list[tuple[str, str, int]]:
        """The ``rule`` rows in order: name, label (an i2b2 subtype), flags."""
        return [(name, self.labels[name], flags) for name, (kind, flags, _) in self.rows.items() if kind == "rule"]

    def templates(self) -> list[tuple[str, int, bool]]:
        """The ``template`` rows in order: name, flags, whether an ASCII twin is asked for (``t``)."""
        return [(name, flags & ~_TWIN, bool(flags & _TWIN)) for name, (kind, flags, _) in self.rows.items()
                if kind == "template"]

    def re(self, name: str) -> re.Pattern[str]:
        """A ``pattern`` row compiled by the standard ``re`` module (once)."""
        if name not in self._compiled:
            self._compiled[name] = re.compile(self.source(name), self.flags(name))
        return self._compiled[name]

    def namespace(self, **given: str) -> SimpleNamespace:
        """Every row by its name: ``pattern`` rows compiled by ``re``, ``regex`` rows by the ``regex``
        module (``lazy`` rows on first use), ``words`` and ``phrases`` rows as sets (``define`` rows:
        :meth:`source`); made once, the ``${NAME}`` not in the table filled from ``given``."""
        if self._namespace is not None:
            return self._namespace
        out = self._namespace = SimpleNamespace()
        for name, (kind, flags, _) in self.rows.items():
            if kind == "pattern":
                value: object = re.compile(self.source(name, **given), flags) if given else self.re(name)
            elif kind == "regex":
                value = regex.compile(self.source(name, **given), flags)
            elif kind == "lazy":
                value = lazy(self.source(name, **given), flags)
            elif kind == "words":
                value = self.words(name)
            elif kind == "phrases":
                value = self.words(name)
            else:  # a define: a piece of other patterns (:meth:`source`)
                continue
            setattr(out, name, value)
        return out

    def words(self, name: str) -> frozenset[str]:
        """A ``words`` or ``phrases`` row as a set."""
        return frozenset(self.entries(name))

    def entries(self, name: str) -> tuple[str, ...]:
        """A ``words`` or ``phrases`` row's entries in order."""
        row = self.rows.get(name)
        if row is not None and row[0] == "phrases":
            return tuple(e.strip() for e in row[2].split("|"))
        return tuple(self._row(name, "words")[2].split())


def _parse(name: str, text: str) -> Table:
    rows: dict[str, tuple[str, int, str]] = {}
    labels: dict[str, str] = {}
    lists: dict[str, list[str]] = {}
    maps: dict[str, dict[str, str]] = {}
    last: str | None = None
    for number, line in enumerate(text.split("\n"), 1):
        if not line or line.startswith("#"):
            continue
        kind, _, rest = line.partition("\t")
        if kind == "+" and last is not None:
            if last.startswith("\0"):  # an item's continuation
                lists[last[1:]][-1] += rest
                continue
            if last.startswith("\1"):  # a map entry's continuation
                entries = maps[last[1:]]
                entries[next(reversed(entries))] += rest
                continue
            k, f, t = rows[last]
            rows[last] = (k, f, t + rest)
            continue
        if kind == "item":  # one entry of a list: the rows of one name in order
            key, _, body = rest.partition("\t")
            lists.setdefault(key, []).append(body)
            last = "\0" + key
            continue
        if kind == "map":  # one entry of a mapping
            key, entry, body = (rest.split("\t", 2) + ["", ""])[:3]
            if entry in maps.setdefault(key, {}):
                raise RegistryError(f"rules table {name!r} line {number}: {key!r} {entry!r} twice")
            maps[key][entry] = body
            last = "\1" + key
            continue
        if kind == "rule":  # a rule's label before its flags
            key, label, rest = (rest.split("\t", 2) + ["", ""])[:3]
            labels[key] = label
            rest = f"{key}\t{rest}"
        if kind in ("pattern", "regex", "lazy", "template", "rule"):
            key, flags, body = (rest.split("\t", 2) + ["", ""])[:3]
            if any(c not in _FLAGS for c in flags) or not flags or ("t" in flags and kind != "template"):
                raise RegistryError(f"rules table {name!r} line {number}: flags {flags!r}, want letters of imsx "
                                    "(t: a template's ASCII twin) or -")
            value = sum({_FLAGS[c] for c in flags}) | (_TWIN if "t" in flags else 0)
        elif kind in ("define", "words", "phrases"):
            key, _, body = rest.partition("\t")
            value = 0
        else:
            raise RegistryError(f"rules table {name!r} line {number}: unknown row kind {kind!r}; "
                                f"known: {', '.join(_KINDS)}, +")
        if key in rows:
            raise RegistryError(f"rules table {name!r} line {number}: {key!r} twice")
        rows[key] = (kind, value, body)
        last = key
    return Table(name, rows, labels, lists, maps)


class Checks(dict):
    """The checks of a table's ``rule`` rows by name: ``check(match, text) -> bool``, a form's evidence
    beyond its pattern; a form without one is its pattern alone (its row's comment says why)."""

    def register(self, *names: str) -> Callable:
        """Register the decorated function as the check of the rows ``names``."""
        def add(check: Callable) -> Callable:
            for name in names:
                self[name] = check
            return check
        return add

    def of(self, name: str) -> Callable:
        """The check of the row ``name``."""
        return self.get(name, _pattern_alone)


def _pattern_alone(m, text) -> bool:
    """The check of a form whose pattern is all its evidence."""
    return True


def forms(t: Table, checks: Checks, compile: Callable) -> dict[str, tuple[str, LazyPattern, Callable, object]]:
    """Form name -> (subtype, regex, check, gate) of the ``rule`` rows of ``t`` in order: the row's pattern
    compiled by ``compile`` on first use, its check (:meth:`Checks.of`) and gate (:meth:`Table.gate`)."""
    return {name: (label, LazyPattern(compile, t.source(name), flags), checks.of(name), t.gate(name))
            for name, label, flags in t.rules()}


def scan(forms: dict, text: str, lower_gates: bool = False, skip=()) -> Iterator[tuple[str, str, re.Match]]:
    """``(form name, subtype, match)`` of every match in ``text`` of the :func:`forms` ``forms`` that passes its
    check, form by form. A form is not scanned when it is in ``skip`` or ``text`` fails its gate: none of its
    literals in the lower-cased note, or no match of its pattern in the note (``lower_gates``: the lower-cased
    note); the gate is cheaper than the form's look-behinds tried everywhere."""
    low = None
    for name, (subtype, rx, check, gate) in forms.items():
        if name in skip:
            continue
        if gate is not None:
            low = text.lower() if low is None else low
            if not any(w in low for w in gate) if isinstance(gate, tuple) \
                    else gate.search(low if lower_gates else text) is None:
                continue
        for m in rx.finditer(text):
            if check(m, text):
                yield name, subtype, m


@cache
def lists(*names: str) -> frozenset[str]:
    """The lower-cased entries of the word lists ``names`` as one set (:func:`crfdeid.gazetteers.load`), made once.

    Evidence for this, :func:`forms` and :func:`scan`, which replaced hand-made unions and two copies of the
    forms loop (2026-11-26, docs/rules.md "Same output, less code"): ``tag``'s output the same byte for byte
    on the PhysioNet development notes and on the 232 notes of the fifteen made-up development sets (other
    countries' day-first dates, UK and other postcodes, letters and nursing notes) as written, lower-cased
    and upper-cased (``tag --output-format jsonl`` of each, md5 at ``941ef71`` and after)."""
    return frozenset().union(*map(gazetteers.load, names))


@cache
def table(name: str) -> Table:
    """The table ``crfdeid/_data/rules/<name>.tsv``, read once."""
    path = resources.files("crfdeid._data").joinpath("rules", f"{name}.tsv")
    if not path.is_file():
        known = sorted(p.name[:-4] for p in resources.files("crfdeid._data").joinpath("rules").iterdir()
                       if p.name.endswith(".tsv"))
        raise RegistryError(f"unknown rules table {name!r}; known: {', '.join(known)}")
    return _parse(name, path.read_text(encoding="utf-8"))
