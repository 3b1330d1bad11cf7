"""Routed models: member models in one file and a learned router choosing the one that tags
each note (issue 58: the ICU CRF for nursing notes, a specialty CRF for the others).

Importing it registers the model kind ``routed`` (:mod:`crfdeid.tagging.kinds`).

- :mod:`.router`: the note-kind router (a logistic regression over a note's words).
- :mod:`.model`: :class:`~crfdeid.routing.model.RoutedModel` and its file (format 3).
- :mod:`.settings`: the config's ``routing`` section.
- :mod:`.train`: training from a config (imported when a routed model trains).
"""

from __future__ import annotations

import importlib

from ..tagging import kinds
from .model import RoutedModel

#: The module that trains a routed model, imported by name when one trains.
TRAINING = "crfdeid.routing.train"


def _train(docs, config: dict, progress: bool = False):
    return importlib.import_module(TRAINING).train_routed(docs, config, progress)


kinds.register(["routed"], RoutedModel._from_parts, _train)

__all__ = ["RoutedModel"]
