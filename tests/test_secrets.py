"""Secret files (surrogate keys, the service's and the review app's tokens): all read through
:func:`crfdeid.deid.key.read_secret`, which warns on stderr about a file others may read and
about a secret of one repeated character, naming the file and never the secret."""

from __future__ import annotations

import argparse
import os

import pytest

from crfdeid.deid.key import read_key_file

posix = pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
SECRET = "k3y-for-tests-0123456789abcdef"


def _file(tmp_path, value: str, mode: int):
    path = tmp_path / "secret"
    path.write_text(value + "\n")
    path.chmod(mode)
    return path


def _read_key(path):
    return read_key_file(path)


def _read_service_token(path):
    pytest.importorskip("fastapi")
    from crfdeid.serve.app import Settings, create_app
    create_app(Settings(token_file=str(path)))


def _read_review_token(path):
    from crfdeid.cli.review import read_credentials
    return read_credentials(argparse.Namespace(token_file=str(path)))


READERS = pytest.mark.parametrize("read, what", [
    (_read_key, "the key file"),
    (_read_service_token, "the token file"),
    (_read_review_token, "the token file"),
], ids=["key", "service-token", "review-token"])


@posix
@READERS
@pytest.mark.parametrize("mode, who", [(0o644, "group and others"), (0o640, "group"), (0o604, "others")])
def test_a_secret_file_others_may_read_is_named_on_stderr(tmp_path, capsys, read, what, mode, who):
    path = _file(tmp_path, SECRET, mode)
    read(path)
    err = capsys.readouterr().err
    assert f"warning: {path}: {what} can be read or changed by {who} (mode {mode:04o})" in err
    assert "chmod 600" in err and SECRET not in err


@posix
@READERS
def test_a_private_secret_file_is_read_silently(tmp_path, capsys, read, what):
    read(_file(tmp_path, SECRET, 0o600))
    assert "warning" not in capsys.readouterr().err


@READERS
def test_a_secret_of_one_repeated_character_is_named_on_stderr(tmp_path, capsys, read, what):
    path = _file(tmp_path, "a" * 32, 0o600)
    read(path)
    err = capsys.readouterr().err
    assert f"warning: {path}: {what} holds one character repeated" in err and "a" * 32 not in err


@READERS
@pytest.mark.parametrize("secret, period", [("ab" * 16, 2), ("0123" * 8, 4), ("xyz" * 11, 3)])
def test_a_secret_of_a_short_repeated_pattern_is_named_on_stderr(tmp_path, capsys, read, what, secret, period):
    """Issue 36: ``abab...`` was read without a word (only one repeated character was warned of)."""
    path = _file(tmp_path, secret, 0o600)
    read(path)
    err = capsys.readouterr().err
    assert f"warning: {path}: {what} holds a pattern of {period} characters repeated" in err
    assert secret not in err and secret[:2 * period] not in err
