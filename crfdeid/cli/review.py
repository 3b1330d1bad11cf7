"""Clinician review and adjudication of PHI in the browser, with active learning.

Subcommands: ``init`` a project folder, ``import`` notes (pre-annotated by a model),
``serve`` the page, ``export`` through any writer, ``stats`` (progress and annotator
scores), ``retrain`` (what the server starts in the background), ``sign`` (a reviewer signs
their reviews with their own key), ``simulate`` (the active-learning replay). Exit codes: 0
success, 1 some notes failed, 2 usage, configuration or missing extra.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from .. import cli
from .._data import install_hint
from ..config import load_config
from ..deid.signing import load_private
from ..errors import CrfdeidError
from ..io import write
from ..review import agreement, receipts, simulate
from ..review.credentials import Credentials, set_token
from ..review.guard import LOOPBACK
from ..review.project import Project, export_docs, import_notes
from ..review.retrain import estimated_recall, main_retrain
from ..review.store import Invalid, check_name
from . import review_simulate

TOKEN_ENV = "CRFDEID_REVIEW_TOKEN"


def _project_args(p, db: bool = True) -> None:
    p.add_argument("project", help="project folder")
    if db:
        p.add_argument("--db", metavar="URL",
                       help="PostgreSQL URL of the store (or $CRFDEID_REVIEW_DB; default: SQLite in the folder)")


def build_parser() -> argparse.ArgumentParser:
    p = cli.parser("review", __doc__,
                   "python -m crfdeid review init review-project",
                   "python -m crfdeid review import review-project i2b2:notes/",
                   "python -m crfdeid review serve review-project",
                   "python -m crfdeid review export review-project --to i2b2 --out reviewed/")
    sub = p.add_subparsers(dest="command", required=True)
    q = sub.add_parser("init", help="create a project folder")
    _project_args(q)
    q.add_argument("--config", help="YAML config models are retrained with (default: the model's own)")
    q.add_argument("--model", help="model that pre-annotates the notes (default: the shipped one)")
    q.add_argument("--per-note", type=int, default=1, help="people who review each note (aggregate mode: 2+)")
    q.add_argument("--retrain-every", type=int, default=10,
                   help="retrain after this many newly reviewed notes (0: only on request)")
    q.add_argument("--strategy", default="uncertainty",
                   choices=("uncertainty", "least-confident", "expected-phi", "random"), help="queue order")
    q.add_argument("--no-propagate", action="store_true",
                   help="surrogate review: do not add unannotated repeats of PHI strings")
    q.add_argument("--surrogate-editors", type=_names, metavar="NAME,...",
                   help="the only people who may edit or approve surrogates (default: adjudicators, "
                        "with personal tokens)")
    q = sub.add_parser("import", help="read notes into the project and pre-annotate them")
    _project_args(q)
    q.add_argument("input", metavar="FORMAT:PATH", nargs="+", help="notes to import (any reader)")
    q.add_argument("--annotations-as", default="imported", metavar="NAME",
                   help="annotator name the input's own spans are kept under ('none': not kept)")
    q = sub.add_parser("serve", help="serve the review page")
    _project_args(q)
    q.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    q.add_argument("--port", type=cli.port_number, default=8765, help="port (default 8765)")
    q.add_argument("--token-file", help=f"file of per-annotator tokens ('NAME TOKEN' lines, made by `review "
                                        f"token`) or one shared token (or ${TOKEN_ENV}); required when "
                                        "listening beyond 127.0.0.1; read again when it changes")
    q.add_argument("--certfile", help="serve HTTPS with this certificate (PEM); needed beyond 127.0.0.1 "
                                      "unless a TLS proxy stands in front")
    q.add_argument("--keyfile", help="the certificate's private key (PEM), if not in --certfile")
    q.add_argument("--retrain-every", type=int, help="override the project's retraining interval")
    q = sub.add_parser("token", help="give an annotator a personal access token (printed once)")
    q.add_argument("name", help="annotator name")
    q.add_argument("--token-file", required=True, help="per-annotator token file (created owner-only)")
    q.add_argument("--rotate", action="store_true", help="replace the annotator's token (ends their sessions)")
    q.add_argument("--role", choices=("annotator", "adjudicator"),
                   help="annotator (default: reviews notes) or adjudicator (also settles the notes others "
                        "reviewed, in aggregate mode); kept on --rotate unless given")
    q = sub.add_parser("export", help="write annotations (or the re-identified corpus) through a writer")
    _project_args(q)
    q.add_argument("--to", required=True, metavar="FORMAT", help="writer, e.g. i2b2, brat, jsonl, surrogate")
    q.add_argument("--out", required=True, help="output folder or file")
    q.add_argument("--source", default="final",
                   help="final (default), consensus, reidentified, model or an annotator's name")
    q.add_argument("--conflicts", choices=("refuse", "union"), default="refuse",
                   help="notes whose reviewers disagree and that no one adjudicated: left out and named "
                        "(refuse, the default; exit 1), or written as the union of the reviewers' spans")
    q.add_argument("--include-unreviewed", action="store_true",
                   help="also write unreviewed notes (with the model's suggestions)")
    q = sub.add_parser("stats", help="progress, estimated recall and annotator scores as JSON")
    _project_args(q)
    q.add_argument("--plot", metavar="PNG", help="annotators against the consensus (needs crfdeid[plot])")
    q = sub.add_parser("retrain", help="retrain from the reviewed notes now (the server runs this)")
    _project_args(q)
    q = sub.add_parser("sign", help="sign your reviews with your own private key (an audit counts only signed "
                                    "reviews of reviewers its plan names)")
    _project_args(q)
    q.add_argument("--name", required=True, help="your name in the project")
    q.add_argument("--key", required=True, metavar="FILE", help="your private key (`key new FILE --for reviewer`)")
    review_simulate.add_arguments(sub.add_parser(
        "simulate", help="replay annotation with a gold standard (active learning curves)",
        description=simulate.__doc__.split("\n")[0]))
    return p


def _need_extra(command: str) -> bool:
    if command != "serve":
        return True
    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
    except ModuleNotFoundError:
        print(f"error: `review serve` needs the review extra: {install_hint('review')}", file=sys.stderr)
        return False
    return True


def read_credentials(args) -> Credentials | None:
    """The page's tokens: ``--token-file`` (per-annotator lines or one shared token, read again
    when it changes, through :func:`~crfdeid.deid.key.read_secret`: a warning when others may read
    it) or ``$CRFDEID_REVIEW_TOKEN`` (one shared token; never a command-line value)."""
    if args.token_file:
        return Credentials.from_file(args.token_file)
    token = os.environ.get(TOKEN_ENV)
    return Credentials.shared(token) if token else None


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    if not _need_extra(args.command):
        return 2
    old = os.umask(0o077)  # every file and folder this command makes is owner-only
    try:
        if args.command == "simulate":
            return review_simulate.run(args)
        return COMMANDS[args.command](args)
    except CrfdeidError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        os.umask(old)  # a caller in the same process keeps its own


def _init(args) -> int:
    config = None
    if args.config:
        config = load_config(args.config)
    from pathlib import Path
    model = str(Path(args.model).resolve()) if args.model else None  # serve may run elsewhere
    project = Project.create(args.project, args.db, config=config, model=model, per_note=args.per_note,
                             retrain_every=args.retrain_every, strategy=args.strategy,
                             propagate=not args.no_propagate, surrogate_editors=args.surrogate_editors)
    project.close()
    print(f"project: {args.project} ({'PostgreSQL' if args.db else 'SQLite'} store)"
          + (f"; surrogate editors: {', '.join(args.surrogate_editors)}" if args.surrogate_editors else ""))
    return 0


def _names(value: str) -> list[str]:
    """``--surrogate-editors``: annotator names, comma-separated, each once."""
    try:
        names = [check_name(n) for n in value.split(",") if n.strip()]
    except Invalid as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    if not names:
        raise argparse.ArgumentTypeError("no name given")
    return list(dict.fromkeys(names))


def _import(args) -> int:
    project = Project.open(args.project, args.db)
    try:
        errors: list = []
        model = project.load_model()
        total = {"notes": 0, "suggested": 0, "failed": 0, "spans_not_kept": 0}
        keep = None if args.annotations_as.lower() == "none" else args.annotations_as
        for spec in args.input:
            got = import_notes(project, spec, model, keep, errors)
            total = {k: total[k] + got[k] for k in total}
    finally:
        project.close()
    for err in errors:
        print(f"failed: {err}", file=sys.stderr)
    print(json.dumps(total))
    return 1 if errors else 0


def _serve(args) -> int:
    from ..review.server import serve  # FastAPI, uvicorn: the optional extra [review], checked first
    creds = read_credentials(args)
    local = args.host in LOOPBACK
    if not local and creds is None:
        print(f"error: listening on {args.host} needs an access token: --token-file FILE or ${TOKEN_ENV}",
              file=sys.stderr)
        return 2
    if args.keyfile and not args.certfile:
        print("error: --keyfile goes with --certfile", file=sys.stderr)
        return 2
    if not local and not args.certfile:
        print(f"warning: {args.host} is served over plain HTTP: tokens and notes cross the network unencrypted "
              "unless a TLS proxy stands in front (--certfile/--keyfile serve HTTPS)", file=sys.stderr)
    if not local and creds is not None and not creds.per_annotator:
        print("warning: one shared token lets anyone who has it act as any annotator; give each person their "
              "own (python -m crfdeid review token NAME --token-file FILE)", file=sys.stderr)
    project = Project.open(args.project, args.db)
    scheme = "https" if args.certfile else "http"
    print(f"review page: {scheme}://{args.host}:{args.port}/", file=sys.stderr, flush=True)
    try:
        serve(project, args.host, args.port, None, args.db, args.retrain_every, credentials=creds,
              certfile=args.certfile, keyfile=args.keyfile)
    finally:
        project.close()
    return 0


def _token(args) -> int:
    token = set_token(args.token_file, args.name, args.rotate, args.role)
    print(token)  # the person's token, shown this once; the file keeps it for the server
    print(f"{'new token' if args.rotate else 'token'} for {args.name} in {args.token_file}", file=sys.stderr)
    return 0


def _export(args) -> int:
    project = Project.open(args.project, args.db)
    try:
        docs, skipped = export_docs(project, args.source, args.include_unreviewed, args.conflicts)
        conflicts = [project.store.note(n)["doc_id"] for n in agreement.conflicts(project.store)] \
            if args.source == "final" else []
    finally:
        project.close()
    if not docs:  # nothing to write: say why by name, and write no empty folder or file
        summary: dict = {"written": 0, "skipped_unreviewed": skipped, "source": args.source}
        if conflicts:
            summary["conflicts"] = {"policy": args.conflicts, "documents": conflicts}
        print(json.dumps(summary))
        if skipped:
            print(f"error: none of the {skipped} note(s) of review project {args.project!r} is reviewed yet "
                  f"(source {args.source}): nothing written to {args.out!r}; review them first (python -m "
                  f"crfdeid review serve {args.project}), or --include-unreviewed to write the model's suggestions",
                  file=sys.stderr)
        if conflicts and args.conflicts == "refuse":
            print(_CONFLICTS.format(n=len(conflicts)), file=sys.stderr)
        if not skipped and not conflicts:
            print(f"error: review project {args.project!r} holds no note to export (source {args.source}): "
                  f"nothing written to {args.out!r}", file=sys.stderr)
        return 1
    n = write(docs, args.to, args.out)
    summary = {"written": n, "skipped_unreviewed": skipped, "source": args.source}
    if conflicts:
        summary["conflicts"] = {"policy": args.conflicts, "documents": conflicts}
    print(json.dumps(summary))
    if conflicts and args.conflicts == "refuse":
        print(_CONFLICTS.format(n=len(conflicts)), file=sys.stderr)
        return 1
    return 0


_CONFLICTS = ("error: {n} note(s) whose reviewers disagree were not exported: adjudicate them (aggregate mode) "
              "or export with --conflicts union")


def _stats(args) -> int:
    project = Project.open(args.project, args.db)
    try:
        table = agreement.scores(project.store)
        conflicts = [project.store.note(n)["doc_id"] for n in agreement.conflicts(project.store)]
        out = {**project.store.progress(), "conflicts": conflicts,
               "estimated_recall": estimated_recall(project.store),
               "model_version": project.model_version(), "scores": table}
    finally:
        project.close()
    if args.plot:
        agreement.plot(table, args.plot)
    print(json.dumps(out, indent=1))
    return 0


def _retrain(args) -> int:
    return main_retrain(args.project, args.db)


def _sign(args) -> int:
    key = load_private(args.key)
    project = Project.open(args.project, args.db)
    try:
        signed = receipts.sign(project.store, check_name(args.name), key)
    finally:
        project.close()
    print(json.dumps({"signed": signed["who"], "events": signed["events"], "digest": signed["digest"]}))
    return 0


COMMANDS = {"init": _init, "import": _import, "serve": _serve, "token": _token, "export": _export,
            "stats": _stats, "retrain": _retrain, "sign": _sign}


if __name__ == "__main__":
    sys.exit(main())
