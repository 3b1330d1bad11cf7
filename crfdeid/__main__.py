"""``python -m crfdeid <command>``: see :mod:`crfdeid.cli`."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
