"""``python -m crfdeid review simulate``: replay annotation with the gold standard as the annotator
(:mod:`crfdeid.review.simulate`)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from .._data import install_hint
from ..config import load_config
from ..crf import Model
from ..errors import CrfdeidError
from ..io import atomic_write, read_all
from ..io.splits import read_groups, select_groups
from ..review.active import STRATEGIES
from ..review.simulate import DEFAULT_STRATEGIES, Replay, plot, split_pool, target
from ..review.sitemodel import site_config_path
from .train import parse_overrides


def add_arguments(p) -> None:
    """The ``simulate`` subcommand's arguments."""
    p.add_argument("--config", help="YAML config of the retrained model (default: the site config the review "
                                    "app retrains with, configs/site.yaml: the shipped model as prior)")
    p.add_argument("--corpus", required=True, action="append", metavar="FORMAT:PATH",
                   help="annotated notes (the gold standard plays the annotator; repeatable)")
    p.add_argument("--strategy", action="append", choices=STRATEGIES,
                   help="note ordering(s) to replay (repeatable; default: uncertainty and random)")
    p.add_argument("--batch", type=int, default=50, help="notes annotated between retrainings (50)")
    p.add_argument("--json", required=True, metavar="OUT", help="result file (rewritten every round)")
    p.add_argument("--plot", metavar="PNG", help="both curves in one plot (needs crfdeid[plot])")
    p.add_argument("--exclude-groups", metavar="FILE",
                   help="patients left out entirely (e.g. configs/splits/physionet-locked.txt)")
    p.add_argument("--held-out", type=float, default=0.2,
                   help="share of the remaining patients scored, never annotated (0.2)")
    p.add_argument("--initial-model", metavar="PATH",
                   help="model ranking the first batch (default: the shipped model)")
    p.add_argument("--max-notes", type=int, help="stop after this many annotated notes (default: all)")
    p.add_argument("--save-model", metavar="FILE",
                   help="write the model reached after --max-notes notes to FILE (one strategy); with "
                        "'{notes}' in FILE, every round's model (e.g. site-{notes}.model)")
    p.add_argument("--no-reference", action="store_true",
                   help="skip the model trained on the whole pool (the reference point; no target then)")
    p.add_argument("--seed", type=int, default=13, help="split and random-order seed (13)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="config override, e.g. crf.max_iterations=30")
    p.add_argument("--quiet", action="store_true", help="no progress lines")


def run(args) -> int:
    """Run the ``simulate`` subcommand; returns the exit code."""
    if args.plot:
        try:
            import matplotlib  # noqa: F401
        except ModuleNotFoundError:
            print(f"error: --plot needs matplotlib: {install_hint('plot')}", file=sys.stderr)
            return 2
    if args.batch < 1:
        print("error: --batch must be at least 1", file=sys.stderr)
        return 2
    strategies = tuple(dict.fromkeys(args.strategy or DEFAULT_STRATEGIES))
    if args.save_model and len(strategies) != 1:
        print("error: --save-model writes one strategy's models: give one --strategy", file=sys.stderr)
        return 2
    log = (lambda msg: None) if args.quiet else (lambda msg: print(msg, file=sys.stderr, flush=True))
    try:
        cfg = load_config(args.config or site_config_path(), parse_overrides(args.set))
        docs = read_all(args.corpus)
        excluded = read_groups(args.exclude_groups) if args.exclude_groups else frozenset()
        kept = select_groups(docs, excluded, keep=False)
        pool, held = split_pool(kept, args.held_out, args.seed)
        initial = Model.load(args.initial_model)
    except (CrfdeidError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    result = {
        "command": "python -m crfdeid review simulate " + " ".join(
            sys.argv[sys.argv.index("simulate") + 1:] if "simulate" in sys.argv else []),
        "date": time.strftime("%Y-%m-%d"),
        "corpus_name": ", ".join(s.split(":", 1)[0] for s in args.corpus),
        "config": str(args.config or "configs/site.yaml"), "overrides": list(args.set), "batch": args.batch,
        "seed": args.seed,
        "decoding": cfg["decoding"], "rules": cfg["rules"]["enabled"],
        "excluded_patients": len({d.group for d in docs if d.group in excluded}),
        "excluded_notes": len(docs) - len(kept),
        "pool": {"patients": len({d.group for d in pool}), "notes": len(pool)},
        "held_out": {"patients": len({d.group for d in held}), "notes": len(held)},
        "initial_model": str(args.initial_model or "shipped default model"),
        "metric": "binary token, micro, held-out patients, configured decoding",
        "all": None, "strategies": {s: [] for s in strategies},
    }
    log(f"pool {result['pool']}, held out {result['held_out']}, excluded {result['excluded_notes']} notes")
    replay = Replay(pool, held, cfg, args.batch, initial, args.seed, args.max_notes, log,
                    save=_model_saver(args.save_model, replay_end(len(pool), args.max_notes), log)
                    if args.save_model else None)
    save = _saver(result, args.json)
    if not args.no_reference:
        result["all"] = replay.reference()
        save()
    for s in strategies:
        result["strategies"][s] = replay.run(s, lambda pts, s=s: (result["strategies"].__setitem__(s, pts), save()))
    result["target"] = target(result)
    save()
    if args.plot:
        plot(result, args.plot)
    log(f"target: {json.dumps(result['target'])}")
    return 0


def replay_end(pool: int, max_notes: int | None) -> int:
    """How many notes the replay annotates in all."""
    return min(max_notes or pool, pool)


def _model_saver(pattern: str, last: int, log):
    """Saves each round's model to ``pattern`` with ``{notes}`` filled in, else the last round's."""
    every = "{notes}" in pattern

    def save(model, notes: int) -> None:
        if every or notes == last:
            path = Path(pattern.replace("{notes}", str(notes)))
            model.save(path)
            log(f"model after {notes} notes written")
    return save


def _saver(result: dict, path):
    def save():
        atomic_write(Path(path), json.dumps(result, indent=1) + "\n")
    return save

