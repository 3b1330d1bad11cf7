"""Regenerate crfdeid/_data/word_classes.tsv: hierarchical distributional word classes, read by the feature template
``wordclass.v1`` (crfdeid/features/wordclass.py; issue 58 item 2).

A word no list holds still has neighbours: words written in the same places (``vicryl`` and ``prolene`` after
``0`` and before ``suture``) fall into one class, and the CRF can weigh the class where it never saw the word.
The classes are learnt here from text the project wrote itself, nothing else:

- crfdeid's synthetic notes, :data:`NOTES_PER_STYLE` of every style of ``crfdeid.synth.STYLES`` (style number ``i``,
  in the dictionary's order, drawn with seed ``FIRST_SEED + i``; the models learn seeds 13, 17, 29 and 41);
- the made-up notes the specialty member learns: the sets of the ``madeup`` entry of :data:`MADEUP_CONFIG`'s
  ``train`` (``crfdeid.experiments.madeup.read_sets``), never a set kept to judge a model (:data:`NEVER`).

Method (:func:`build`): lower-cased tokens of ``crfdeid.text.tokenize`` (glued runs split, as the configs do);
the vocabulary is every token with a letter seen at least ``min_count`` times; its contexts are the tokens seen
that often (digits written ``0``), at offsets -2, -1, +1 and +2, each offset a context of its own; positive PMI
with the contexts' counts raised to 0.75 (Levy, Goldberg and Dagan 2015); a truncated SVD (ARPACK, fixed start
vector) to ``dims`` dimensions, rows ``U * sqrt(S)`` normalised to length 1; then k-means three times down a tree
(``branching`` classes of every word, ``branching`` of every class, ``branching`` of those: scikit-learn's KMeans,
fixed ``random_state`` and ``n_init``, one thread). Classes are numbered by size, largest first (ties: by their first
word), so a path (``3.11.7``) does not depend on the labels k-means happens to give. Same library versions, same
bytes. Needs numpy, scipy and scikit-learn (``pip install -e .[sklearn]``).

Run: nice -n 10 python gazetteers/word_classes.py
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import time
from collections import Counter
from collections.abc import Iterable
from importlib.metadata import version
from pathlib import Path

import numpy as np
import yaml
from scipy import sparse
from scipy.sparse.linalg import svds
from sklearn.cluster import KMeans
from threadpoolctl import threadpool_limits

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script from a checkout: crfdeid is the checkout's

from crfdeid import synth  # noqa: E402
from crfdeid.experiments.madeup import read_sets  # noqa: E402
from crfdeid.text.tokenize import tokenize  # noqa: E402

OUT = ROOT / "crfdeid" / "_data" / "word_classes.tsv"
NOTES_PER_STYLE = 200
FIRST_SEED = 201
MADEUP_CONFIG = "configs/specialty-learn47-s17.yaml"
#: Sets that judge or decided a model: never read here, whatever a config lists.
NEVER = frozenset({"check41", "check42", "check43", "check46", "check47", "check48", "planted47"})
MIN_COUNT = 5
DIMS = 100
BRANCHING = 16
LEVELS = 3
SEED = 0
N_INIT = 4
OFFSETS = (-2, -1, 1, 2)
CDS = 0.75
_DIGIT = re.compile(r"[0-9]")


def madeup_sets(config: Path) -> list[str]:
    """The made-up sets of a config's ``train`` entry ``{format: madeup, path: ...}`` (refused if one is in NEVER)."""
    cfg = yaml.safe_load(config.read_text(encoding="utf-8"))
    entries = [e for e in cfg["train"] if isinstance(e, dict) and e.get("format") == "madeup"]
    if len(entries) != 1:
        raise SystemExit(f"{config}: expected one madeup entry in train, found {len(entries)}")
    names = [n.strip() for n in entries[0]["path"].split(",") if n.strip()]
    judged = sorted(NEVER.intersection(names))
    if judged:
        raise SystemExit(f"{config}: names sets kept to judge models ({', '.join(judged)}); not read")
    return names


