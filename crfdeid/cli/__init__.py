"""The command line: ``python -m crfdeid <command>`` (or ``crfdeid <command>``).

Each command is a module with ``main(argv=None) -> int``; :data:`COMMANDS` maps
command names to them, so ``crfdeid --help`` lists them and a command's module is
imported only when it runs. This module also holds what the commands share: the
parser and argument types.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import io
import os
import sys
import warnings

from .. import progress
from .._data import install_hint
from ..errors import CrfdeidError, CrfdeidWarning, OutputError
from ..tagging.workers import bound_jobs
from ..version import __version__

# The CRF's P(O) marginals multiply small matrices (segments x labels by labels x labels):
# OpenBLAS starts a thread per core for them, which buys no wall time in one process and
# oversubscribes the cores with --jobs N or Spark workers (docs/performance.md). The commands
# run it single-threaded unless the user chose; only possible before numpy is imported.
if "numpy" not in sys.modules:
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

_FORMAT_WARNING = warnings.formatwarning


def _format_warning(message, category, filename, lineno, line=None) -> str:
    """crfdeid's own warnings as ``warning: MESSAGE`` (no source line: they are for users)."""
    if issubclass(category, CrfdeidWarning):
        return f"warning: {message}\n"
    return _FORMAT_WARNING(message, category, filename, lineno, line)


warnings.formatwarning = _format_warning

#: Set when :func:`main` reads its arguments from the command line (:func:`owns_process`).
_program = False

#: Command name -> (module with ``main``, one-line summary). Modules are imported on use.
COMMANDS = {
    "demo": ("crfdeid.cli.demo", "write a few made-up notes to try crfdeid on"),
    "tag": ("crfdeid.cli.tag", "tag notes: annotations, redacted, masked or surrogate text"),
    "train": ("crfdeid.cli.train", "train a model from a YAML config"),
    "adapt": ("crfdeid.cli.adapt", "adapt a model to a site's unlabeled notes (self-training)"),
    "evaluate": ("crfdeid.cli.evaluate", "score predictions as the official i2b2 2014 script does"),
    "corpus": ("crfdeid.cli.corpus", "corpus statistics, format conversion, surrogate corpora"),
    "key": ("crfdeid.cli.key", "make a secret key for surrogates or the privacy officer (key new FILE)"),
    "synth": ("crfdeid.cli.synth", "write a synthetic annotated corpus"),
    "crossval": ("crfdeid.cli.crossval", "patient-grouped cross-validation of a config"),
    "curve": ("crfdeid.cli.curve", "learning curve over shares of the training patients"),
    "ablate": ("crfdeid.cli.ablate", "a base config plus named overrides, each cross-validated"),
    "locked": ("crfdeid.cli.locked", "score the locked test once (train on the other patients)"),
    "figures": ("crfdeid.cli.figures", "the README's accuracy figures: dev CV, locked test, zero-shot"),
    "bench": ("crfdeid.cli.bench", "speed and memory of training and tagging"),
    "experiments": ("crfdeid.cli.experiments", "zero-shot, made-up notes, site mining, Safe Harbor layer, dev CV"),
    "pipeline": ("crfdeid.cli.pipeline", "train on your annotated corpus, tag its test part, score it"),
    "spark": ("crfdeid.cli.spark", "de-identify Parquet or JSON Lines notes with Spark (extra [spark])"),
    "serve": ("crfdeid.cli.serve", "HTTP service: POST /v1/deidentify (extra [serve])"),
    "review": ("crfdeid.cli.review", "review and adjudicate PHI in the browser (extra [review])"),
    "audit": ("crfdeid.cli.audit", "before a release: plan, sample, review and report its leak rate with a bound"),
}


