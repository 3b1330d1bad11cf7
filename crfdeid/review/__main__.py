"""``python -m crfdeid.review``: init, import, serve, export, stats, simulate (see ``--help``)."""

from __future__ import annotations

import sys

from ..cli.review import main

if __name__ == "__main__":
    sys.exit(main())
