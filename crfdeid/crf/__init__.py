"""The CRF: training, the model file, and tagging (CRFsuite reference backend, numpy backend)."""

from .model import Model
from .train import train_model

__all__ = ["Model", "train_model"]
