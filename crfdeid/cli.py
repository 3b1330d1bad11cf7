"""What the ``python -m crfdeid.<command>`` command lines share: the parser and argument types."""

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


def parse_thresholds(text: str | None) -> tuple[float, ...]:
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
        raise argparse.ArgumentTypeError(f"thresholds must be numbers like 0.5,0.7: {text!r}")
    if any(v is not None and not 0 < v <= 1 for v in values):
        raise argparse.ArgumentTypeError(f"thresholds must lie in (0, 1]: {text!r}")
    return values


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
