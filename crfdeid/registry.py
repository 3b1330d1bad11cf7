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

from collections.abc import Callable, Iterator

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
