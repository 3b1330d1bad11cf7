"""The README and docs point at things that exist: relative links (and their #anchors), and the
repository paths they cite (``configs/...``, ``bench/...``, ``crfdeid/...``).

Dated logs under ``docs/history/`` may cite files that have since gone (a config that was
removed, a script that was renamed): their paths are history, their links must still work.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
REFERENCE = [p for p in PAGES if "history" not in p.relative_to(ROOT).parts]

_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_CODE_BLOCK = re.compile(r"^```.*?^```", re.S | re.M)
_PATH = re.compile(r"(?<![\w./-])((?:configs|bench|crfdeid)/[\w./-]*[\w/])")


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.

    >>> _slug("10-fold cross-validation: the `o_words` list (shipped)")
    '10-fold-cross-validation-the-o_words-list-shipped'
    """
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for line in _CODE_BLOCK.sub("", page.read_text(encoding="utf-8")).splitlines():
        m = re.match(r"#{1,6} (.+)", line)
        if m:
            slug = _slug(m.group(1))
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def _links(page: Path) -> list[str]:
    return _LINK.findall(_CODE_BLOCK.sub("", page.read_text(encoding="utf-8")))


def test_the_pages_are_found():
    assert ROOT / "README.md" in PAGES and len(REFERENCE) > 15
    assert _links(ROOT / "README.md")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_point_at_files_and_anchors_that_exist(page):
    broken = []
    for target in _links(page):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(target)
        elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
            broken.append(target)
    assert broken == []


@pytest.mark.parametrize("page", REFERENCE, ids=lambda p: str(p.relative_to(ROOT)))
def test_cited_repository_paths_exist(page):
    text = page.read_text(encoding="utf-8")
    missing = sorted({p for p in _PATH.findall(text) if not (ROOT / p).exists()})
    assert missing == []
