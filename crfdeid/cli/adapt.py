"""Adapt a model to a site's unlabeled notes (self-training on confident pseudo-labels).

Example::

    python -m crfdeid adapt --model default --unlabeled text:/site/notes --output site.model
    python -m crfdeid tag --model site.model --output-format redacted text:/site/notes

The model's config is trained again on its source documents (the config's ``train``
inputs, or ``--train``) plus the segments of the unlabeled notes the model labels with
confidence (docs/adapt.md). Only the notes' text and patient are read, never annotations
they may carry. The adapted model records what it was adapted on (counts and settings,
never text) in its manifest. Prints counts only. Exit codes: 0 success, 1 unreadable
model or notes, 2 bad arguments.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from .. import cli
from ..crf.adapt import AdaptSettings, adapt
from ..errors import ConfigError, CrfdeidError
from ..io import read
from ..io.labelled import read_corpus
from ..progress import step
from ..routing import RoutedModel
from ..routing.adapt import adapt_routed
from ..tagging.model import TaggingModel


def _parser():
    p = cli.parser("adapt", __doc__,
                   "python -m crfdeid adapt --model default --unlabeled text:/site/notes --output site.model",
                   long="tagging the unlabeled notes, then training the model again on its own training "
                        "notes plus the pseudo-labels: with the shipped model that is 1,500 synthetic notes "
                        "(about 15 minutes for a handful of site notes on one core; --train gives other "
                        "training notes)")
    p.add_argument("--model", default="default", help="model file to adapt (default: the shipped model)")
    p.add_argument("--unlabeled", action="append", required=True, metavar="FORMAT:PATH",
                   help="the site's notes (repeatable); their text only is read")
    p.add_argument("--train", action="append", metavar="FORMAT:PATH",
                   help="the annotated source documents, replacing the model config's train list")
    p.add_argument("--output", required=True, help="adapted model file to write")
    p.add_argument("--o-min", type=float, default=0.995,
                   help="an O token is a pseudo-label when P(O) >= this (default 0.995)")
    p.add_argument("--phi-min", type=float, default=0.9,
                   help="a PHI token is a pseudo-label when 1 - P(O) >= this (default 0.9)")
    p.add_argument("--no-consistency", action="store_true",
                   help="do not label a patient's words that are confident names/places in the patient's other notes")
    p.add_argument("--max-notes", type=int, default=5000,
                   help="adapt on a seeded sample of at most this many notes (default 5000)")
    p.add_argument("--seed", type=int, help="seed of that sample (default: the model config's seed, "
                                            "which the retraining uses too)")
    cli.add_reader_options(p, inputs="the unlabeled and training inputs")
    cli.add_overwrite(p)
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    return p


def main(argv=None) -> int:
    args = _parser().parse_args(argv)

    try:
        settings = AdaptSettings(o_min=args.o_min, phi_min=args.phi_min, consistency=not args.no_consistency,
                                 max_notes=args.max_notes, seed=args.seed)
        options = cli.reader_options(args.reader_option)
    except CrfdeidError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    out = Path(args.output)
    if out.exists() and not args.overwrite:
        print(f"error: {out} exists (pass --overwrite to replace it)", file=sys.stderr)
        return 2
    if out.exists() and str(args.model) != "default" and out.resolve() == Path(args.model).resolve():
        print("error: --output is the model to adapt; write the adapted model to another file", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    cli.start_log(args)
    try:
        model = TaggingModel.load(args.model)
        if isinstance(model, RoutedModel) and args.train:
            raise ConfigError("adapt: a routed model's members train on their own configs' notes; give no --train")
        source = None
        if args.train:
            source, _ = read_corpus(args.train, model.config["scheme"], **options)
        notes = (d for spec in args.unlabeled for d in read(spec, **options))
        adapted: TaggingModel
        if isinstance(model, RoutedModel):  # each member on the notes routed to it
            adapted = adapt_routed(model, notes, settings, progress=not args.quiet)
        else:
            adapted = adapt(model, notes, source, settings, progress=not args.quiet)
        adapted.save(out)
        step("adapt: model saved")
    except CrfdeidError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"model:      {out} (adapted from {args.model})")
    if isinstance(adapted, RoutedModel):
        for name in adapted.members:
            entry = adapted.manifest["adapted"].get(name)
            print(f"member:     {name}: " + ("adapted" if entry else "kept (no unlabeled note routed to it)"))
            if entry:
                _summary(entry)
    else:
        _summary(adapted.manifest["adapted"])
    print(f"time:       {time.perf_counter() - t0:.1f}s")
    return 0


def _summary(a: dict) -> None:
    """What one CRF's adaptation says (counts only)."""
    n = a["unlabeled"]
    spans = ", ".join(f"{k} {v}" for k, v in sorted(a["pseudo_spans"].items(), key=lambda kv: -kv[1]))
    print(f"unlabeled:  {n.get('notes', 0)} notes, {n.get('tokens', 0)} tokens; kept {n.get('segments_kept', 0)} "
          f"of {n.get('segments', 0)} segments ({n.get('tokens_kept', 0)} tokens) from {n.get('notes_used', 0)} notes")
    print(f"pseudo PHI: {sum(a['pseudo_spans'].values())} spans ({spans or 'none'}); "
          f"{n.get('consistency_tokens', 0)} tokens labelled by patient consistency")
    print(f"source:     {a['source_documents']} documents")


if __name__ == "__main__":
    sys.exit(main())
