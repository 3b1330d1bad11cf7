"""Experiment configuration: YAML naming registered components, validated and resolved.

A config is plain data (see ``configs/default.yaml``)::

    train: ["synth:1000,13"]        # FORMAT:PATH inputs (crfdeid.io.read)
    dev: null                       # optional FORMAT:PATH scored after training
    features: features/full.yaml    # a feature-set file, or an inline mapping
    window: null                    # overrides the feature set's +-window
    tokenizer: {split_glued: true}
    segment: {max_len: 200}
    crf: {algorithm: lbfgs, c1: 0.05, c2: 0.01, max_iterations: 150}
    decoding: {o_threshold: null,   # P(O) below this -> PHI (recall-oriented)
               o_words_min_count: null}   # words seen >= N times in training, never in PHI,
                                          # are not made PHI by that threshold
    rules: {enabled: false, date_check: true}   # regex overlay; drop DATE spans that cannot be dates
    second_pass: {enabled: false, folds: 3, seed: 7}   # stacked CRF (crfdeid.second_pass)
    seed: 13

:func:`load_config` fills every default, deep-merges overrides (an ablation is a
base config plus a small override), resolves the feature set into explicit
template lists and refuses unknown keys and names, listing the allowed ones.

>>> cfg = load_config({"features": {"groups": {"lexical": True}}, "crf": {"c1": 0.1}})
>>> cfg["crf"]["algorithm"], cfg["crf"]["c1"], cfg["features"]["window"]
('lbfgs', 0.1, 2)
"""

from __future__ import annotations

import copy
from pathlib import Path

import yaml

from .errors import ConfigError

#: Every top-level key with its default. Nested mappings list their own keys.
DEFAULTS = {
    "description": None,
    "train": [],
    "dev": None,
    "features": "features/full.yaml",
    "window": None,
    "tokenizer": {"split_glued": True},
    "segment": {"max_len": 200},
    "crf": {"algorithm": "lbfgs"},
    "decoding": {"o_threshold": None, "o_words_min_count": None},
    "rules": {"enabled": False, "date_check": True},
    "second_pass": {"enabled": False, "folds": 3, "seed": 7},
    "seed": 0,
}
ALGORITHMS = ("lbfgs", "l2sgd", "ap", "pa", "arow")
_ROOT = Path(__file__).resolve().parent.parent


def _crf_params(algorithm: str) -> list[str]:
    import pycrfsuite
    trainer = pycrfsuite.Trainer(verbose=False)
    trainer.select(algorithm)
    return list(trainer.params())


