"""How many words each word-class table leaves without a class, PHI and not, on training and on unseen notes.

    python bench/wordclass_coverage.py [--physionet ../shared/corpora/physionet-dev]

Words are runs of letters, lower-cased; a word is PHI when a gold span overlaps it. The rows: 300 synthetic notes of
seed 13 of two styles the specialty member learns, three learnt made-up sets, check41-check43 (never learnt) and,
where the corpus is there, the first 600 PhysioNet development notes of patients outside the locked quarter. Why it
matters (docs/synth.md, "Word classes every training word holds"): where the training notes' PHI lacks a class far
more often than their other words, a CRF learns absence as PHI. Counts only.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crfdeid import synth  # noqa: E402
from crfdeid.experiments.madeup import read_sets  # noqa: E402
from crfdeid.features.wordclass import TABLE, TABLE_V2, table  # noqa: E402
from crfdeid.io import read  # noqa: E402
from crfdeid.io.splits import read_groups, select_groups  # noqa: E402

LOCKED = Path(__file__).resolve().parent.parent / "configs" / "splits" / "physionet-locked.txt"

_WORD = re.compile(r"[^\W\d_]+")


def shares(docs, words: dict) -> dict[bool, tuple[int, float]]:
    """``{is_phi: (words, share absent from the table)}``."""
    c: Counter = Counter()
    for d in docs:
        phi = [(s.start, s.end) for s in d.spans]
        for m in _WORD.finditer(d.text):
            a, b = m.span()
            c[any(x < b and a < y for x, y in phi), m.group().lower() in words] += 1
    return {p: (c[p, True] + c[p, False], c[p, False] / max(c[p, True] + c[p, False], 1)) for p in (True, False)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--physionet", default="../shared/corpora/physionet-dev")
    args = parser.parse_args(argv)
    rows = [("synthetic mix_icu, seed 13", synth.generate(300, seed=13, style="mix_icu")),
            ("synthetic specialty_ids, seed 13", synth.generate(300, seed=13, style="specialty_ids")),
            ("made-up learnt: dev10, dev11, check44", read_sets("dev10,dev11,check44")),
            ("made-up unlearnt: check41-check43", read_sets("check41,check42,check43"))]
    if Path(args.physionet).is_dir():
        notes = select_groups(list(read(f"physionet:{args.physionet}")), read_groups(LOCKED), keep=False)
        rows.append(("PhysioNet development, first 600", list(notes)[:600]))
    tables = {"v1": table(TABLE), "v2": table(TABLE_V2)}
    print(f"{'notes':40s} {'':4s} {'words':>8s} " + " ".join(f"{'absent ' + k:>10s}" for k in tables))
    for name, docs in rows:
        docs = list(docs)
        got = {k: shares(docs, t) for k, t in tables.items()}
        for phi in (True, False):
            print(f"{name:40s} {'PHI' if phi else 'not':4s} {got['v1'][phi][0]:8d} "
                  + " ".join(f"{got[k][phi][1]:10.3f}" for k in tables))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
