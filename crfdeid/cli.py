"""What the ``python -m crfdeid.<command>`` command lines share."""

from __future__ import annotations

import argparse


def parser(module: str, doc: str, *examples: str) -> argparse.ArgumentParser:
    """The argument parser of ``python -m <module>``: the first line of ``doc`` (the module's
    docstring) as its description, the example command(s) as its epilog.

    >>> p = parser("crfdeid.tag", "Tag notes.\\n\\nMore.", "python -m crfdeid.tag notes/")
    >>> p.prog, p.description
    ('python -m crfdeid.tag', 'Tag notes.')
    >>> print(p.epilog)
    example:
      python -m crfdeid.tag notes/
    >>> print(parser("crfdeid.x", "X.", "a", "b").epilog)
    examples:
      a
      b
    """
    label = "example" if len(examples) == 1 else "examples"
    return argparse.ArgumentParser(
        prog=f"python -m {module}", description=doc.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n  ".join([f"{label}:", *examples]))
