"""Patient-grouped splits: K folds and train/test, deterministic given a seed.

Notes of one patient share names, dates and places, so a patient seen in
training makes the held-out score optimistic. Every split here keeps all the
documents of a group (:attr:`crfdeid.document.Document.group`: the PhysioNet
patient id, the i2b2 record prefix ``NNN`` of ``NNN-NN``, else the document id)
on one side.

Folds are balanced greedily: groups are shuffled with the seed, then taken
largest first and each put into the currently lightest fold (weight = number
of documents, or of tokens with ``by="tokens"``).

>>> from crfdeid.document import Document
>>> docs = [Document(f"{p}-0{n}", "x") for p in (101, 102, 103, 104) for n in (1, 2)]
>>> folds = kfold(docs, 2, seed=0)
>>> [len(f.test) for f in folds]
[4, 4]
>>> sorted(i for f in folds for i in f.test) == list(range(8))
True
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from typing import NamedTuple

from ..document import Document
from ..errors import ConfigError
from ..text.tokenize import tokenize

#: Ways of weighing a document when balancing folds.
WEIGHTS = ("documents", "tokens")


class Fold(NamedTuple):
    """One cross-validation fold: indices (into the document list) to train and test on."""

    index: int  # type: ignore[assignment]  # a field named as tuple.index, which it shadows
    train: list
    test: list


def _weight(doc: Document, by: str) -> int:
    if by == "documents":
        return 1
    if by == "tokens":
        return len(tokenize(doc.text))
    raise ConfigError(f"unknown fold weight {by!r}; known: {', '.join(WEIGHTS)}")


def _groups(docs: Sequence[Document], seed: int, by: str) -> list[tuple[int, list[int]]]:
    """``(weight, doc indices)`` per group: seeded shuffle, then heaviest first (stable)."""
    members: dict[str, list[int]] = defaultdict(list)
    for i, doc in enumerate(docs):
        members[doc.group].append(i)
    keys = sorted(members)
    random.Random(seed).shuffle(keys)
    groups = [(sum(_weight(docs[i], by) for i in members[k]), members[k]) for k in keys]
    groups.sort(key=lambda g: -g[0])
    return groups


def assign_folds(docs: Sequence[Document], k: int, seed: int = 0,
                 by: str = "documents") -> list[int]:
    """The fold number (``0..k-1``) of every document, grouped by patient.

    Parameters
    ----------
    docs : sequence of Document
        The corpus; ``doc.group`` is the grouping key.
    k : int
        Number of folds, at least 2 and at most the number of groups.
    seed : int
        Seed of the shuffle that breaks ties between equally heavy groups.
    by : {"documents", "tokens"}
        What the folds are balanced on.

    Raises
    ------
    ConfigError
        ``k`` below 2 or above the number of groups, or an unknown ``by``.
    """
    n_groups = len({doc.group for doc in docs})
    if k < 2 or k > n_groups:
        raise ConfigError(f"cannot make {k} folds from {n_groups} patient groups "
                          f"(need 2 <= folds <= groups)")
    load = [0] * k
    fold_of = [0] * len(docs)
    for weight, idx in _groups(docs, seed, by):
        target = min(range(k), key=lambda f: (load[f], f))
        load[target] += weight
        for i in idx:
            fold_of[i] = target
    return fold_of


def kfold(docs: Sequence[Document], k: int, seed: int = 0, by: str = "documents") -> list[Fold]:
    """Patient-grouped K folds: each document is in exactly one test fold.

    See :func:`assign_folds` for the parameters. Indices are in corpus order.
    """
    fold_of = assign_folds(docs, k, seed, by)
    return [Fold(f, [i for i, g in enumerate(fold_of) if g != f],
                 [i for i, g in enumerate(fold_of) if g == f]) for f in range(k)]


def subsample(docs: Sequence[Document], indices: Sequence[int], fraction: float,
              seed: int = 0) -> list[int]:
    """A patient-grouped share of ``indices`` (for learning curves).

    The groups of the documents in ``indices`` are shuffled with ``seed`` and the
    first ``round(fraction * n_groups)`` (at least one) are kept whole; the
    indices come back in their input order. ``fraction`` 1 keeps everything.

    >>> from crfdeid.document import Document
    >>> docs = [Document(f"{p}-0{n}", "x") for p in range(100, 110) for n in (1, 2)]
    >>> kept = subsample(docs, range(20), 0.3, seed=1)
    >>> len(kept), len({docs[i].group for i in kept})
    (6, 3)
    """
    if not 0.0 < fraction <= 1.0:
        raise ConfigError(f"the training fraction must lie in (0, 1], got {fraction}")
    indices = list(indices)
    groups = sorted({docs[i].group for i in indices})
    random.Random(seed).shuffle(groups)
    keep = set(groups[:max(1, round(fraction * len(groups)))])
    return [i for i in indices if docs[i].group in keep]


def train_test_split(docs: Sequence[Document], test_size: float = 0.2, seed: int = 0,
                     by: str = "documents") -> tuple[list[int], list[int]]:
    """A patient-grouped ``(train, test)`` split of document indices.

    Groups are taken in seeded random order into the test side while that
    brings its weight closer to ``test_size`` of the total; both sides are
    non-empty whenever there are two groups or more.

    >>> from crfdeid.document import Document
    >>> docs = [Document(f"{p}-01", "x") for p in range(100, 110)]
    >>> train, test = train_test_split(docs, 0.3, seed=1)
    >>> len(train), len(test)
    (7, 3)
    """
    if not 0.0 < test_size < 1.0:
        raise ConfigError(f"test_size must be between 0 and 1 (exclusive), got {test_size}")
    groups = _groups(docs, seed, by)
    if len(groups) < 2:
        raise ConfigError(f"cannot split {len(groups)} patient group(s) into train and test")
    order = list(range(len(groups)))
    random.Random(seed).shuffle(order)
    target = test_size * sum(w for w, _ in groups)
    taken: set[int] = set()
    test_w = 0
    for g in order:
        w = groups[g][0]
        if len(taken) == len(groups) - 1:
            break
        if not taken or abs(test_w + w - target) < abs(test_w - target):
            taken.add(g)
            test_w += w
    test = sorted(i for g in taken for i in groups[g][1])
    test_set = set(test)
    return [i for i in range(len(docs)) if i not in test_set], test


def read_groups(path) -> frozenset[str]:
    """The group ids (patients) listed in a file, one per line; ``#`` starts a comment.

    Raises
    ------
    ConfigError
        The file cannot be read or lists no group.
    """
    from pathlib import Path
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ConfigError(f"cannot read group list: {exc.strerror}", path=path) from None
    groups = frozenset(x for x in (line.split("#", 1)[0].strip() for line in lines) if x)
    if not groups:
        raise ConfigError("the group list names no group", path=path)
    return groups


def select_groups(docs: Sequence[Document], groups, keep: bool) -> list[Document]:
    """The documents whose group is in ``groups`` (``keep=True``) or is not (``keep=False``).

    >>> docs = [Document(f"{p}-01", "x") for p in (101, 102, 103)]
    >>> [d.doc_id for d in select_groups(docs, {"102"}, keep=False)]
    ['101-01', '103-01']
    """
    return [d for d in docs if (d.group in groups) == keep]