def main(argv=None) -> int:
    """Run ``python -m crfdeid <command> [args]``; return the exit code.

    >>> main(["--help"])  # doctest: +ELLIPSIS
    usage: python -m crfdeid <command> [args]
    ...
    0
    """
    global _program
    if argv is None:  # read from the command line: this process is the program
        _program = True
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        width = max(map(len, COMMANDS))
        lines = [f"  {name:<{width}}  {summary}" for name, (_, summary) in COMMANDS.items()]
        print("usage: python -m crfdeid <command> [args]\n\ncommands:\n" + "\n".join(lines)
              + "\n\n`python -m crfdeid <command> --help` shows a command's options and an example.")
        return 0 if argv else 2
    if argv[0] in ("-V", "--version"):
        print(f"crfdeid {__version__}")
        return 0
    if argv[0] not in COMMANDS:
        print(f"crfdeid: unknown command {argv[0]!r}; known: {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[argv[0]][0])
    if not _program:
        return module.main(argv[1:])
    return run_program(module.main, argv[1:])


#: Errors of a write that mean the output could not be made: a full disk or standard output, a
#: closed pipe, a device error, a file too large.
_WRITE_ERRNOS = frozenset({errno.ENOSPC, errno.EPIPE, errno.EIO, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)})


def run_program(command_main, argv) -> int:
    """``command_main(argv)`` as the program, every fault one line on standard error with an exit
    code, never a traceback (tests/test_io_bad_input.py, tests/test_faults.py):

    - a write that fails (standard output full or closed, a full disk) or a ``--log`` file that
      cannot be written: exit 3; what standard output still buffers is dropped, not written
      again at exit;
    - Ctrl-C (``SIGINT``): exit 130; the files written are whole (each is written to a
      temporary file and renamed), the temporary files are removed;
    - any other refusal of the system (a path too long, no permission): exit 2, naming it.
    """
    closed = guard_stdio()
    try:
        code = command_main(argv)
    except CrfdeidError as exc:  # a command that let one through: named, never a traceback
        _drop_stdout()
        print(f"error: {exc}", file=sys.stderr)
        return 3 if isinstance(exc, OutputError) else 2
    except KeyboardInterrupt:
        _drop_stdout()
        print("error: interrupted (Ctrl-C): the run stopped; the output files written are complete (a run "
              "manifest stays marked incomplete), the notes not yet written have no output", file=sys.stderr)
        return 130
    except OSError as exc:
        _drop_stdout()
        if exc.errno == errno.EBADF and closed:
            print("error: cannot write the output: standard output is closed (give --output-dir, or "
                  "redirect it to a file)", file=sys.stderr)
            return 3
        if exc.errno in _WRITE_ERRNOS:
            print(f"error: cannot write the output ({exc.strerror or exc}); what was written is incomplete",
                  file=sys.stderr)
            return 3
        print(f"error: {_os_error(exc)}", file=sys.stderr)
        return 2
    if progress.log_failed() and code == 0:  # the run's output is whole; the log asked for is not
        print(f"error: {progress.log_failed()}; the output is complete", file=sys.stderr)
        return 3
    return code


def _os_error(exc: OSError) -> str:
    """An error of the system named: its reason, its code and the file (a long path cut short).

    >>> _os_error(OSError(36, "File name too long", "d" * 5000))  # doctest: +ELLIPSIS
    "File name too long (ENAMETOOLONG): 'ddd...' (a path of 5,000 characters; at most 4,096, 255 a name)"
    """
    name = errno.errorcode.get(exc.errno or 0, "")
    where = ""
    if exc.filename is not None:
        path = os.fsdecode(exc.filename) if isinstance(exc.filename, bytes) else str(exc.filename)
        where = f": {path!r}" if len(path) <= 200 else (f": '{path[:40]}...' (a path of {len(path):,} characters; "
                                                         "at most 4,096, 255 a name)")
    return f"{exc.strerror or type(exc).__name__}{f' ({name})' if name else ''}{where}"


class _Closed(io.BufferedIOBase):
    """Standard output when the program started with it closed (``>&-``): a write fails by name."""

    def writable(self) -> bool:
        return True

    def write(self, data):
        raise OSError(errno.EBADF, "standard output is closed")


