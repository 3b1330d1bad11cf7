"""The config sections the CRF's training reads: ``crf`` (CRFsuite's options) and ``training``.

The ``crf`` section's keys are CRFsuite's own: ``algorithm`` and the options that algorithm
takes (``c1``, ``c2``, ``max_iterations``, ``feature.minfreq``...), asked of
``pycrfsuite.Trainer``; an option left out or ``null`` keeps CRFsuite's default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field

import pycrfsuite

from ..config import deep_merge, load_feature_set, plain_crf
from ..errors import ConfigError
from ..settings import Section, check_keys, check_value, declared, section

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


#: What a ``companion`` section may override of the main config.
COMPANION_KEYS = ("features", "training", "crf", "weight")


@section("companion")
class CompanionSettings(Section):
    """The ``companion`` section: a second CRF trained on the same notes and saved in the same
    model file (docs/stress.md). ``null`` (the default): no companion. A mapping overrides
    ``features``, ``training`` and ``crf`` of the main config (the rest is the main config's);
    ``weight`` (0 to 1, default 0) is the companion's share of the marginals the decoding
    reads (:class:`crfdeid.tagging.decoding.AveragedBackend`). A companion votes through its weight,
    or through the post-CRF chain's ``context_union.v1``, or both; resolved, the section holds
    all four::

        companion: {features: full_oov, training: {unknown_share: 1.0, unknown_mode: add}, weight: 0.5}
    """

    missing = None

    @classmethod
    def resolve(cls, value, config: Mapping, key: str, path=None) -> dict | None:
        if value is None:
            return None
        if not isinstance(value, Mapping):
            raise ConfigError(f"companion must be a mapping with keys {', '.join(COMPANION_KEYS)} "
                              f"(or null), not {type(value).__name__}", path=path)
        check_keys(value, COMPANION_KEYS, "companion", path)
        if not plain_crf(config):
            raise ConfigError("companion: a second CRF is for a plain CRF model (no network, no committee)",
                              path=path)
        weight = value.get("weight", 0.0)
        check_value("companion.weight", weight, "float", {"min": 0, "max": 1}, path)
        fs = value.get("features")
        return {"weight": float(weight),
                "features": config["features"] if fs is None else load_feature_set(fs, None, path),
                "training": declared("training").resolve(deep_merge(config["training"], value.get("training")
                                                                    or {}), config, "companion.training", path),
                "crf": CrfSettings.resolve(deep_merge(config["crf"], value.get("crf") or {}), config,
                                           "companion.crf", path)}


def companion_config(config: Mapping) -> dict | None:
    """The resolved config the companion CRF of ``config`` is trained and tags with (None without one):
    the main config with the companion's ``features``, ``training`` and ``crf``, and no chain or prior of its own."""
    comp = config.get("companion")
    if comp is None:
        return None
    own = {k: v for k, v in comp.items() if k != "weight"}
    return {**config, **own, "companion": None, "prior": None, "postprocess": None,
            "window": comp["features"]["window"]}


#: How the prior votes: every label's marginal averaged (its labels mapped onto the model's by
#: name), or P(O) only (the model's own PHI labels keep their proportions: any label scheme).
PRIOR_VOTES = ("labels", "outside")


@section("prior")
@dataclass
class PriorSettings(Section):
    """The ``prior`` section: another trained model's CRF (``model``: ``default``, the model shipped
    in the package, or a model file) copied into the model file at training and voting in its
    decoding with ``weight`` (0 to 1): its share of the marginals the P(O) threshold reads, beside
    the model's own (its CRF and companion as configured). ``vote``: ``labels`` (every label, the
    prior's mapped onto this model's by name) or ``outside`` (P(O) only). ``null`` (the default):
    no prior; ``--set prior=null`` trains a model without one::

        prior: {model: default, weight: 0.02, vote: outside}

    ``also``: more model files whose CRFs vote with ``model``'s, each an equal share of ``weight`` (three
    trainings of one recipe, each a third: ``{model: s29.crf, also: [s41.crf], weight: 0.6667, vote: labels}``
    in the config of the seed-13 training; docs/history/ens3.md). Left out of the resolved section when empty,
    so a config without it resolves as before.
    """

    model: str = "default"
    weight: float = field(default=0.02, metadata={"min": 0, "max": 1})
    vote: str = field(default="outside", metadata={"choices": PRIOR_VOTES})
    also: list | None = None

    missing = None

    @classmethod
    def resolve(cls, value, config: Mapping, key: str, path=None) -> dict | None:
        if value is None:
            return None
        if not plain_crf(config):
            raise ConfigError("prior: a prior votes in a plain CRF model's decoding (no network, no committee)",
                              path=path)
        return super().resolve(value, config, key, path)

    def check(self, config: Mapping, path) -> dict:
        also = self.also or []
        if not isinstance(also, list) or not all(isinstance(m, str) and m for m in also):
            raise ConfigError(f"prior.also must be a list of model files, not {self.also!r}", path=path)
        out = asdict(self)
        if not also:
            del out["also"]
        return out
