"""Training: documents -> tokens -> features -> ``pycrfsuite.Trainer`` -> :class:`~crfdeid.crf.Model`.

Training streams one CRFsuite sequence per segment (:func:`crfdeid.text.tokenize.segments`)
into ``pycrfsuite.Trainer``; the trained CRFsuite model, the resolved config and a
manifest become a :class:`~crfdeid.crf.model.Model`.
"""

from __future__ import annotations

import copy
import hashlib
import importlib.util
import os
import tempfile
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pycrfsuite

from .. import schema
from .._data import install_hint
from ..config import load_config
from ..deid.stress import augmenter
from ..document import Document
from ..errors import ConfigError, ModelError, SchemaError
from ..features import Featurizer
from ..io.labelled import as_setting, read_corpus, settle
from ..io.splits import kfold
from ..labels import encode
from ..progress import Progress
from ..recognizers import stacking
from ..recognizers.chain import chain_of
from ..recognizers.committee import Committee, from_config
from ..resources import Resources
from ..tagging import kinds
from ..tagging.decoding import OWords, model_o_words
from ..tagging.model import DEFAULT_MODEL, tokens_for
from ..tagging.modelfile import FORMAT_VERSION, gazetteer_checksums, member_of, parse_all, resolved_config
from ..text.tokenize import for_tagging, segments
from .model import Model
from .safeharbor_labels import LabelCounts
from .settings import companion_config


class _Trainer(pycrfsuite.Trainer):
    """A trainer that reports iterations to a callback instead of printing."""

    def __init__(self, *args, on_iter=None, **kwargs):
        super().__init__(*args, **kwargs)
        self._on_iter = on_iter

    def message(self, message):
        # pycrfsuite calls on_iteration only when verbose (which prints every iteration's log)
        event = self.logparser.feed(message)
        if event == "iteration" and self._on_iter:
            self._on_iter(self.logparser.last_iteration)