def training_texts(notes_per_style: int = NOTES_PER_STYLE) -> tuple[list[str], list[str], int]:
    """The texts of the synthetic notes and of the made-up sets, the set names and the synthetic notes' count."""
    texts = [d.text for i, style in enumerate(synth.STYLES)
             for d in synth.generate(notes_per_style, seed=FIRST_SEED + i, style=style)]
    n_synth = len(texts)
    names = madeup_sets(ROOT / MADEUP_CONFIG)
    texts += [d.text for d in read_sets(",".join(names))]
    return texts, names, n_synth


def token_lists(texts: Iterable[str]) -> list[list[str]]:
    """Each text's tokens, lower-cased."""
    return [[t.text.lower() for t in tokenize(text, split_glued=True)] for text in texts]


def _context(token: str) -> str:
    return _DIGIT.sub("0", token)


def _is_word(token: str, count: int, min_count: int) -> bool:
    return count >= min_count and any(c.isalpha() for c in token) and not token.startswith("#")


def ppmi_matrix(docs: list[list[str]], min_count: int) -> tuple[list[str], sparse.csr_matrix]:
    """The sorted vocabulary and its PPMI matrix over (offset, context token) columns."""
    counts = Counter(t for doc in docs for t in doc)
    vocab = sorted(w for w, c in counts.items() if _is_word(w, c, min_count))
    row = {w: i for i, w in enumerate(vocab)}
    ctx_counts = Counter(_context(t) for doc in docs for t in doc)
    contexts = sorted(c for c, n in ctx_counts.items() if n >= min_count)
    col = {(o, c): j for j, (o, c) in enumerate((o, c) for o in OFFSETS for c in contexts)}
    pairs: Counter = Counter()
    for doc in docs:
        ctx = [_context(t) for t in doc]
        for i, w in enumerate(doc):
            r = row.get(w)
            if r is None:
                continue
            for o in OFFSETS:
                j = i + o
                if 0 <= j < len(doc):
                    c = col.get((o, ctx[j]))
                    if c is not None:
                        pairs[r, c] += 1
    keys = sorted(pairs)
    rows = np.fromiter((k[0] for k in keys), dtype=np.int64, count=len(keys))
    cols = np.fromiter((k[1] for k in keys), dtype=np.int64, count=len(keys))
    vals = np.fromiter((pairs[k] for k in keys), dtype=np.float64, count=len(keys))
    w_sum = np.bincount(rows, weights=vals, minlength=len(vocab))
    c_sum = np.bincount(cols, weights=vals, minlength=len(col)) ** CDS
    pmi = np.log(vals * c_sum.sum() / (w_sum[rows] * c_sum[cols]))
    keep = pmi > 0
    m = sparse.csr_matrix((pmi[keep], (rows[keep], cols[keep])), shape=(len(vocab), len(col)))
    return vocab, m


def embed(m: sparse.csr_matrix, dims: int) -> np.ndarray:
    """Rows ``U * sqrt(S)`` of a truncated SVD, each column's sign fixed, each row of length 1."""
    k = min(dims, min(m.shape) - 1)
    v0 = np.full(min(m.shape), 1 / math.sqrt(min(m.shape)))  # ARPACK's start vector, else drawn at random
    u, s, _ = svds(m, k=k, v0=v0, solver="arpack")
    order = np.argsort(-s, kind="stable")
    u, s = u[:, order], s[order]
    signs = np.sign(u[np.abs(u).argmax(axis=0), np.arange(u.shape[1])])
    x = u * signs * np.sqrt(s)
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    return x / np.where(norms > 0, norms, 1)


