"""The review page in a real headless Chromium, continued from test_review_browser.py (its
fixtures and helpers): a note with characters outside the Basic Multilingual Plane (offsets in
code points on the server, UTF-16 units in the page) through review, adjudication, surrogates and
the re-identified export; and what a clinician needs (issue 29): each voter's type in the
aggregate, conflicts named, the type menu, the mouse alone, choosing a note, the done notice.
Synthetic notes only.
"""

# The fixtures browser and project come from test_review_browser.py and are asked for by name in
# the tests' parameters, which ruff takes for redefinitions.
# ruff: noqa: F811
from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi", reason="the review extra is not installed (pip install crfdeid[review])")
from crfdeid.review import headless  # noqa: E402

why = headless.available()
pytestmark = [pytest.mark.slow, pytest.mark.skipif(why is not None, reason=why or "")]

from test_review_browser import (  # noqa: E402,F401  (browser, project: fixtures used by name)
    _add_two_words_by_caret,
    _review_by_api,
    browser,
    keys,
    press,
    project,
    saved,
    start,
    status,
    wait_js,
)

from crfdeid.cli.review import main as review_main  # noqa: E402
from crfdeid.review.project import Project  # noqa: E402
from crfdeid.review.server import create_app  # noqa: E402

# A note with characters outside the Basic Multilingual Plane (an emoji, mathematical letters)
# before its PHI: the server counts offsets in code points, the page's strings in UTF-16 units.
ASTRAL_NOTE = ("Clinic note \U0001F600 written by staff. Mood \U0001F600\U0001F600, grade \U0001D538 on the "
               "\U0001D538\U0001D539\u2102 scale.\n"
               "Seen by Dr. Qzxv Brandt on 12/03/2076 at Fairhaven Clinic in Boston.\n"
               "Follow up with the \U0001D538\U0001D539\u2102 team \U0001F600 next week; call Dr. Brandt at "
               "555-0142.\n")


@pytest.fixture
def astral(tmp_path):
    src = tmp_path / "astral.jsonl"
    src.write_text(json.dumps({"id": "u16-1", "text": ASTRAL_NOTE}, ensure_ascii=False) + "\n", encoding="utf-8")
    path = tmp_path / "proj"
    assert review_main(["init", str(path), "--per-note", "2"]) == 0
    assert review_main(["import", str(path), f"jsonl:{src}"]) == 0
    p = Project.open(path)
    yield p
    p.close()


def drawn(driver, el="review-text"):
    """``[(key, text)]`` of every highlighted span drawn in a rendered text: the item's index in
    the aggregate and surrogate texts, the span's id in the review text."""
    return [tuple(x) for x in driver.execute_script(
        f"return [...document.querySelectorAll('#{el} mark')]"
        ".map(m => [Number(m.dataset.key !== undefined ? m.dataset.key : m.dataset.id), m.textContent])")]


def assert_drawn(driver, spans, text, el="review-text", items="state.review.note.spans"):
    """Each mark drawn in ``el`` shows exactly the text of its span in the store (Python offsets)."""
    ids = driver.execute_script(f"return {items}.map(s => s.id)")
    want = {sp["id"]: text[sp["start"]:sp["end"]] for sp in spans}
    assert sorted(ids) == sorted(want)
    assert drawn(driver, el) == [(i, want[i]) for i in ids]


