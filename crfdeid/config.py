"""Experiment configuration: YAML naming registered components, validated and resolved.

A config is plain data (see ``configs/default.yaml``)::

    train: ["synth:1000,13"]        # FORMAT:PATH inputs (crfdeid.io.read), or mappings
                                    # {format: brat, path: notes/, label_map: {...}} with reader options
    dev: null                       # optional FORMAT:PATH scored after training
    scheme: null                    # labels: null (the training corpus': i2b2 2014 when every
                                    # label is one), i2b2, or a declared scheme (crfdeid.schema)
    resources: {language: en}       # word lists and trigger words (crfdeid.resources)
    features: full                  # a feature set: a shipped name, a YAML file, or a mapping
    window: null                    # overrides the feature set's +-window
    tokenizer: {split_glued: true}
    segment: {max_len: 200}
    crf: {algorithm: lbfgs, c1: 0.05, c2: 0.01, max_iterations: 150}
    decoding: {o_threshold: null,   # P(O) below this -> PHI (recall-oriented)
               o_words_min_count: null}   # words seen >= N times in training, never in PHI,
                                          # are not made PHI by that threshold
    rules: {enabled: false, date_check: true}   # regex overlay; drop DATE spans that cannot be dates
    postprocess: null               # the post-CRF chain, registered span processors in order
                                    # (crfdeid.recognizers.chain); null: the one `rules` implies
    training: {unknown_share: 0.0,  # share of name/place words made out-of-dictionary strings
               unknown_mode: replace}   # ...in the training notes (replace) or in added copies (add)
    committee: {combine: null,      # mega.v1 | multi.v1: other recognizers' decisions
                members: []}        # (crfdeid.recognizers.committee, docs/committee.md)
    seed: 13
    model: crf                      # or elman, jordan, bilstm-crf (crfdeid.neural; extra [neural])
    neural: {epochs: 10, ...}       # the networks' hyper-parameters (NEURAL_DEFAULTS)

:func:`load_config` fills every default, deep-merges overrides (an ablation is a
base config plus a small override), resolves the feature set into explicit
template lists and refuses unknown keys and names, listing the allowed ones.

Paths follow one rule: a relative path in a config file (a feature-set file, the
PATH of a ``FORMAT:PATH`` input, the ``path`` and ``label_map`` file of an input
mapping, a word list of ``resources``) is relative to the folder of the file that names
it; in a config given as a mapping, to the working folder. A feature set named
without a folder or ``.yaml`` (``full``, ``no_dict``) is one shipped inside the
package (:func:`feature_set_names`), so a config works wherever crfdeid is installed.

>>> cfg = load_config({"features": {"groups": {"lexical": True}}, "crf": {"c1": 0.1}})
>>> cfg["crf"]["algorithm"], cfg["crf"]["c1"], cfg["features"]["window"]
('lbfgs', 0.1, 2)
"""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any

import yaml

from .errors import ConfigError, CrfdeidError

