"""Screenshots of the review page's main screens (synthetic notes only) for docs/img/.

    python bench/review_screenshots.py [--out docs/img]

Makes a throw-away project from ``synth:4,21`` pre-annotated by the shipped model, has
two annotators review the first note through the API (one deletes two suggestions,
gives the first another type and marks a word nobody else marks), then drives the page in
headless Chromium and saves ``review.png`` (review mode, a span selected),
``aggregate.png`` (two annotators and the model shown but not counted, each voter's type,
a type disagreement and the note in conflict), ``scores.png`` (annotator scores
against the consensus), ``surrogates.png`` (surrogate review, one value edited) and
``review-low.png`` (the first note of ``synth:30,21`` on which the shipped model is unsure of
a suggestion, below 0.5: drawn with a dashed red outline, its number in red).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", default="docs/img")
    args = p.parse_args(argv)
    from fastapi.testclient import TestClient
    from selenium.webdriver.common.action_chains import ActionChains

    from crfdeid.review import headless
    from crfdeid.review.project import Project, import_notes
    from crfdeid.review.server import create_app
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        project = Project.create(Path(tmp) / "ward-4-notes", per_note=2)
        import_notes(project, "synth:4,21")
        api = TestClient(create_app(project, hosts=("testserver",)))
        nid = project.store.queue("alice")[0]
        for who, drop in (("alice", 0), ("bob", 2)):
            h = {"X-Annotator": who}
            note = api.post(f"/api/notes/{nid}/open", headers=h, json={}).json()
            for sp in note["spans"][1:1 + drop]:
                api.patch(f"/api/spans/{sp['id']}", headers=h, json={"status": "deleted"})
            if drop:  # bob gives the first span another type (a type disagreement) ...
                first = note["spans"][0]
                api.patch(f"/api/spans/{first['id']}", headers=h,
                          json={"subtype": "PATIENT" if first["subtype"] != "PATIENT" else "DOCTOR"})
            if drop:  # ... and marks a word nobody else did (a minority item)
                free = next(m for m in re.finditer(r"[A-Za-z]{5,}", note["text"])
                            if not any(sp["start"] < m.end() and m.start() < sp["end"] for sp in note["spans"]))
                api.post(f"/api/notes/{nid}/spans", headers=h,
                         json={"start": free.start(), "end": free.end(), "subtype": "HOSPITAL"})
            api.post(f"/api/notes/{nid}/done", headers=h, json={})
        with headless.live_server(create_app(project)) as url, headless.chromium(1280, 800) as d:
            def keys(text, pause=0.4):
                ActionChains(d).send_keys(text).perform()
                time.sleep(pause)

            d.get(url + "/")
            d.execute_script("localStorage.setItem('crfdeid-review-who', 'carol')")
            d.get(url + "/")
            time.sleep(1.5)
            keys("jaja")                      # accept two suggestions
            keys("j")
            d.save_screenshot(str(out / "review.png"))
            keys("2", 1.0)
            d.execute_script(f"document.getElementById('agg-note').value = '{nid}'; "
                             f"document.getElementById('agg-note').onchange()")
            time.sleep(1.0)
            d.save_screenshot(str(out / "aggregate.png"))
            n_items = d.execute_script("return state.agg.data.items.length")
            for _ in range(n_items):          # confirm each item; a type disagreement asks for the type
                keys("\n", 0.3)
                if d.execute_script("return !document.getElementById('typemenu').hidden"):
                    keys("patient", 0.2)
                    keys("\n", 0.3)
            keys("D", 1.0)
            keys("S", 4.0)
            d.save_screenshot(str(out / "scores.png"))
            keys("\ue00c")
            keys("3", 1.0)
            d.execute_script(f"document.getElementById('sur-note').value = '{nid}'; "
                             f"document.getElementById('sur-note').onchange()")
            time.sleep(1.0)
            keys("a")                         # approve the first, then edit the name
            keys("e")
            d.execute_script("document.activeElement.value = 'Dr. Example'")
            keys("\n", 0.8)
            d.save_screenshot(str(out / "surrogates.png"))
        project.close()
        _low_confidence(Path(tmp), out)
    print(json.dumps(sorted(p.name for p in out.glob("*.png"))))
    return 0


def _low_confidence(tmp: Path, out: Path) -> None:
    import crfdeid
    from crfdeid.io import read, write
    from crfdeid.review import headless
    from crfdeid.review.project import Project, import_notes
    from crfdeid.review.server import create_app
    model = crfdeid.load()
    note = next(d for d in read("synth:30,21")
                if any(s.confidence is not None and s.confidence < 0.5 for s in model.tag_text(d.text).spans))
    write([note], "text", tmp / "low-notes")
    project = Project.create(tmp / "low-confidence")
    import_notes(project, f"text:{tmp / 'low-notes'}")
    with headless.live_server(create_app(project)) as url, headless.chromium(1280, 800) as d:
        d.get(url + "/")
        d.execute_script("localStorage.setItem('crfdeid-review-who', 'carol')")
        d.get(url + "/")
        time.sleep(1.5)
        d.execute_script("document.querySelector('#review-text mark.low').scrollIntoView({block: 'center'})")
        time.sleep(0.3)
        d.save_screenshot(str(out / "review-low.png"))
    project.close()


if __name__ == "__main__":
    sys.exit(main())
