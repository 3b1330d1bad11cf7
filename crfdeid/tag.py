"""``python -m crfdeid.tag``: the same as ``python -m crfdeid tag`` (:mod:`crfdeid.cli.tag`)."""

import sys

if __name__ == "__main__":
    from .cli import run_program
    from .cli.tag import main
    sys.exit(run_program(main, None))  # main(None) reads sys.argv: it runs as the program
