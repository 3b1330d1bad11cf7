"""The config's ``train`` and ``dev`` sections: the inputs a model is trained and scored on.

An input is ``FORMAT:PATH`` (:func:`crfdeid.io.read`) or a mapping ``{format, path, **reader
options}``; a mapping's format and options are checked against the reader here, so a typo
fails when the config is read, not after training.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..errors import ConfigError, CrfdeidError
from ..settings import Section, section
from .registry import check_input


def _checked(entries: list, path) -> list:
    for entry in entries:
        if isinstance(entry, dict):
            try:
                check_input(entry)
            except CrfdeidError as exc:  # the message lists the formats or the reader's options
                raise ConfigError(f"input {entry.get('format')}:{entry.get('path')}: {exc}", path=path) from None
    return entries


@section("train")
class TrainInputs(Section):
    """``train``: a list of inputs (one input alone is a list of one)."""

    missing: list = []

    @classmethod
    def resolve(cls, value, config: Mapping, key: str, path=None) -> list:
        if isinstance(value, (str, dict)):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(s, (str, dict)) for s in value):
            raise ConfigError("train must be a list of FORMAT:PATH strings or {format, path, ...} mappings",
                              path=path)
        return _checked(value, path)


@section("dev")
class DevInputs(Section):
    """``dev``: ``null``, one input, or a list of them (scored after training)."""

    missing = None

    @classmethod
    def resolve(cls, value, config: Mapping, key: str, path=None):
        if isinstance(value, list):
            if not all(isinstance(s, (str, dict)) for s in value):
                raise ConfigError("dev must be FORMAT:PATH strings or {format, path, ...} mappings", path=path)
            return _checked(value, path)
        if value is not None and not isinstance(value, (str, dict)):
            raise ConfigError("dev must be a FORMAT:PATH string or a {format, path, ...} mapping", path=path)
        return value if value is None else _checked([value], path)[0]
