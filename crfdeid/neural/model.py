"""A trained network as a crfdeid model: the CRF's tagging path with a network as backend.

:class:`NeuralModel` is a :class:`crfdeid.tagging.model.TaggingModel`: ``tag``,
``tag_each``, ``tag_many``, ``tag_text``, ``meta['confidence']``, the recall-oriented
decoding, the O-words and the rule overlay are the CRF's own code; only the labels and
probabilities of the tokens come from :class:`NetworkBackend`. Its file is the CRF's
(:mod:`crfdeid.tagging.modelfile`, format 2): the manifest holds the config, the labels and
the vocabularies, the part the weights in safetensors (read with ``safetensors.torch.load``;
nothing is unpickled).
"""

from __future__ import annotations

import torch

from ..errors import ModelError
from ..labels import OUTSIDE
from ..tagging import modelfile
from ..tagging.decoding import below, threshold_labels
from ..tagging.model import TaggingModel
from ..version import __version__
from . import networks
from .batch import collate, device_of, index_segment, length_batches
from .vocab import Vocabulary

#: Segments labelled together when tagging.
TAG_BATCH = 64


class NetworkBackend:
    """Label tokenized documents with a network (same interface as ``NumpyTagger.run``)."""

    def __init__(self, net, vocab: Vocabulary, labels: list[str], device, with_chars: bool):
        self.net = net
        self.vocab = vocab
        self.labels = labels
        self.device = device
        self.with_chars = with_chars
        self._outside = labels.index(OUTSIDE)
        self._others = [lab for lab in labels if lab != OUTSIDE]

    def run(self, items, o_threshold, want_marginals=False, o_words=frozenset()) -> list[tuple]:
        """``(labels, p_outside, marginals)`` of each ``(text, tokens, segments)`` item.

        ``p_outside`` is every token's P(O); ``marginals`` (with ``want_marginals``)
        one ``{label: p}`` per token. With ``o_threshold`` an ``O`` token whose P(O) is
        below it becomes PHI (:func:`crfdeid.tagging.decoding.threshold_labels`).
        """
        segs, where = [], []
        for k, (_, toks, bounds) in enumerate(items):
            texts = [t.text for t in toks]
            for a, b in bounds:
                segs.append(index_segment(self.vocab, texts[a:b]))
                where.append((k, a))
        label_idx = [[0] * len(toks) for _, toks, _ in items]
        probs = [[None] * len(toks) for _, toks, _ in items]
        with torch.no_grad():
            for idx in length_batches([len(s.words) for s in segs], TAG_BATCH):
                words, chars, mask, _ = collate([segs[i] for i in idx], self.device, self.with_chars)
                best, p = self.net.predict(words, chars, mask)
                best, p = best.cpu().tolist(), p.cpu().numpy()
                for row, i in enumerate(idx):
                    k, a = where[i]
                    n = len(segs[i].words)
                    label_idx[k][a:a + n] = best[row][:n]
                    probs[k][a:a + n] = p[row, :n]
        return [self._decoded(toks, label_idx[k], probs[k], o_threshold, want_marginals, o_words)
                for k, (_, toks, _) in enumerate(items)]

    def _decoded(self, toks, idx, probs, o_threshold, want_marginals, o_words):
        names = self.labels
        y = [names[i] for i in idx]
        p_out = [float(p[self._outside]) for p in probs]
        if o_threshold is not None:
            col = {lab: j for j, lab in enumerate(names)}
            low = below(p_out, [lab == OUTSIDE for lab in y], o_threshold, toks)
            threshold_labels(y, low, lambda lab, t: float(probs[t][col[lab]]), self._others, toks, o_words)
        margs = [dict(zip(names, map(float, p))) for p in probs] if want_marginals else []
        return y, p_out, margs


class NeuralModel(TaggingModel):
    """A trained Elman, Jordan or BiLSTM-CRF network with its config and vocabularies.

    Load one with :func:`crfdeid.load` (the file says which kind it is) and train one
    with :func:`crfdeid.crf.train_model` on a config whose ``model`` names a network.
    """

    def __init__(self, weights: bytes, config: dict, manifest: dict, path=None,
                 labels: list[str] | None = None):
        self.config = config
        self.path = path
        self.backend = "numpy"  # what callers pass; a network has one backend
        self._weights = weights
        self.manifest = {"crfdeid_version": __version__, **manifest,
                         "format": modelfile.WEIGHTS_FORMAT_VERSION, "config": config}
        self.labels = list(labels if labels is not None else self.manifest.get("labels") or [])
        self.stats = dict(self.manifest.get("training", {}))
        self.o_words = frozenset(self.manifest.get("o_words") or ())
        try:
            self.vocab = Vocabulary.from_dict(self.manifest["vocab"])
        except (KeyError, TypeError):
            raise ModelError("network model without its vocabularies", path=path) from None
        if OUTSIDE not in self.labels:
            raise ModelError("network model without the label O", path=path)
        self._backend_impl: NetworkBackend | None = None

    @property
    def _backend(self) -> NetworkBackend:
        """The network, built and loaded on first use."""
        if self._backend_impl is None:
            from safetensors import SafetensorError
            from safetensors.torch import load

            ncfg = self.config["neural"]
            net = networks.build(self.config["model"], len(self.vocab.words), len(self.vocab.chars),
                                 len(self.labels), ncfg)
            try:
                net.load_state_dict(load(self._weights))
            except (SafetensorError, RuntimeError) as exc:
                raise ModelError(f"the network's weights do not fit its config ({type(exc).__name__})",
                                 path=self.path) from None
            device = device_of(self.config)
            net.to(device).eval()
            self._backend_impl = NetworkBackend(net, self.vocab, self.labels, device,
                                                ncfg["char_features"] != "none")
        return self._backend_impl

    @classmethod
    def _from_parts(cls, weights: bytes, config: dict, manifest: dict, path, backend: str) -> NeuralModel:
        """The network model of a checked file (:meth:`TaggingModel.from_bytes`)."""
        if backend != "numpy":
            raise ModelError(f"a {config['model']} network has no {backend!r} backend", path=path)
        model = cls(weights, config, manifest, path=path)
        model._backend  # noqa: B018 - build the network now: a bad file fails at load, not at the first note
        return model

    def __getstate__(self):
        return {"weights": self._weights, "config": self.config, "manifest": self.manifest,
                "path": self.path, "o_words": self.o_words, "chain": self._chain_state(), "pieces": self.pieces}

    def __setstate__(self, state):
        self.__init__(state["weights"], state["config"], state["manifest"], state["path"])
        self.o_words = state["o_words"]
        self._restore_chain(state.get("chain"))
        self.pieces = state.get("pieces")

    def to_bytes(self) -> bytes:
        """The model file's content (:mod:`crfdeid.tagging.modelfile`, format 2)."""
        return modelfile.to_bytes(self._weights, self.manifest, self.labels)
