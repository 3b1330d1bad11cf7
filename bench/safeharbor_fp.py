"""False and true positives of the Safe Harbor layer on an annotated corpus (counts only).

Every span the layer finds (:func:`crfdeid.recognizers.safeharbor.matches`) is counted
as a hit when it overlaps a gold span and as a false positive otherwise, by form; gold
spans are then counted by subtype, with how many the layer touches. Documents of the
patients listed in ``--exclude-groups`` (the locked test) are left out. Prints counts,
never note text::

    python bench/safeharbor_fp.py physionet:../shared/corpora/physionet-dev \\
        --exclude-groups configs/splits/physionet-locked.txt
    python bench/safeharbor_fp.py synth:1000,13
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter

from crfdeid.io import read
from crfdeid.io.splits import read_groups
from crfdeid.recognizers import safeharbor


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("source", help="FORMAT:PATH of an annotated corpus")
    p.add_argument("--exclude-groups", metavar="FILE", help="patients (doc.group) to leave out, one a line")
    args = p.parse_args(argv)
    excluded = read_groups(args.exclude_groups) if args.exclude_groups else frozenset()
    hits, fps, gold, touched = Counter(), Counter(), Counter(), Counter()
    docs = chars = 0
    seconds = 0.0
    for doc in read(args.source):
        if doc.group in excluded:
            continue
        docs += 1
        chars += len(doc.text)
        t = time.process_time()
        found = safeharbor.matches(doc.text)
        seconds += time.process_time() - t
        for form, sp in found:
            (hits if any(sp.overlaps(g) for g in doc.spans) else fps)[form] += 1
        for g in doc.spans:
            gold[g.subtype] += 1
            touched[g.subtype] += any(g.overlaps(sp) for _, sp in found)
    print(json.dumps({"source": args.source.split(":")[0], "documents": docs, "characters": chars,
                      "excluded_groups": len(excluded), "layer_cpu_seconds": round(seconds, 3),
                      "hits_by_form": dict(sorted(hits.items())), "false_positives_by_form": dict(sorted(fps.items())),
                      "gold_by_subtype": dict(sorted(gold.items())),
                      "gold_touched_by_subtype": dict(sorted(touched.items()))}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