def test_astral_characters_keep_offsets_in_code_points(browser, astral):
    from selenium.webdriver.common.keys import Keys
    store = astral.store
    text = ASTRAL_NOTE
    with headless.live_server(create_app(astral)) as url:
        start(browser, url, "alice")
        nid = browser.execute_script("return state.review.note.id")
        assert store.note(nid)["body"] == text
        spans = store.spans(nid, "alice")
        first_astral = text.index("\U0001F600")
        assert spans and all(sp["start"] > first_astral for sp in spans)
        # (a) each suggestion is drawn over exactly its own text
        assert len(drawn(browser)) == len(spans)
        assert_drawn(browser, store.spans(nid, "alice"), text)
        # (b) caret mode: two words after the astral characters, one of them astral letters
        import re
        words = [(m.start(), m.end()) for m in re.finditer(r"[^\W_]+", text)]
        s = text.index("\U0001D538\U0001D539\u2102 team")
        t = next(i for i, w in enumerate(words) if w[0] == s)
        e = words[t + 1][1]
        assert text[s:e] == "\U0001D538\U0001D539\u2102 team"
        assert not any(sp["start"] < e and s < sp["end"] for sp in spans)
        keys(browser, "c")
        wait_js(browser, "return state.caret !== null && state.caret.head === 0")
        assert browser.execute_script("return state.caret.words.length") == len(words)
        _add_two_words_by_caret(browser, t, text[s:e], f"{s}-{e}")
        added = [(sp["start"], sp["end"], sp["subtype"]) for sp in store.spans(nid, "alice") if sp["origin"] == "human"]
        assert added == [(s, e, "CITY")]
        # (c) resizing the new span (the current one): a word (here an emoji) right, a word left
        keys(browser, Keys.ESCAPE)
        wait_js(browser, "return state.caret === null")
        press(browser, "]")
        grown_end = text.index("\U0001F600", e) + 1
        (sp,) = [sp for sp in store.spans(nid, "alice") if sp["origin"] == "human"]
        assert (sp["start"], sp["end"]) == (s, grown_end), text[sp["start"]:sp["end"]]
        assert f"offsets {s}-{grown_end}" in status(browser)
        press(browser, "[")
        left = text.rindex("the", 0, s)
        (sp,) = [sp for sp in store.spans(nid, "alice") if sp["origin"] == "human"]
        assert (sp["start"], sp["end"]) == (left, grown_end)
        assert f"Offsets: {left}-{grown_end}" in browser.execute_script(
            "return document.getElementById('current').textContent")
        # a mouse selection inside a word after the astral characters snaps to that word
        w = text.index("week")
        browser.execute_script("""
            const el = document.getElementById('review-text');
            for (const node of el.querySelectorAll('span')) {
              const i = node.textContent.indexOf('week');
              if (i < 0) continue;
              const r = document.createRange();
              r.setStart(node.firstChild, i + 1); r.setEnd(node.firstChild, i + 3);
              const sel = window.getSelection(); sel.removeAllRanges(); sel.addRange(r);
              return;
            }""")
        keys(browser, "s")
        wait_js(browser, "return !document.getElementById('typemenu').hidden")
        keys(browser, "date")
        press(browser, "\n")
        human = sorted((sp["start"], sp["end"], sp["subtype"]) for sp in store.spans(nid, "alice")
                       if sp["origin"] == "human")
        assert human == [(left, grown_end, "CITY"), (w, w + 4, "DATE")]
        assert_drawn(browser, store.spans(nid, "alice"), text)   # everything drawn is over its own text