def train_model(docs: Iterable[Document] | None, config, progress: bool = False,
                extra: Iterable[tuple[list, list]] | None = None, *, role: str | None = None) -> Model:
    """Train a CRF de-identifier (or the network a config's ``model`` names).

    A config whose ``model`` is ``elman``, ``jordan`` or ``bilstm-crf`` is handed to
    :func:`crfdeid.neural.train.train_network` (the ``neural`` extra), so every command
    that trains from a config trains either kind.
    A config with a ``companion`` section also trains the companion CRF on the same notes
    (:func:`crfdeid.crf.settings.companion_config`); the model file holds both.

    Parameters
    ----------
    docs : iterable of Document, or None
        Training documents (streamed once); ``None`` reads the config's ``train`` inputs.
    config : dict, str or Path
        A config (resolved with :func:`crfdeid.config.load_config`).
    progress : bool
        Show progress bars (documents, then iterations) on standard error (a terminal's);
        the steps are logged either way (:mod:`crfdeid.progress`).
    extra : iterable of (attributes, labels), optional
        More CRF sequences to learn from, already featurized with this config's feature
        set (the pseudo-labelled segments of :func:`crfdeid.crf.adapt.adapt`); they count
        in ``stats["extra_segments"]`` and not in the o-words list. A CRF without a
        ``multi.v1`` committee only (else :class:`~crfdeid.errors.ModelError`).

    Returns
    -------
    Model or crfdeid.neural.model.NeuralModel
        With ``model.stats`` (documents, tokens, segments, features, iterations,
        seconds, encoding problems by kind).
    """
    cfg = load_config(config)
    if extra is not None and (cfg["model"] != "crf" or (cfg["committee"] or {}).get("combine") == "multi.v1"):
        raise ModelError("extra training sequences are for a CRF without a multi.v1 committee")
    if cfg["model"] != "crf":
        return kinds.get(cfg["model"]).train(docs, cfg, progress)
    if docs is None:
        docs, _ = read_corpus(cfg["train"], cfg["scheme"])
    docs, scheme = _under_scheme(docs, cfg)
    prior, prior_entry = None, None
    if cfg["prior"] is not None:  # the prior's CRF, copied into this model's file (read before training)
        prior, prior_entry = prior_part(cfg["prior"], scheme)
    if cfg["companion"] is not None:
        docs = list(docs)  # read again by the companion
    versions = None
    if cfg["training"]["unknown_share"]:
        versions = augmenter(cfg["training"]["unknown_share"], cfg["training"]["unknown_mode"], cfg["seed"])
    committee = from_config(cfg)
    if committee is not None and committee.combine == "multi.v1":
        return train_multi(docs, cfg, progress)
    featurizer = Featurizer(cfg["features"], Resources.from_config(cfg["resources"]),
                            committee.columns() if committee else ())
    split, max_len = cfg["tokenizer"]["split_glued"], cfg["segment"]["max_len"]
    params = {k: v for k, v in cfg["crf"].items() if k != "algorithm" and v is not None}
    of = "" if role is None else f" ({role})"
    bar = Progress("featurize" + of, len(docs) if isinstance(docs, list) else None, "doc", progress)
    t0 = time.perf_counter()
    stats: Counter[str] = Counter()
    problems: Counter[str] = Counter()
    trainer = _Trainer(algorithm=cfg["crf"]["algorithm"], params=params, verbose=False)
    o_words = OWords() if cfg["decoding"]["o_words_min_count"] else None
    own = None if scheme is schema.I2B2 else LabelCounts()
    for original in docs:
        if own is not None:  # the corpus' labels of what the Safe Harbor layer finds
            own.add(for_tagging(original.text), original.spans)
        # The o-words list is counted on the notes as they are, not on augmented versions.
        counted = o_words is None
        for doc in (versions(original) if versions is not None else (original,)):
            text = for_tagging(doc.text)  # what the tagger reads (same length: spans still fit)
            toks = tokens_for(text, split)
            feats = featurizer.featurize(text, toks)
            enc = encode(toks, doc.spans, scheme=scheme)
            problems.update(p.reason for p in enc.problems)
            if o_words is not None and not counted and doc is original:
                o_words.add(toks, enc.labels)
                counted = True
            for a, b in segments(text, toks, max_len):
                trainer.append(feats[a:b], enc.labels[a:b])
                stats["segments"] += 1
            stats["documents"] += 1
            stats["tokens"] += len(toks)
            stats["spans"] += len(doc.spans)
        if o_words is not None and not counted:
            toks = tokens_for(for_tagging(original.text), split)
            o_words.add(toks, encode(toks, original.spans, scheme=scheme).labels)
        bar.update(1)
    bar.close()
    for attributes, labels in extra or ():
        trainer.append(attributes, labels)
        stats["extra_segments"] += 1
    if not stats["segments"]:
        raise ModelError("no training documents (or only empty ones)")
    featurizer.clear_cache()
    t1 = time.perf_counter()
    ibar = Progress("train" + of, cfg["crf"].get("max_iterations"), "iteration", progress)
    trainer._on_iter = lambda info: ibar.update(1)
    fd, tmp = tempfile.mkstemp(prefix="crfdeid-", suffix=".crfsuite")
    os.close(fd)
    try:
        trainer.train(tmp)
        t2 = time.perf_counter()
        crf_bytes = Path(tmp).read_bytes()
    finally:
        Path(tmp).unlink(missing_ok=True)
        ibar.close()
    lp = trainer.logparser
    stats.update(features=lp.featgen_num_features or 0, iterations=len(lp.iterations))
    info: dict[str, object] = dict(stats)
    info.update(problems=dict(problems),
                active_features=(lp.last_iteration or {}).get("active_features"))
    # Timings stay out of the manifest so that a retrained model is bit-for-bit identical.
    manifest: dict[str, object] = {"training": info, "gazetteers": gazetteer_checksums(cfg)}
    plain = model_o_words(o_words, cfg["decoding"])
    if plain is not None:
        manifest["o_words"] = plain
    companion = None
    comp_cfg = companion_config(cfg)
    if comp_cfg is not None:  # the second CRF of the file, on the same notes
        companion = train_model(docs, comp_cfg, progress, role="companion")
        manifest["companion"] = {"labels": companion.labels, "o_words": companion.manifest.get("o_words") or [],
                                 "training": companion.manifest["training"]}
    if prior_entry is not None:
        manifest["prior"] = prior_entry
    if own is not None and own.labels(scheme.subtype_to_parent):
        manifest["safe_harbor_labels"] = own.labels(scheme.subtype_to_parent)
    model = Model(crf_bytes, cfg, manifest, companion=None if companion is None else companion._crf, prior=prior)
    model.stats = dict(info, featurize_seconds=round(t1 - t0, 2),
                       train_seconds=round(t2 - t1, 2))  # this CRF's, without the companion's
    if companion is not None:
        model.stats["companion"] = companion.stats
    return model


def prior_part(settings: dict, scheme) -> tuple[bytes, dict]:
    """``(crf, entry)``: the CRF of the model the ``prior`` section names and its manifest entry
    (the config its file holds, its labels, the file's SHA-256). A routed file (:mod:`crfdeid.routing`)
    gives its default member's CRF (``routing.default``) with that member's config, and the entry
    names the member (``member``). With ``also`` (more files voting beside it), their CRFs follow the first
    in the part, each described in the entry's ``also`` list (``crf_size``, ``crf_sha256`` too) and the first's
    size in ``first_size``: :meth:`crfdeid.crf.model.Model._open_priors` cuts the part by them.

    Raises
    ------
    ModelError
        The file is not a CRF model.
    ConfigError
        ``vote: labels`` with a training corpus whose labels are not the prior's scheme.
    """
    part, entry = _one_prior(settings["model"], settings["vote"], scheme)
    more = [_one_prior(source, settings["vote"], scheme) for source in settings.get("also") or ()]
    if not more:
        return part, entry
    entry["first_size"] = len(part)
    entry["also"] = [dict(e, crf_size=len(p), crf_sha256=hashlib.sha256(p).hexdigest()) for p, e in more]
    return part + b"".join(p for p, _ in more), entry


