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

def by_group(docs: Iterable[Document], predicted: dict | None = None) -> dict:
    """Recall and precision of the layer for each ``doc.group`` (the made-up PII sentences'
    form, :mod:`crfdeid.synth.piiforms`): a gold span is found when the layer's spans cover
    every letter and digit of it; a span found is right when it overlaps a gold span.
    With ``predicted`` (document id -> spans, e.g. what ``tag`` wrote) those spans are scored
    instead of the layer's; a document missing from it counts as tagged with nothing."""
    gold: Counter = Counter()
    covered: Counter = Counter()
    found_n: Counter = Counter()
    right: Counter = Counter()
    groups = set()
    for doc in docs:
        found = safeharbor.find(doc.text) if predicted is None else predicted.get(doc.doc_id, [])
        g = doc.group
        groups.add(g)
        inside = {i for sp in found for i in range(sp.start, sp.end)}
        for sp in found:
            found_n[g] += 1
            right[g] += any(sp.overlaps(x) for x in doc.spans)
        for x in doc.spans:
            gold[g] += 1
            covered[g] += all(i in inside for i in range(x.start, x.end) if doc.text[i].isalnum())
    out = {}
    for g in sorted(groups):
        out[g] = {"gold": gold[g], "found": covered[g],
                  "recall": round(covered[g] / gold[g], 3) if gold[g] else None,
                  "spans": found_n[g], "false_positives": found_n[g] - right[g],
                  "precision": round(right[g] / found_n[g], 3) if found_n[g] else None}
    return out
