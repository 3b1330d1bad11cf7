"""Public-key signatures (Ed25519, through ``cryptography``): the privacy officer signs an audit's
plan and statement, a reviewer signs their reviews; anyone holding only the public key checks.

An HMAC proves nothing about who made it when the checker holds the same secret: whoever can
verify can sign. Here the private key stays with its owner (the officer, a reviewer) and the
data holder, the review store and the audit folder keep only public keys.

``python -m crfdeid key new officer.key --for officer`` writes the private key to ``officer.key``
(mode 0600, never overwritten) and the public key to ``officer.key.pub``. Both are one line:
``crfdeid-ed25519-private HEX`` / ``crfdeid-ed25519-public HEX``. What is signed is the canonical
JSON of a dict (keys sorted, no spaces), so a signature is over data, never over a file's bytes.
Ed25519 is deterministic: the same key and data give the same signature (the audit's seed is
derived from the plan's signature: it cannot be known before the officer signs, and anyone
with the public key can check it).

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "o.key")
>>> _ = new_pair(path)
>>> private, public = load_private(path), load_public(path + ".pub")
>>> sig = sign(private, {"a": 1})
>>> verify(public, {"a": 1}, sig), verify(public, {"a": 2}, sig)
(True, False)
>>> sign(private, {"a": 1}) == sig  # deterministic
True
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization as _ser
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ..errors import ConfigError
from .key import read_secret

PRIVATE, PUBLIC = "crfdeid-ed25519-private", "crfdeid-ed25519-public"


def canonical(data: dict) -> bytes:
    """The bytes a signature is over: JSON, keys sorted, no spaces."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), default=str).encode("utf-8")


def _raw_public(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(_ser.Encoding.Raw, _ser.PublicFormat.Raw)


def public_hex(key: Ed25519PrivateKey | Ed25519PublicKey) -> str:
    """The public key as 64 hexadecimal digits."""
    pub = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return _raw_public(pub).hex()


def key_id(key: Ed25519PrivateKey | Ed25519PublicKey | str) -> str:
    """A short name of a public key (16 hexadecimal digits of its SHA-256)."""
    raw = bytes.fromhex(key) if isinstance(key, str) else bytes.fromhex(public_hex(key))
    return hashlib.sha256(raw).hexdigest()[:16]


def _create(path: Path, text: str, mode: int) -> None:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    except FileExistsError:
        raise ConfigError("already exists; a key is never overwritten (choose another file name)", path=path) from None
    except OSError as exc:
        raise ConfigError(f"cannot create the key file: {exc.strerror}", path=path) from None
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(text)


def new_pair(path) -> tuple[Path, Path]:
    """Write a new private key to ``path`` (mode 0600) and its public key to ``path.pub``;
    neither may exist. Returns both paths."""
    path = Path(path)
    pub = path.with_name(path.name + ".pub")
    if pub.exists():
        raise ConfigError("already exists; a key is never overwritten (choose another file name)", path=pub)
    key = Ed25519PrivateKey.generate()
    raw = key.private_bytes(_ser.Encoding.Raw, _ser.PrivateFormat.Raw, _ser.NoEncryption())
    _create(path, f"{PRIVATE} {raw.hex()}\n", 0o600)
    _create(pub, f"{PUBLIC} {public_hex(key)}\n", 0o644)
    return path, pub


def _parse(text: str, kind: str, path) -> bytes:
    parts = text.split()
    if len(parts) != 2 or parts[0] != kind or len(parts[1]) != 64:
        raise ConfigError(f"not a {kind} key file (`python -m crfdeid key new FILE --for officer` makes one)",
                          path=path)
    try:
        return bytes.fromhex(parts[1])
    except ValueError:
        raise ConfigError(f"not a {kind} key file (its key is not hexadecimal)", path=path) from None


def load_private(path) -> Ed25519PrivateKey:
    """The private key of a ``key new --for officer`` (or ``--for reviewer``) file."""
    text = read_secret(path, "the private key").decode("ascii", "replace")
    if text.startswith(PUBLIC):
        raise ConfigError("a public key: signing needs the private key file (without .pub)", path=path)
    return Ed25519PrivateKey.from_private_bytes(_parse(text, PRIVATE, path))


def load_public(path) -> Ed25519PublicKey:
    """The public key of a ``.pub`` file; a private key file gives its public key."""
    try:
        text = Path(path).read_text(encoding="ascii", errors="replace").strip()
    except OSError as exc:
        raise ConfigError(f"cannot read the public key: {exc.strerror}", path=path) from None
    if text.startswith(PRIVATE):
        return load_private(path).public_key()
    return public_from_hex(_parse(text, PUBLIC, path).hex())


def public_from_hex(text: str) -> Ed25519PublicKey:
    """A public key from its 64 hexadecimal digits."""
    try:
        return Ed25519PublicKey.from_public_bytes(bytes.fromhex(text))
    except ValueError:
        raise ConfigError("not an Ed25519 public key (64 hexadecimal digits)") from None


def sign(key: Ed25519PrivateKey, data: dict) -> str:
    """The signature of ``data`` (:func:`canonical`) as 128 hexadecimal digits."""
    return key.sign(canonical(data)).hex()


def verify(key: Ed25519PublicKey | str, data: dict, signature) -> bool:
    """Whether ``signature`` is ``key``'s over ``data``."""
    try:
        pub = public_from_hex(key) if isinstance(key, str) else key
        pub.verify(bytes.fromhex(str(signature)), canonical(data))
    except (InvalidSignature, ValueError, ConfigError):
        return False
    return True