def _split(x: np.ndarray, members: list[int], vocab: list[str], branching: int, seed: int) -> list[list[int]]:
    """``members`` in at most ``branching`` classes, largest first (ties: by their first word)."""
    k = min(branching, len(members))
    if k <= 1:
        return [members]
    labels = KMeans(n_clusters=k, random_state=seed, n_init=N_INIT, algorithm="lloyd").fit_predict(x[members])
    groups: dict[int, list[int]] = {}
    for m, lab in zip(members, labels):
        groups.setdefault(int(lab), []).append(m)
    return sorted(groups.values(), key=lambda g: (-len(g), min(vocab[i] for i in g)))


def classes(x: np.ndarray, vocab: list[str], branching: int, levels: int, seed: int) -> dict[str, str]:
    """Every word's path down the tree of k-means classes (``3.11.7``)."""
    paths = {i: "" for i in range(len(vocab))}
    todo = [(list(range(len(vocab))), "")]
    for _ in range(levels):
        nxt = []
        for members, prefix in todo:
            for c, group in enumerate(_split(x, members, vocab, branching, seed)):
                path = f"{prefix}.{c}" if prefix else str(c)
                for i in group:
                    paths[i] = path
                nxt.append((group, path))
        todo = nxt
    return {vocab[i]: p for i, p in paths.items()}


def build(texts: Iterable[str], min_count: int = MIN_COUNT, dims: int = DIMS, branching: int = BRANCHING,
          levels: int = LEVELS, seed: int = SEED) -> list[tuple[str, str]]:
    """``(word, path)`` for every word of ``texts`` seen at least ``min_count`` times, sorted by word."""
    with threadpool_limits(1):  # one BLAS and OpenMP thread: the same sums in the same order on every run
        vocab, m = ppmi_matrix(token_lists(texts), min_count)
        if len(vocab) < 2:
            return [(w, "0") for w in vocab]
        found = classes(embed(m, dims), vocab, branching, levels, seed)
    return sorted(found.items())


def table_text(rows: list[tuple[str, str]], sources: list[str]) -> str:
    """The file: a ``#`` header (sources, licence, method, command, entries), then ``word TAB path`` lines."""
    head = ["# crfdeid data: hierarchical distributional word classes, lower-cased word TAB path "
            "(read by the feature template wordclass.v1)",
            *(f"# source: {s}" for s in sources),
            "# licence: MIT (crfdeid): text written by the project, no third-party text",
            f"# method: tokens of crfdeid.text.tokenize lower-cased; words with a letter seen >= {MIN_COUNT} times; "
            f"contexts at offsets {', '.join(f'{o:+d}' for o in OFFSETS)} (digits as 0); "
            f"PPMI (context counts ** {CDS}); "
            f"truncated SVD (scipy svds, ARPACK) to {DIMS} dims, U*sqrt(S), rows L2-normalised; k-means "
            f"{BRANCHING} x {LEVELS} levels (scikit-learn KMeans, random_state {SEED}, n_init {N_INIT}, one thread), "
            "classes numbered by size",
            f"# built with: numpy {version('numpy')}, scipy {version('scipy')}, scikit-learn {version('scikit-learn')}",
            "# regenerate: nice -n 10 python gazetteers/word_classes.py",
            f"# entries: {len(rows)}"]
    return "\n".join(head + [f"{w}\t{p}" for w, p in rows]) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog="example: nice -n 10 python gazetteers/word_classes.py")
    parser.add_argument("--out", type=Path, default=OUT, help=f"the table to write (default: {OUT})")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    texts, names, n_synth = training_texts()
    sources = [f"crfdeid.synth.generate({NOTES_PER_STYLE}, seed={FIRST_SEED}+i, style=STYLE) for the "
               f"{len(synth.STYLES)} styles of crfdeid.synth.STYLES in order ({n_synth} synthetic notes)",
               f"the made-up sets of {MADEUP_CONFIG}'s madeup entry, as written ({len(texts) - n_synth} notes): "
               + ",".join(names)]
    rows = build(texts)
    args.out.write_text(table_text(rows, sources), encoding="utf-8")
    print(f"{len(rows)} words from {len(texts)} notes in {time.perf_counter() - start:.0f} s: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
