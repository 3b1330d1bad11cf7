"""Tag one huge single-line note in a fresh process; print time and peak RSS as JSON.

    python bench/large_note.py --mb 5 --model build/physionet.model

The note is synthetic: nursing-note filler on one line with a fake name, phone
and date every ``--phi-every`` characters (sparse PHI, so the quadratic rule
overlay reported in docs/performance.md does not dominate). Output is i2b2 XML
in a temporary folder.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crfdeid.experiments.bench import child  # noqa: E402

FILLER = "pt resting comfortably in bed, vitals stable, no acute distress noted, lungs clear; "
PHI = "seen by Dr. Quillfeatherby, call 617-555-0199 on 03/14/2098; "


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--mb", type=float, default=5, help="note size in MB (default 5)")
    p.add_argument("--model", required=True, help="model file")
    p.add_argument("--phi-every", type=int, default=10_000, metavar="CHARS")
    args = p.parse_args(argv)
    block = FILLER * (args.phi_every // len(FILLER)) + PHI
    target = int(args.mb * 2**20)
    with tempfile.TemporaryDirectory(prefix="crfdeid-large-") as tmp:
        src = Path(tmp) / "in"
        src.mkdir()
        text = (block * (target // len(block) + 1))[:target]
        (src / "large.txt").write_text(text, encoding="utf-8")
        res = child.run("tag", args.model, f"text:{src}", Path(tmp) / "out")
    res.update(bytes=target, mb=args.mb)
    print(json.dumps(res))
    return 0 if res["exit_code"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
