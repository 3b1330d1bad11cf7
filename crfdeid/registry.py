"""Named registries for components (readers, writers, feature templates, scorers...).

>>> colours = Registry("colour")
>>> @colours.register("red.v1")
... def red():
...     return "#f00"
>>> colours.get("red.v1")()
'#f00'
>>> colours.get("blue.v1")
Traceback (most recent call last):
...
crfdeid.errors.RegistryError: unknown colour 'blue.v1'; known: red.v1
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Iterator

from .errors import RegistryError


class Registry:
    """A mapping from names to components that refuses unknown names loudly."""

    def __init__(self, kind: str):
        self.kind = kind
        self._items: dict[str, Callable] = {}

    def register(self, name: str, obj=None):
        """Register ``obj`` under ``name``; usable as a decorator when ``obj`` is omitted."""
        def add(o):
            if name in self._items and self._items[name] is not o:
                raise ValueError(f"{self.kind} {name!r} is registered twice")
            self._items[name] = o
            return o
        return add(obj) if obj is not None else add

    def get(self, name: str):
        """Return the component named ``name``; the error lists the known names."""
        try:
            return self._items[name]
        except KeyError:
            known = ", ".join(sorted(self._items)) or "(none)"
            raise RegistryError(f"unknown {self.kind} {name!r}; known: {known}") from None

    def __contains__(self, name: str) -> bool:
        return name in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._items))

    def names(self) -> list[str]:
        """Registered names, sorted."""
        return sorted(self._items)

    def items(self) -> list[tuple[str, Callable]]:
        """``(name, component)`` pairs, sorted by name."""
        return sorted(self._items.items())


class PassesOn:
    """A component's signature (``__signature__``): its own parameters, then, in place of its ``**kwargs``,
    the named parameters it passes on (``passed(cls)``), keyword-only, the first of a name and its own winning.
    Read when asked, so they may come from components registered later, and from each subclass's own
    ``__init__``: the registries' check of a component's options, a caller asking whether a component takes
    a name (``date_order``) and ``help()`` see every option it takes.

    >>> class Inner:
    ...     def __init__(self, size=1, colour="red"): ...
    >>> class Outer:
    ...     __signature__ = PassesOn(lambda cls: inspect.signature(Inner).parameters.values())
    ...     def __init__(self, out, colour="blue", **given): ...
    >>> inspect.signature(Outer)
    <Signature (out, colour='blue', *, size=1)>
    """

    def __init__(self, passed: Callable[[type], Iterable[inspect.Parameter]]):
        self.passed = passed

    def __get__(self, obj, cls) -> inspect.Signature:
        params = list(inspect.signature(cls.__init__).parameters.values())[1:]
        own = [p for p in params if p.kind is not p.VAR_KEYWORD]
        named = {p.name: p for p in own}
        for p in self.passed(cls):
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):  # a name, not a *args or **kwargs
                named.setdefault(p.name, p.replace(kind=p.KEYWORD_ONLY))
        return inspect.Signature(own + list(named.values())[len(own):])
