"""CPU cost of the steps this round added to the tagging path, measured in one process.

The notes are tagged (``Model.tag_each``, the default batch size) alternately with the
steps on and with them replaced by identities: the text read for tagging
(:func:`crfdeid.text.tokenize.for_tagging`), the clinical-term filter, the Safe Harbor layer and
the widening of spans to token bounds. CPU seconds (``time.process_time``) are less
sensitive to other jobs on the machine than wall time; still, record ``uptime`` with the
figures. Prints counts and seconds only::

    python bench/layers_cost.py --corpus physionet:../shared/corpora/physionet-dev --rounds 3
"""

from __future__ import annotations

import argparse
import json
import time

from crfdeid.crf import Model
from crfdeid.io import read
from crfdeid.recognizers.chain import Chain
from crfdeid.tagging import model as model_module

STEPS = {"for_tagging": lambda text: text}
#: The chain's steps this round added (replaced by nothing when off).
CHAIN_STEPS = ("clinical_filter.v1", "safe_harbor.v1", "token_bounds.v1")


def _tag_all(model, docs) -> tuple[float, int]:
    t = time.process_time()
    n = sum(len(tagged.spans) for _, tagged in model.tag_each(docs))
    return time.process_time() - t, n


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--corpus", default="synth:500,5")
    p.add_argument("--model", default=None, help="model file (default: the shipped one)")
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args(argv)
    docs = [d.with_spans([]) for d in read(args.corpus)]
    model = Model.load(args.model)
    tokens = sum(len(model_module.tokens_for(d.text)) for d in docs)
    saved = {name: getattr(model_module, name) for name in STEPS}
    chain = model.chain
    without = Chain([(name, proc) for name, proc in chain.steps if name not in CHAIN_STEPS])
    on, off = [], []
    _tag_all(model, docs)  # warm the caches
    for _ in range(args.rounds):
        on.append(_tag_all(model, docs)[0])
        for name, fn in STEPS.items():
            setattr(model_module, name, fn)
        model.chain = without
        try:
            off.append(_tag_all(model, docs)[0])
        finally:
            for name, fn in saved.items():
                setattr(model_module, name, fn)
            model.chain = chain
    best_on, best_off = min(on), min(off)
    print(json.dumps({"corpus": args.corpus.split(":")[0], "notes": len(docs), "tokens": tokens,
                      "cpu_seconds_with_steps": on, "cpu_seconds_without": off,
                      "tokens_per_cpu_s_with": round(tokens / best_on),
                      "tokens_per_cpu_s_without": round(tokens / best_off),
                      "added_share": round(best_on / best_off - 1, 4)}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
