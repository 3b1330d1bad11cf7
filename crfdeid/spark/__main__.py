"""``python -m crfdeid.spark``: the same as ``python -m crfdeid spark`` (:mod:`crfdeid.cli.spark`)."""

import sys

if __name__ == "__main__":
    from ..cli.spark import main
    sys.exit(main())
