"""Shared fixtures: the synthetic test data folder and the shared PhysioNet corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).parent
DATA = TESTS / "data"
PHYSIONET = TESTS.parent.parent / "shared" / "corpora" / "physionet-dev"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """Folder of small synthetic fixtures (no real PHI)."""
    return DATA


@pytest.fixture(scope="session")
def physionet_dir() -> Path:
    """The shared PhysioNet dev corpus; skips the test where it is absent."""
    if not (PHYSIONET / "id.text").exists():
        pytest.skip(f"PhysioNet dev corpus not found at {PHYSIONET} (it lives in ../shared, "
                    "outside the project)")
    return PHYSIONET


@pytest.fixture(scope="session")
def physionet_docs(physionet_dir):
    """All documents of the shared PhysioNet dev corpus, read once per session."""
    from crfdeid.io import read
    return list(read(f"physionet:{physionet_dir}"))
