"""Make a key (``python -m crfdeid key new FILE``): a secret for surrogate output, or, with
``--for officer`` / ``--for reviewer``, an Ed25519 key pair that signs a release audit's plan
and statement (the privacy officer) or a reviewer's reviews.

The key goes to a new file readable by its owner only (a file that exists is
never overwritten); ``--key-file FILE`` of ``tag`` and ``corpus surrogate``
reads a surrogate key. A pair is FILE (the private key, kept by its owner) and
FILE.pub (the public key, given to whoever checks: ``audit verify --key
FILE.pub``, ``audit plan --reviewer NAME=FILE.pub``). Keep a surrogate key out
of the release: whoever has it can recompute the surrogates (``--seed`` is for
tests and demonstrations only). Keep the officer's and the reviewers' private
keys from the data holder: whoever has one can sign in their name.
"""

from __future__ import annotations

import sys

from .. import cli
from ..deid.key import EXAMPLE, new_key
from ..deid.signing import new_pair
from ..errors import ConfigError

#: What a key is for, and whom it is kept from, by ``--for``.
KEEP = {"surrogates": "for surrogates", "officer": "for the privacy officer (audit plan/report --sign)",
        "reviewer": "for a reviewer (review sign)"}
KEEP_FROM = {"surrogates": "out of the release: whoever has it can recompute the surrogates",
             "officer": "from the data holder: whoever has it can sign an audit's plan or statement",
             "reviewer": "to yourself: whoever has it can sign reviews in your name"}


def main(argv=None) -> int:
    """Run ``python -m crfdeid key``; return the exit code (2 when the file exists or cannot be made)."""
    p = cli.parser("key", __doc__, EXAMPLE)
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    new = sub.add_parser("new", help="write a new random key to FILE (mode 0600; never overwrites)",
                         description=f"Write a new random key (32 bytes, 64 hexadecimal digits) to "
                                     f"FILE, mode 0600. Example: {EXAMPLE}")
    new.add_argument("file", metavar="FILE")
    new.add_argument("--for", dest="use", choices=sorted(KEEP), default="surrogates",
                     help="what the key is for: surrogates (tag --key-file; the default), officer or reviewer "
                          "(an Ed25519 pair: FILE, private, and FILE.pub, public)")
    args = p.parse_args(argv)
    try:
        if args.use == "surrogates":
            path = new_key(args.file)
        else:
            path, pub = new_pair(args.file)
            print(f"wrote the public key to {pub}: give it to whoever checks", file=sys.stderr)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote a new secret key {KEEP[args.use]} to {path} (readable by you only); keep it, and keep it "
          f"{KEEP_FROM[args.use]}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
