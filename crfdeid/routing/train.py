"""Training a routed model from its config: each member from its own config (or copied from a
model file), then the router on the members' notes (:func:`crfdeid.routing.router.train_router`)."""

from __future__ import annotations

import hashlib
import time

from ..config import load_config
from ..crf import train_model
from ..errors import ConfigError, ModelError
from ..io.labelled import read_corpus
from ..progress import step
from ..tagging import modelfile
from ..tagging.model import DEFAULT_MODEL, TaggingModel
from .language import LanguageGate
from .model import RoutedModel
from .router import train_router

#: Keys of a member's config that may differ from the model file copied for it.
_FREE = ("description",)
#: The ``decoding`` keys read only when a model tags: a copied member takes its config's, so that a
#: decoding change is judged without training again. The others (the o-words, counted at training)
#: must be the file's.
_TAGGING_DECODING = ("o_threshold", "month_day_threshold", "date_order")


def train_routed(docs, config: dict, progress: bool = False) -> RoutedModel:
    """The routed model of the resolved ``config`` (``model: routed``; :mod:`crfdeid.routing.settings`).

    ``docs`` must be None: each member trains on the notes its own config names.

    Raises
    ------
    ConfigError
        Documents given, or a member's model file whose config is not the member's config.
    """
    if docs is not None:
        raise ConfigError("a routed model trains each member on the notes of its own config; "
                          "give it no training documents (no --train), or train one CRF on them with "
                          "--config icu (the shipped ICU CRF's config) or a config of your own")
    routing = config["routing"]
    members, stats = {}, {}
    for name, spec in routing["members"].items():
        t0 = time.perf_counter()
        members[name], stats[name] = _member(name, spec, progress)
        step("routing: member %s ready (%.1fs)", name, time.perf_counter() - t0)
    notes = {name: read_corpus(inputs, config["scheme"])[0] for name, inputs in routing["notes"].items()}
    router, router_stats = train_router(notes, routing["default"], routing["threshold"], **routing["router"])
    short = routing.get("short")
    if short is not None:
        options = dict(routing["router"], features=short["features"], windows=short["windows"])
        router.short, router_stats["short"] = train_router(notes, routing["default"], short["threshold"], **options)
        router.short_words = short["words"]
    if routing.get("language") is not None:  # the language gate (crfdeid.routing.language)
        router.language = LanguageGate(**routing["language"])
    step("routing: router trained on %s notes, %d weights",
         "+".join(str(len(v)) for v in notes.values()), len(router.weights))
    manifest = {"router": router.to_dict(), "training": {"members": stats, "router": router_stats}}
    return RoutedModel(members, config, manifest)


def _member(name: str, spec: dict, progress: bool) -> tuple[bytes, dict]:
    """A member's model file content and its training statistics (with the SHA-256 of a copied file).

    A model file that is itself routed gives its member of the same ``name`` (so a routed file is
    rebuilt from itself: ``{config: icu, model: default}`` when the shipped model is routed)."""
    if spec["model"] is None:
        model = train_model(None, load_config(spec["config"]), progress)
        return model.to_bytes(), dict(model.stats)
    source = DEFAULT_MODEL if spec["model"] == "default" else spec["model"]
    try:
        data = modelfile.read_file(source)
    except OSError as exc:
        raise ModelError(f"routing.members.{name}: cannot read the model file ({exc.strerror})", path=source) from None
    try:
        routed_from, data = modelfile.member_of(data, name, source)  # a routed file: its member of this name
    except ModelError as exc:
        raise ModelError(f"routing.members.{name}: {exc.reason}", path=source) from None
    copied = TaggingModel.from_bytes(data, source)
    copied_from = str(spec["model"]) + ("" if routed_from is None else f" (member {routed_from})")
    stats = {**copied.stats, "copied_from": copied_from, "sha256": hashlib.sha256(data).hexdigest()}
    if spec["config"] is not None:
        want = load_config(spec["config"])
        differ = sorted(k for k in want if k not in _FREE and want[k] != copied.config.get(k)
                        and not (k == "scheme" and want[k] is None))  # null: the training notes' scheme
        if "decoding" in differ and _same_but_tagging(want["decoding"], copied.config.get("decoding") or {}):
            differ.remove("decoding")
            copied.config["decoding"] = want["decoding"]  # the manifest's config too (one dict)
            data = copied.to_bytes()
            stats["decoding_from"] = str(spec["config"])
        if differ:
            raise ConfigError(f"routing.members.{name}: the model file {source} was not trained by the config "
                              f"{spec['config']} (they differ in {', '.join(differ)})")
    return data, stats


def _same_but_tagging(want: dict, have: dict) -> bool:
    """Whether two ``decoding`` sections differ in the keys read at tagging only (:data:`_TAGGING_DECODING`)."""
    keys = (set(want) | set(have)) - set(_TAGGING_DECODING)
    return all(want.get(k) == have.get(k) for k in keys)
