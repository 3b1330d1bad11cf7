"""The checkout itself: what must never be committed."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout")
@pytest.mark.parametrize("path", ["notes/n1.txt", "out/n1.txt", "secret.key", "data/i2b2-2014/x.xml"])
def test_example_folders_keys_and_dua_data_are_ignored(path):
    # The README's examples read notes/ and write out/; a key or i2b2 notes must never be added by accident.
    assert subprocess.run(["git", "check-ignore", "-q", path], cwd=ROOT).returncode == 0
