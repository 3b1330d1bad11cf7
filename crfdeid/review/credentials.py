"""Who may use the review page: one shared token, or one token per annotator.

A token file holds either a single token (shared: whoever has it names themselves in the
page, as on a single workstation) or one line per person, ``NAME TOKEN [ROLE]`` (``#`` starts
a comment). The role is ``annotator`` (the default: reviews notes) or ``adjudicator`` (also
opens aggregate mode and settles the notes others reviewed); with a shared token, or none,
roles cannot be told apart and everyone may do everything. With per-annotator tokens the
person is whoever the token belongs to: the page cannot act as anyone else, and the audit
log records that name. The login cookie is a digest of the person's token, so changing a
line of the file (a new token for that person) or the whole file ends the sessions it
covers: the file is read again whenever it changes on disk.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "tokens")
>>> with open(path, "w") as fh:
...     _ = fh.write("alice 0123456789abcdef-alice\\nbob 0123456789abcdef-bob adjudicator\\n")
>>> creds = Credentials.from_file(path)
>>> creds.check("0123456789abcdef-bob")
'bob'
>>> creds.role("alice"), creds.role("bob")
('annotator', 'adjudicator')
>>> creds.from_cookie(creds.cookie_for("bob"))
'bob'
>>> creds.check("not a token") is None
True
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets

from ..deid.key import read_secret
from ..errors import ConfigError
from ..openfiles import read_regular_text
from .store import check_name

#: The identity of whoever holds a shared token (they name themselves in the page).
SHARED = ""
MIN_TOKEN = 16
ANNOTATOR, ADJUDICATOR = "annotator", "adjudicator"
ROLES = (ANNOTATOR, ADJUDICATOR)


def _digest(token: str, name: str) -> str:
    label = b"crfdeid-review-session-v1" if name == SHARED else b"crfdeid-review-session-v2:" + name.encode()
    return hmac.new(token.encode("utf-8"), label, hashlib.sha256).hexdigest()


def seal_key(token: str, name: str) -> bytes:
    """The secret that seals a person's events (:func:`crfdeid.review.ledger.seal`): derived from
    their token, so that only whoever holds the token (the app while it serves them, or an
    auditor given the token file) can make or check a seal; the store never holds it."""
    return hmac.new(token.encode("utf-8"), b"crfdeid-review-seal-v1:" + name.encode(), hashlib.sha256).digest()


def parse(text: str, where: str = "the token file") -> dict[str, str]:
    """``{name: token}`` of a token file's text; a single token is ``{SHARED: token}``.

    See :func:`parse_roles` for the people's roles.

    Raises
    ------
    ConfigError
        Empty, a token under :data:`MIN_TOKEN` characters, a bad or repeated name, or one
        token given to two people (the message names the line, never a token).
    """
    return parse_roles(text, where)[0]


def parse_roles(text: str, where: str = "the token file") -> tuple[dict[str, str], dict[str, str]]:
    """``({name: token}, {name: role})`` of a token file's text (see :func:`parse`)."""
    lines = [(i, ln.strip()) for i, ln in enumerate(text.splitlines(), 1)]
    lines = [(i, ln) for i, ln in lines if ln and not ln.startswith("#")]
    if not lines:
        raise ConfigError(f"{where} holds no token")
    roles: dict[str, str] = {}
    if len(lines) == 1 and len(lines[0][1].split()) == 1:
        tokens = {SHARED: lines[0][1]}
    else:
        tokens = {}
        for i, ln in lines:
            parts = ln.split()
            if len(parts) not in (2, 3):
                raise ConfigError(f"{where}, line {i}: expected 'NAME TOKEN' or 'NAME TOKEN ROLE' (one person a line)")
            name = check_name(parts[0])
            if name in tokens:
                raise ConfigError(f"{where}, line {i}: {name!r} has a token already")
            role = parts[2] if len(parts) == 3 else ANNOTATOR
            if role not in ROLES:
                raise ConfigError(f"{where}, line {i}: unknown role {role!r}; known: {', '.join(ROLES)}")
            tokens[name] = parts[1]
            roles[name] = role
        if len(set(tokens.values())) != len(tokens):
            raise ConfigError(f"{where}: two annotators share one token")
    short = [n or "the shared token" for n, t in tokens.items() if len(t) < MIN_TOKEN]
    if short:
        raise ConfigError(f"{where}: tokens need at least {MIN_TOKEN} characters ({', '.join(short)})")
    return tokens, roles


