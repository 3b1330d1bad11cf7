"""Which files of the package one note's tagging and redaction runs code in (docs/architecture.md).

    python bench/trace_note.py NOTE.txt [--model PATH]

The model is loaded and a warm-up note tagged first (caches filled, untraced); then
``sys.setprofile`` records the files whose functions are called while ``Model.tag_each``
and the ``redacted`` writer handle NOTE, and how often the running code moves from one
file to another. Prints counts and file names only, never the note.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import crfdeid  # noqa: E402
from crfdeid.document import Document  # noqa: E402
from crfdeid.io import open_writer  # noqa: E402


def trace(model, text: str) -> tuple[dict, int]:
    """``({file: calls}, switches)`` for one note tagged by ``model`` and written redacted."""
    package = os.path.dirname(crfdeid.__file__)
    files: dict[str, int] = {}
    state = {"last": None, "switches": 0}

    def profile(frame, event, arg):
        if event != "call" or not frame.f_code.co_filename.startswith(package):
            return
        name = os.path.relpath(frame.f_code.co_filename, package)
        files[name] = files.get(name, 0) + 1
        if name != state["last"]:
            state["switches"] += 1
            state["last"] = name

    writer = open_writer("redacted", None, {})
    with contextlib.redirect_stdout(io.StringIO()), writer:
        for _, tagged in model.tag_each([Document("warm-up", "Seen by Dr. Lee on 7/22/2098.")]):
            writer.write(tagged)
        sys.setprofile(profile)
        try:
            for _, tagged in model.tag_each([Document("note", text)]):
                writer.write(tagged)
        finally:
            sys.setprofile(None)
    return files, state["switches"]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("note", help="a plain-text note")
    p.add_argument("--model", help="model file (default: the shipped model)")
    args = p.parse_args(argv)
    files, switches = trace(crfdeid.load(args.model), Path(args.note).read_text(encoding="utf-8"))
    packages = {name.split(os.sep)[0] for name in files if os.sep in name}
    print(f"files {len(files)} (packages {len(packages)}), switches {switches}")
    for name in sorted(files):
        print(f"  {name}  {files[name]} calls")
    return 0


if __name__ == "__main__":
    sys.exit(main())
