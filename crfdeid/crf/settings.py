"""The config sections the CRF's training reads: ``crf`` (CRFsuite's options) and ``training``.

The ``crf`` section's keys are CRFsuite's own: ``algorithm`` and the options that algorithm
takes (``c1``, ``c2``, ``max_iterations``, ``feature.minfreq``...), asked of
``pycrfsuite.Trainer``; an option left out or ``null`` keeps CRFsuite's default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import pycrfsuite

from ..errors import ConfigError
from ..settings import Section, check_keys, check_value, section

#: CRFsuite's training algorithms.
ALGORITHMS = ("lbfgs", "l2sgd", "ap", "pa", "arow")
#: How ``training.unknown_share`` applies: in place, or in a copy added to each training note.
UNKNOWN_MODES = ("replace", "add")


def crf_params(algorithm: str) -> list[str]:
    """The options CRFsuite's ``algorithm`` takes."""
    trainer = pycrfsuite.Trainer(verbose=False)
    trainer.select(algorithm)
    return list(trainer.params())


@section("crf")
class CrfSettings(Section):
    """The ``crf`` section: ``algorithm`` and its CRFsuite options (numbers, strings, true/false)."""

    @classmethod
    def resolve(cls, value, config: Mapping, key: str, path=None) -> dict:
        if not isinstance(value, Mapping):
            raise ConfigError(f"crf must be a mapping, not {type(value).__name__}", path=path)
        out = dict(value)
        out["algorithm"] = out.get("algorithm") or "lbfgs"
        check_value("crf.algorithm", out["algorithm"], "str", {"choices": ALGORITHMS}, path)
        allowed = crf_params(out["algorithm"])
        check_keys(out, ["algorithm", *allowed], f"crf (algorithm {out['algorithm']})", path, noun="option")
        for k, v in out.items():
            if k != "algorithm" and v is not None and not isinstance(v, (int, float, str)):
                raise ConfigError(f"crf.{k} must be a number or string, not {type(v).__name__}", path=path)
        return out


@section("training")
@dataclass
class TrainingSettings(Section):
    """The ``training`` section: ``unknown_share`` of each training note's name and place words
    made out-of-dictionary strings, in the note (``unknown_mode: replace``) or a copy (``add``)."""

    unknown_share: float = field(default=0.0, metadata={"min": 0, "max": 1})
    unknown_mode: str = field(default="replace", metadata={"choices": UNKNOWN_MODES})
