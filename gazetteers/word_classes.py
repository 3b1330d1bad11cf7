"""Regenerate crfdeid/_data/word_classes.tsv: hierarchical distributional word classes, read by the feature template
``wordclass.v1`` (crfdeid/features/wordclass.py; issue 58 item 2).

A word no list holds still has neighbours: words written in the same places (``vicryl`` and ``prolene`` after
``0`` and before ``suture``) fall into one class, and the CRF can weigh the class where it never saw the word.
The classes are learnt here from text the project wrote itself, nothing else:

- crfdeid's synthetic notes, :data:`NOTES_PER_STYLE` of every style of ``crfdeid.synth.STYLES`` but those written
  after the tables (:data:`LATER_STYLES`) (style number ``i``,
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
OUT_V2 = ROOT / "crfdeid" / "_data" / "word_classes_v2.tsv"
#: ``--v2``: the training text of these configs is read too, every word of it classed (``wordclass.v2``).
RECIPE = tuple(f"configs/specialty-learn50-s{seed}.yaml" for seed in (13, 17, 29, 41))
NOTES_PER_STYLE = 200
FIRST_SEED = 201
#: Styles added after the tables were built (2026-11-29), not read: the tables stay the bytes the model files that
#: use them record (a new style would move every class).
LATER_STYLES = frozenset({"history_dates", "history_events", "world_dates"})
TABLE_STYLES = tuple(style for style in synth.STYLES if style not in LATER_STYLES)
MADEUP_CONFIG = "configs/specialty-learn47-s17.yaml"
#: Sets that judge or decided a model: never read here, whatever a config lists.
NEVER = frozenset({"check41", "check42", "check43", "check46", "check47", "check48", "check49", "check50", "check51",
                   "check52", "check53", "check54", "planted47"})
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
    texts = [d.text for i, style in enumerate(TABLE_STYLES)
             for d in synth.generate(notes_per_style, seed=FIRST_SEED + i, style=style)]
    n_synth = len(texts)
    names = madeup_sets(ROOT / MADEUP_CONFIG)
    texts += [d.text for d in read_sets(",".join(names))]
    return texts, names, n_synth


def recipe_texts(configs=RECIPE) -> list[str]:
    """The texts every config of ``configs`` trains on, as its ``train`` reads them (synthetic notes of its seed,
    recased copies, its made-up sets: refused if one is kept to judge)."""
    from crfdeid.config import load_config  # noqa: PLC0415  (v2 only; the v1 build reads no config this way)
    from crfdeid.io.labelled import read_corpus  # noqa: PLC0415  (v2 only)
    texts = []
    for name in configs:
        madeup_sets(ROOT / name)
        cfg = load_config(ROOT / name)
        texts += [d.text for d in read_corpus(cfg["train"], cfg["scheme"])[0]]
    return texts


def token_lists(texts: Iterable[str]) -> list[list[str]]:
    """Each text's tokens, lower-cased."""
    return [[t.text.lower() for t in tokenize(text, split_glued=True)] for text in texts]


def _context(token: str) -> str:
    return _DIGIT.sub("0", token)


def _is_word(token: str, count: int, min_count: int) -> bool:
    return count >= min_count and any(c.isalpha() for c in token) and not token.startswith("#")


def ppmi_matrix(docs: list[list[str]], min_count: int) -> tuple[list[str], sparse.csr_matrix]:
    """The sorted vocabulary and its PPMI matrix over (offset, context token) columns."""
    vocab, m, _ = _ppmi_parts(docs, min_count)
    return vocab, m


def _ppmi_parts(docs: list[list[str]], min_count: int):
    """:func:`ppmi_matrix`'s vocabulary and matrix, and what a word outside it needs to get a row of its own:
    the token counts, the columns and the columns' smoothed sums."""
    counts = Counter(t for doc in docs for t in doc)
    vocab = sorted(w for w, c in counts.items() if _is_word(w, c, min_count))
    ctx_counts = Counter(_context(t) for doc in docs for t in doc)
    contexts = sorted(c for c, n in ctx_counts.items() if n >= min_count)
    col = {(o, c): j for j, (o, c) in enumerate((o, c) for o in OFFSETS for c in contexts)}
    rows, cols, vals = _cooccurrences(docs, {w: i for i, w in enumerate(vocab)}, col)
    c_sum = np.bincount(cols, weights=vals, minlength=len(col)) ** CDS
    return vocab, _ppmi(rows, cols, vals, c_sum, len(vocab)), (counts, col, c_sum)


