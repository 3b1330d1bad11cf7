"""Training a network: documents -> tokens -> segments -> indices -> epochs of minibatches.

The same tokens, segments and BIO labels as the CRF (:func:`crfdeid.labels.encode`);
the vocabulary comes from the training notes (and a word-vector file when the config
names one). Deterministic given the config's ``seed`` on the CPU: the seed fixes the
initial weights, dropout and the order of the minibatches (PyTorch's global random
state is restored afterwards).
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Iterable

import torch

from ..config import load_config
from ..document import Document
from ..errors import ModelError
from ..io import read_all
from ..labels import OUTSIDE, encode
from ..progress import Progress
from ..tagging.decoding import OWords, model_o_words
from ..tagging.model import tokens_for
from ..tagging.modelfile import WEIGHTS_FORMAT_VERSION
from ..text.tokenize import for_tagging, segments
from . import networks
from .batch import collate, device_of, index_segment, length_batches
from .model import NeuralModel
from .vocab import Vocabulary, read_vectors


def _read(docs, cfg):
    """Tokens (texts), BIO labels per segment, and corpus statistics; O-word counts too."""
    split, max_len = cfg["tokenizer"]["split_glued"], cfg["segment"]["max_len"]
    sents, labels, stats, problems = [], [], Counter(), Counter()
    o_words = OWords() if cfg["decoding"]["o_words_min_count"] else None
    for doc in docs:
        text = for_tagging(doc.text)  # what the tagger reads, as for the CRF (same length)
        toks = tokens_for(text, split)
        enc = encode(toks, doc.spans)
        problems.update(p.reason for p in enc.problems)
        if o_words is not None:
            o_words.add(toks, enc.labels)
        texts = [t.text for t in toks]
        for a, b in segments(text, toks, max_len):
            sents.append(texts[a:b])
            labels.append(enc.labels[a:b])
        stats["documents"] += 1
        stats["tokens"] += len(toks)
        stats["spans"] += len(doc.spans)
    stats["segments"] = len(sents)
    return sents, labels, stats, problems, o_words


def _vocabulary(sents, cfg):
    """The vocabulary and, with a word-vector file, its vectors by vocabulary index."""
    ncfg = cfg["neural"]
    vectors = None
    if ncfg["embeddings"]:
        words, vectors = read_vectors(ncfg["embeddings"])
        vocab = Vocabulary.build(sents, ncfg["min_count"], ncfg["lowercase"], extra_words=words)
        vectors = dict(zip(words, vectors))
    else:
        vocab = Vocabulary.build(sents, ncfg["min_count"], ncfg["lowercase"])
    return vocab, vectors


def train_network(docs: Iterable[Document] | None, config, progress: bool = False):
    """Train the network a config's ``model`` names (``elman``, ``jordan``, ``bilstm-crf``).

    Parameters
    ----------
    docs : iterable of Document, or None
        Training documents; ``None`` reads the config's ``train`` inputs.
    config : dict, str or Path
        A config (resolved with :func:`crfdeid.config.load_config`).
    progress : bool
        A progress bar over the epochs on standard error.

    Returns
    -------
    crfdeid.neural.model.NeuralModel
        With ``model.stats`` (documents, tokens, segments, vocabulary, parameters, the
        loss of each epoch, seconds).
    """
    cfg = load_config(config)
    ncfg = cfg["neural"]
    if docs is None:
        docs = read_all(cfg["train"])
    t0 = time.perf_counter()
    sents, labels, stats, problems, o_words = _read(docs, cfg)
    if not sents:
        raise ModelError("no training documents (or only empty ones)")
    vocab, vectors = _vocabulary(sents, cfg)
    if vectors is not None:
        ncfg = cfg["neural"] = dict(ncfg, embedding_dim=len(next(iter(vectors.values()))))
    names = [OUTSIDE] + sorted({lab for seg in labels for lab in seg} - {OUTSIDE})
    index = {lab: i for i, lab in enumerate(names)}
    data = [index_segment(vocab, s, [index[lab] for lab in y]) for s, y in zip(sents, labels)]
    device = device_of(cfg)
    t1 = time.perf_counter()
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(cfg["seed"])
        net = networks.build(cfg["model"], len(vocab.words), len(vocab.chars), len(names), ncfg)
        if vectors is not None:
            _load_vectors(net, vocab, vectors, ncfg["freeze_embeddings"])
        net.to(device)
        losses = _fit(net, data, ncfg, device, random.Random(cfg["seed"]), progress)
    weights = _weights_bytes(net)
    info = dict(stats, problems=dict(problems), words=len(vocab.words), chars=len(vocab.chars),
                parameters=sum(p.numel() for p in net.parameters()),
                epochs=ncfg["epochs"], epoch_loss=[round(x, 4) for x in losses])
    # Timings stay out of the manifest, as for the CRF: a retrained model is the same file.
    manifest = {"format": WEIGHTS_FORMAT_VERSION, "training": info, "vocab": vocab.to_dict()}
    plain = model_o_words(o_words, cfg["decoding"])
    if plain is not None:
        manifest["o_words"] = plain
    model = NeuralModel(weights, cfg, manifest, labels=names)
    model.stats = dict(info, featurize_seconds=round(t1 - t0, 2),
                       train_seconds=round(time.perf_counter() - t1, 2))
    return model


def _load_vectors(net, vocab: Vocabulary, vectors: dict, freeze: bool) -> None:
    """Copy the file's vectors into the embedding table (other words keep their random start)."""
    table = net.input.emb.weight
    with torch.no_grad():
        for i, w in enumerate(vocab.words):
            v = vectors.get(w)
            if v is not None:
                table[i] = torch.from_numpy(v)
    table.requires_grad_(not freeze)


def _fit(net, data, ncfg: dict, device, rng: random.Random, progress: bool) -> list[float]:
    """Epochs of minibatch training; the mean loss per token of each epoch."""
    params = [p for p in net.parameters() if p.requires_grad]
    opt = (torch.optim.Adam(params, lr=ncfg["learning_rate"]) if ncfg["optimizer"] == "adam"
           else torch.optim.SGD(params, lr=ncfg["learning_rate"]))
    lengths = [len(d.words) for d in data]
    n_tokens = sum(lengths)
    with_chars = ncfg["char_features"] != "none"
    bar = Progress("train", ncfg["epochs"], "epoch", progress)
    losses = []
    net.train()
    try:
        for _ in range(ncfg["epochs"]):
            order = list(range(len(data)))
            rng.shuffle(order)
            batches = length_batches(lengths, ncfg["batch_size"], order)
            rng.shuffle(batches)
            total = 0.0
            for idx in batches:
                words, chars, mask, tags = collate([data[i] for i in idx], device, with_chars)
                opt.zero_grad()
                loss = net.loss(words, chars, mask, tags)
                (loss / len(idx)).backward()
                if ncfg["clip"]:
                    torch.nn.utils.clip_grad_norm_(params, ncfg["clip"])
                opt.step()
                total += loss.item()
            losses.append(total / n_tokens)
            bar.update(1)
    finally:
        bar.close()
    net.eval()
    return losses


def _weights_bytes(net) -> bytes:
    """The network's parameters in the safetensors format (CPU tensors; no pickle)."""
    from safetensors.torch import save
    return save({k: v.detach().cpu().contiguous() for k, v in net.state_dict().items()})