def test_astral_characters_in_adjudication_surrogates_and_reidentified_export(browser, astral, tmp_path):
    import re

    from fastapi.testclient import TestClient

    from crfdeid.review import agreement
    store = astral.store
    text = ASTRAL_NOTE
    api = TestClient(create_app(astral, hosts=("testserver",)))
    nid = store.queue("alice")[0]
    _review_by_api(api, "alice", nid)
    _review_by_api(api, "bob", nid, drop=2)
    agg = api.get(f"/api/aggregate/{nid}").json()                     # code points
    doc_id = agg["doc_id"]

    def extent(it):
        d = it["decision"] or it["suggest"]
        phi = d["verdict"] == "phi" if it["decision"] else d["phi"]
        return (d["start"], d["end"]) if phi else (it["item_start"], it["item_end"])

    with headless.live_server(create_app(astral)) as url:
        browser.get(url + "/")
        browser.execute_script("localStorage.setItem('crfdeid-review-who', 'carol')")
        browser.get(url + "/")                                         # nothing left to review for carol
        wait_js(browser, "return typeof state !== 'undefined' && "
                         "document.getElementById('status').textContent.startsWith('Queue empty')")
        keys(browser, "2")
        wait_js(browser, f"return state.agg.data && state.agg.data.note_id === {nid}")
        items = agg["items"]
        assert drawn(browser, "agg-text") == [(i, text[slice(*extent(it))]) for i, it in enumerate(items)]
        rows = browser.execute_script("return [...document.querySelectorAll('#agg-table tr')].slice(1)"
                                      ".map(r => [r.cells[0].textContent, r.cells[2].textContent])")
        assert rows == [[f"{doc_id}, {it['item_start']}", text[slice(*extent(it))] if it["suggest"]["phi"] else ""]
                        for it in items]
        s, e = extent(items[0])
        grown_end = re.compile(r"\s*(?:[^\W_]+|[^\w\s])").match(text, e).end()
        press(browser, "]")                                            # the first item, one word longer
        first = agreement.decisions(store, nid)[0]
        assert (first["item_start"], first["item_end"]) == (items[0]["item_start"], items[0]["item_end"])
        assert (first["start"], first["end"]) == (s, grown_end), text[first["start"]:first["end"]]
        n = len(items)
        for i in range(n):                                             # confirm each (the first as grown)
            keys(browser, "\n")
            wait_js(browser, f"return state.agg.data.items.filter(it => it.decision).length >= {i + 1} "
                             f"&& state.agg.cur === {min(i + 1, n - 1)}")
        keys(browser, "D")
        wait_js(browser, "return state.agg.data.adjudicated !== null")
        cons = agreement.consensus(store, nid)
        assert (s, grown_end) in [(sp.start, sp.end) for sp in cons]
        keys(browser, "3")
        wait_js(browser, f"return state.sur.data && state.sur.data.id === {nid}")
        sur = api.get(f"/api/surrogates/{nid}").json()["items"]
        assert [text[it["start"]:it["end"]] for it in sur] == [it["original"] for it in sur]
        assert drawn(browser, "sur-text") == [(i, it["original"]) for i, it in enumerate(sur)]
        assert browser.execute_script("return [...document.querySelectorAll('#sur-table tr')].slice(1)"
                                      ".map(r => r.cells[0].textContent)") == [f"{doc_id}, {it['start']}" for it in sur]
        keys(browser, "e")
        wait_js(browser, "return document.activeElement.classList.contains('surrogate')")
        browser.execute_script("document.activeElement.value = ''")
        keys(browser, "Wylx Surrogate")
        press(browser, "\n")                                           # saved at the item's code points
        assert f"surrogate at {sur[0]['start']} approved" in status(browser)
        before = status(browser)
        keys(browser, "A")
        wait_js(browser, f"return document.getElementById('status').textContent !== {json.dumps(before)}")
        wait_js(browser, "return state.sur.data.items.every(it => it.status === 'approved')")
    out = tmp_path / "reid"
    assert review_main(["export", str(astral.path), "--to", "jsonl", "--out", str(out / "notes.jsonl"),
                        "--source", "reidentified"]) == 0
    from crfdeid.io import read
    (doc,) = list(read(f"jsonl:{out / 'notes.jsonl'}"))
    assert doc.text.startswith(text[:sur[0]["start"]])                 # the astral characters kept, in place
    assert doc.surface(doc.spans[0]) == "Wylx Surrogate"
    assert doc.text[doc.spans[0].start:doc.spans[0].start + 14] == "Wylx Surrogate"


# ---------------------------------------------------------------- what a clinician needs (issue 29)
def _retype_and_finish(api, who, nid, retype_first=None):
    h = {"X-Annotator": who}
    note = api.post(f"/api/notes/{nid}/open", headers=h, json={}).json()
    if retype_first:
        api.patch(f"/api/spans/{note['spans'][0]['id']}", headers=h, json={"subtype": retype_first})
    api.post(f"/api/notes/{nid}/done", headers=h, json={})
    return note["spans"]


def _two_reviewers_differ_in_type(project):
    from fastapi.testclient import TestClient
    api = TestClient(create_app(project, hosts=("testserver",)))
    nid = project.store.queue("alice")[0]
    spans = _retype_and_finish(api, "alice", nid)
    first = spans[0]
    other = "HOSPITAL" if first["subtype"] != "HOSPITAL" else "CITY"
    _retype_and_finish(api, "bob", nid, retype_first=other)
    return nid, first, other


