"""The kinds of model a config's ``model`` key names, as a registry: the CRF and, from an
optional package, the networks of :mod:`crfdeid.neural`.

A kind is a loader (a checked model file's part -> a model) and a trainer (documents ->
a model). The CRF's are :mod:`crfdeid.crf.model` and :mod:`crfdeid.crf.train`; another
package registers its kinds with :func:`register` when it is imported. :data:`PROVIDERS`
names the module that registers a kind this layer does not hold, so that loading a
network's file or training from a network's config imports it by name (the crf layer
never imports the layers above it) and, where its extra is missing, says which extra to
install.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import NamedTuple

from ..errors import ConfigError, ModelError


class Kind(NamedTuple):
    """How to load and train one kind of model."""

    #: ``load(part, config, manifest, path, backend) -> model`` for a checked file's part.
    load: Callable
    #: ``train(docs, config, progress) -> model`` for a resolved config.
    train: Callable


#: Registered kinds by the name a config's ``model`` gives.
KINDS: dict[str, Kind] = {}
#: Kinds registered by a module of a higher layer: name -> (module, setup.cfg extra).
PROVIDERS: dict[str, tuple[str, str]] = {name: ("crfdeid.neural", "neural")
                                         for name in ("elman", "jordan", "bilstm-crf")}


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