def deep_merge(base: dict, override: dict) -> dict:
    """A copy of ``base`` with ``override`` merged in, recursively for mappings.

    >>> deep_merge({"crf": {"c1": 1, "c2": 2}}, {"crf": {"c1": 0}})
    {'crf': {'c1': 0, 'c2': 2}}
    """
    out = copy.deepcopy(base)
    for k, v in (override or {}).items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = deep_merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def read_yaml(path) -> dict:
    """A YAML mapping from ``path``; :class:`ConfigError` naming the file otherwise."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read: {exc.strerror}", path=path) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        raise ConfigError(f"invalid YAML{where}", path=path) from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"expected a mapping at the top, found {type(data).__name__}", path=path)
    return data


def _find(name: str, base_dir: Path | None) -> Path:
    p = Path(name)
    if p.is_absolute():
        return p
    for root in filter(None, (Path.cwd(), base_dir, base_dir and base_dir.parent, _ROOT)):
        if (root / p).exists():
            return root / p
    return p


def load_feature_set(spec, base_dir: Path | None = None, path=None) -> dict:
    """A resolved feature set from a file name (``features/full.yaml``) or a mapping."""
    from .features import resolve_feature_set
    if isinstance(spec, (str, Path)):
        fpath = _find(str(spec), base_dir)
        data = read_yaml(fpath)
        data.setdefault("name", fpath.stem)
        return resolve_feature_set(data, path=fpath)
    return resolve_feature_set(spec, path=path)


def load_config(path_or_dict, overrides: dict | None = None) -> dict:
    """The fully resolved, validated configuration.

    Parameters
    ----------
    path_or_dict : str, Path or dict
        A YAML file or an already loaded mapping.
    overrides : dict, optional
        Deep-merged on top (``{"crf": {"c1": 0.5}}``). A ``features`` mapping
        is merged into the base feature set.

    Raises
    ------
    ConfigError
        Unreadable file, unknown key or name, or a value of the wrong kind.
    """
    path = None
    if isinstance(path_or_dict, dict):
        raw = copy.deepcopy(path_or_dict)
        base_dir = None
    else:
        path = Path(path_or_dict)
        raw = read_yaml(path)
        base_dir = path.resolve().parent
    overrides = copy.deepcopy(overrides or {})
    _check_keys(raw, DEFAULTS, "", path)
    _check_keys(overrides, DEFAULTS, "override ", path)
    fs = raw.get("features", DEFAULTS["features"])
    ofs = overrides.pop("features", None)
    if isinstance(ofs, (str, Path)):
        fs, ofs = ofs, None
    fs = load_feature_set(fs, base_dir, path)
    if ofs:
        fs = load_feature_set(deep_merge({k: v for k, v in fs.items() if k not in ("word", "token", "windowed")}
                                         if "groups" in ofs or "extra_word" in ofs or "extra_token" in ofs
                                         else fs, ofs), path=path)
    cfg = deep_merge(DEFAULTS, raw)
    cfg = deep_merge(cfg, overrides)
    cfg["features"] = fs
    _validate(cfg, path)
    if cfg["window"] is not None:
        cfg["features"] = load_feature_set({**fs, "window": cfg["window"]}, path=path)
    cfg["window"] = cfg["features"]["window"]
    return cfg


def _check_keys(d: dict, allowed: dict, what: str, path) -> None:
    unknown = set(d) - set(allowed)
    if unknown:
        raise ConfigError(f"unknown {what}config key(s) {', '.join(sorted(unknown))}; "
                          f"allowed: {', '.join(allowed)}", path=path)


def _validate(cfg: dict, path) -> None:
    def bad(msg):
        raise ConfigError(msg, path=path)

    for key in ("tokenizer", "segment", "crf", "decoding", "rules", "second_pass"):
        if not isinstance(cfg[key], dict):
            bad(f"{key} must be a mapping, not {type(cfg[key]).__name__}")
    for key in ("tokenizer", "segment", "decoding", "rules", "second_pass"):
        _check_keys(cfg[key], DEFAULTS[key], f"{key}.", path)
    if isinstance(cfg["train"], str):
        cfg["train"] = [cfg["train"]]
    if not isinstance(cfg["train"], list) or not all(isinstance(s, str) for s in cfg["train"]):
        bad("train must be a list of FORMAT:PATH strings")
    if isinstance(cfg["dev"], list):
        if not all(isinstance(s, str) for s in cfg["dev"]):
            bad("dev must be FORMAT:PATH strings")
    elif cfg["dev"] is not None and not isinstance(cfg["dev"], str):
        bad("dev must be a FORMAT:PATH string")
    crf = cfg["crf"]
    algo = crf.get("algorithm") or "lbfgs"
    if algo not in ALGORITHMS:
        bad(f"unknown crf.algorithm {algo!r}; known: {', '.join(ALGORITHMS)}")
    crf["algorithm"] = algo
    allowed = _crf_params(algo)
    unknown = set(crf) - set(allowed) - {"algorithm"}
    if unknown:
        bad(f"unknown crf option(s) {', '.join(sorted(unknown))} for algorithm {algo}; "
            f"allowed: algorithm, {', '.join(allowed)}")
    for k, v in crf.items():
        if k != "algorithm" and v is not None and not isinstance(v, (int, float, str)):
            bad(f"crf.{k} must be a number or string, not {type(v).__name__}")
    thr = cfg["decoding"]["o_threshold"]
    if thr is not None and (isinstance(thr, bool) or not isinstance(thr, (int, float)) or not 0 < thr <= 1):
        bad(f"decoding.o_threshold must be a probability in (0, 1] or null, not {thr!r}")
    k = cfg["decoding"]["o_words_min_count"]
    if k is not None and (not isinstance(k, int) or isinstance(k, bool) or k < 1):
        bad(f"decoding.o_words_min_count must be an integer >= 1 or null, not {k!r}")
    for key in ("enabled", "date_check"):
        if not isinstance(cfg["rules"][key], bool):
            bad(f"rules.{key} must be true or false")
    sp = cfg["second_pass"]
    if not isinstance(sp["enabled"], bool):
        bad("second_pass.enabled must be true or false")
    if not isinstance(sp["folds"], int) or isinstance(sp["folds"], bool) or sp["folds"] < 2:
        bad(f"second_pass.folds must be an integer >= 2, not {sp['folds']!r}")
    if not isinstance(sp["seed"], int) or isinstance(sp["seed"], bool):
        bad(f"second_pass.seed must be an integer, not {sp['seed']!r}")
    if not isinstance(cfg["tokenizer"]["split_glued"], bool):
        bad("tokenizer.split_glued must be true or false")
    ml = cfg["segment"]["max_len"]
    if not isinstance(ml, int) or isinstance(ml, bool) or ml < 1:
        bad(f"segment.max_len must be a positive integer, not {ml!r}")
    w = cfg["window"]
    if w is not None and (not isinstance(w, int) or isinstance(w, bool) or not 0 <= w <= 10):
        bad(f"window must be an integer 0-10 or null, not {w!r}")
    if not isinstance(cfg["seed"], int) or isinstance(cfg["seed"], bool):
        bad(f"seed must be an integer, not {cfg['seed']!r}")
