"""Make a secret key (``python -m crfdeid key new FILE``): for surrogate output, or, with
``--for officer``, the privacy officer's key that signs and checks a release audit.

The key goes to a new file readable by its owner only (a file that exists is
never overwritten); ``--key-file FILE`` of ``tag`` and ``corpus surrogate``
reads a surrogate key, ``audit sample/report/verify --key``/``--sign`` the officer's.
Keep a surrogate key out of the release: whoever has it can recompute the
surrogates (``--seed`` is for tests and demonstrations only). Keep the officer's
key from the data holder: whoever has it can sign a statement or choose the
audit's sample.
"""

from __future__ import annotations

import sys

from .. import cli
from ..deid.key import EXAMPLE, new_key
from ..errors import ConfigError

#: What a key is for, and whom it is kept from, by ``--for``.
KEEP = {"surrogates": "for surrogates", "officer": "for the privacy officer (audit --key, --sign)"}
KEEP_FROM = {"surrogates": "out of the release: whoever has it can recompute the surrogates",
             "officer": "from the data holder: whoever has it can sign an audit's statement or choose its sample"}


def main(argv=None) -> int:
    """Run ``python -m crfdeid key``; return the exit code (2 when the file exists or cannot be made)."""
    p = cli.parser("key", __doc__, EXAMPLE)
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    new = sub.add_parser("new", help="write a new random key to FILE (mode 0600; never overwrites)",
                         description=f"Write a new random key (32 bytes, 64 hexadecimal digits) to "
                                     f"FILE, mode 0600. Example: {EXAMPLE}")
    new.add_argument("file", metavar="FILE")
    new.add_argument("--for", dest="use", choices=sorted(KEEP), default="surrogates",
                     help="what the key is for: surrogates (tag --key-file; the default) or officer (the "
                          "privacy officer's key of `audit --key/--sign`); only the message differs")
    args = p.parse_args(argv)
    try:
        path = new_key(args.file)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote a new secret key {KEEP[args.use]} to {path} (readable by you only); keep it, and keep it "
          f"{KEEP_FROM[args.use]}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