def guard_stdio() -> bool:
    """Put the null device on a standard descriptor (0, 1, 2) that is closed, so that no file the
    run opens takes its number (a note written where stray output goes); standard output then
    fails each write by name. True when standard output was closed."""
    closed = False
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            try:
                null = os.open(os.devnull, os.O_RDWR)
                if null != fd:
                    os.dup2(null, fd)
                    os.close(null)
            except OSError:
                pass
            closed = closed or fd == 1
    if closed or sys.stdout is None:
        sys.stdout = io.TextIOWrapper(_Closed(), encoding="utf-8", write_through=True)
        return True
    return False


def _drop_stdout() -> None:
    """Point standard output at the null device, so that the interpreter's last flush does not fail again."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass


def owns_process(argv) -> bool:
    """Whether a command's ``main(argv)`` runs as the program (``python -m crfdeid ...``, the
    console script), so that it may change what belongs to the whole process, such as the
    collector's frozen objects; called with its arguments from Python, it runs in a caller's
    process and leaves that as it found it.

    The program is a command's ``main`` reading ``sys.argv`` (``argv`` is ``None``), or any
    command after :func:`main` read it.

    >>> owns_process(["--quiet", "notes/"])
    False
    """
    return argv is None or _program


def missing_extra(extra: str, *modules: str) -> str | None:
    """A message naming the extra to install if one of ``modules`` is not installed, else ``None``.

    Commands call it before any long work, so that a run never fails at its end.

    >>> missing_extra("plot", "json") is None
    True
    >>> missing_extra("plot", "no_such_module_xyz")  # doctest: +ELLIPSIS
    "needs the optional package 'no_such_module_xyz': pip install ...[plot]'"
    """
    import importlib.util
    for name in modules:
        if importlib.util.find_spec(name) is None:
            return f"needs the optional package {name!r}: {install_hint(extra)}"
    return None


class Parser(argparse.ArgumentParser):
    """An argument parser that takes options only as written in full, and makes its subcommands
    the same way: with abbreviations, ``tag --input notes.txt`` was read as ``--input-format
    notes.txt`` and the run tagged standard input (nothing) instead of the file.

    >>> Parser(prog="x").allow_abbrev
    False
    """

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(**kwargs)


def parser(command: str, doc: str, *examples: str, long: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of ``python -m crfdeid <command>``: the first line of ``doc`` (the
    module's docstring) as its description, the example command(s) as its epilog; ``long``
    (what takes long) adds ``--log FILE`` and says it under the examples (:func:`start_log`).

    >>> p = parser("tag", "Tag notes.\\n\\nMore.", "python -m crfdeid tag notes/")
    >>> p.prog, p.description
    ('python -m crfdeid tag', 'Tag notes.')
    >>> print(p.epilog)
    example:
      python -m crfdeid tag notes/
    >>> print(parser("key new", "X.", "a", "b").epilog)
    examples:
      a
      b
    """
    if command.split()[0] not in COMMANDS:  # the usage line is what users type
        raise ValueError(f"{command!r} is not a command of python -m crfdeid")
    label = "example" if len(examples) == 1 else "examples"
    epilog = "\n  ".join([f"{label}:", *examples])
    if long:
        epilog += ("\n\ntakes long: " + long + "\nProgress: a bar on a terminal (none with --quiet or when "
                   "standard error is not a terminal); --log FILE writes a line per step (counts and "
                   "times, never note text).")
    p = Parser(
        prog=f"python -m crfdeid {command}", description=doc.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=epilog)
    if long:
        p.add_argument("--log", metavar="FILE",
                       help="append a line per step to FILE (time stamp, step, counts; never note text)")
    return p


def start_log(args) -> None:
    """Start (or stop) writing the step lines to the file ``--log`` names."""
    progress.log_to(getattr(args, "log", None))


def cap_jobs(args) -> None:
    """Clamp ``--jobs`` (processes that each train a model), where the command has it, to the cores this
    process may use (:func:`crfdeid.tagging.workers.bound_jobs`, which warns when it lowers it)."""
    if getattr(args, "jobs", None):
        args.jobs = bound_jobs(args.jobs)


