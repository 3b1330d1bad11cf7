"""The CRF: training, the model file, and tagging (CRFsuite reference backend, numpy backend).

Importing it registers the model kind ``crf`` (:mod:`crfdeid.tagging.kinds`).
"""

from ..tagging import kinds
from .model import Model
from .train import train_model

kinds.register(["crf"], Model._from_parts, train_model)

__all__ = ["Model", "train_model"]
