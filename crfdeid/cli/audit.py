"""The release audit: how many identifiers a de-identified release still holds, with a bound.

Subcommands, in order: ``plan`` (how many notes to review for a target, before any review),
``sample`` (a seeded random sample of the release, stratified, tagged by the model that will
de-identify it and opened as review projects), ``verify`` (draw the sample again from its
seed and check the release and the model file), ``report`` (from the reviewed sample: what
the model missed, the residual rate with exact bounds, the projection to the release, the
reviewers' own misses; HTML and JSON), ``simulate`` (reviewers played by a gold standard, for
examples and tests only). docs/audit.md. Exit codes: 0 success, 1 a check failed or notes
are left to review, 2 usage or configuration.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from .. import cli
from ..audit import report as audit_report
from ..audit import sample as audit_sample
from ..audit import simulate as audit_simulate
from ..audit import statement
from ..audit import verify as audit_verify
from ..audit.hips import load_summary as hips_summary
from ..errors import CrfdeidError
from ..io import atomic_write, read, runmanifest
from ..scoring import audit as stats
from ..tagging.model import DEFAULT_MODEL
from ..text.tokenize import token_offsets
from . import audit_hips, audit_plan, audit_release, audit_signed


def _level(text: str) -> float:
    v = float(text)
    if not 0 < v < 1:
        raise argparse.ArgumentTypeError(f"a confidence level lies in (0, 1), got {text}")
    return v


def _bins(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"length bins are token counts like 500,2000, got {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    p = cli.parser("audit", __doc__,
                   "python -m crfdeid audit plan --per tokens --target 5 --expected 1 --release jsonl:release.jsonl",
                   "python -m crfdeid audit sample jsonl:release.jsonl --out audit/ --notes 300 --double 60 "
                   "--stratify site --stratify length",
                   "python -m crfdeid review serve audit/review        # and audit/double on another --port",
                   "python -m crfdeid audit report audit/ --html audit.html --json audit.json")
    sub = p.add_subparsers(dest="command", required=True)
    q = sub.add_parser("plan", help="notes to review for a target bound, before anyone reviews")
    q.add_argument("--per", choices=stats.UNITS, default="tokens",
                   help="tokens: residual identifiers per 10,000 tokens (default); phi-tokens: leaked PHI tokens "
                        "per 10,000 PHI tokens; notes: share of notes with a residual identifier")
    q.add_argument("--target", type=float, required=True,
                   help="the upper bound to reach (per 10,000, or a share of notes for --per notes)")
    q.add_argument("--expected", type=float, default=0.0, help="the rate you expect, same unit (default 0)")
    q.add_argument("--level", type=_level, default=0.95, help="confidence level (0.95)")
    q.add_argument("--per-note", type=float, metavar="N",
                   help="mean tokens (or PHI tokens) of a note; else measured on --release")
    q.add_argument("--release", action="append", metavar="FORMAT:PATH",
                   help="the release's notes, to measure the mean tokens of a note (repeatable)")
    q.add_argument("--json", action="store_true", help="print the plan as JSON")
    audit_plan.add_arguments(q)
    q = sub.add_parser("sample", help="draw the sample and open it as review projects")
    q.add_argument("release", nargs="+", metavar="FORMAT:PATH", help="the notes of the release (any reader)")
    q.add_argument("--out", required=True, help="audit folder (new)")
    q.add_argument("--plan", metavar="FILE",
                   help="the officer's signed plan (`audit plan --sign`): it fixes the seed and every setting of "
                        "the draw; an audit drawn without one cannot be signed")
    q.add_argument("--notes", type=int, help="notes to draw (see `audit plan`; from the plan with --plan)")
    q.add_argument("--double", type=int, default=None,
                   help="of those, notes that two reviewers review independently (capture-recapture; 0)")
    q.add_argument("--canaries", type=int, metavar="N",
                   help="notes that get a made-up identifier, unknown to the reviewers, to measure each reviewer's "
                        "misses (default: one in ten drawn notes, at least one; 0: none, and the report says so)")
    q.add_argument("--seed", type=int, help="seed of the draw (default: a fresh one, recorded); for tests: "
                                            "a seed anyone chooses can be shopped for, such an audit is never "
                                            "signed (use --plan)")
    q.add_argument("--stratify", action="append", default=[], metavar="FIELD",
                   help="stratum: a metadata field of the notes (JSON Lines 'meta', a CSV's meta_columns), "
                        "'length' (token-count bins) or a named group of --pattern (repeatable)")
    q.add_argument("--length-bins", type=_bins, default=(500, 2000), metavar="N,N",
                   help="token counts that bound the length strata (500,2000)")
    q.add_argument("--pattern", metavar="REGEX",
                   help="named groups read from the document id or file name, e.g. '(?P<site>[a-z]+)_(?P<year>\\d{4})'")
    q.add_argument("--model", help="the model that de-identifies the release (default: the shipped one)")
    q.add_argument("--release-output", metavar="DIR",
                   help="the output folder `tag --output-dir` wrote (with its run manifest): verify holds it to "
                        "the manifest and makes it again with the run's arguments")
    q.add_argument("--output", default="redacted", choices=("redacted", "masked", "surrogate"),
                   help="how the release is written (surrogate adds the note on hiding in plain sight)")
    cli.add_reader_options(q, inputs="the release (a CSV's strata: meta_columns=site,year)")
    q = sub.add_parser("verify", help="draw the sample again from its seed; check the release and the model file")
    q.add_argument("audit", help="audit folder")
    q.add_argument("release", nargs="*", metavar="FORMAT:PATH", help="the release (default: as recorded)")
    _evidence_options(q, "the officer's public key (officer.key.pub): checks the signed plan, the seed and the "
                         "statement; without it the statement is not checked and verify fails")
    q.add_argument("--ledger", metavar="FILE", help="the officer's ledger: refuses a plan or statement that is not "
                                                    "the officer's last for the release (a replay)")
    q.add_argument("--evidence-only", action="store_true",
                   help="recompute the evidence without checking the officer's signatures (the result says the "
                        "statement was not checked; exit status as the evidence)")
    q = sub.add_parser("report", help="the audit report from the reviewed sample (HTML and JSON)")
    q.add_argument("audit", help="audit folder")
    q.add_argument("--html", metavar="FILE", help="write the page a person reads and signs")
    q.add_argument("--json", metavar="FILE", help="write the figures as JSON (default: stdout)")
    q.add_argument("--level", type=_level, help="confidence level (default: the signed plan's, else 0.95; another "
                                                 "level than the plan's is a warning and is not signed)")
    q.add_argument("--hips", metavar="FILE", help="a result of `audit hips`, shown as what surrogates add")
    q.add_argument("--sign", metavar="KEY", help="sign the report's evidence with the officer's private key: "
                                                 "writes AUDIT/statement.json (refused when the report has a "
                                                 "warning, or the audit was not drawn from the officer's plan)")
    q.add_argument("--ledger", metavar="FILE", help="the officer's ledger, which records the statement (with --sign)")
    q.add_argument("--supersede", action="store_true",
                   help="sign again over a statement already there (kept in AUDIT/superseded/; the ledger holds both)")
    _evidence_options(q, None)
    q = sub.add_parser("simulate", help="reviewers played by a gold standard (examples and tests only)")
    q.add_argument("audit", help="audit folder")
    q.add_argument("--gold", action="append", required=True, metavar="FORMAT:PATH", help="annotated notes")
    q.add_argument("--reviewers", default="sim-a,sim-b", help="names, comma-separated (sim-a,sim-b)")
    q.add_argument("--miss", type=float, default=0.0,
                   help="chance that a reviewer overlooks an identifier the model missed (0)")
    q.add_argument("--seed", type=int, default=0, help="seed of the overlooking (0)")
    audit_hips.add_arguments(sub.add_parser("hips", help="can an attacker tell residual identifiers from "
                                            "surrogates? (hiding in plain sight, measured)"))
    return p


def _evidence_options(q, key_help) -> None:
    q.add_argument("--tokens", metavar="FILE",
                   help="the review app's token file: proves each personal sign-in by its event's seal (without "
                        "it no reviewer counts as signed in with a personal token)")
    if key_help:
        q.add_argument("--key", metavar="FILE", help=key_help)


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    old = os.umask(0o077)  # the audit folder holds the sampled notes: owner-only
    try:
        return COMMANDS[args.command](args)
    except (CrfdeidError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        os.umask(old)


def _release_size(specs) -> tuple[int, float]:
    """The release's notes and mean tokens of a note."""
    n = tokens = 0
    for spec in specs:
        for doc in read(spec):
            n += 1
            tokens += len(token_offsets(doc.text))
    if not n:
        raise ValueError("the release holds no notes")
    return n, tokens / n


