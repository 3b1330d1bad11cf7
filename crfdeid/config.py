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
    companion: null                 # a second CRF in the model file: {features, training, crf}
                                    # over the main config's, and its weight in the decoding (crfdeid.crf.settings)
    prior: null                     # another model's CRF voting in the decoding, copied into the model
                                    # file: {model: default, weight: 0.02, vote: outside} (crfdeid.crf.settings)
    seed: 13
    model: crf                      # or elman, jordan, bilstm-crf (crfdeid.neural; extra [neural]),
                                    # or routed: member models and a router choosing one per note
    routing: null                   # a routed model's members and router (crfdeid.routing.settings)
    neural: {epochs: 10, ...}       # the networks' hyper-parameters (crfdeid.neural.settings)

:func:`load_config` deep-merges overrides (an ablation is a base config plus a small
override), resolves the feature set into explicit template lists, checks its own keys
(:data:`OWN`) and hands every section to the component that declares it (a typed
dataclass, :mod:`crfdeid.settings`), which fills its defaults; unknown keys and names are
refused, listing the allowed ones.

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
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from . import _data, schema, settings
from .errors import ConfigError, ConfigWarning
from .features import resolve_feature_set
from .io.files import relative_to
from .openfiles import read_regular_text
from .text.patterns import LazyModule

# read only for a YAML file (a model file's config is JSON): its import cost every start-up of
# `tag` about 0.01 CPU-s (issue 53)
yaml = LazyModule("yaml")

#: The config's own top-level keys with their defaults; every other key is a section declared
#: beside the component that reads it (:data:`crfdeid.settings.PROVIDERS`).
OWN: dict[str, Any] = {
    "description": None,
    "features": "full",
    "window": None,
    "scheme": None,
    "seed": 0,
    "model": "crf",
}
#: Every top-level key a config may have, in the order of a resolved config.
KEYS = ("description", "train", "dev", "features", "window", "tokenizer", "segment", "crf", "decoding",
        "rules", "postprocess", "companion", "prior", "training", "committee", "scheme", "resources", "seed", "model",
        "neural", "routing")
#: Feature templates that read word lists (the dictionary group).
LIST_TEMPLATES = frozenset({"gazetteer.v1", "rank.v1", "gazetteer_phrases.v1"})
#: Reader options whose string value is a file (relative to the config, as input paths are).
PATH_OPTIONS = ("label_map",)
#: Models a config can select: the CRF, the networks of :mod:`crfdeid.neural`, and ``routed``
#: (:mod:`crfdeid.routing`: member models and a router choosing one per note).
MODELS = ("crf", "elman", "jordan", "bilstm-crf", "routed")
#: Formats whose PATH is not a file-system path (``madeup``: names of shipped sets; a file of your own as given).
_NOT_PATHS = ("synth", "madeup")


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
    text = read_regular_text(path, ConfigError, "a config file")  # a FIFO or device refused, never read
    try:
        data = yaml.safe_load(text)
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
    return _data.folder("features")


def config_names() -> list[str]:
    """Names of the configs shipped inside the package (``--config default``).

    >>> {"default", "physionet"} <= set(config_names())
    True
    """
    return sorted(p.name[:-5] for p in _data.folder("configs").iterdir() if p.name.endswith(".yaml"))


def config_path(spec) -> Path:
    """The file of a config the commands' ``--config`` names: a path (``configs/default.yaml``),
    or the name of a config shipped in the package (``default``, ``physionet``), so the
    documented configs work wherever crfdeid is installed. A file of that name wins.

    >>> config_path("default").name, str(config_path("my/own.yaml"))
    ('default.yaml', 'my/own.yaml')
    """
    path = Path(spec)
    if path.exists() or not _is_name(str(spec)):
        return path
    shipped = _data.folder("configs") / f"{spec}.yaml"
    if not shipped.is_file():
        raise ConfigError(f"no config file {str(spec)!r} and no shipped config of that name; shipped: "
                          f"{', '.join(config_names())} (or give a path to a YAML file)")
    return shipped


def _is_name(spec: str) -> bool:
    return "/" not in spec and "\\" not in spec and not spec.endswith((".yaml", ".yml"))


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
    ``features`` file of the config or its ``companion`` (a shipped feature-set name is not a
    path), ``neural.embeddings`` and the word lists of ``resources``.
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
    for where in (raw, raw.get("companion")):
        fs = where.get("features") if isinstance(where, dict) else None
        if isinstance(fs, (str, Path)) and not _is_name(str(fs)):
            where["features"] = relative_to(str(fs), base_dir)  # type: ignore[index]
    routing = raw.get("routing")
    if isinstance(routing, dict) and isinstance(routing.get("members"), dict):
        routing["members"] = {name: _member_paths(spec, base_dir) for name, spec in routing["members"].items()}
    emb = (raw.get("neural") or {}).get("embeddings") if isinstance(raw.get("neural"), dict) else None
    if isinstance(emb, (str, Path)):
        raw["neural"]["embeddings"] = relative_to(str(emb), base_dir)
    return raw


