"""``python -m crfdeid.serve``: the same as ``python -m crfdeid serve`` (:mod:`crfdeid.cli.serve`)."""

import sys

if __name__ == "__main__":
    from ..cli.serve import main
    sys.exit(main())