def parse_thresholds(text: str | None) -> tuple[float | None, ...]:
    """``"0.5,0.7"`` -> ``(0.5, 0.7)``; each in (0, 1], or ``none`` for plain Viterbi.

    >>> parse_thresholds("none,0.9")
    (None, 0.9)
    """
    if not text:
        return ()
    try:
        values = tuple(None if x.strip().lower() == "none" else float(x)
                       for x in text.split(",") if x.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"thresholds must be numbers like 0.5,0.7: {text!r}") from None
    if any(v is not None and not 0 < v <= 1 for v in values):
        raise argparse.ArgumentTypeError(f"thresholds must lie in (0, 1]: {text!r}")
    return values


def port_number(text: str) -> int:
    """``--port``: a TCP port, 0 to 65535 (0: any free port).

    >>> port_number("8000")
    8000
    """
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535, not {text!r}")
    return value


def one_fraction(text: str) -> float:
    """``"0.5"`` -> ``0.5``: one training share in (0, 1]."""
    values = parse_fractions(text)
    if len(values) != 1:
        raise argparse.ArgumentTypeError(f"one training share in (0, 1] is needed, got {text!r}")
    return values[0]


def _unit_values(text: str, what: str, low_open: bool = True) -> tuple[float, ...]:
    try:
        values = tuple(float(x) for x in text.split(",") if x.strip())
    except ValueError:
        values = ()
    if not values or any(not (0 < v <= 1 if low_open else 0 <= v <= 1) for v in values):
        raise argparse.ArgumentTypeError(f"{what} must be comma-separated numbers in "
                                         f"{'(0, 1]' if low_open else '[0, 1]'}, got {text!r}")
    return values


def parse_fractions(text: str) -> tuple[float, ...]:
    """``"0.25,0.5,1"`` -> ``(0.25, 0.5, 1.0)``: training shares in (0, 1]."""
    return _unit_values(text, "training shares")


def parse_floors(text: str) -> tuple[float, ...]:
    """``"0.95,0.9"`` -> ``(0.95, 0.9)``: precision floors in [0, 1]."""
    return _unit_values(text, "precision floors", low_open=False)


def add_overwrite(p: argparse.ArgumentParser) -> None:
    """``--overwrite``: replace output files that exist before the run."""
    p.add_argument("--overwrite", action="store_true",
                   help="replace output files that exist before this run (never files of this "
                        "run, never an input)")


def reader_options(pairs, flag: str = "--reader-option") -> dict:
    """``["label_map=map.yaml", "check_text=false"]`` -> ``{"label_map": "map.yaml", "check_text": False}``
    (values read as YAML; an empty value is the empty string).

    >>> reader_options(["check_text=false", "label_map=m.yaml"])
    {'check_text': False, 'label_map': 'm.yaml'}
    """
    if not pairs:
        return {}  # without importing yaml: 0.01 CPU-s of every start-up of `tag` (issue 53)
    import yaml

    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.isidentifier():
            raise CrfdeidError(f"{flag} wants KEY=VALUE, got {pair!r}")
        out[key] = yaml.safe_load(value) if value else ""
    return out


def add_reader_options(p: argparse.ArgumentParser, *flags: str, dest: str = "reader_option",
                       inputs: str = "every input") -> None:
    """``--reader-option KEY=VALUE`` (repeatable): an option of the reader of ``inputs``
    (:func:`reader_options` parses them; an option the reader does not take is an error
    listing those it takes)."""
    p.add_argument(*(flags or ("--reader-option",)), dest=dest, action="append", default=[],
                   metavar="KEY=VALUE",
                   help=f"reader option for {inputs}, e.g. label_map=map.yaml, check_text=false, "
                        "scheme=any (labels as written) (repeatable)")
    if not flags or "--reader-option" in flags:
        p.add_argument("--encoding", dest=dest, action=_EncodingOption, metavar="NAME",
                       help=f"encoding of {inputs} without a byte-order mark (default utf-8; e.g. cp1252 "
                            "for Windows-1252); files marked UTF-8, UTF-16 or UTF-32 are read as marked "
                            "(the reader option encoding=NAME)")


class _EncodingOption(argparse.Action):
    """``--encoding NAME``: the reader option ``encoding=NAME``, beside the ``--reader-option`` ones."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, [*(getattr(namespace, self.dest) or []), f"encoding={values}"])
