"""Secret keys for surrogates: make one, read one.

Surrogates are drawn from ``HMAC-SHA256(key, ...)``. With a public ``--seed``
anyone can recompute them (try a list of candidate names, see which one gives
the released surrogate), so a release uses a secret key kept by the data
holder: ``python -m crfdeid key new secret.key`` (:mod:`crfdeid.cli.key`) writes 32 random bytes
(64 hexadecimal digits) to a new file readable by its owner only, and
``--key-file secret.key`` reads it. A key file that is missing, unreadable,
empty or shorter than :data:`MIN_KEY_BYTES` is a configuration error; a secret
file that group or others may read, or a secret of one repeated character, is
read with a warning on stderr (:func:`read_secret`). Messages name the file,
never the key.

Example::

    python -m crfdeid key new secret.key
    python -m crfdeid tag --output-format surrogate --key-file secret.key --output-dir out/ notes/
"""

from __future__ import annotations

import os
import secrets
import stat
import sys
from pathlib import Path

from ..errors import ConfigError
from ..openfiles import open_regular

#: Shortest key accepted (bytes, surrounding white space removed): 128 bits.
MIN_KEY_BYTES = 16
#: Longest secret file read (bytes): a key made by ``key new`` holds 64, a token file a line a person.
MAX_SECRET_BYTES = 1024 * 1024
EXAMPLE = "python -m crfdeid key new secret.key"


def new_key(path) -> Path:
    """Write a new random key (32 bytes as 64 hex digits) to ``path``, mode 0600.

    Raises
    ------
    ConfigError
        When ``path`` exists (a key is never overwritten: what it protected
        could no longer be reproduced) or cannot be created.
    """
    path = Path(path)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
    except FileExistsError:
        raise ConfigError("already exists; a key is never overwritten (choose another file name)",
                          path=path) from None
    except OSError as exc:
        raise ConfigError(f"cannot create the key file: {exc.strerror}", path=path) from None
    try:
        with os.fdopen(fd, "w", encoding="ascii") as fh:
            fh.write(secrets.token_hex(32) + "\n")
    except OSError as exc:
        path.unlink(missing_ok=True)
        raise ConfigError(f"cannot write the key file: {exc.strerror}", path=path) from None
    return path


def read_secret(path, what: str, hint: str = "") -> bytes:
    """The secret held in ``path`` (surrounding white space removed): a key, a token.

    Every secret file crfdeid reads comes through here (surrogate keys, the service's and
    the review app's tokens). A file that group or others may read (mode not ``0600`` or
    stricter, POSIX only) and a secret of one repeated character are read, with a warning
    on stderr naming the file (:func:`secret_warnings`), never the secret.

    Raises
    ------
    ConfigError
        The file cannot be read or is empty (``what`` names it, ``hint`` follows; never the
        secret).
    """
    with open_regular(path, ConfigError, what) as fh:  # a FIFO or device refused, never read
        try:
            mode = os.fstat(fh.fileno()).st_mode
            value = fh.read(MAX_SECRET_BYTES + 1)
        except OSError as exc:
            raise ConfigError(f"cannot read {what}: {exc.strerror}", path=path) from None
    if len(value) > MAX_SECRET_BYTES:
        raise ConfigError(f"{what} holds more than {MAX_SECRET_BYTES:,} bytes: not a key or token (a key is "
                          f"64 hexadecimal digits; make one with: {EXAMPLE})", path=path)
    value = value.strip()
    if not value:
        raise ConfigError(f"{what} is empty{hint}", path=path)
    for warning in secret_warnings(value, mode, what):
        print(f"warning: {path}: {warning}", file=sys.stderr)
    return value


def secret_warnings(value: bytes, mode: int, what: str) -> list[str]:
    """What is wrong with a secret that is still read: who else may read its file, a guessable value.

    >>> secret_warnings(b"x" * 20, 0o100644, "the key file")
    ['the key file can be read or changed by group and others (mode 0644): chmod 600 it', \
'the key file holds one character repeated: anyone can guess it (make one with: python -m crfdeid key new FILE)']
    >>> secret_warnings(bytes(range(65, 85)), 0o100600, "the key file")
    []
    """
    out = []
    loose = stat.S_IMODE(mode) & 0o077 if os.name == "posix" else 0
    if loose:
        who = " and ".join(w for w, bits in (("group", 0o070), ("others", 0o007)) if loose & bits)
        out.append(f"{what} can be read or changed by {who} (mode {stat.S_IMODE(mode):04o}): chmod 600 it")
    period = _period(value)
    if period == 1:
        out.append(f"{what} holds one character repeated: anyone can guess it "
                   "(make one with: python -m crfdeid key new FILE)")
    elif period is not None:
        out.append(f"{what} holds a pattern of {period} characters repeated: anyone can guess it "
                   "(make one with: python -m crfdeid key new FILE)")
    return out


def _period(value: bytes) -> int | None:
    """The length of the shortest piece whose repetition makes ``value`` (``abab...``: 2, the
    last repetition may be cut short), when it repeats at least twice; else None.

    >>> _period(b"abababab"), _period(b"abcabcab"), _period(b"abcdefgh"), _period(b"")
    (2, 3, None, None)
    """
    # The prefix function (Knuth-Morris-Pratt) in one pass: the shortest period is the length
    # less the longest border; comparing every shift was quadratic (a 1 MB file took 28 s).
    n = len(value)
    border = [0] * n
    k = 0
    for i in range(1, n):
        while k and value[i] != value[k]:
            k = border[k - 1]
        if value[i] == value[k]:
            k += 1
        border[i] = k
    period = n - border[-1] if n else 0
    return period if n and period <= n // 2 else None


def read_key_file(path) -> bytes:
    """The secret key held in ``path`` (surrounding white space removed).

    Raises
    ------
    ConfigError
        The file cannot be read, is empty, or holds fewer than
        :data:`MIN_KEY_BYTES` bytes (the message names the file, not the key).
    """
    key = read_secret(path, "the key file", f"; make a key with: {EXAMPLE}")
    if len(key) < MIN_KEY_BYTES:
        raise ConfigError(f"the key in this file is too short ({len(key)} bytes, at least "
                          f"{MIN_KEY_BYTES}); make a key with: {EXAMPLE}", path=path)
    return key


#: What the commands print when surrogates are made with a public seed.
SEED_WARNING = ("note: --seed makes surrogates anyone who knows the seed can recompute (and so "
                "reverse): use it for tests and demonstrations; for a release use --key-file "
                f"(make a key with: {EXAMPLE})")