def test_aggregate_shows_each_voters_type_and_the_adjudicator_chooses_it(browser, project):
    nid, first, other = _two_reviewers_differ_in_type(project)
    with headless.live_server(create_app(project)) as url:
        start(browser, url, "carol")
        keys(browser, "2")
        wait_js(browser, f"return state.agg.data && state.agg.data.note_id === {nid}")
        head = browser.execute_script("return [...document.querySelectorAll('#agg-table th')].map(t => t.textContent)")
        assert "model (shown, not counted)" in head and "alice" in head and "bob" in head
        row = browser.execute_script("const r = document.querySelectorAll('#agg-table tr')[1]; "
                                     "return [...r.cells].map(c => [c.textContent, c.className])")
        by_col = dict(zip(head, row))
        assert by_col["Correct"][1] == "agree-minority"                 # a type difference is a disagreement
        assert by_col["alice"][0].endswith(f"[{first['subtype']}]") and by_col["bob"][0].endswith(f"[{other}]")
        assert by_col["Type"][0] == "choose (t)"
        keys(browser, "\n")                                            # Enter asks for the type
        wait_js(browser, "return !document.getElementById('typemenu').hidden")
        keys(browser, other.lower())
        press(browser, "\n")
        from crfdeid.review import agreement
        (d,) = [d for d in agreement.decisions(project.store, nid) if d["item_start"] == first["start"]]
        assert (d["verdict"], d["subtype"], d["adjudicator"]) == ("phi", other, "carol")


def test_conflicting_reviews_are_named_and_kept_out_of_surrogates(browser, project):
    nid, _, _ = _two_reviewers_differ_in_type(project)
    doc_id = project.store.note(nid)["doc_id"]
    with headless.live_server(create_app(project)) as url:
        start(browser, url, "carol")
        keys(browser, "2")
        wait_js(browser, f"return state.agg.data && state.agg.data.note_id === {nid}")
        assert "in conflict" in browser.execute_script("return document.getElementById('agg-state').textContent")
        assert "CONFLICT" in browser.execute_script(
            "const s = document.getElementById('agg-note'); return s.options[s.selectedIndex].textContent")
        keys(browser, "3")
        wait_js(browser, "return state.mode === 'surrogates' && state.sur.conflicts === 1")
        assert browser.execute_script("return state.sur.notes.length") == 0     # not final: no surrogates
        assert doc_id in status(browser)
        keys(browser, "4")
        wait_js(browser, "return document.getElementById('progress-body').textContent.includes('in conflict')")
        assert doc_id in browser.execute_script("return document.getElementById('progress-body').textContent")


def test_type_menu_shows_every_type_and_ranks_exact_matches_first(browser, project):
    with headless.live_server(create_app(project)) as url:
        start(browser, url, "alice")
        keys(browser, "j")
        keys(browser, "t")
        wait_js(browser, "return !document.getElementById('typemenu').hidden")
        n_types = browser.execute_script("return state.subtypes.length")
        # every type is drawn inside the list's visible box (none cut off)
        assert browser.execute_script("""
            const list = document.getElementById('typelist'), box = list.getBoundingClientRect();
            const items = [...list.children];
            return items.length && items.every(li => { const r = li.getBoundingClientRect();
              return r.top >= box.top - 1 && r.bottom <= box.bottom + 1 && r.right <= box.right + 1; })
              && items.length""") == n_types
        keys(browser, "other")
        assert browser.execute_script("return document.querySelector('#typelist li').textContent") == "OTHER (OTHER)"
        keys(browser, "\ue003" * 5 + "idnum")                          # backspace, then another word
        assert browser.execute_script("return document.querySelector('#typelist li.sel').textContent") \
            == "IDNUM (ID)"
        keys(browser, "\ue003" * 5 + "zzz")
        keys(browser, "\n")                                            # nothing matches: say so, stay open
        assert not browser.execute_script("return document.getElementById('typemenu').hidden")
        assert "No type matches" in browser.execute_script("return document.getElementById('typenote').textContent")
        keys(browser, "\ue00c")
        wait_js(browser, "return document.getElementById('typemenu').hidden")


def test_review_with_the_mouse_alone(browser, project):
    import re
    store = project.store
    with headless.live_server(create_app(project)) as url:
        start(browser, url, "alice")
        nid = browser.execute_script("return state.review.note.id")
        spans, text = store.spans(nid, "alice"), store.note(nid)["body"]
        # a span with a free word on its right (so that it can grow) and one after it
        i = next(k for k in range(len(spans) - 1)
                 if (m := re.compile(r"\s*\w+").match(text, spans[k]["end"])) and m.end() <= spans[k + 1]["start"])
        browser.find_elements("css selector", "#review-text mark")[i].click()   # a click selects the span
        wait_js(browser, f"return state.review.cur === {i}")

        def click(sel):
            before = status(browser)
            browser.find_element("css selector", sel).click()
            return before

        click("#side button[data-key=j]")
        wait_js(browser, f"return state.review.cur === {i + 1}")
        saved(browser, click("#side button[data-act=accept]"))
        assert store.spans(nid, "alice")[i + 1]["status"] == "accepted"
        click("#side button[data-key=k]")
        wait_js(browser, f"return state.review.cur === {i}")
        saved(browser, click("#side button[data-key=']']"))           # grow right by a word
        grown = store.spans(nid, "alice")[i]
        assert grown["end"] > spans[i]["end"] and grown["start"] == spans[i]["start"]
        saved(browser, click("#side button[data-act=delete]"))
        assert len(store.spans(nid, "alice")) == len(spans) - 1
        # a click outside the type menu closes it (no mouse trap)
        browser.find_element("css selector", "#side button[data-act=type]").click()
        wait_js(browser, "return !document.getElementById('typemenu').hidden")
        browser.find_element("css selector", "#legend").click()
        wait_js(browser, "return document.getElementById('typemenu').hidden")


