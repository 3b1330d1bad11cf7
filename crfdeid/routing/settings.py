"""The ``routing`` section of a config whose ``model`` is ``routed`` (:mod:`crfdeid.routing`).

::

    model: routed
    routing:
      members:                       # name -> the config that trains it (a shipped name or a file),
        icu: icu                     # or {config: ..., model: FILE}: that model file copied byte for byte
                                     # (its config's decoding.o_threshold, month_day_threshold and
                                     # date_order may differ: the copy takes the config's)
        specialty: specialty
      default: icu                   # the member of every note the router is not sure of
      notes:                         # the router's training notes of each member (FORMAT:PATH inputs)
        icu: ["synth:1000,101,mix_icu"]
        specialty: ["synth:1000,101,specialty"]
      threshold: 0.98                # P(other kind) above which a note goes to the other member
      router: {min_notes: 3, max_features: 6000, l2: 1.0, iterations: 400,
               features: note_words.v2}  # words and pairs of words (note_words.v1: words alone)
      short: {words: 40, threshold: 0.65, windows: 2, features: note_words.v3}
                                     # optional: notes of at most `words` words are read by a router of
                                     # their own, trained (as `router`) on the notes and `windows` short
                                     # stretches of each (2 to 10 lines), with its own threshold
      language: {member: icu, words: english_words, min_share: 0.6, min_words: 20}
                                     # optional: `member` reads only notes of at least `min_words` words
                                     # with at least `min_share` of them in the list `words`; others
                                     # go to the other member (crfdeid.routing.language)

A routed config trains nothing itself (its ``train`` is empty: each member's config names its
notes) and has no ``companion`` or ``prior`` (a member may).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..errors import ConfigError
from ..settings import Section, check_keys, check_value, section
from .language import MIN_SHARE, MIN_WORDS, WORD_LISTS, LanguageGate
from .router import FEATURE_SETS, FEATURES, READ_WORDS

#: The keys of the ``routing`` section.
KEYS = ("members", "default", "notes", "threshold", "router", "short", "language")
#: The router's training options and their defaults (:func:`crfdeid.routing.router.train_router`).
ROUTER_DEFAULTS = {"min_notes": 3, "max_features": 6000, "l2": 1.0, "iterations": 400, "features": FEATURES}
#: The keys of ``routing.short`` and their defaults (``null``: no short router).
SHORT_DEFAULTS = {"words": 40, "threshold": 0.5, "windows": 2, "features": "note_words.v3"}
_ROUTER_KINDS = {"min_notes": ("int", 1), "max_features": ("int", 1), "l2": ("float", 0), "iterations": ("int", 1)}


def _member(name: str, spec, path) -> dict:
    """A member as ``{config, model}`` (either may be None, not both)."""
    if isinstance(spec, str):
        spec = {"config": spec}
    if not isinstance(spec, Mapping):
        raise ConfigError(f"routing.members.{name} must be a config (name or file) or a mapping "
                          f"{{config, model}}, not {type(spec).__name__}", path=path)
    check_keys(spec, ("config", "model"), f"routing.members.{name}", path)
    out = {"config": spec.get("config"), "model": spec.get("model")}
    for key, value in out.items():
        check_value(f"routing.members.{name}.{key}", value, "str | None", {}, path)
    if out["config"] is None and out["model"] is None:
        raise ConfigError(f"routing.members.{name} names neither a config nor a model file", path=path)
    return out


@section("routing")
class RoutingSettings(Section):
    """The ``routing`` section (module docstring): ``null`` unless ``model`` is ``routed``."""

    missing = None

    @classmethod
    def resolve(cls, value, config: Mapping, key: str, path=None) -> dict | None:
        routed = config.get("model") == "routed"
        if value is None:
            if routed:
                raise ConfigError("model routed needs a routing section (members, notes; "
                                  "crfdeid.routing.settings)", path=path)
            return None
        if not routed:
            raise ConfigError("routing is for model: routed", path=path)
        if not isinstance(value, Mapping):
            raise ConfigError(f"routing must be a mapping with keys {', '.join(KEYS)}", path=path)
        check_keys(value, KEYS, "routing", path)
        members = value.get("members")
        if not isinstance(members, Mapping) or len(members) != 2:
            raise ConfigError("routing.members must name two members (the router chooses between two)", path=path)
        members = {str(name): _member(str(name), spec, path) for name, spec in members.items()}
        default = value.get("default", next(iter(members)))
        if default not in members:
            raise ConfigError(f"unknown routing.default {default!r}; known: {', '.join(members)}", path=path)
        notes = value.get("notes")
        if (not isinstance(notes, Mapping) or set(map(str, notes)) != set(members)
                or not all(isinstance(v, list) and v and all(isinstance(s, str) for s in v) for v in notes.values())):
            raise ConfigError(f"routing.notes must give each member ({', '.join(members)}) a list of "
                              "FORMAT:PATH inputs, the router's training notes", path=path)
        threshold = value.get("threshold", 0.5)
        check_value("routing.threshold", threshold, "float", {"min": 0, "max": 0.999999}, path)
        router = dict(ROUTER_DEFAULTS, **(value.get("router") or {}))
        check_keys(router, ROUTER_DEFAULTS, "routing.router", path)
        for name, (kind, low) in _ROUTER_KINDS.items():
            check_value(f"routing.router.{name}", router[name], kind, {"min": low}, path)
        if router["features"] not in FEATURE_SETS:
            raise ConfigError(f"routing.router.features must be one of {', '.join(FEATURE_SETS)}, "
                              f"not {router['features']!r}", path=path)
        short = value.get("short")
        if short is not None:
            if not isinstance(short, Mapping):
                raise ConfigError(f"routing.short must be null or a mapping with keys {', '.join(SHORT_DEFAULTS)}",
                                  path=path)
            short = dict(SHORT_DEFAULTS, **short)
            check_keys(short, SHORT_DEFAULTS, "routing.short", path)
            check_value("routing.short.words", short["words"], "int", {"min": 1, "max": READ_WORDS}, path)
            check_value("routing.short.threshold", short["threshold"], "float", {"min": 0, "max": 0.999999}, path)
            check_value("routing.short.windows", short["windows"], "int", {"min": 0}, path)
            if short["features"] not in FEATURE_SETS:
                raise ConfigError(f"routing.short.features must be one of {', '.join(FEATURE_SETS)}, "
                                  f"not {short['features']!r}", path=path)
            short["threshold"] = float(short["threshold"])
        language = _language(value.get("language"), members, path)
        if config.get("train") or config.get("companion") is not None or config.get("prior") is not None:
            raise ConfigError("a routed config has no train, companion or prior of its own: each member's "
                              "config names its notes", path=path)
        return {"members": members, "default": default, "notes": {str(k): list(v) for k, v in notes.items()},
                "threshold": float(threshold), "router": router, "short": short, "language": language}


def _language(value, members: Mapping, path) -> dict | None:
    """``routing.language`` checked, with its defaults (:class:`~crfdeid.routing.language.LanguageGate`)."""
    if value is None:
        return None
    defaults = {"words": "english_words", "min_share": MIN_SHARE, "min_words": MIN_WORDS}
    if not isinstance(value, Mapping):
        raise ConfigError(f"routing.language must be null or a mapping with keys member, {', '.join(defaults)}",
                          path=path)
    out = dict(defaults, **value)
    check_keys(out, ("member", *defaults), "routing.language", path)
    if out.get("member") not in members:
        raise ConfigError(f"routing.language.member must be a member ({', '.join(members)}), "
                          f"not {out.get('member')!r}", path=path)
    if out["words"] not in WORD_LISTS:
        raise ConfigError(f"routing.language.words must be one of {', '.join(WORD_LISTS)}, not {out['words']!r}",
                          path=path)
    check_value("routing.language.min_share", out["min_share"], "float", {"min": 0, "max": 1}, path)
    check_value("routing.language.min_words", out["min_words"], "int", {"min": 1}, path)
    return LanguageGate(out["member"], out["words"], float(out["min_share"]), out["min_words"]).to_dict()
