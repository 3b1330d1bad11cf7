"""The site model reached after reviewing notes: one config and one training call, used by the
review app's retraining (:mod:`crfdeid.review.retrain`) and by ``review simulate``
(:mod:`crfdeid.review.simulate`), so the replayed curve is the curve a site gets.
"""

from __future__ import annotations

from .. import _data
from ..config import load_config
from ..crf import train_model

#: The shipped config a site model is trained with when a project names none (``configs/site.yaml``).
SITE_CONFIG = "site.yaml"


def site_config_path():
    """The shipped site config's file (``configs/site.yaml``)."""
    return _data.folder("configs") / SITE_CONFIG


def site_config() -> dict:
    """The config of a site model trained on reviewed notes: the shipped model as prior, a
    companion CRF, recall-first decoding (``configs/site.yaml``).

    >>> site_config()["prior"]["model"]
    'default'
    """
    return load_config(site_config_path())


def train_reviewed(docs, config: dict):
    """The model trained on the reviewed ``docs`` (their final annotations) with ``config``."""
    return train_model(docs, config)
