"""``Deidentifier(key_file=...)`` reads the key file; a ``key`` that is the path of a file is refused."""

from __future__ import annotations

import pytest

import crfdeid
from crfdeid.adapters.records import Deidentifier
from crfdeid.cli import main
from crfdeid.errors import ConfigError

NOTE = crfdeid.Document("n1", "Seen by Dr. Tamsin Orrell on 7/22/2098.")


@pytest.fixture
def key_file(tmp_path):
    path = tmp_path / "secret.key"
    assert main(["key", "new", str(path)]) == 0
    return path


def test_key_file_gives_the_surrogates_of_tag_key_file(tmp_path, key_file):
    [rec] = Deidentifier(output_format="surrogate", key_file=key_file).run([NOTE])
    assert rec.error is None and "Orrell" not in rec.text
    [again] = Deidentifier(output_format="surrogate", key_file=str(key_file)).run([NOTE])
    assert again.text == rec.text  # the same key, the same surrogates
    note = tmp_path / "n1.txt"
    note.write_text(NOTE.text, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["tag", str(note), "--output-format", "surrogate", "--key-file", str(key_file),
                 "--site-mining", "off", "--output-dir", str(out), "--quiet"]) == 0
    assert (out / "n1.txt").read_text(encoding="utf-8") == rec.text


def test_a_key_naming_a_file_is_refused(key_file):
    with pytest.raises(ConfigError, match="key_file"):
        Deidentifier(output_format="surrogate", key=str(key_file))


def test_key_and_key_file_together_refused(key_file):
    with pytest.raises(ConfigError, match="not both"):
        Deidentifier(output_format="surrogate", key="a" * 40, key_file=key_file)


def test_a_missing_key_file_is_named(tmp_path):
    with pytest.raises(ConfigError):
        Deidentifier(output_format="surrogate", key_file=tmp_path / "none.key")
