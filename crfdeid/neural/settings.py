"""The config's ``neural`` section: the networks' hyper-parameters (ignored by the CRF).

A ``null`` marked "per model" takes the value of :data:`PER_MODEL` for the config's
``model`` (Shweta et al.'s table 3 for Elman and Jordan; Lample et al. 2016 for the
BiLSTM-CRF), so the resolved config always shows the value used. No PyTorch here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import ConfigError
from ..settings import Section, section

#: Per-model values of the ``null`` ("per model") keys.
PER_MODEL = {
    "elman": {"window": 5, "hidden": 100, "char_features": "none"},
    "jordan": {"window": 4, "hidden": 150, "char_features": "none"},
    "bilstm-crf": {"window": 0, "hidden": 100, "char_features": "cnn"},
}
CHAR_FEATURES = ("cnn", "lstm", "none")
OPTIMIZERS = ("adam", "sgd")
_MIN1 = {"min": 1}


@section("neural")
@dataclass
class NeuralSettings(Section):
    """The ``neural`` section (``null``: every default)."""

    nullable = True  # not annotated: a class setting, not a key
    embedding_dim: int = field(default=100, metadata=_MIN1)  # a file's own dimension when `embeddings` is set
    embeddings: str | None = None       # word2vec/GloVe text file; null: learned on the training notes
    freeze_embeddings: bool = False     # keep the file's vectors fixed while training
    min_count: int = field(default=2, metadata=_MIN1)  # rarer training words share the unknown-word vector
    lowercase: bool = False             # look words up lower-cased (a word is always tried as is first)
    window: int | None = field(default=None, metadata={"min": 0})   # per model: neighbours on each side
    hidden: int | None = field(default=None, metadata=_MIN1)        # per model: hidden units
    char_features: str | None = field(default=None, metadata={"choices": CHAR_FEATURES})  # per model
    char_dim: int = field(default=25, metadata=_MIN1)
    char_hidden: int = field(default=25, metadata=_MIN1)  # char-CNN filters, or char-LSTM units per direction
    epochs: int = field(default=10, metadata=_MIN1)
    batch_size: int = field(default=32, metadata=_MIN1)   # segments per gradient step
    optimizer: str = field(default="adam", metadata={"choices": OPTIMIZERS})  # the paper: sgd, 0.01
    learning_rate: float = 0.002
    dropout: float = field(default=0.5, metadata={"min": 0})
    clip: float | None = 5.0            # gradient norm clipping (null: none)
    device: str = "auto"                # auto (a GPU where present), cpu, cuda, cuda:N
    threads: int | None = field(default=1, metadata=_MIN1)  # PyTorch CPU threads (null: one per core)

    def check(self, config, path) -> dict:
        for key, value in PER_MODEL.get(config.get("model"), {}).items():
            if getattr(self, key) is None:
                setattr(self, key, value)
        if not self.learning_rate > 0:
            raise ConfigError(f"neural.learning_rate must be a number > 0, not {self.learning_rate!r}", path=path)
        if not self.dropout < 1:
            raise ConfigError(f"neural.dropout must be a number in [0, 1), not {self.dropout!r}", path=path)
        if self.clip is not None and not self.clip > 0:
            raise ConfigError(f"neural.clip must be a number > 0 or null, not {self.clip!r}", path=path)
        dev = self.device
        if not isinstance(dev, str) or not (dev in ("auto", "cpu", "cuda")
                                            or (dev.startswith("cuda:") and dev[5:].isdigit())):
            raise ConfigError(f"neural.device must be auto, cpu, cuda or cuda:N, not {dev!r}", path=path)
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


#: The section's defaults (before the per-model values).
DEFAULTS = {k: f.default for k, f in NeuralSettings.__dataclass_fields__.items()}