def _member_paths(spec, base_dir: Path):
    """A routed model's member (a config, or ``{config, model}``) with its file paths made relative
    to ``base_dir``; a shipped config's name and the shipped model (``default``) stay names."""
    def one(value, key="config"):
        name = _is_name(value) if key == "config" else value == "default"
        return relative_to(value, base_dir) if isinstance(value, str) and not name else value
    if isinstance(spec, dict):
        return {k: one(v, k) if k in ("config", "model") else v for k, v in spec.items()}
    return one(spec)


def load_feature_set(spec, base_dir: Path | None = None, path=None) -> dict:
    """A resolved feature set from a shipped name (``full``), a YAML file or a mapping.

    A relative file name is relative to ``base_dir`` (the folder of the config
    naming it), else to the working folder.
    """
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
        A YAML file, the name of a shipped config (:func:`config_path`: ``default``,
        ``physionet``) or an already loaded mapping.
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
        path = config_path(path_or_dict)
        base_dir = path.resolve().parent
        raw = resolve_paths(read_yaml(path), base_dir)
    overrides = copy.deepcopy(overrides or {})
    settings.check_keys(raw, KEYS, "config", path)
    settings.check_keys(overrides, KEYS, "override config", path)
    fs = raw.get("features", OWN["features"])
    ofs = overrides.pop("features", None)
    if isinstance(ofs, (str, Path)):
        fs, ofs = ofs, None
    fs = load_feature_set(fs, None, path)
    if ofs:
        fs = load_feature_set(deep_merge({k: v for k, v in fs.items() if k not in ("word", "token", "windowed")}
                                         if "groups" in ofs or "extra_word" in ofs or "extra_token" in ofs
                                         else fs, ofs), path=path)
    cfg = deep_merge(deep_merge(OWN, raw), overrides)
    cfg["features"] = fs
    _drop_overridden(cfg, overrides, path)
    _validate(cfg, path)
    settings.resolve(cfg, path)  # each section by the component that declares it
    _check_language(cfg, path)
    cfg = {key: cfg[key] for key in KEYS}  # one order, whatever the file's
    if cfg["window"] is not None:
        cfg["features"] = load_feature_set({**fs, "window": cfg["window"]}, path=path)
    cfg["window"] = cfg["features"]["window"]
    return cfg


def plain_crf(config: Mapping) -> bool:
    """Whether ``config`` is a plain CRF model's: what a companion CRF and a prior's vote are for. Not
    a network, not a routed model (its members may have their own), no committee that combines its members.

    >>> plain_crf({}), plain_crf({"model": "routed"}), plain_crf({"committee": {"combine": "mega.v1"}})
    (True, False, False)
    """
    return config.get("model", "crf") == "crf" and not (config.get("committee") or {}).get("combine")


def _drop_overridden(cfg: dict, overrides: dict, path) -> None:
    """An override that makes a section of the file meaningless drops it, with a warning naming
    it: ``--set model=bilstm-crf`` on a config with a ``companion`` or a ``prior`` (a second CRF
    and a prior's vote are for a plain CRF model, :func:`plain_crf`: the rule their sections check),
    so the networks' documented commands run on the shipped configs. A section the override itself
    gives is kept, and then refused by its own check."""
    if plain_crf(cfg) or not ("model" in overrides or "committee" in overrides):
        return
    for key, what in (("companion", "a second CRF"), ("prior", "a prior's vote")):
        if cfg.get(key) is not None and key not in overrides:
            cfg[key] = None
            warnings.warn(ConfigWarning(
                f"{'file ' + repr(str(path)) + ': ' if path else ''}the config's {key} section is "
                f"dropped: {what} is for a plain CRF model, and the override makes it "
                f"{'model ' + repr(cfg['model']) if cfg.get('model', 'crf') != 'crf' else 'a committee'} "
                f"(give --set {key}=null to say so)"), stacklevel=2)


def _validate(cfg: dict, path) -> None:
    """The config's own keys checked (the sections are their components')."""
    def bad(msg):
        raise ConfigError(msg, path=path)

    if cfg["model"] not in MODELS:
        bad(f"unknown model {cfg['model']!r}; known: {', '.join(MODELS)}")
    _validate_scheme(cfg, path)
    settings.check_value("window", cfg["window"], "int | None", {"min": 0, "max": 10}, path)
    settings.check_value("seed", cfg["seed"], "int", {}, path)


def _validate_scheme(cfg: dict, path) -> None:
    """A known scheme; a declared scheme in full form."""
    scheme = cfg["scheme"]
    if isinstance(scheme, str) and scheme.lower() == "any":
        raise ConfigError("scheme: `any` is a reader option (labels as written); a config's scheme "
                          "is null (the training corpus'), i2b2, or a declared mapping", path=path)
    if scheme is not None and not isinstance(scheme, str):
        cfg["scheme"] = schema.get(scheme, path).to_dict()  # validated, every key filled in
    elif scheme is not None:
        schema.get(scheme, path)


def _check_language(cfg: dict, path) -> None:
    """No dictionary features where the config is not English and gives no word lists."""
    res, fs = cfg["resources"], cfg["features"]
    if res["language"] != "en" and LIST_TEMPLATES & {*fs["word"], *fs["token"]} and not res["gazetteers"]:
        raise ConfigError(f"features: the dictionary group reads word lists and crfdeid ships English "
                          f"ones only; with resources.language {res['language']!r} give your lists in "
                          "resources.gazetteers or use a feature set without it (no_dict, byo)", path=path)
