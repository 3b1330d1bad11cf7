"""Regular expressions compiled, and modules imported, when first used.

The recognizers hold many patterns, and a note runs only those whose literals or key words
it holds: compiling them all at import cost every start-up of ``tag`` about 40 ms (issue 37).
The checks of python-stdnum and phonenumbers run only on a note holding a candidate number:
importing them cost every start-up about 0.05 CPU-s (issue 53, :class:`LazyModule`).

>>> import re
>>> rx = LazyPattern(re.compile, r"(?P<phi>\\d+)")
>>> rx.source
'(?P<phi>\\\\d+)'
>>> rx.search("room 12").group("phi")
'12'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable


class LazyPattern:
    """``compile(pattern, flags)`` when one of its methods or attributes is first asked for:
    the same methods and attributes (each looked up on the compiled pattern once, then kept
    on this object, so later calls cost what the compiled pattern's do). Compiling twice
    from two threads at once gives equal patterns: no lock is needed."""

    def __init__(self, compile: Callable, pattern: str, flags: int = 0):
        self._args = (compile, pattern, flags)

    @property
    def source(self) -> str:
        """The pattern's text (without compiling it)."""
        return self._args[1]

    def __getattr__(self, name: str):
        if name.startswith("__") or name == "_args":  # not a pattern's (copy, pickle)
            raise AttributeError(name)
        compile, pattern, flags = self._args
        value = getattr(compile(pattern, flags), name)
        setattr(self, name, value)
        return value

    def __reduce__(self):
        return (LazyPattern, self._args)

    def __repr__(self) -> str:
        return f"LazyPattern({self._args[1]!r}, {self._args[2]!r})"


class LazyModule:
    """The module ``name``, imported when one of its attributes is first asked for (each
    attribute then kept on this object). A module that cannot be imported raises its
    ``ImportError`` at that first use, so a caller must not read it inside a ``try`` that
    takes any exception for "no match" (that would fail open).

    >>> json = LazyModule("json")
    >>> json.dumps([1])
    '[1]'
    """

    def __init__(self, name: str):
        self._name = name

    def __getattr__(self, attr: str):
        if attr.startswith("__") or attr == "_name":  # not the module's (copy, pickle)
            raise AttributeError(attr)
        value = getattr(importlib.import_module(self._name), attr)
        setattr(self, attr, value)
        return value

    def __reduce__(self):
        return (LazyModule, (self._name,))

    def __repr__(self) -> str:
        return f"LazyModule({self._name!r})"


class AsciiTwin:
    """A pattern run by ``anywhere`` on any text and by ``ascii_twin`` on ASCII text (``str.isascii``
    costs nothing): for a ``regex`` pattern whose stdlib ``re`` twin, its Unicode classes written as
    their ASCII members, matches the same in ASCII text and runs faster. Where one is made, a test
    checks the two give the same matches.

    >>> import re
    >>> rx = AsciiTwin(LazyPattern(re.compile, r"\\w+"), LazyPattern(re.compile, r"[A-Za-z0-9_]+"))
    >>> [m.group() for m in rx.finditer("zoë 12")], rx.match("ab c").group()
    (['zoë', '12'], 'ab')
    """

    def __init__(self, anywhere: LazyPattern, ascii_twin: LazyPattern):
        self.anywhere = anywhere
        self.ascii_twin = ascii_twin

    def _on(self, text: str):
        return self.ascii_twin if text.isascii() else self.anywhere

    def finditer(self, text: str, *bounds):
        return self._on(text).finditer(text, *bounds)

    def match(self, text: str, *bounds):
        return self._on(text).match(text, *bounds)

    def search(self, text: str, *bounds):
        return self._on(text).search(text, *bounds)

    def __repr__(self) -> str:
        return f"AsciiTwin({self.anywhere!r}, {self.ascii_twin!r})"
