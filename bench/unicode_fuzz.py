"""A long run of the Unicode property checks of tests/test_unicode_tagging.py.

Random texts (random code points of every plane but surrogates, the special characters
and note fragments of the test module) go through the tokenizer, the Safe Harbor layer
and tagging with the shipped model and a tiny trained one on both backends, for
``--minutes``; prints the number of examples and of failures (JSON), and writes each
failing text (made up here, never a note) with its error to ``--failures``::

    python bench/unicode_fuzz.py --minutes 10 --failures build/unicode-failures.txt
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from test_unicode_tagging import FRAGMENTS, SPECIAL, _check_tagged, _check_tokens  # noqa: E402

from crfdeid.config import load_config  # noqa: E402
from crfdeid.crf import Model, train_model  # noqa: E402
from crfdeid.document import Document  # noqa: E402
from crfdeid.recognizers import safeharbor  # noqa: E402
from crfdeid.text.tokenize import for_tagging  # noqa: E402


def _char(rng: random.Random) -> str:
    while True:
        top = rng.choice((0x80, 0x800, 0x10000, 0x110000))
        c = rng.randrange(top)
        if not 0xD800 <= c <= 0xDFFF:
            return chr(c)


def note(rng: random.Random) -> str:
    pieces = []
    for _ in range(rng.randrange(15)):
        kind = rng.random()
        if kind < 0.5:
            pieces.append("".join(_char(rng) for _ in range(rng.randrange(9))))
        elif kind < 0.75:
            pieces.append(rng.choice(SPECIAL))
        else:
            pieces.append(rng.choice(FRAGMENTS))
    return "".join(pieces)


def check(text: str, models) -> None:
    for split in (True, False):
        _check_tokens(text, split)
        _check_tokens(for_tagging(text), split)
    found = safeharbor.find(text)
    out = safeharbor.apply(text, found[::2])
    covered = {i for s in out for i in range(s.start, s.end)}
    assert all(i in covered for s in found for i in range(s.start, s.end))
    for by_numpy, by_crfsuite in models:
        a = by_numpy.tag_text(text)
        _check_tagged(text, by_numpy, a)
        assert a.spans == by_crfsuite.tag_text(text).spans
        (_, again), = by_numpy.tag_each([Document("x", text)])
        assert again.spans == a.spans


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--minutes", type=float, default=10.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--failures", default="build/unicode-failures.txt")
    args = p.parse_args(argv)
    cfg = load_config(HERE.parent / "configs" / "synth-small.yaml",
                      {"train": ["synth:12,7"], "features": "full", "crf": {"max_iterations": 8},
                       "rules": {"enabled": True}})
    tiny = train_model(None, cfg)
    models = [(Model.load(None), Model.load(None, backend="crfsuite")),
              (tiny, Model.from_bytes(tiny.to_bytes(), backend="crfsuite"))]
    rng = random.Random(args.seed)
    stop = time.monotonic() + 60 * args.minutes
    examples, failed = 0, []
    while time.monotonic() < stop:
        text = note(rng)
        examples += 1
        try:
            check(text, models)
        except Exception:  # noqa: BLE001 - every failure is counted and kept
            failed.append(f"{text!r}\n{traceback.format_exc(limit=3)}")
    if failed:
        Path(args.failures).parent.mkdir(parents=True, exist_ok=True)
        Path(args.failures).write_text("\n".join(failed), encoding="utf-8")
    print(json.dumps({"minutes": args.minutes, "seed": args.seed, "examples": examples,
                      "failures": len(failed)}))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
