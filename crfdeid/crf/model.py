"""The CRF de-identifier: :class:`Model`, a :class:`~crfdeid.tagging.model.TaggingModel` whose
tokens a CRF labels.

Tagging labels each segment with one of two backends giving the same labels:
``"numpy"`` (default; :mod:`crfdeid.crf.numpy`: CRFsuite's weights read once,
per-word-type emission scores, Viterbi and forward-backward over a batch of
documents at once) or ``"crfsuite"`` (:mod:`crfdeid.crf.crfsuite`: attribute
strings handed to ``pycrfsuite.Tagger``). Both end in the one decoding function
(:func:`crfdeid.tagging.decoding.threshold_labels`); the rest of the path (spans, the
post-CRF chain, batches, long notes) is :class:`~crfdeid.tagging.model.TaggingModel`'s,
which the networks of :mod:`crfdeid.neural` share.
The file format is in :mod:`crfdeid.tagging.modelfile`; training in :mod:`crfdeid.crf.train`.
"""

from __future__ import annotations

import warnings

from ..errors import ModelError
from ..features import Featurizer
from ..recognizers.committee import from_config
from ..recognizers.stacking import Stacker
from ..resources import Resources
from ..tagging import modelfile
from ..tagging.decoding import AveragedBackend
from ..tagging.model import TaggingModel
from ..version import __version__
from .crfsuite import CrfsuiteBackend, open_tagger
from .numpy.tagger import NumpyTagger
from .numpy.weights import read_weights
from .settings import companion_config

#: Tagging backends (same labels; see the module docstring).
BACKENDS = ("numpy", "crfsuite")


class ModelWarning(UserWarning):
    """The model was built with other gazetteers than the ones installed."""