#: Every top-level key with its default. Nested mappings list their own keys.
DEFAULTS: dict[str, Any] = {
    "description": None,
    "train": [],
    "dev": None,
    "features": "full",
    "window": None,
    "tokenizer": {"split_glued": True},
    "segment": {"max_len": 200},
    "crf": {"algorithm": "lbfgs"},
    "decoding": {"o_threshold": None, "o_words_min_count": None},
    "rules": {"enabled": False, "date_check": True},
    "postprocess": None,  # null: the chain the rules section implies (crfdeid.recognizers.chain)
    "training": {"unknown_share": 0.0, "unknown_mode": "replace"},
    "committee": {"combine": None, "members": [], "folds": 3},
    "scheme": None,
    "resources": {"language": "en", "gazetteers": {}, "triggers": {}, "triggers_after": {}},
    "seed": 0,
    "model": "crf",
    "neural": None,  # filled from NEURAL_DEFAULTS
}
#: Feature templates that read word lists (the dictionary group).
LIST_TEMPLATES = frozenset({"gazetteer.v1", "rank.v1", "gazetteer_phrases.v1"})
#: Reader options whose string value is a file (relative to the config, as input paths are).
PATH_OPTIONS = ("label_map",)
#: How ``training.unknown_share`` applies: in place, or in a copy added to each training note.
UNKNOWN_MODES = ("replace", "add")
#: Models a config can select; all but ``crf`` are networks of :mod:`crfdeid.neural`.
MODELS = ("crf", "elman", "jordan", "bilstm-crf")
#: The ``neural`` section: hyper-parameters of the networks (ignored by the CRF). A
#: ``null`` marked "per model" takes the value of :data:`NEURAL_PER_MODEL` for the
#: config's ``model`` (Shweta et al.'s table 3 for Elman and Jordan; Lample et al. 2016
#: for the BiLSTM-CRF), so the resolved config always shows the value used.
NEURAL_DEFAULTS = {
    "embedding_dim": 100,       # word vectors (a file's own dimension when `embeddings` is set)
    "embeddings": None,         # word2vec/GloVe text file; null: learned on the training notes
    "freeze_embeddings": False,  # keep the file's vectors fixed while training
    "min_count": 2,             # rarer training words share the unknown-word vector
    "lowercase": False,         # look words up lower-cased (a word is always tried as is first)
    "window": None,             # per model: neighbouring words on each side in the input
    "hidden": None,             # per model: hidden units (each direction for the BiLSTM)
    "char_features": None,      # per model: cnn, lstm or none (character features of each word)
    "char_dim": 25,
    "char_hidden": 25,          # char-CNN filters, or char-LSTM units per direction
    "epochs": 10,
    "batch_size": 32,           # segments per gradient step
    "optimizer": "adam",        # adam or sgd (the paper: sgd, learning rate 0.01, one sentence a step)
    "learning_rate": 0.002,
    "dropout": 0.5,
    "clip": 5.0,                # gradient norm clipping (null: none)
    "device": "auto",           # auto (a GPU where present), cpu, cuda, cuda:N
    "threads": 1,               # PyTorch CPU threads (null: PyTorch's default, one per core)
}
NEURAL_PER_MODEL = {
    "elman": {"window": 5, "hidden": 100, "char_features": "none"},
    "jordan": {"window": 4, "hidden": 150, "char_features": "none"},
    "bilstm-crf": {"window": 0, "hidden": 100, "char_features": "cnn"},
    "crf": {},
}
CHAR_FEATURES = ("cnn", "lstm", "none")
OPTIMIZERS = ("adam", "sgd")
ALGORITHMS = ("lbfgs", "l2sgd", "ap", "pa", "arow")
#: Formats whose PATH is not a file-system path.
_NOT_PATHS = ("synth",)


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


def feature_set_names() -> list[str]:
    """Names of the feature sets shipped inside the package.

    >>> {"full", "lexical", "no_dict"} <= set(feature_set_names())
    True
    """
    return sorted(p.name[:-5] for p in _shipped_feature_sets().iterdir() if p.name.endswith(".yaml"))


def _shipped_feature_sets():
    from importlib import resources
    return resources.files("crfdeid") / "data" / "features"


def _is_name(spec: str) -> bool:
    return "/" not in spec and "\\" not in spec and not spec.endswith((".yaml", ".yml"))


def relative_to(spec: str, base_dir: Path | None) -> str:
    """``spec`` (a path) made relative to ``base_dir`` if it is relative; unchanged without one."""
    if base_dir is None or Path(spec).is_absolute() or spec == "-":
        return spec
    return os.path.normpath(base_dir / spec)