def _plan(args) -> int:
    per_note = args.per_note
    if args.per == "notes" and not 0 < args.target < 1:
        print(f"error: --per notes takes the target as a share of notes (0.05 for 5 %), got {args.target:g}",
              file=sys.stderr)
        return 2
    if args.per == "phi-tokens" and per_note is None:
        print("error: --per phi-tokens needs --per-note (the mean PHI tokens of a note)", file=sys.stderr)
        return 2
    if args.per == "tokens" and per_note is None and not args.release:
        print("error: --per tokens needs --per-note N or --release FORMAT:PATH", file=sys.stderr)
        return 2
    notes = None
    if args.release:
        notes, mean = _release_size(args.release)
        per_note = mean if per_note is None and args.per == "tokens" else per_note
    plan = stats.plan(args.target, args.expected, args.level, args.per, per_note)
    if notes is not None and plan["notes"] >= notes:
        # a sample of the whole release is no sample: review every note (the rate is then the
        # release's own), or set a target the release can meet
        print(f"warning: the plan asks for {plan['notes']:,} notes and the release has {notes:,}: a sample of the "
              "whole release or more; review every note instead, or choose a looser --target", file=sys.stderr)
    if args.sign:
        return audit_plan.sign(args, plan["notes"], args.level,
                               {"per": args.per, "target": args.target, "expected": args.expected})
    if args.json:
        print(json.dumps(plan, indent=1))
        return 0
    unit = {"notes": "the share of notes with a residual identifier",
            "tokens": "residual identifiers per 10,000 tokens",
            "phi-tokens": "leaked PHI tokens per 10,000 PHI tokens"}[args.per]
    target = f"{100 * args.target:g} %" if args.per == "notes" else f"{args.target:g}"
    expected = f"{100 * args.expected:g} %" if args.per == "notes" else f"{args.expected:g}"
    print(f"review {plan['notes']} notes" + (f" ({plan['trials']:,} {args.per}, {per_note:,.0f} a note)"
                                             if args.per != "notes" else "")
          + f" to bound {unit} at {target} with {round(100 * args.level)} % confidence, if the rate is {expected}; "
          f"chance that the review meets the target: {100 * plan['chance_to_meet_target']:.0f} %")
    return 0


