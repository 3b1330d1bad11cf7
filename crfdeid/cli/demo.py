"""Write a few made-up clinical notes to try crfdeid on (no real patient: invented names, dates, places).

Example::

    python -m crfdeid demo notes/
    python -m crfdeid tag notes/ --output-format redacted

The notes are nursing-style notes of two made-up patients (``p1_*``, ``p2_*``), shipped in
the package (``crfdeid/_data/samples``). A file that exists is never replaced without
``--overwrite``. Exit codes: 0 written, 2 a file exists or the folder cannot be written.
"""

from __future__ import annotations

import os
import sys
from importlib import resources
from pathlib import Path

from .. import cli
from ..errors import CrfdeidError, OutputError
from ..io import atomic_write
from ..io.outputs import check_output


def samples() -> dict[str, str]:
    """The shipped made-up notes: file name -> text.

    >>> sorted(samples())
    ['p1_discharge.txt', 'p1_nursing.txt', 'p2_nursing.txt']
    """
    folder = resources.files("crfdeid._data") / "samples"
    return {f.name: f.read_text(encoding="utf-8") for f in sorted(folder.iterdir(), key=lambda f: f.name)
            if f.name.endswith(".txt")}


def _parser():
    p = cli.parser("demo", __doc__, "python -m crfdeid demo notes/",
                   "python -m crfdeid tag notes/ --output-format redacted")
    p.add_argument("folder", nargs="?", default="notes", help="where to write the notes (default: notes)")
    p.add_argument("--quiet", action="store_true", help="no message on standard error")
    cli.add_overwrite(p)
    return p


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    notes = samples()
    folder = Path(args.folder)
    try:
        check_output(folder)
        taken = [name for name in notes if not args.overwrite and os.path.lexists(folder / name)]
        if taken:
            raise OutputError(f"{len(taken)} of the notes exist there ({', '.join(taken)}) and were not "
                              "replaced (to replace them: --overwrite)", path=folder)
        for name, text in notes.items():
            atomic_write(folder / name, text, overwrite=args.overwrite)
    except CrfdeidError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not args.quiet:
        print(f"wrote {len(notes)} made-up notes to {folder}/ ({', '.join(notes)}); next:\n"
              f"  python -m crfdeid tag {folder}/ --output-format redacted", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
