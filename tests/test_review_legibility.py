"""The review page readable at a glance (issue 61): every span's type and a suggestion's
confidence on the line at 12 px (they were 9 and 10 px superscripts), and a suggestion of low
confidence drawn differently from a sure one (a dashed red outline, faded colour, its number
in red), in a real headless Chromium. A made-up note on which the shipped model is unsure of one
suggestion."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the review extra is not installed (pip install crfdeid[review])")
from crfdeid.review import headless  # noqa: E402

why = headless.available()
pytestmark = [pytest.mark.slow, pytest.mark.skipif(why is not None, reason=why or "")]

import crfdeid  # noqa: E402
from crfdeid.io import read, write  # noqa: E402
from crfdeid.review.project import Project, import_notes  # noqa: E402
from crfdeid.review.server import create_app  # noqa: E402

LOW = 0.5


@pytest.fixture
def project(tmp_path):
    model = crfdeid.load()
    [note] = [d for d in read("synth:30,21")
              if any(s.confidence is not None and s.confidence < LOW for s in model.tag_text(d.text).spans)][:1]
    write([note], "text", tmp_path / "notes")
    p = Project.create(tmp_path / "proj")
    import_notes(p, f"text:{tmp_path / 'notes'}")
    yield p
    p.close()


def test_types_and_confidences_are_legible_and_low_confidence_stands_out(project, tmp_path):
    with headless.live_server(create_app(project)) as url, headless.chromium(1280, 800) as d:
        d.get(url + "/")
        d.execute_script("localStorage.setItem('crfdeid-review-who', 'carol')")
        d.get(url + "/")
        from selenium.webdriver.support.ui import WebDriverWait
        WebDriverWait(d, 15, poll_frequency=0.1).until(
            lambda d: d.execute_script("return typeof state !== 'undefined' && state.review.note !== null"))
        spans = d.execute_script("return state.review.note.spans.map(s => [s.id, s.confidence])")
        low = {str(i) for i, c in spans if c is not None and c < LOW}
        assert low
        marks = d.execute_script("""
            return [...document.querySelectorAll('#review-text mark')].map(m => {
              const b = getComputedStyle(m, '::before'), a = getComputedStyle(m, '::after'), s = getComputedStyle(m);
              return {id: m.dataset.id, low: m.classList.contains('low'), conf: m.dataset.conf || null,
                      sub: b.content, subSize: parseFloat(b.fontSize), subAlign: b.verticalAlign,
                      confSize: parseFloat(a.fontSize), confAlign: a.verticalAlign,
                      outline: s.outlineStyle, outlineColor: s.outlineColor, image: s.backgroundImage};
            });""")
        assert {m["id"] for m in marks if m["low"]} == low  # exactly the unsure suggestions
        for m in marks:
            assert m["subSize"] >= 12 and m["subAlign"] == "baseline" and m["sub"] not in ("none", "normal")
            if m["conf"] is not None:
                assert m["confSize"] >= 12 and m["confAlign"] == "baseline"
        unsure = next(m for m in marks if m["low"])
        sure = next(m for m in marks if not m["low"])
        assert unsure["conf"] is not None and float(unsure["conf"]) < LOW  # the number is shown
        assert unsure["outline"] == "dashed" and unsure["outlineColor"] == "rgb(198, 40, 40)"
        assert "repeating-linear-gradient" in unsure["image"] and "gradient" not in sure["image"]
        assert sure["outlineColor"] != unsure["outlineColor"]
        d.execute_script("document.querySelector('#review-text mark.low').scrollIntoView({block: 'center'})")
        d.save_screenshot(str(tmp_path / "review-low.png"))  # what bench/review_screenshots.py keeps
    assert (tmp_path / "review-low.png").stat().st_size > 10_000