def resolve_input(spec: str, base_dir: Path | None) -> str:
    """A ``FORMAT:PATH`` input of a config with its PATH made relative to ``base_dir``.

    >>> resolve_input("i2b2:notes", Path("/cfg")), resolve_input("synth:10,1", Path("/cfg"))
    ('i2b2:/cfg/notes', 'synth:10,1')
    """
    fmt, sep, rest = spec.partition(":")
    if not sep or fmt in _NOT_PATHS or len(fmt) == 1:  # no format, or a Windows drive letter
        return spec if sep else relative_to(spec, base_dir)
    return f"{fmt}:{relative_to(rest, base_dir)}"


def resolve_entry(entry, base_dir: Path | None):
    """An input of a config (``FORMAT:PATH`` or a mapping) with its paths made relative to
    ``base_dir``: the PATH, and in a mapping also file-valued options (``label_map``).

    >>> resolve_entry({"format": "brat", "path": "n", "label_map": "m.yaml"}, Path("/cfg"))
    {'format': 'brat', 'path': '/cfg/n', 'label_map': '/cfg/m.yaml'}
    """
    if isinstance(entry, str):
        return resolve_input(entry, base_dir)
    if not isinstance(entry, dict) or base_dir is None:
        return entry
    out = dict(entry)
    if isinstance(out.get("path"), str) and out.get("format") not in _NOT_PATHS:
        out["path"] = relative_to(out["path"], base_dir)
    for key in PATH_OPTIONS:
        if isinstance(out.get(key), str):
            out[key] = relative_to(out[key], base_dir)
    return out


def resolve_paths(raw: dict, base_dir: Path | None) -> dict:
    """A copy of the config mapping ``raw`` with its relative paths made relative to ``base_dir``.

    The paths are those of ``train`` and ``dev`` inputs (:func:`resolve_entry`), a
    ``features`` file (a shipped feature-set name is not a path), ``neural.embeddings``
    and the word lists of ``resources``.
    """
    raw = copy.deepcopy(raw)
    if base_dir is None:
        return raw
    for key in ("train", "dev"):
        if isinstance(raw.get(key), (str, dict)):
            raw[key] = resolve_entry(raw[key], base_dir)
        elif isinstance(raw.get(key), list):
            raw[key] = [resolve_entry(x, base_dir) for x in raw[key]]
    res = raw.get("resources")
    if isinstance(res, dict):
        for key in ("gazetteers", "triggers", "triggers_after"):
            if isinstance(res.get(key), dict):
                res[key] = {k: relative_to(v, base_dir) if isinstance(v, str) else v
                            for k, v in res[key].items()}
    fs = raw.get("features")
    if isinstance(fs, (str, Path)) and not _is_name(str(fs)):
        raw["features"] = relative_to(str(fs), base_dir)
    emb = (raw.get("neural") or {}).get("embeddings") if isinstance(raw.get("neural"), dict) else None
    if isinstance(emb, (str, Path)):
        raw["neural"]["embeddings"] = relative_to(str(emb), base_dir)
    return raw