class Credentials:
    """The tokens the page accepts, from a file (re-read when it changes) or a fixed value."""

    def __init__(self, tokens: dict[str, str], path=None, roles: dict[str, str] | None = None):
        self.tokens = tokens
        self.roles = roles or {}
        self.path = path
        self._seen = self._stamp()

    @classmethod
    def from_file(cls, path) -> Credentials:
        tokens, roles = cls._read(path)
        return cls(tokens, path, roles)

    @classmethod
    def shared(cls, token: str) -> Credentials:
        return cls(parse(token, "the access token"))

    @staticmethod
    def _read(path) -> tuple[dict[str, str], dict[str, str]]:
        return parse_roles(read_secret(path, "the token file").decode("utf-8"), "the token file")

    def _stamp(self):
        if self.path is None:
            return None
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return st.st_mtime_ns, st.st_size, st.st_ino

    def refresh(self) -> None:
        """Read the file again if it changed; a file that became unreadable or invalid
        accepts no token until it is mended (no session outlives a broken rotation)."""
        stamp = self._stamp()
        if stamp == self._seen:
            return
        self._seen = stamp
        try:
            self.tokens, self.roles = self._read(self.path)
        except ConfigError:
            self.tokens, self.roles = {}, {}

    @property
    def per_annotator(self) -> bool:
        return SHARED not in self.tokens

    def role(self, name: str) -> str | None:
        """A person's role (:data:`ANNOTATOR` or :data:`ADJUDICATOR`); ``None`` with a shared
        token (anyone may do anything) or for a name the file does not hold."""
        if not self.per_annotator:
            return None
        self.refresh()
        return self.roles.get(name)

    def check(self, given: str) -> str | None:
        """The identity a token belongs to (a name, or :data:`SHARED`), or ``None``."""
        self.refresh()
        found = None
        for name, token in self.tokens.items():  # every comparison runs: constant time overall
            if hmac.compare_digest(given.encode("utf-8"), token.encode("utf-8")):
                found = name
        return found

    def cookie_for(self, identity: str) -> str:
        return f"{identity}.{_digest(self.tokens[identity], identity)}"

    def seal_keys(self) -> dict[str, bytes]:
        """``{name: seal key}`` of every person (none for a shared token: it proves no person)."""
        self.refresh()
        return {n: seal_key(t, n) for n, t in self.tokens.items() if n != SHARED}

    def from_cookie(self, value: str) -> str | None:
        """The identity of a login cookie, or ``None`` (a rotated token ends the session)."""
        self.refresh()
        name, _, digest = value.rpartition(".")
        token = self.tokens.get(name)
        if token is None or not hmac.compare_digest(digest.encode(), _digest(token, name).encode()):
            return None
        return name


def new_token() -> str:
    """A fresh random token (32 URL-safe characters)."""
    return secrets.token_urlsafe(24)


def set_token(path, name: str, rotate: bool = False, role: str | None = None) -> str:
    """Give ``name`` a new token in the per-annotator file ``path`` (created owner-only) and
    return it; an existing name needs ``rotate`` (its old token and sessions end). ``role``:
    :data:`ANNOTATOR` or :data:`ADJUDICATOR` (default: the person's role so far, else annotator);
    a new role for an existing name also needs ``rotate``."""
    name = check_name(name)
    if role is not None and role not in ROLES:
        raise ConfigError(f"unknown role {role!r}; known: {', '.join(ROLES)}")
    tokens: dict[str, str] = {}
    roles: dict[str, str] = {}
    if os.path.exists(path):
        tokens, roles = parse_roles(read_regular_text(path, ConfigError, "the token file"))  # a FIFO refused
        if SHARED in tokens:
            raise ConfigError("the token file holds one shared token; per-annotator tokens go in another file",
                              path=path)
        if name in tokens and not rotate:
            raise ConfigError(f"{name!r} has a token already (--rotate gives a new one)", path=path)
    tokens[name] = new_token()
    roles[name] = role or roles.get(name, ANNOTATOR)
    tmp = f"{path}.tmp-{os.getpid()}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write("# crfdeid review tokens: NAME TOKEN ROLE, one person a line (keep this file owner-only)\n")
        fh.writelines(f"{n} {t} {roles[n]}\n" for n, t in tokens.items())
    os.replace(tmp, path)
    return tokens[name]
