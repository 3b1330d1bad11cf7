"""The CRF: training, the model file, and tagging (CRFsuite reference backend, numpy backend).

Importing it registers the model kind ``crf`` (:mod:`crfdeid.tagging.kinds`). Training
(:mod:`crfdeid.crf.train`, with the stress copies and the cross-validated stacking it
uses) is imported the first time ``crfdeid.crf.train_model`` is asked for, so that loading
a model to tag does not import it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from ..tagging import kinds
from .model import Model

if TYPE_CHECKING:
    from .train import train_model

#: The module that trains a CRF, imported by name when a model trains.
TRAINING = "crfdeid.crf.train"


def _train(docs, config: dict, progress: bool = False):
    return importlib.import_module(TRAINING).train_model(docs, config, progress)


def __getattr__(name: str):
    if name == "train_model":  # training: imported by name on first use, never by tagging
        return importlib.import_module(TRAINING).train_model
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


kinds.register(["crf"], Model._from_parts, _train)

__all__ = ["Model", "train_model"]
