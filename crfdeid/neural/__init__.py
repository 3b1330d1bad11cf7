"""Recurrent networks beside the CRF: Shweta et al.'s Elman and Jordan RNNs, and a BiLSTM-CRF.

A config selects one with its top-level ``model`` key (``elman``, ``jordan`` or
``bilstm-crf``; ``crf`` is the default) and tunes it in its ``neural`` section
(:class:`crfdeid.neural.settings.NeuralSettings`). Everything else is shared with the CRF:
the tokenizer and segments, the BIO labels (:mod:`crfdeid.labels`), the recall-oriented
decoding (:mod:`crfdeid.tagging.decoding`), the rule overlay, the model file's checks
(:mod:`crfdeid.tagging.modelfile`, format 2: weights in safetensors) and the tagging
interface (:class:`crfdeid.tagging.model.TaggingModel`), so ``train``, ``tag``,
``evaluate`` and ``crossval`` work unchanged with such a config.

- :mod:`.vocab`: word and character vocabularies, word-vector files (no PyTorch).
- :mod:`.networks`, :mod:`.crf_layer`: the networks (PyTorch).
- :mod:`.train`: training; :mod:`.model`: the trained model and its tagging backend.

PyTorch comes with the ``neural`` extra; importing this package does not import it.
"""

from __future__ import annotations

from .._data import install_hint
from ..errors import ConfigError, ModelError
from ..tagging import kinds

#: The networks a config's ``model`` can name.
NETWORKS = ("elman", "jordan", "bilstm-crf")
#: How to get PyTorch, said by every error about its absence.
INSTALL_HINT = (f"install the neural extra: {install_hint('neural')} (PyTorch and safetensors; "
                "where a CPU build of torch lies on disk, pip install torch==2.13.0 first)")


def available() -> bool:
    """Whether PyTorch and safetensors can be imported."""
    try:
        import safetensors  # noqa: F401
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


def require(model: str = "a network", path=None) -> None:
    """Raise :class:`~crfdeid.errors.ConfigError` naming the extra when PyTorch is missing.

    Called before anything long starts (training, reading a corpus to cross-validate).
    """
    if model in NETWORKS and not available():
        raise ConfigError(f"model {model!r} needs PyTorch: {INSTALL_HINT}", path=path)


def model_class(model: str, path=None):
    """The class of a saved network's model; :class:`~crfdeid.errors.ModelError` without PyTorch."""
    if not available():
        raise ModelError(f"this is a {model!r} network and PyTorch is missing: {INSTALL_HINT}",
                         path=path)
    from .model import NeuralModel  # PyTorch: the optional extra, imported when a network loads
    return NeuralModel


def _load(part: bytes, config: dict, manifest: dict, path, backend: str, companion=None, prior=None):
    return model_class(config["model"], path)._from_parts(part, config, manifest, path, backend)


def _train(docs, config: dict, progress: bool = False):
    require(config["model"])
    from .train import train_network  # PyTorch: the optional extra, imported when a network trains
    return train_network(docs, config, progress)


kinds.register(NETWORKS, _load, _train)
