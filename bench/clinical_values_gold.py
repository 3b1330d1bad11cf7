"""Gold PHI tokens the clinical filter's reasons would take on an annotated corpus (issue 50).

Every gold span, and every one of its tokens alone (a tagger may find part of a name), is
judged by :func:`crfdeid.recognizers.clinical.why_clinical` as if a tagger had predicted it
(:func:`crfdeid.recognizers.clinical.taken`); prints, per reason, the gold spans and gold
tokens it would drop (counts only, never text).
The bar for a rule that removes a span the model found is 0.

    python bench/clinical_values_gold.py --corpus physionet:../shared/corpora/physionet-dev \\
        --exclude-groups configs/splits/physionet-locked.txt
"""

from __future__ import annotations

import argparse
import json

from crfdeid.io.labelled import read_corpus
from crfdeid.recognizers.clinical import taken


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", required=True, help="FORMAT:PATH of annotated notes")
    parser.add_argument("--exclude-groups", help="leave out these patients (the locked quarter)")
    args = parser.parse_args(argv)
    docs, _ = read_corpus([args.corpus])
    if args.exclude_groups:
        with open(args.exclude_groups, encoding="utf-8") as fh:
            out = {line.strip() for line in fh if line.strip() and not line.startswith("#")}
        docs = [d for d in docs if d.group not in out]
    result = taken(docs)
    print(json.dumps({"notes": len(docs), "gold_spans": sum(len(d.spans) for d in docs), "taken": result},
                     indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