def load_feature_set(spec, base_dir: Path | None = None, path=None) -> dict:
    """A resolved feature set from a shipped name (``full``), a YAML file or a mapping.

    A relative file name is relative to ``base_dir`` (the folder of the config
    naming it), else to the working folder.
    """
    from .features import resolve_feature_set
    if isinstance(spec, (str, Path)):
        spec = str(spec)
        if _is_name(spec):
            fpath = _shipped_feature_sets() / f"{spec}.yaml"
            if not fpath.is_file():
                raise ConfigError(f"unknown feature set {spec!r}; shipped: {', '.join(feature_set_names())} "
                                  "(or give a path to a YAML file)", path=path)
            fpath = Path(str(fpath))
        else:
            fpath = Path(relative_to(spec, base_dir))
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
        base_dir = path.resolve().parent
        raw = resolve_paths(read_yaml(path), base_dir)
    overrides = copy.deepcopy(overrides or {})
    _check_keys(raw, DEFAULTS, "", path)
    _check_keys(overrides, DEFAULTS, "override ", path)
    fs = raw.get("features", DEFAULTS["features"])
    ofs = overrides.pop("features", None)
    if isinstance(ofs, (str, Path)):
        fs, ofs = ofs, None
    fs = load_feature_set(fs, None, path)
    if ofs:
        fs = load_feature_set(deep_merge({k: v for k, v in fs.items() if k not in ("word", "token", "windowed")}
                                         if "groups" in ofs or "extra_word" in ofs or "extra_token" in ofs
                                         else fs, ofs), path=path)
    cfg = deep_merge(DEFAULTS, raw)
    cfg = deep_merge(cfg, overrides)
    cfg["features"] = fs
    _validate(cfg, path)
    cfg["neural"] = _neural(cfg, path)
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

    if cfg["model"] not in MODELS:
        bad(f"unknown model {cfg['model']!r}; known: {', '.join(MODELS)}")
    for key in ("tokenizer", "segment", "crf", "decoding", "rules", "training", "committee"):
        if not isinstance(cfg[key], dict):
            bad(f"{key} must be a mapping, not {type(cfg[key]).__name__}")
    for key in ("tokenizer", "segment", "decoding", "rules", "training", "committee"):
        _check_keys(cfg[key], DEFAULTS[key], f"{key}.", path)
    share = cfg["training"]["unknown_share"]
    if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 <= share <= 1:
        bad(f"training.unknown_share must be a number in [0, 1], not {share!r}")
    if cfg["training"]["unknown_mode"] not in UNKNOWN_MODES:
        bad(f"unknown training.unknown_mode {cfg['training']['unknown_mode']!r}; known: {', '.join(UNKNOWN_MODES)}")
    if isinstance(cfg["train"], (str, dict)):
        cfg["train"] = [cfg["train"]]
    if not isinstance(cfg["train"], list) or not all(isinstance(s, (str, dict)) for s in cfg["train"]):
        bad("train must be a list of FORMAT:PATH strings or {format, path, ...} mappings")
    if isinstance(cfg["dev"], list):
        if not all(isinstance(s, (str, dict)) for s in cfg["dev"]):
            bad("dev must be FORMAT:PATH strings or {format, path, ...} mappings")
    elif cfg["dev"] is not None and not isinstance(cfg["dev"], (str, dict)):
        bad("dev must be a FORMAT:PATH string or a {format, path, ...} mapping")
    _validate_inputs(cfg, path)
    _validate_language(cfg, path)
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
    from .recognizers.committee import validate
    cfg["committee"] = validate(cfg["committee"], path)
    if cfg["postprocess"] is not None:
        if cfg["rules"]["enabled"]:
            bad("rules.enabled applies to a config without postprocess; name rules.v1 in postprocess instead")
        from . import schema
        from .recognizers.chain import build_chain
        chain = build_chain(cfg["postprocess"], path, english=cfg["resources"]["language"] == "en",
                            i2b2=schema.get(cfg["scheme"]) is schema.I2B2)
        cfg["postprocess"] = chain.entries()  # the tail appended, every argument shown