def _sample(args) -> int:
    planned = None
    options = cli.reader_options(args.reader_option)
    if args.plan:
        planned, strata, fixed = audit_plan.drawn(args)
        n, double, canaries, output, options = (fixed["notes"], fixed["double"], fixed["canaries"], fixed["output"],
                                                fixed["reader_options"])
        seed = 0  # the plan's signature gives it
    else:
        if args.notes is None:
            print("error: --notes is needed (or --plan, the officer's signed plan)", file=sys.stderr)
            return 2
        n, double, output = args.notes, args.double or 0, args.output
        canaries = max(1, n // 10) if args.canaries is None else args.canaries
        seed = args.seed if args.seed is not None else audit_sample.new_seed()
        strata = audit_sample.Strata(tuple(args.stratify), args.length_bins, args.pattern)
    run = found = None
    if args.release_output:
        model = args.model if args.model and args.model != "default" else DEFAULT_MODEL
        run = audit_release.record(args.release_output, runmanifest.sha256_file(model))
        if planned and run["manifest_sha256"] != planned["body"]["output_manifest_sha256"]:
            print("error: audit of something else: --release-output is not the output the signed plan names",
                  file=sys.stderr)
            return 2
        found = audit_release.release_spans(args.release_output, model)  # the suggestions: what the run removed
    manifest = audit_sample.create(args.out, args.release, n, seed, strata, double, args.model, output, options,
                                   run, canaries, found, planned)
    parts = manifest["sample"]["projects"]
    print(json.dumps({"audit": args.out, "seed": manifest["sample"]["seed"], "notes": len(manifest["notes"]),
                      "double": double, "projects": [str(Path(args.out) / p) for p in parts],
                      "release_notes": manifest["release"]["notes"], "strata": len(manifest["release"]["strata"])}))
    print("review: " + "; ".join(f"python -m crfdeid review serve {Path(args.out) / p}" for p in parts),
          file=sys.stderr)
    return 0


def checked(audit, release=None, tokens=None) -> dict:
    """:func:`crfdeid.audit.verify.verify` and, when the audit records the release's output
    folder, its check against the run manifest and a run made again (:mod:`.audit_release`)."""
    manifest = audit_sample.load(audit)
    run = manifest.get("output_run")
    retag, unmade, partial = None, [], []
    if run and manifest.get("suggestions") == "release-run":
        def retag(ids):
            try:
                found = audit_release.release_spans(run["folder"], manifest["model"]["path"])
            except CrfdeidError as exc:
                unmade.append({"doc_id": None, "part": None, "what": f"the release run's spans: {exc}"})
                return {}
            if audit_sample.output_digest(found) != manifest["release"]["digest"]:
                partial.append({"doc_id": None, "part": None, "what": (
                    f"audit of something else: the audit's release ({manifest['release']['notes']} notes) is not the "
                    f"whole output that leaves ({len(found)} notes tagged by its run)")})
            return audit_release.span_lists(found, ids)
    result = audit_verify.verify(audit, release, tokens, retag)
    if unmade:
        result["differences"] += unmade
        result["ok"] = result["checks"]["release_spans"] = False
    if run:
        result["checks"]["whole_output"] = not partial and not unmade
        result["differences"] += partial
        result["ok"] = result["ok"] and not partial
    if run:
        found: list = []
        audit_release.check(run, lambda doc_id, what: found.append({"doc_id": doc_id, "part": None, "what": what}))
        result["checks"]["release_output"] = not found
        result["differences"] += found
        result["ok"] = result["ok"] and not found
    return result


def _verify(args) -> int:
    result = checked(args.audit, args.release or None, args.tokens)
    if args.evidence_only:
        result["statement"] = "not checked (--evidence-only)"
    else:
        result["statement"] = "checked" if args.key else "not checked: no --key"
        found = audit_signed.check(args.audit, result, args.key, args.ledger)
        for name, whats in found.items():
            result["checks"][name] = not whats
            result["differences"] += [{"doc_id": None, "part": None, "what": w} if isinstance(w, str) else w
                                      for w in whats]
        result["ok"] = result["ok"] and not any(found.values())
    print(json.dumps(result))
    for d in result["differences"]:
        print(f"difference: {d['doc_id'] or '(audit)'}" + (f" in {d['part']}/" if d["part"] else "")
              + f": {d['what']}", file=sys.stderr)
    failed = [k for k, v in result["checks"].items() if not v]
    print(f"verify: {'ok' if result['ok'] else 'FAILED'}" + (f" ({', '.join(failed)}; "
                                                              f"{len(result['differences'])} difference(s))"
                                                              if failed else "")
          + ("; the officer's signatures were NOT checked" if args.evidence_only else ""), file=sys.stderr)
    return 0 if result["ok"] else 1


def _report(args) -> int:
    if args.html:
        missing = cli.missing_extra("plot", "matplotlib")
        if missing:
            print(f"error: --html {missing}", file=sys.stderr)
            return 2
    hips = hips_summary(args.hips) if args.hips else None
    manifest = audit_sample.load(args.audit)
    planned = ((manifest.get("plan") or {}).get("body") or {}).get("level")
    level = args.level if args.level is not None else planned if planned is not None else 0.95
    report = audit_report.compute(args.audit, level, checked=checked(args.audit, tokens=args.tokens), hips=hips)
    if planned is not None and level != planned:
        report["warnings"].append(f"the report's confidence level ({level:g}) is not the signed plan's ({planned:g}): "
                                  "a report at another level than planned is not the audit's report")
    text = audit_report.to_json(report)
    if args.json:
        atomic_write(args.json, text)
    elif not args.html:
        sys.stdout.write(text)
    if args.html:
        atomic_write(args.html, audit_report.to_html(report))
    for w in report["warnings"]:
        print(f"warning: {w}", file=sys.stderr)
    r = report["rates"]["residual_identifiers_per_token"]
    print(f"residual identifiers: {r['found']} in {report['sample']['reviewed']} notes; "
          f"{stats.PER * r['estimate']:.2f} per 10,000 tokens, at most {stats.PER * r['upper_one_sided']:.2f} "
          f"({round(100 * level)} %); release: at most {report['projection']['upper_residual_identifiers']:,.0f}",
          file=sys.stderr)
    if args.sign:
        refused = audit_signed.sign(args.audit, manifest, report, args.sign, args.ledger, args.supersede)
        if refused:
            print(f"error: not signed: {refused}", file=sys.stderr)
            return 1
        print(f"signed: {Path(args.audit) / statement.STATEMENT} (the ledger {args.ledger} records it)",
              file=sys.stderr)
    return 1 if report["warnings"] else 0


def _simulate(args) -> int:
    reviewers = [r.strip() for r in args.reviewers.split(",") if r.strip()]
    counts = audit_simulate.run(args.audit, args.gold, reviewers, args.miss, args.seed)
    print(json.dumps(counts))
    return 0


COMMANDS = {"plan": _plan, "sample": _sample, "verify": _verify, "report": _report, "simulate": _simulate,
            "hips": audit_hips.run}