def _one_prior(source: str, vote: str, scheme) -> tuple[bytes, dict]:
    """One prior file's CRF and its entry (:func:`prior_part`)."""
    path = DEFAULT_MODEL if source == "default" and not Path(source).exists() else Path(source)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"prior.model: cannot read {source!r} ({exc.strerror})") from None
    member, crf_file = member_of(data, None, path)  # a routed file: its default member's file
    manifest, part, _ = parse_all(crf_file, path)
    if manifest.get("format") != FORMAT_VERSION:
        raise ModelError("prior.model: a prior is a CRF model file (or a routed one whose default member "
                         "is a CRF), not a network's", path=path)
    prior = Model(part, resolved_config({"config": _alone(manifest["config"])}, path),
                  {"training": manifest.get("training") or {}}, path)
    if vote == "labels" and prior.scheme is not scheme:
        raise ConfigError(f"prior: vote 'labels' maps the prior's labels ({prior.scheme.name}) onto the "
                          f"training corpus' ({scheme.name}), which are another scheme; set prior.vote: outside "
                          "(P(O) only) or prior: null")
    entry = {"source": str(source), "source_sha256": hashlib.sha256(data).hexdigest(),
             "config": _alone(manifest["config"]), "labels": prior.labels, "training": prior.stats}
    if member is not None:
        entry["member"] = member
    return part, entry


def _alone(config: dict) -> dict:
    """A model file's config as the config of its CRF alone (no companion, prior or chain)."""
    return {**config, "companion": None, "prior": None, "postprocess": None}


def _under_scheme(docs, cfg: dict):
    """``(documents, scheme)``: the config's scheme, or without one the training corpus' (set in
    ``cfg['scheme']`` so that the model keeps it); spans outside a declared scheme are refused.

    Raises
    ------
    SchemaError, ConfigError
        A span whose label the scheme does not have; the rule overlay (i2b2 labels) with
        another scheme.
    """
    if cfg["scheme"] is None:
        docs = list(docs)
        (docs,), scheme = settle([docs], None)
        cfg["scheme"] = as_setting(scheme)
    else:
        scheme = schema.get(cfg["scheme"])
        docs = _checked(docs, scheme)
    if cfg["rules"]["enabled"] and scheme is not schema.I2B2:
        raise ConfigError("rules: the rule overlay writes i2b2 2014 labels and the training corpus "
                          f"has its own ({len(scheme.subtypes)}); set rules.enabled: false")
    chain_of(cfg)  # a processor of postprocess that needs i2b2 2014 labels refuses the corpus' own
    return docs, scheme


def _checked(docs, scheme):
    for doc in docs:
        for sp in doc.spans:
            if not scheme.is_valid(sp.category, sp.subtype):
                raise SchemaError(f"label {sp.category}/{sp.subtype} is not in scheme {scheme.name!r} "
                                  f"({schema.known_labels(scheme)})", path=doc.meta.get("source"),
                                  doc_id=doc.doc_id, offset=sp.start)
        yield doc


def train_multi(docs, cfg: dict, progress: bool = False):
    """Train a ``multi.v1`` model: cross-fitted regression, then the CRF on all notes."""
    if importlib.util.find_spec("sklearn") is None:  # before the first note is read
        raise ConfigError("committee multi.v1 trains a logistic regression with scikit-learn: "
                          f"install the extra with {install_hint('sklearn')}")
    docs = list(docs)
    committee = Committee(cfg["committee"])
    base = copy.deepcopy(cfg)
    base["committee"] = {"combine": None, "members": [], "folds": cfg["committee"]["folds"]}
    folds = kfold(docs, min(committee.folds, len({d.group for d in docs})), seed=cfg["seed"])
    xs, ys = [], []
    for fold in folds:
        crf = train_model([docs[i] for i in fold.train], base, progress=progress)
        for i in fold.test:
            doc = docs[i]
            toks = tokens_for(doc.text, cfg["tokenizer"]["split_glued"])
            xs.append(stacking.features(committee, doc.text, toks, crf.marginals(doc)))
            ys.append(stacking.targets(encode(toks, doc.spans).labels))
    weights = stacking.fit(np.vstack(xs), np.concatenate(ys))
    final = train_model(docs, base, progress=progress)
    manifest = dict(final.manifest, stacker=weights, config=cfg)
    model = Model(final._crf, cfg, manifest)
    model.stats = dict(final.stats, stacker_tokens=int(sum(len(y) for y in ys)), crossfit_folds=len(folds))
    return model