def _neural(cfg: dict, path) -> dict:
    """The resolved ``neural`` section: defaults, then the model's own values for nulls."""
    sec = cfg["neural"] or {}
    if not isinstance(sec, dict):
        raise ConfigError(f"neural must be a mapping, not {type(sec).__name__}", path=path)
    _check_keys(sec, NEURAL_DEFAULTS, "neural.", path)
    out = {**NEURAL_DEFAULTS, **sec}
    for k, v in NEURAL_PER_MODEL[cfg["model"]].items():
        if out[k] is None:
            out[k] = v

    def bad(msg):
        raise ConfigError(f"neural.{msg}", path=path)

    def integer(key, low, none_ok=False):
        v = out[key]
        if v is None and none_ok:
            return
        if not isinstance(v, int) or isinstance(v, bool) or v < low:
            bad(f"{key} must be an integer >= {low}, not {v!r}")

    for key in ("embedding_dim", "min_count", "char_dim", "char_hidden", "epochs", "batch_size"):
        integer(key, 1)
    integer("window", 0, none_ok=True)
    integer("hidden", 1, none_ok=True)
    integer("threads", 1, none_ok=True)
    for key in ("freeze_embeddings", "lowercase"):
        if not isinstance(out[key], bool):
            bad(f"{key} must be true or false")
    for key, known in (("char_features", CHAR_FEATURES), ("optimizer", OPTIMIZERS)):
        if out[key] is not None and out[key] not in known:
            bad(f"{key} {out[key]!r} is unknown; known: {', '.join(known)}")
    for key in ("learning_rate", "dropout", "clip"):
        v = out[key]
        if v is None and key == "clip":
            continue
        ok = not isinstance(v, bool) and isinstance(v, (int, float))
        if not ok or not (0 <= v < 1 if key == "dropout" else v > 0):
            bad(f"{key} must be a number {'in [0, 1)' if key == 'dropout' else '> 0'}, not {v!r}")
    dev = out["device"]
    if not isinstance(dev, str) or not (dev in ("auto", "cpu", "cuda") or
                                        (dev.startswith("cuda:") and dev[5:].isdigit())):
        bad(f"device must be auto, cpu, cuda or cuda:N, not {dev!r}")
    emb = out["embeddings"]
    if emb is not None:
        if not isinstance(emb, (str, Path)):
            bad(f"embeddings must be a file name or null, not {emb!r}")
        out["embeddings"] = str(emb)
    return out


def _validate_inputs(cfg: dict, path) -> None:
    """Input mappings whose format, options and scheme are known; a declared scheme in full form."""
    from . import schema
    from .io import check_input
    dev = cfg["dev"] if isinstance(cfg["dev"], list) else [cfg["dev"]] if cfg["dev"] is not None else []
    for entry in cfg["train"] + dev:
        if isinstance(entry, dict):
            try:
                check_input(entry)
            except CrfdeidError as exc:  # the message lists the formats or the reader's options
                raise ConfigError(f"input {entry.get('format')}:{entry.get('path')}: {exc}", path=path) from None
    scheme = cfg["scheme"]
    if isinstance(scheme, str) and scheme.lower() == "any":
        raise ConfigError("scheme: `any` is a reader option (labels as written); a config's scheme "
                          "is null (the training corpus'), i2b2, or a declared mapping", path=path)
    if scheme is not None and not isinstance(scheme, str):
        cfg["scheme"] = schema.get(scheme, path).to_dict()  # validated, every key filled in
    elif scheme is not None:
        schema.get(scheme, path)


def _validate_language(cfg: dict, path) -> None:
    """``resources`` read; English-only parts refused where the config does not say English."""
    from . import schema
    from .resources import resolve
    res = cfg["resources"] = resolve(cfg["resources"], None, path)
    english = res["language"] == "en"
    if cfg["rules"]["enabled"]:
        if not english:
            raise ConfigError(f"rules: the rule overlay is English (regexes, word lists); with "
                              f"resources.language {res['language']!r} set rules.enabled: false", path=path)
        if cfg["scheme"] is not None and schema.get(cfg["scheme"]) is not schema.I2B2:
            raise ConfigError("rules: the rule overlay writes i2b2 2014 labels; with a declared "
                              "scheme set rules.enabled: false", path=path)
    fs = cfg["features"]
    if not english and LIST_TEMPLATES & {*fs["word"], *fs["token"]} and not res["gazetteers"]:
        raise ConfigError(f"features: the dictionary group reads word lists and crfdeid ships English "
                          f"ones only; with resources.language {res['language']!r} give your lists in "
                          "resources.gazetteers or use a feature set without it (no_dict, byo)", path=path)
