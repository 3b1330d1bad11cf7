"""The kinds of model a config's ``model`` key names, as a registry: the CRF of :mod:`crfdeid.crf`,
the routed model of :mod:`crfdeid.routing` (member models and a router) and, from an optional
package, the networks of :mod:`crfdeid.neural`.

A kind is a loader (a checked model file's parts -> a model) and a trainer (documents ->
a model). A package registers its kinds with :func:`register` when it is imported (the CRF's
are :mod:`crfdeid.crf.model` and :mod:`crfdeid.crf.train`). :data:`PROVIDERS` names the
module that registers each kind, so that loading a model file or training from a config
imports it by name (the tagging layer never imports the layers above it) and, where its
extra is missing, says which extra to install.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import NamedTuple

from ..errors import ConfigError, ModelError


class Kind(NamedTuple):
    """How to load and train one kind of model."""

    #: ``load(part, config, manifest, path, backend, companion, prior) -> model`` for a checked file's
    #: parts (``companion``, ``prior``: a companion CRF's and a prior's part, or None).
    load: Callable
    #: ``train(docs, config, progress) -> model`` for a resolved config.
    train: Callable


#: Registered kinds by the name a config's ``model`` gives.
KINDS: dict[str, Kind] = {}
#: The module of a higher layer that registers each kind: name -> (module, setup.cfg extra or
#: None for the base install).
PROVIDERS: dict[str, tuple[str, str | None]] = {
    "crf": ("crfdeid.crf", None),
    "routed": ("crfdeid.routing", None),
    **{name: ("crfdeid.neural", "neural") for name in ("elman", "jordan", "bilstm-crf")}}


def register(names, load: Callable, train: Callable) -> None:
    """Register the kinds ``names`` (model names of a config) with their loader and trainer."""
    for name in names:
        KINDS[name] = Kind(load, train)


def get(name: str, path=None, error: type[ConfigError] | type[ModelError] = ConfigError) -> Kind:
    """The kind ``name``, importing the module that provides it first.

    Raises
    ------
    ConfigError or ModelError (``error``)
        An unknown kind (the message lists the known ones).
    """
    if name not in KINDS and name in PROVIDERS:
        importlib.import_module(PROVIDERS[name][0])
    if name not in KINDS:
        known = sorted({"crf", *KINDS, *PROVIDERS})
        raise error(f"unknown model {name!r}; known: {', '.join(known)}", path=path)
    return KINDS[name]
