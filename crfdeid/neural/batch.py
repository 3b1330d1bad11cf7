"""Segments as index lists, and batches of them as padded tensors (training and tagging alike)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, cast

import torch

from .vocab import Vocabulary


class IndexedSegment(NamedTuple):
    """One segment: word indices, character indices per word, label indices (or None)."""

    words: list
    chars: list
    tags: list | None


def index_segment(vocab: Vocabulary, texts: Sequence[str], tags: Sequence[int] | None = None) -> IndexedSegment:
    """The indices of one segment's token ``texts`` (and label indices ``tags``)."""
    return IndexedSegment(vocab.ids(texts), [vocab.char_ids(t) for t in texts],
                   list(tags) if tags is not None else None)


def collate(segs: Sequence[IndexedSegment], device, with_chars: bool = True) -> tuple:
    """``(words [B, T], chars [B, T, C], mask [B, T], tags [B, T] or None)`` on ``device``.

    Without ``with_chars`` (a network without character features) ``chars`` is empty.
    """
    t = max(len(s.words) for s in segs)
    pad = [0] * t
    words = torch.tensor([s.words + pad[len(s.words):] for s in segs], dtype=torch.long)
    lengths = torch.tensor([len(s.words) for s in segs])
    mask = torch.arange(t).unsqueeze(0) < lengths.unsqueeze(1)
    tags = None
    if segs[0].tags is not None:  # a batch is all labelled (training) or all unlabelled (tagging)
        rows = cast("list[list[int]]", [s.tags for s in segs])
        tags = torch.tensor([r + pad[len(r):] for r in rows], dtype=torch.long).to(device)
    if with_chars:
        c = max(len(ch) for s in segs for ch in s.chars)
        cpad, empty = [0] * c, [0] * c
        chars = torch.tensor([[ch + cpad[len(ch):] for ch in s.chars] + [empty] * (t - len(s.chars))
                              for s in segs], dtype=torch.long)
    else:
        chars = torch.zeros((len(segs), t, 0), dtype=torch.long)
    return words.to(device), chars.to(device), mask.to(device), tags


def length_batches(lengths: Sequence[int], size: int, order: Sequence[int] | None = None,
                   pool: int = 50) -> list[list[int]]:
    """Batches of ``size`` indices, similar lengths together (less padding).

    ``order`` (a permutation, e.g. shuffled per epoch) is cut into pools of
    ``pool * size`` indices, each sorted by length and cut into batches.

    >>> length_batches([3, 1, 2, 5], 2)
    [[1, 2], [0, 3]]
    """
    order = list(range(len(lengths))) if order is None else list(order)
    out = []
    for a in range(0, len(order), pool * size):
        chunk = sorted(order[a:a + pool * size], key=lambda i: lengths[i])
        out += [chunk[b:b + size] for b in range(0, len(chunk), size)]
    return out


def device_of(cfg: dict) -> torch.device:
    """The device a config's ``neural.device`` names (``auto``: a GPU where present).

    Also sets PyTorch's CPU threads to ``neural.threads`` (process-wide): the networks
    are small, and on a shared 2-core machine two threads made a training step ten
    times slower than one (busy-waiting threads; docs/neural.md).
    """
    if cfg["neural"]["threads"]:
        torch.set_num_threads(cfg["neural"]["threads"])
    name = cfg["neural"]["device"]
    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    return torch.device(name)