def test_choosing_a_note_gives_the_keys_back_tables_scroll_and_the_bar_fits(browser, project):
    from fastapi.testclient import TestClient
    from selenium.webdriver.support.ui import Select
    api = TestClient(create_app(project, hosts=("testserver",)))
    ids = sorted(project.store.queue("alice", per_note=2)[:2])
    for nid in ids:
        for who in ("alice", "bob"):
            _retype_and_finish(api, who, nid)
    with headless.live_server(create_app(project)) as url:
        start(browser, url, "carol")
        keys(browser, "2")
        wait_js(browser, f"return state.agg.data && state.agg.data.note_id === {ids[0]}")
        Select(browser.find_element("id", "agg-note")).select_by_value(str(ids[1]))
        wait_js(browser, f"return state.agg.data.note_id === {ids[1]}")
        keys(browser, "j")                                             # the keys work again at once
        wait_js(browser, "return state.agg.cur === 1")
        n = browser.execute_script("return state.agg.data.items.length")
        browser.set_window_size(1024, 520)                              # more rows than the table's height
        try:
            assert browser.execute_script("const w = document.querySelector('#mode-aggregate .tablewrap'); "
                                          "return w.scrollHeight > w.clientHeight")
            keys(browser, "j" * (n - 2))
            wait_js(browser, f"return state.agg.cur === {n - 1}")
            # the last row is reachable: the table scrolls, and the current row is in view
            assert browser.execute_script("""
                const w = document.querySelector('#mode-aggregate .tablewrap');
                const a = w.getBoundingClientRect();
                const b = document.querySelector('#agg-table tr.cur').getBoundingClientRect();
                return getComputedStyle(w).overflowY === 'auto' && w.scrollTop > 0 && b.bottom <= a.bottom + 1""")
            browser.set_window_size(1024, 700)
            keys(browser, "1")
            wait_js(browser, "return state.mode === 'review' && state.review.note !== null")
            width = browser.execute_script("return window.innerWidth")
            for el in ("pageinfo", "helpbtn"):
                right = browser.execute_script(f"const r = document.getElementById('{el}').getBoundingClientRect(); "
                                               "return r.width > 0 ? r.right : null")
                assert right is not None and right <= width, el
        finally:
            browser.set_window_size(1280, 800)


def test_done_note_notice_stays_and_opening_the_page_leaves_no_open_note(browser, project):
    store = project.store
    with headless.live_server(create_app(project)) as url:
        start(browser, url, "alice")
        nid = browser.execute_script("return state.review.note.id")
        pages = browser.execute_script("return state.pages['review-text'].count")
        keys(browser, " " * (pages - 1))
        keys(browser, "n")
        wait_js(browser, f"return state.review.note && state.review.note.id !== {nid}")
        assert "undecided suggestions accepted" in status(browser) and "Opened note" in status(browser)
        # an adjudicator opening the page on the way to aggregate mode leaves nothing open
        start(browser, url, "carol")
        carol_first = browser.execute_script("return state.review.note.id")
        assert store.review_state(carol_first, "carol")["state"] == "open"
        keys(browser, "2")
        wait_js(browser, "return state.mode === 'aggregate'")
        wait_js(browser, "return state.review.note === null")
        assert store.review_state(carol_first, "carol") is None
        browser.get(url + "/")                                          # the page comes back in her mode
        wait_js(browser, "return typeof state !== 'undefined' && state.mode === 'aggregate'")
        assert all(store.review_state(r["id"], "carol") is None for r in store.notes())
