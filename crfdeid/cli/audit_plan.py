"""``audit plan --sign``: the officer signs every choice of the audit before the draw
(:mod:`crfdeid.audit.plan`), and ``audit sample --plan`` draws exactly that.

Example::

    python -m crfdeid key new officer.key --for officer          # officer.key and officer.key.pub
    python -m crfdeid tag --input-format jsonl release.jsonl --output-dir out/ --run-manifest
    python -m crfdeid audit plan --per tokens --target 5 --release jsonl:release.jsonl --release-output out/ \\
        --double 60 --stratify site --reviewer ann=ann.key.pub --reviewer bob=bob.key.pub \\
        --sign officer.key --ledger ~/audits.ledger --out plan.json
    python -m crfdeid audit sample jsonl:release.jsonl --out audit/ --plan plan.json --release-output out/
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .. import cli
from ..audit import plan as audit_plan
from ..audit import register
from ..audit import sample as audit_sample
from ..deid import signing
from ..errors import ConfigError
from ..io import atomic_write, runmanifest
from ..tagging.model import DEFAULT_MODEL
from . import audit_release


def add_arguments(q) -> None:
    """The signing options of ``audit plan``."""
    q.add_argument("--sign", metavar="KEY", help="sign the plan with the officer's private key (`key new FILE "
                                                 "--for officer`): every choice below is fixed before the draw")
    q.add_argument("--ledger", metavar="FILE", help="the officer's ledger, outside any audit folder (with --sign)")
    q.add_argument("--out", metavar="FILE", help="where the signed plan goes (with --sign)")
    q.add_argument("--notes", type=int, help="notes to draw (default: the notes the plan computes)")
    q.add_argument("--double", type=int, default=0, help="of those, notes two reviewers review (0)")
    q.add_argument("--canaries", type=int, metavar="N", help="notes that get a canary (default: one in ten)")
    q.add_argument("--stratify", action="append", default=[], metavar="FIELD", help="stratum (repeatable)")
    q.add_argument("--length-bins", default="500,2000", metavar="N,N", help="length strata bounds (500,2000)")
    q.add_argument("--pattern", metavar="REGEX", help="named groups read from the document id or file name")
    q.add_argument("--release-output", metavar="DIR", help="the whole output that leaves (tag --run-manifest)")
    q.add_argument("--model", help="the model that de-identified the release (default: the shipped one)")
    q.add_argument("--output", default="redacted", choices=("redacted", "masked", "surrogate"))
    q.add_argument("--reviewer", action="append", default=[], metavar="NAME=FILE",
                   help="a reviewer and their public key (`key new FILE --for reviewer`; repeatable): only "
                        "reviews they sign count")
    cli.add_reader_options(q, inputs="the release")


def _reviewers(pairs) -> dict[str, str]:
    out = {}
    for pair in pairs:
        name, eq, path = pair.partition("=")
        if not eq or not name:
            raise ConfigError(f"--reviewer takes NAME=FILE (a public key), got {pair!r}")
        out[name] = signing.public_hex(signing.load_public(path))
    return out


def sign(args, computed: int, level: float, target: dict) -> int:
    """Sign the plan (see the module docstring); ``computed``: the notes the plan asks for."""
    missing = [f for f, v in (("--release", args.release), ("--release-output", args.release_output),
                              ("--ledger", args.ledger), ("--out", args.out)) if not v]
    if missing:
        print(f"error: --sign needs {', '.join(missing)}", file=sys.stderr)
        return 2
    key = signing.load_private(args.sign)
    bins = tuple(int(x) for x in str(args.length_bins).split(",") if x.strip())
    strata = audit_sample.Strata(tuple(args.stratify), bins, args.pattern)
    options = cli.reader_options(args.reader_option)
    members, errors = audit_sample.population(args.release, strata, options)
    if errors:
        print(f"error: {len(errors)} note(s) of the release could not be read (first: {errors[0]})", file=sys.stderr)
        return 2
    model = Path(args.model) if args.model and args.model != "default" else DEFAULT_MODEL
    model_sha = runmanifest.sha256_file(model)
    run = audit_release.record(args.release_output, model_sha)
    why = audit_sample.whole_output(members, audit_release.release_spans(args.release_output, model))
    if why:
        print(f"error: not signed: {why}", file=sys.stderr)
        return 2
    n = args.notes if args.notes is not None else computed
    out = Path(args.out)
    if out.exists():
        raise ConfigError("already exists: a signed plan is never replaced (the ledger keeps every plan)", path=out)
    signed = audit_plan.make(
        key, release_digest=audit_sample.release_digest(members), release_notes=len(members),
        output_manifest_sha256=run["manifest_sha256"], model_sha256=model_sha, size=n, double=args.double,
        strata=strata.as_dict(), level=level, canaries=max(1, n // 10) if args.canaries is None else args.canaries,
        output=args.output, reviewers=_reviewers(args.reviewer), target=target)
    signed["body"]["reader_options"] = options
    signed["signature"] = signing.sign(key, signed["body"])
    entry = register.append(args.ledger, key, "plan", signed, signed["body"]["release_digest"])
    atomic_write(out, json.dumps(signed, indent=1) + "\n")
    print(json.dumps({"plan": str(out), "notes": n, "double": args.double, "level": level,
                      "ledger_entry": entry["seq"], "plans_for_this_release":
                      register.count(args.ledger, "plan", signed["body"]["release_digest"])}))
    print(f"signed: {out}; draw it with `python -m crfdeid audit sample RELEASE --out AUDIT --plan {out} "
          "--release-output DIR`", file=sys.stderr)
    return 0


def drawn(args) -> tuple[dict, audit_sample.Strata, dict]:
    """``(plan, strata, settings)`` of ``audit sample --plan``: the draw's every setting from the
    signed plan; a setting given on the command line too is refused."""
    given = [f for f, v in (("--notes", args.notes), ("--seed", args.seed), ("--canaries", args.canaries),
                            ("--pattern", args.pattern), ("--stratify", args.stratify),
                            ("--double", args.double)) if v]
    if given:
        raise ConfigError(f"--plan fixes the draw: {', '.join(given)} cannot be given with it")
    if not args.release_output:
        raise ConfigError("--plan needs --release-output: the plan is of the whole output that leaves")
    plan = audit_plan.load(args.plan)
    body = plan["body"]
    st = body["strata"]
    strata = audit_sample.Strata(tuple(st["fields"]), tuple(st["length_bins"]), st["pattern"])
    return plan, strata, {"notes": body["size"], "double": body["double"], "canaries": body["canaries"],
                          "output": body["output"], "reader_options": body.get("reader_options") or {}}