def _cooccurrences(docs: list[list[str]], row: dict, col: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(rows, cols, counts)`` of every (word of ``row``, context column) pair, sorted."""
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
    return rows, cols, vals


def _ppmi(rows, cols, vals, c_sum: np.ndarray, n_rows: int) -> sparse.csr_matrix:
    """Positive PMI of the pairs, each row's sum its own, the columns' sums ``c_sum`` (raised to CDS)."""
    w_sum = np.bincount(rows, weights=vals, minlength=n_rows)
    with np.errstate(divide="ignore"):  # a column no vocabulary word met (v2's rare rows): no PMI, dropped
        pmi = np.log(vals * c_sum.sum() / (w_sum[rows] * c_sum[cols]))
    keep = (pmi > 0) & np.isfinite(pmi)
    return sparse.csr_matrix((pmi[keep], (rows[keep], cols[keep])), shape=(n_rows, len(c_sum)))


def embed(m: sparse.csr_matrix, dims: int) -> np.ndarray:
    """Rows ``U * sqrt(S)`` of a truncated SVD, each column's sign fixed, each row of length 1."""
    return _svd(m, dims)[0]


def _svd(m: sparse.csr_matrix, dims: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`embed`'s rows and the map of a PPMI row into the same space (``V * sign / sqrt(S)``)."""
    k = min(dims, min(m.shape) - 1)
    v0 = np.full(min(m.shape), 1 / math.sqrt(min(m.shape)))  # ARPACK's start vector, else drawn at random
    u, s, vt = svds(m, k=k, v0=v0, solver="arpack")
    order = np.argsort(-s, kind="stable")
    u, s, vt = u[:, order], s[order], vt[order]
    signs = np.sign(u[np.abs(u).argmax(axis=0), np.arange(u.shape[1])])
    x = u * signs * np.sqrt(s)
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    return x / np.where(norms > 0, norms, 1), vt.T * signs / np.sqrt(s)


def _unit_rows(x: np.ndarray) -> np.ndarray:
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


def build_every(texts: Iterable[str], min_count: int = MIN_COUNT, dims: int = DIMS, branching: int = BRANCHING,
                levels: int = LEVELS, seed: int = SEED) -> tuple[list[tuple[str, str]], int]:
    """:func:`build`'s tree, then every rarer word with a letter placed in it (``wordclass.v2``): its PPMI row over
    the same columns, mapped into the SVD's space (fold-in), down the tree to the nearest class centroid at each
    level. ``(rows, words left out)``: a word none of whose neighbours is a column has no row and is left out."""
    with threadpool_limits(1):
        docs = token_lists(texts)
        vocab, m, (counts, col, c_sum) = _ppmi_parts(docs, min_count)
        if len(vocab) < 2:
            return [(w, "0") for w in vocab], 0
        x, fold = _svd(m, dims)
        found = classes(x, vocab, branching, levels, seed)
        rare = sorted(w for w, c in counts.items() if c < min_count and _is_word(w, c, 1))
        rows, cols, vals = _cooccurrences(docs, {w: i for i, w in enumerate(rare)}, col)
        y = _ppmi(rows, cols, vals, c_sum, len(rare)) @ fold
        placed = place(_unit_rows(np.asarray(y)), x, [found[w] for w in vocab])
    found.update((rare[i], p) for i, p in placed.items())
    return sorted(found.items()), len(rare) - len(placed)


def place(y: np.ndarray, x: np.ndarray, paths: list[str]) -> dict[int, str]:
    """Each nonzero row of ``y`` down the tree of ``paths`` (the rows of ``x``'s): at each level the child class
    whose centroid (the mean of its words' rows) is nearest by cosine."""
    levels = len(paths[0].split("."))
    members: dict[str, list[int]] = {}
    for i, p in enumerate(paths):
        parts = p.split(".")
        for n in range(1, levels + 1):
            members.setdefault(".".join(parts[:n]), []).append(i)
    children: dict[str, list[str]] = {}
    for prefix in sorted(members, key=lambda q: [int(c) for c in q.split(".")]):
        children.setdefault(prefix.rpartition(".")[0], []).append(prefix)
    centroid = {q: _unit_rows(x[idx].mean(axis=0, keepdims=True))[0] for q, idx in members.items()}
    out = {}
    for i in np.flatnonzero(np.linalg.norm(y, axis=1) > 0):
        prefix = ""
        for _ in range(levels):
            kids = children[prefix]
            prefix = kids[int(np.argmax([centroid[k] @ y[i] for k in kids]))]
        out[int(i)] = prefix
    return out


def coverage(docs, words) -> dict[bool, tuple[int, float]]:
    """``{is_phi: (words, share absent from the table)}`` of annotated notes: words are runs of letters, lower-cased,
    PHI when a gold span overlaps them (``--coverage``: where the training notes' PHI lacks a class far more often
    than their other words, a CRF learns absence as PHI)."""
    c: Counter = Counter()
    for d in docs:
        phi = [(s.start, s.end) for s in d.spans]
        for m in re.finditer(r"[^\W\d_]+", d.text):
            a, b = m.span()
            c[any(x < b and a < y for x, y in phi), m.group().lower() in words] += 1
    return {p: (c[p, True] + c[p, False], c[p, False] / max(c[p, True] + c[p, False], 1)) for p in (True, False)}


def print_coverage(physionet: Path) -> None:
    """The shipped tables' coverage: 300 synthetic notes of seed 13 of two styles the specialty member learns, three
    learnt made-up sets, check41-check43 (never learnt) and, where the corpus is there, the first 600 PhysioNet
    development notes of patients outside the locked quarter. Counts only."""
    from crfdeid.features.wordclass import TABLE, TABLE_V2, table  # noqa: PLC0415  (--coverage only)
    from crfdeid.io import read  # noqa: PLC0415  (--coverage only)
    from crfdeid.io.splits import read_groups, select_groups  # noqa: PLC0415  (--coverage only)
    rows = [("synthetic mix_icu, seed 13", synth.generate(300, seed=13, style="mix_icu")),
            ("synthetic specialty_ids, seed 13", synth.generate(300, seed=13, style="specialty_ids")),
            ("made-up learnt: dev10, dev11, check44", read_sets("dev10,dev11,check44")),
            ("made-up unlearnt: check41-check43", read_sets("check41,check42,check43"))]
    if physionet.is_dir():
        locked = read_groups(ROOT / "configs" / "splits" / "physionet-locked.txt")
        rows.append(("PhysioNet development, first 600",
                     list(select_groups(list(read(f"physionet:{physionet}")), locked, keep=False))[:600]))
    tables = {"v1": table(TABLE), "v2": table(TABLE_V2)}
    print(f"{'notes':40s} {'':4s} {'words':>8s} " + " ".join(f"{'absent ' + k:>10s}" for k in tables))
    for name, docs in rows:
        got = {k: coverage(docs, t) for k, t in tables.items()}
        for phi in (True, False):
            print(f"{name:40s} {'PHI' if phi else 'not':4s} {got['v1'][phi][0]:8d} "
                  + " ".join(f"{got[k][phi][1]:10.3f}" for k in tables))


def table_text(rows: list[tuple[str, str]], sources: list[str], v2: bool = False) -> str:
    """The file: a ``#`` header (sources, licence, method, command, entries), then ``word TAB path`` lines."""
    head = ["# crfdeid data: hierarchical distributional word classes, lower-cased word TAB path "
            f"(read by the feature template wordclass.v{2 if v2 else 1})",
            *(f"# source: {s}" for s in sources),
            "# licence: MIT (crfdeid): text written by the project, no third-party text",
            f"# method: tokens of crfdeid.text.tokenize lower-cased; words with a letter seen >= {MIN_COUNT} times; "
            f"contexts at offsets {', '.join(f'{o:+d}' for o in OFFSETS)} (digits as 0); "
            f"PPMI (context counts ** {CDS}); "
            f"truncated SVD (scipy svds, ARPACK) to {DIMS} dims, U*sqrt(S), rows L2-normalised; k-means "
            f"{BRANCHING} x {LEVELS} levels (scikit-learn KMeans, random_state {SEED}, n_init {N_INIT}, one thread), "
            "classes numbered by size"
            + ("; then every rarer word with a letter: its PPMI row over the same columns folded into the SVD's "
               "space (V * sign / sqrt(S)), rows L2-normalised, placed down the tree at the nearest class centroid "
               "(cosine) of each level" if v2 else ""),
            f"# built with: numpy {version('numpy')}, scipy {version('scipy')}, scikit-learn {version('scikit-learn')}",
            f"# regenerate: nice -n 10 python gazetteers/word_classes.py{' --v2' if v2 else ''}",
            f"# entries: {len(rows)}"]
    return "\n".join(head + [f"{w}\t{p}" for w, p in rows]) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog="example: nice -n 10 python gazetteers/word_classes.py")
    parser.add_argument("--v2", action="store_true", help="the second table (wordclass.v2): also the training text "
                        f"of {', '.join(RECIPE)}, every word of it classed")
    parser.add_argument("--out", type=Path, help=f"the table to write (default: {OUT}, with --v2 {OUT_V2})")
    parser.add_argument("--coverage", metavar="PHYSIONET", nargs="?", const=Path("../shared/corpora/physionet-dev"),
                        type=Path, help="build nothing: print the shipped tables' words without a class, PHI and not, "
                        "on training and unseen notes (PhysioNet's development notes from this folder if there)")
    args = parser.parse_args(argv)
    if args.coverage:
        print_coverage(args.coverage)
        return 0
    out = args.out or (OUT_V2 if args.v2 else OUT)
    start = time.perf_counter()
    texts, names, n_synth = training_texts()
    sources = [f"crfdeid.synth.generate({NOTES_PER_STYLE}, seed={FIRST_SEED}+i, style=STYLE) for the "
               f"{len(TABLE_STYLES)} styles of crfdeid.synth.STYLES in order ({n_synth} synthetic notes)",
               f"the made-up sets of {MADEUP_CONFIG}'s madeup entry, as written ({len(texts) - n_synth} notes): "
               + ",".join(names)]
    left = 0
    if args.v2:
        recipe = recipe_texts()
        sources.append(f"the training notes of {', '.join(RECIPE)} as their train entries read them "
                       f"({len(recipe)} notes: synthetic notes of each seed, made-up sets as written and recased)")
        rows, left = build_every(texts + recipe)
        texts += recipe
    else:
        rows = build(texts)
    out.write_text(table_text(rows, sources, args.v2), encoding="utf-8")
    print(f"{len(rows)} words from {len(texts)} notes in {time.perf_counter() - start:.0f} s: {out}"
          + (f" ({left} rare words without a context column left out)" if args.v2 else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