class Model(TaggingModel):
    """A trained de-identifier: CRFsuite weights, resolved config and featurizer.

    Use :func:`crfdeid.load` (or :meth:`Model.load`) for a saved model and
    :func:`crfdeid.crf.train_model` to train one. ``backend`` is ``"numpy"``
    (default) or ``"crfsuite"``; both give the same labels.

    >>> import crfdeid
    >>> doc = crfdeid.load().tag_text("Seen by Dr. Lee on 7/22/2098.")
    >>> [(doc.text[s.start:s.end], s.subtype) for s in doc.spans]
    [('Lee', 'DOCTOR'), ('7/22/2098', 'DATE')]
    """

    def __init__(self, crf_bytes: bytes, config: dict, manifest: dict | None = None, path=None,
                 backend: str = "numpy", companion: bytes | None = None, prior: bytes | None = None):
        if backend not in BACKENDS:
            raise ValueError(f"unknown tagging backend {backend!r}; known: {', '.join(BACKENDS)}")
        self.config = config
        self.path = path
        self.backend = backend
        self._crf = crf_bytes
        self.manifest = {"format": modelfile.FORMAT_VERSION, "crfdeid_version": __version__,
                         **(manifest or {}), "config": config, "feature_set": config["features"]}
        self.stats = dict(self.manifest.get("training", {}))
        #: Words (lower-cased) that the O threshold does not make PHI: seen at least
        #: ``decoding.o_words_min_count`` times in the training notes and never inside PHI.
        #: Viterbi and the rules still may. Empty: off (assign ``frozenset()`` to turn it off).
        self.o_words = frozenset(self.manifest.get("o_words") or ())
        #: The committee of other recognizers (``committee`` in the config), or None.
        self.committee = from_config(config)
        #: Word lists and trigger words of the features (the config's ``resources``).
        self.resources = Resources.from_config(config.get("resources"))
        self.featurizer = Featurizer(config["features"], self.resources,
                                     self.committee.columns() if self.committee else ())
        self._stacker = None
        if self.committee is not None and self.committee.combine == "multi.v1":
            if "stacker" not in self.manifest:
                raise ModelError("a multi.v1 committee model without its stacker weights", path=path)
            self._stacker = Stacker(self.manifest["stacker"], self.committee)
        self._tagger = open_tagger(crf_bytes, path)
        self.labels = list(self._tagger.labels())
        self._backend_impl = None
        self._companion_crf = companion
        self.companion = self._open_companion(companion, path, backend)
        self._prior_crf = prior
        priors = self._open_priors(prior, path, backend)
        #: The prior's CRF (the ``prior`` section's ``model``), or None.
        self.prior = priors[0] if priors else None
        #: The CRFs of ``prior.also`` (docs/history/ens3.md), voting beside :attr:`prior` with equal shares.
        self.more_priors = priors[1:]

    def _open_companion(self, crf: bytes | None, path, backend: str) -> Model | None:
        """The companion CRF of a config with a ``companion`` section (its ``crf``: CRFsuite bytes)."""
        comp_config = companion_config(self.config)
        if (crf is None) != (comp_config is None):
            raise ModelError("the config's companion section and the companion CRF come together; "
                             f"this model has {'the section' if crf is None else 'the CRF'} only", path=path)
        if crf is None or comp_config is None:
            return None
        entry = self.manifest.get("companion") or {}
        comp = Model(crf, comp_config, {"o_words": entry.get("o_words") or [],
                                        "training": entry.get("training") or {}}, path, backend)
        if entry.get("labels") is not None and entry["labels"] != comp.labels:
            raise ModelError("companion CRF labels differ from the manifest's", path=path)
        return self._sharing_features(comp)

    def _open_priors(self, crf: bytes | None, path, backend: str) -> list[Model]:
        """The prior's CRFs of a config with a ``prior`` section (``crf``: the file's prior part; with
        ``prior.also`` several, cut by :func:`crfdeid.tagging.modelfile.crf_pieces`), each tagging with the config
        its own file held (the manifest's ``prior`` entry and its ``also`` entries); empty without a prior."""
        if (crf is None) != (self.config.get("prior") is None):
            raise ModelError("the config's prior section and the prior's CRF come together; "
                             f"this model has {'the section' if crf is None else 'the CRF'} only", path=path)
        if crf is None:
            return []
        entry = self.manifest.get("prior") or {}
        entries = [entry, *(entry.get("also") or ())]
        return [self._prior_model(piece, e, path, backend)
                for (_, piece), e in zip(modelfile.crf_pieces(crf, entry, path), entries)]

    def _prior_model(self, crf: bytes, entry: dict, path, backend: str) -> Model:
        """One prior CRF of the file, tagging with the config of its manifest ``entry``."""
        if not isinstance(entry.get("config"), dict):
            raise ModelError("the prior's CRF without its config in the manifest", path=path)
        prior = Model(crf, modelfile.resolved_config({"config": entry["config"]}, path),
                      {"training": entry.get("training") or {}}, path, backend)
        if entry.get("labels") is not None and entry["labels"] != prior.labels:
            raise ModelError("prior CRF labels differ from the manifest's", path=path)
        return self._sharing_features(prior)

    def _sharing_features(self, other: Model) -> Model:
        """``other`` (the companion or prior CRF, which tags this model's tokens) reading this model's
        featurizer when both configs name the same feature set and resources and neither has a
        committee: their attributes are the same, so a batch's are computed once for both
        (``NumpyTagger.probabilities_beside``)."""
        if (other.config["features"] == self.config["features"]
                and other.config.get("resources") == self.config.get("resources")
                and self.committee is None and other.committee is None):
            other.featurizer = self.featurizer
        return other

    @property
    def _backend(self):
        """The tagging backend, built on first use (a model just trained may never tag)."""
        if self._backend_impl is None:
            if self.backend == "crfsuite":
                self._backend_impl = CrfsuiteBackend(self._tagger, self.featurizer)
            else:
                weights = read_weights(self._crf, self.path)
                if weights.labels != self.labels:
                    raise ModelError("CRFsuite model labels differ from the weights read", path=self.path)
                self._backend_impl = NumpyTagger(self.featurizer, weights)
            weight = (self.config.get("companion") or {}).get("weight")
            if weight and self.companion is not None:  # the companion's vote in the decoding
                self._backend_impl = AveragedBackend(self._backend_impl, self.companion._backend, weight)
            prior = self.config.get("prior") or {}
            if prior.get("weight") and self.prior is not None:  # the prior's, beside the two
                votes = [m._backend for m in (self.prior, *self.more_priors)]  # prior.also: each an equal share
                self._backend_impl = AveragedBackend(self._backend_impl, votes, prior["weight"],
                                                     outside_only=prior["vote"] == "outside")
        return self._backend_impl

    # -- persistence ------------------------------------------------------------
    def __getstate__(self):
        return {"crf": self._crf, "config": self.config, "manifest": self.manifest, "path": self.path,
                "backend": self.backend, "o_words": self.o_words, "chain": self._chain_state(),
                "companion": self._companion_crf, "prior": self._prior_crf, "pieces": self.pieces}

    def __setstate__(self, state):
        self.__init__(state["crf"], state["config"], state["manifest"], state["path"],
                      state.get("backend", "numpy"), state.get("companion"), state.get("prior"))
        self.o_words = state.get("o_words", self.o_words)  # as set on the pickled model
        self._restore_chain(state.get("chain"))
        self.pieces = state.get("pieces")  # as set on the pickled model (how a long note is cut)

    def to_bytes(self) -> bytes:
        """The model file's content (:mod:`crfdeid.tagging.modelfile`)."""
        return modelfile.to_bytes(self._crf, self.manifest, self.labels, self._companion_crf, self._prior_crf)

    @classmethod
    def _from_parts(cls, crf: bytes, config: dict, manifest: dict, path, backend: str,
                    companion: bytes | None = None, prior: bytes | None = None) -> Model:
        """The CRF model of a checked file (:meth:`TaggingModel.from_bytes`)."""
        saved = manifest.get("gazetteers") or {}
        current = modelfile.gazetteer_checksums(config)
        # Only the lists the model was trained with: a list added since changes none of its features.
        if saved and any(current.get(name) != sha for name, sha in saved.items()):
            warnings.warn(f"model {path} was trained with other gazetteer lists than the installed "
                          "ones; dictionary features may differ", ModelWarning, stacklevel=4)
        model = cls(crf, config, manifest, path=path, backend=backend, companion=companion, prior=prior)
        prepared: list = []
        for crf_model in (model, model.companion, model.prior):
            if isinstance(crf_model, Model):
                _ = crf_model._backend  # read the weights now: a bad model fails at load, not at the first note
                if not any(crf_model.featurizer is f for f in prepared):  # once a featurizer (a shared one)
                    crf_model.featurizer.prepare()  # and the gazetteers: not while tagging the first note
                    prepared.append(crf_model.featurizer)
        if model.committee is not None:
            model.committee.prepare()  # and the committee's members
        return model

    def _label(self, items, o_threshold, want_marginals=False) -> list:
        """``(labels, p_outside, marginals)`` of each item, from the backend (and the stacker
        of a ``multi.v1`` committee, which relabels from the CRF's marginals)."""
        if self._stacker is None:
            return super()._label(items, o_threshold, want_marginals)
        out = []
        for (text, toks, _), (_, _, margs) in zip(items, self._backend.run(items, None, True)):
            labels, p_out = self._stacker.relabel(text, toks, margs, o_threshold, self.o_words)
            out.append((labels, p_out, margs if want_marginals else []))
        return out

    def features(self, text: str, toks) -> list[list[str]]:
        """The attribute lists CRFsuite tags ``toks`` with."""
        return self.featurizer.featurize(text, toks)
