"""What the clinical-term filter would change in a set of predictions: binary token recall
and precision before and after, and the dropped spans by reason (counts only).

Predictions come from a folder (``--pred``, e.g. the ``predictions/`` of ``crossval --out``)
or from tagging the gold notes with a model (``--model``; default: the shipped one). The
filter is applied as the tagger applies it: :func:`crfdeid.recognizers.clinical.drop_clinical`,
then the Safe Harbor layer. Documents of the patients in ``--exclude-groups`` are left out::

    python bench/clinical_filter_eval.py physionet:../shared/corpora/physionet-dev \\
        --pred /tmp/cv/predictions --exclude-groups configs/splits/physionet-locked.txt
    python bench/clinical_filter_eval.py synth:300,99
"""

from __future__ import annotations

import argparse
import json
from collections import Counter

from crfdeid.io import read
from crfdeid.io.splits import read_groups, select_groups
from crfdeid.recognizers import clinical, safeharbor
from crfdeid.scoring import evaluate


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("gold", help="FORMAT:PATH of the annotated notes")
    p.add_argument("--pred", metavar="DIR", help="i2b2 predictions of the same notes")
    p.add_argument("--model", help="tag the notes with this model instead (default: the shipped one)")
    p.add_argument("--exclude-groups", metavar="FILE", help="patients to leave out (doc.group), one a line")
    args = p.parse_args(argv)
    gold = list(read(args.gold))
    if args.exclude_groups:
        gold = select_groups(gold, read_groups(args.exclude_groups), keep=False)
    if args.pred:
        by_id = {d.doc_id: d for d in read(f"i2b2:{args.pred}")}
        before = [by_id[d.doc_id] for d in gold]
    else:
        from crfdeid.crf import Model
        model = Model.load(args.model)
        before = [model.tag(d.with_spans([])) for d in gold]
    reasons, costly = Counter(), Counter()
    after = []
    for g, d in zip(gold, before):
        for sp in d.spans:
            why = clinical.why_clinical(d.text, sp)
            if why:
                reasons[why] += 1
                costly[why] += any(sp.overlaps(x) for x in g.spans)
        after.append(d.with_spans(safeharbor.apply(d.text, clinical.drop_clinical(d.text, d.spans))))
    out = {"gold": args.gold.split(":")[0], "documents": len(gold), "dropped_by_reason": dict(reasons),
           "dropped_overlapping_gold": dict(costly)}
    for name, pred in (("before", before), ("after", after)):
        m = evaluate(gold, pred).micro["binary_token"]
        out[name] = {"recall": round(m.recall, 4), "precision": round(m.precision, 4),
                     "tp": m.tp, "fp": m.fp, "fn": m.fn}
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
