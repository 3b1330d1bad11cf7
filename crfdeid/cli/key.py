"""Make a secret key for surrogate output (``python -m crfdeid key new FILE``).

The key goes to a new file readable by its owner only (a file that exists is
never overwritten); ``--key-file FILE`` of ``tag`` and ``corpus surrogate``
reads it. Keep the key, and keep it out of the release: whoever has it can
recompute the surrogates. ``--seed`` is for tests and demonstrations only.
"""

from __future__ import annotations

import sys

from .. import cli
from ..deid.key import EXAMPLE, new_key
from ..errors import ConfigError


def main(argv=None) -> int:
    """Run ``python -m crfdeid key``; return the exit code (2 when the file exists or cannot be made)."""
    p = cli.parser("key", __doc__, EXAMPLE)
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    new = sub.add_parser("new", help="write a new random key to FILE (mode 0600; never overwrites)",
                         description=f"Write a new random key (32 bytes, 64 hexadecimal digits) to "
                                     f"FILE, mode 0600. Example: {EXAMPLE}")
    new.add_argument("file", metavar="FILE")
    args = p.parse_args(argv)
    try:
        path = new_key(args.file)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote a new secret key to {path} (readable by you only); keep it, and keep it out of "
          "the release: whoever has it can recompute the surrogates", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
