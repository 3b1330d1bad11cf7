"""The Safe Harbor layer's spans on an annotated corpus: how many overlap gold PHI (counts only).

``python -m crfdeid experiments safeharbor`` counts every span the layer finds
(:func:`crfdeid.recognizers.safeharbor.matches`) as a hit when it overlaps a gold span and as a
false positive otherwise, by form; gold spans are then counted by subtype, with how many the
layer touches. Counts and the layer's CPU time, never note text.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable

from ..document import Document
from ..recognizers import safeharbor


def count(docs: Iterable[Document], excluded: frozenset = frozenset()) -> dict:
    """Hits and false positives by form, gold spans and those the layer touches by subtype, for
    the documents whose group (patient) is not in ``excluded``."""
    hits: Counter = Counter()
    fps: Counter = Counter()
    gold: Counter = Counter()
    touched: Counter = Counter()
    n = chars = 0
    seconds = 0.0
    for doc in docs:
        if doc.group in excluded:
            continue
        n += 1
        chars += len(doc.text)
        t = time.process_time()
        found = safeharbor.matches(doc.text)
        seconds += time.process_time() - t
        for form, sp in found:
            (hits if any(sp.overlaps(g) for g in doc.spans) else fps)[form] += 1
        for g in doc.spans:
            gold[g.subtype] += 1
            touched[g.subtype] += any(g.overlaps(sp) for _, sp in found)
    return {"documents": n, "characters": chars, "excluded_groups": len(excluded),
            "layer_cpu_seconds": round(seconds, 3), "hits_by_form": dict(sorted(hits.items())),
            "false_positives_by_form": dict(sorted(fps.items())), "gold_by_subtype": dict(sorted(gold.items())),
            "gold_touched_by_subtype": dict(sorted(touched.items()))}
