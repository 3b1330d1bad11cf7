"""Train a de-identifier (a CRF, or the network a config's `model` names) and save the model file.

Example::

    python -m crfdeid train --config configs/default.yaml --output crfdeid/_data/default-model
    python -m crfdeid train --config configs/physionet.yaml --output build/physionet.model \\
        --set crf.c1=0.05 --dev physionet:../shared/corpora/physionet-dev
    python -m crfdeid train --config configs/routed.yaml --output build/routed.model  # two CRFs and a router

Prints a summary (documents, tokens, features, iterations, time, and dev scores
when ``--dev`` is given). Exit codes: 0 success, 1 unreadable training
documents, 2 bad config or arguments.
"""

from __future__ import annotations

import argparse
import sys
import time

import yaml

from .. import cli
from ..config import load_config
from ..crf import train_model
from ..errors import CrfdeidError
from ..io.labelled import read_corpus, read_labelled, settle
from ..neural import require
from ..progress import step
from ..scoring import evaluate


def _parser() -> argparse.ArgumentParser:
    p = cli.parser("train", __doc__,
                   "python -m crfdeid train --config default --output my.model  "
                   "# the shipped model's config (synthetic notes: runs anywhere)",
                   long="reading and featurizing the notes, then CRFsuite's iterations (configs/physionet.yaml "
                        "on 1,500 notes: minutes; a companion CRF trains a second time, on twice the notes)")
    p.add_argument("--config", required=True,
                   help="YAML config file, or a shipped config's name: default, physionet, i2b2-2014, byo-example, "
                        "synth-small")
    p.add_argument("--train", action="append", metavar="FORMAT:PATH",
                   help="training input(s), replacing the config's train list (repeatable)")
    p.add_argument("--dev", action="append", metavar="FORMAT:PATH",
                   help="documents to score after training (repeatable)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a config value, e.g. crf.c1=0.1 or decoding.o_threshold=0.8")
    cli.add_reader_options(p, inputs="the training and dev inputs")
    p.add_argument("--output", required=True, help="model file to write")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    return p


def parse_overrides(items) -> dict:
    """``["crf.c1=0.1"]`` -> ``{"crf": {"c1": 0.1}}`` (values parsed as YAML).

    >>> parse_overrides(["crf.c1=0.1", "rules.enabled=true", "crf.feature.minfreq=2"])
    {'crf': {'c1': 0.1, 'feature.minfreq': 2}, 'rules': {'enabled': True}}
    """
    out: dict = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"--set expects KEY=VALUE, got {item!r}")
        head, _, rest = key.partition(".")
        val = yaml.safe_load(value)
        if rest:
            out.setdefault(head, {})[rest] = val
        else:
            out[head] = val
    return out


def _routed_summary(s: dict) -> None:
    """What a routed model's training says: each member's notes and the router's (counts only)."""
    for name, m in s["members"].items():
        how = f"copied from {m['copied_from']} (sha256 {m['sha256'][:12]})" if "copied_from" in m else "trained"
        print(f"member:     {name}: {how}, documents {m.get('documents')}  features: {m.get('features')}  "
              f"iterations: {m.get('iterations')}")
    r = s["router"]
    print(f"router:     notes {', '.join(f'{k} {v}' for k, v in r['notes'].items())}; weights: {r['features']}; "
          f"training notes routed as labelled: {', '.join(f'{k} {v}' for k, v in r['routed_as_labelled'].items())}")


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    try:
        overrides = parse_overrides(args.set)
        if args.train:
            overrides["train"] = args.train
        if args.dev:
            overrides["dev"] = args.dev
        cfg = load_config(args.config, overrides)
        require(cfg["model"], args.config)
        options = cli.reader_options(args.reader_option)
    except (CrfdeidError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    routed = cfg["model"] == "routed"  # its members' configs name their notes
    if not cfg["train"] and not routed:
        print("error: no training input (set `train` in the config or pass --train)", file=sys.stderr)
        return 2
    progress = not args.quiet
    cli.start_log(args)
    t0 = time.perf_counter()
    declared = cfg["scheme"]
    try:
        docs = None if routed else read_corpus(cfg["train"], declared, **options)[0]
        model = train_model(docs, cfg, progress=progress)
        model.save(args.output)
        step("train: model saved")
    except CrfdeidError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    s = model.stats
    print(f"model:      {args.output}")
    if routed:
        _routed_summary(s)
    else:
        print(f"documents:  {s['documents']}  tokens: {s['tokens']}  segments: {s['segments']}  "
              f"spans: {s['spans']}")
    if routed:
        print(f"time:       {time.perf_counter() - t0:.1f}s")
    elif "parameters" in s:  # a network (crfdeid.neural)
        print(f"network:    {cfg['model']}  parameters: {s['parameters']}  words: {s['words']}")
        print(f"epochs:     {s['epochs']}  time: {time.perf_counter() - t0:.1f}s "
              f"(read {s['featurize_seconds']}s, training {s['train_seconds']}s)")
    else:
        print(f"features:   {s['features']}  (active after training: {s['active_features']})")
        print(f"iterations: {s['iterations']}  time: {time.perf_counter() - t0:.1f}s "
              f"(featurize {s['featurize_seconds']}s, CRFsuite {s['train_seconds']}s)")
    if s.get("companion"):  # the companion CRF of the same file (config `companion`)
        c = s["companion"]
        print(f"companion:  documents {c['documents']}  features: {c['features']}  "
              f"iterations: {c['iterations']} (featurize {c['featurize_seconds']}s, CRFsuite {c['train_seconds']}s)")
    prior = model.manifest.get("prior")
    if prior:  # the prior's CRF copied into the file (config `prior`)
        print(f"prior:      {prior['source']} (sha256 {prior['source_sha256'][:12]}), its P(O) weight "
              f"{cfg['prior']['weight']} ({cfg['prior']['vote']} vote)")
    if s.get("problems"):
        print(f"encoding problems (spans not on token edges): {s['problems']}")
    print(f"scheme:     {model.scheme.summary()}")
    if hasattr(model, "resources"):  # a CRF's word lists (a network reads none)
        print(f"resources:  {model.resources.summary()}")
    dev = cfg["dev"]
    if dev:
        try:
            gold = read_labelled(dev if isinstance(dev, list) else [dev], declared, **options)
            (gold, pred), scheme = settle([gold, list(model.tag_many(gold))], declared)
            report = evaluate(gold, pred, scheme=scheme)
        except CrfdeidError as exc:
            print(f"error: dev: {exc}", file=sys.stderr)
            return 1
        for m in ("strict", "token", "binary_token"):
            sc = report.micro[m]
            print(f"dev {m:<13} P={sc.precision:.4f} R={sc.recall:.4f} F1={sc.f1:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
