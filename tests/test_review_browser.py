"""The review page in a real headless Chromium (Debian's chromium + chromium-driver, Selenium):
review with the keyboard, add/alter/delete, a span added in caret mode with keys only,
export and re-import, two annotators and adjudication, surrogate review and the
re-identified export; the same on a note with characters outside the Basic Multilingual
Plane (offsets in code points on the server, UTF-16 units in the page). Synthetic notes only.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi", reason="the review extra is not installed (pip install crfdeid[review])")
from crfdeid.review import headless  # noqa: E402

why = headless.available()
pytestmark = [pytest.mark.slow, pytest.mark.skipif(why is not None, reason=why or "")]

from crfdeid.cli.review import main as review_main  # noqa: E402
from crfdeid.review.project import Project  # noqa: E402
from crfdeid.review.server import create_app  # noqa: E402


@pytest.fixture(scope="module")
def browser():
    with headless.chromium(1280, 800) as driver:
        driver.set_script_timeout(20)
        yield driver


@pytest.fixture
def project(tmp_path):
    path = tmp_path / "proj"
    assert review_main(["init", str(path), "--per-note", "2"]) == 0
    assert review_main(["import", str(path), "synth:3,7"]) == 0
    p = Project.open(path)
    yield p
    p.close()


def keys(driver, text):
    from selenium.webdriver.common.action_chains import ActionChains
    ActionChains(driver).send_keys(text).perform()


def wait_js(driver, script, timeout=10):
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: d.execute_script(script))


def saved(driver, before):
    """Wait until the status line changed from ``before`` and says the change was saved."""
    return wait_js(driver, f"const s = document.getElementById('status').textContent; "
                           f"return s !== {json.dumps(before)} && s.startsWith('Saved') ? s : false")


def status(driver):
    return driver.execute_script("return document.getElementById('status').textContent")


def start(driver, url, who):
    driver.get(url + "/")
    driver.execute_script(f"localStorage.setItem('crfdeid-review-who', {json.dumps(who)})")
    driver.get(url + "/")
    wait_js(driver, "return typeof state !== 'undefined' && state.review.note !== null")


def press(driver, text):
    before = status(driver)
    keys(driver, text)
    return saved(driver, before)


def test_keyboard_review_add_alter_delete_export_and_reimport(browser, project, tmp_path):
    store = project.store
    with headless.live_server(create_app(project)) as url:
        start(browser, url, "alice")
        nid = browser.execute_script("return state.review.note.id")
        spans = store.spans(nid, "alice")
        assert len(spans) >= 4 and all(sp["status"] == "suggested" for sp in spans)
        keys(browser, "j")
        press(browser, "a")                          # accept the first
        keys(browser, "j")
        press(browser, "x")                          # delete the second
        keys(browser, "j")                           # the third (was the fourth)
        keys(browser, "t")
        wait_js(browser, "return !document.getElementById('typemenu').hidden")
        keys(browser, "date")
        press(browser, "\n")                         # change its type
        before = {sp["id"]: sp for sp in store.spans(nid, "alice")}
        third = browser.execute_script("return state.review.note.spans[state.review.cur]")
        press(browser, "]")                          # grow it one word to the right
        # add a span: select a free word with the "mouse" (a DOM range), then s
        word = browser.execute_script("""
            const el = document.getElementById('review-text');
            for (const node of el.querySelectorAll('span')) {
              const m = /[A-Za-z]{6,}/.exec(node.textContent);
              if (!m) continue;
              const r = document.createRange();
              r.setStart(node.firstChild, m.index + 1); r.setEnd(node.firstChild, m.index + 4);
              const sel = window.getSelection(); sel.removeAllRanges(); sel.addRange(r);
              const s = Number(node.dataset.s) + m.index;
              return [s, s + m[0].length];
            }""")
        keys(browser, "s")
        wait_js(browser, "return !document.getElementById('typemenu').hidden")
        keys(browser, "city")
        press(browser, "\n")
        after = {sp["id"]: sp for sp in store.spans(nid, "alice", include_deleted=True)}
        kept = [sp for sp in after.values() if sp["status"] != "deleted"]
        assert [sp["status"] for sp in after.values()].count("deleted") == 1
        assert sum(sp["status"] == "accepted" for sp in kept) == 3    # accepted, retyped+grown, added
        grown = after[third["id"]]
        assert grown["subtype"] == "DATE" and grown["start"] == third["start"] and grown["end"] > third["end"]
        assert before[third["id"]]["end"] == third["end"]
        added = [sp for sp in kept if sp["origin"] == "human"]
        assert [(sp["start"], sp["end"], sp["subtype"]) for sp in added] == [(word[0], word[1], "CITY")]
        # done: n pages through to the end first, then opens the next note
        for _ in range(30):
            keys(browser, "n")
            if browser.execute_script("return state.review.note && state.review.note.id") != nid:
                break
            wait_js(browser, "return true")
        wait_js(browser, f"return state.review.note && state.review.note.id !== {nid}")
        assert store.review_state(nid, "alice")["state"] == "done"
        final = [(sp["start"], sp["end"], sp["subtype"]) for sp in store.spans(nid, "alice")]
        assert all(sp["status"] == "accepted" for sp in store.spans(nid, "alice"))
    doc_id = store.note(nid)["doc_id"]
    out = tmp_path / "out"
    assert review_main(["export", str(project.path), "--to", "brat", "--out", str(out), "--source", "alice"]) == 0
    assert review_main(["init", str(tmp_path / "again")]) == 0
    assert review_main(["import", str(tmp_path / "again"), f"brat:{out}", "--annotations-as", "alice"]) == 0
    again = Project.open(tmp_path / "again")
    try:
        row = next(r for r in again.store.notes() if r["doc_id"] == doc_id)
        assert [(sp["start"], sp["end"], sp["subtype"]) for sp in again.store.spans(row["id"], "alice")] == final
    finally:
        again.close()


def _review_by_api(client, who, nid, drop=0):
    h = {"X-Annotator": who}
    note = client.post(f"/api/notes/{nid}/open", headers=h, json={}).json()
    for sp in note["spans"][:drop]:
        client.patch(f"/api/spans/{sp['id']}", headers=h, json={"status": "deleted"})
    client.post(f"/api/notes/{nid}/done", headers=h, json={})


def test_adjudication_then_surrogate_review_and_reidentified_export(browser, project, tmp_path):
    from fastapi.testclient import TestClient
    store = project.store
    app = create_app(project)
    api = TestClient(create_app(project, hosts=("testserver",)))
    nid = store.queue("alice")[0]
    _review_by_api(api, "alice", nid)
    _review_by_api(api, "bob", nid, drop=2)
    with headless.live_server(app) as url:
        start(browser, url, "carol")
        keys(browser, "2")
        wait_js(browser, f"return state.agg.data && state.agg.data.note_id === {nid}")
        assert browser.execute_script("return state.agg.data.voters") == ["alice", "bob", "model"]
        model_box = browser.find_element("css selector", "#agg-voters input[data-name=model]")
        model_box.click()                            # the model no longer votes
        wait_js(browser, "return state.agg.data.voters.join() === 'alice,bob'")
        browser.find_element("css selector", "#agg-voters input[data-name=model]").click()
        wait_js(browser, "return state.agg.data.voters.join() === 'alice,bob,model'")
        browser.execute_script("document.activeElement.blur()")  # keys go to the page again
        n_items = browser.execute_script("return state.agg.data.items.length")
        colours = browser.execute_script(
            "return [...document.querySelectorAll('#agg-table td[class^=agree-]')].map(td => td.className)")
        assert len(colours) == n_items and {"agree-all", "agree-minority"} <= set(colours)  # bob dropped two
        for _ in range(n_items):
            press(browser, "\n")                     # confirm each suggestion
        keys(browser, "D")
        wait_js(browser, "return state.agg.data.adjudicated !== null")
        cons = project.store.db.one("SELECT adjudicator FROM adjudications WHERE note_id = ?", (nid,))
        assert cons["adjudicator"] == "carol"
        keys(browser, "S")
        wait_js(browser, "return document.getElementById('scores-table') !== null")
        table = browser.execute_script("return document.getElementById('scores-table').textContent")
        assert "alice (human)" in table and "bob (human)" in table and "model (model)" in table
        keys(browser, "\ue00c")                      # Escape closes the scores
        keys(browser, "3")
        wait_js(browser, f"return state.sur.data && state.sur.data.id === {nid}")
        items = browser.execute_script("return state.sur.data.items")
        keys(browser, "e")
        wait_js(browser, "return document.activeElement.classList.contains('surrogate')")
        browser.execute_script("document.activeElement.value = ''")
        keys(browser, "Qzxv Surrogate")
        press(browser, "\n")                         # saves and approves
        before = status(browser)
        keys(browser, "A")
        wait_js(browser, f"return document.getElementById('status').textContent !== {json.dumps(before)}")
        wait_js(browser, "return state.sur.data.items.every(it => it.status === 'approved')")
    out = tmp_path / "reid"
    assert review_main(["export", str(project.path), "--to", "i2b2", "--out", str(out),
                        "--source", "reidentified"]) == 0
    from crfdeid.io import read
    (doc,) = list(read(f"i2b2:{out}"))
    original = store.note(nid)["body"]
    assert doc.doc_id == store.note(nid)["doc_id"] and doc.text != original
    surfaces = [doc.surface(sp) for sp in doc.spans]
    assert surfaces[0] == "Qzxv Surrogate"
    import re
    longer = [it["original"] for it in items if len(it["original"]) >= 5]
    assert longer and not [o for o in longer if re.search(r"\b" + re.escape(o) + r"\b", doc.text)]


def test_long_note_is_paged_one_screen_at_a_time_and_read_to_the_end(browser, tmp_path):
    p = Project.create(tmp_path / "proj")
    nid = p.store.add_note(headless.long_document(1500))
    p.store.add_note(headless.long_document(30, doc_id="900-02"))
    try:
        with headless.live_server(create_app(p)) as url:
            start(browser, url, "alice")
            assert browser.execute_script("return state.review.note.id") == nid
            pages = browser.execute_script("return state.pages['review-text'].count")
            assert pages >= 3
            # no scroll bars: neither the page nor the text box has anything to scroll to
            assert browser.execute_script(
                "const t = document.getElementById('review-text'); return document.documentElement.scrollHeight "
                "<= window.innerHeight && t.scrollHeight <= t.clientHeight + 1")
            assert "1/" in browser.execute_script("return document.getElementById('pageinfo').textContent")
            keys(browser, "c")                       # the caret goes along with the page shown
            wait_js(browser, "return state.caret && state.caret.head === 0")
            keys(browser, " ")
            wait_js(browser, "return state.pages['review-text'].page === 1 && state.caret.head > 0")
            keys(browser, "\ue012")                  # left arrow: the last word of page 1, shown again
            wait_js(browser, "return state.pages['review-text'].page === 0")
            head, words = browser.execute_script("return [state.caret.head, state.caret.words.length]")
            assert 0 < head < words and status(browser).startswith("Caret: ")
            keys(browser, "\ue00c")
            wait_js(browser, "return state.caret === null")
            keys(browser, "n")                       # not on the last page: the next page, same note
            wait_js(browser, "return state.pages['review-text'].page === 1")
            assert browser.execute_script("return state.review.note.id") == nid
            assert "Read to the end first" in status(browser)
            for _ in range(pages - 2):
                keys(browser, " ")
            wait_js(browser, f"return state.pages['review-text'].page === {pages - 1}")
            # the end of the note is on the last page, inside the visible box
            assert browser.execute_script("""
                const t = document.getElementById('review-text'), box = t.getBoundingClientRect();
                const rects = t.lastElementChild.getClientRects(), last = rects[rects.length - 1];
                return last.left >= box.left - 1 && last.right <= box.right + 1 && last.bottom <= box.bottom + 1""")
            keys(browser, "n")
            wait_js(browser, f"return state.review.note && state.review.note.id !== {nid}")
            assert p.store.review_state(nid, "alice")["state"] == "done"
            keys(browser, "4")                       # progress: notes done, estimated recall
            wait_js(browser, "return document.getElementById('progress-body').textContent"
                             ".includes('1 of 2 notes reviewed')")
            assert "Estimated recall" in browser.execute_script(
                "return document.getElementById('progress-body').textContent")
    finally:
        p.close()


def _shift(driver, key, times=1):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys
    ActionChains(driver).key_down(Keys.SHIFT).send_keys(key * times).key_up(Keys.SHIFT).perform()


def _add_two_words_by_caret(driver, t, surface, offsets):
    """From the caret on the first word: move to word ``t``, extend over the next one, add it as CITY."""
    from selenium.webdriver.common.keys import Keys
    keys(driver, Keys.ARROW_RIGHT * t)
    wait_js(driver, f"return state.caret.head === {t} && state.caret.anchor === {t}")
    _shift(driver, Keys.ARROW_RIGHT)                  # extend the selection by one word
    wait_js(driver, f"return state.caret.head === {t + 1} && state.caret.anchor === {t}")
    assert driver.execute_script("return CSS.highlights.get('caret-sel').values().next().value.toString()") == surface
    assert offsets in status(driver)
    keys(driver, "s")
    wait_js(driver, "return !document.getElementById('typemenu').hidden")
    keys(driver, "city")
    press(driver, "\n")


def test_caret_mode_selects_words_and_adds_a_span_with_keys_only(browser, project):
    import re

    from selenium.webdriver.common.keys import Keys
    store = project.store
    with headless.live_server(create_app(project)) as url:
        start(browser, url, "alice")
        nid = browser.execute_script("return state.review.note.id")
        text = store.note(nid)["body"]
        spans = store.spans(nid, "alice")
        words = [(m.start(), m.end()) for m in re.finditer(r"[^\W_]+", text)]
        # two neighbouring words, nothing between them in a span, letters only, not at the start
        t = next(i for i in range(3, len(words) - 1)
                 if not any(sp["start"] < words[i + 1][1] and words[i][0] < sp["end"] for sp in spans)
                 and text[words[i][0]:words[i + 1][1]].replace(" ", "").isalpha())
        head = "return state.caret && state.caret.head"
        keys(browser, "?")                             # the keys, caret ones included, all in view
        wait_js(browser, "return !document.getElementById('help').hidden")
        assert browser.execute_script("const h = document.getElementById('help'); return "
                                      "h.scrollHeight <= h.clientHeight + 1 && h.scrollWidth <= h.clientWidth + 1")
        assert "Caret" in browser.execute_script("return document.getElementById('help').textContent")
        keys(browser, "?")
        keys(browser, "c")
        wait_js(browser, "return state.caret !== null")
        assert browser.execute_script(head) == 0 and browser.execute_script("return state.caret.words") == \
            [list(w) for w in words]
        assert browser.execute_script("return !document.getElementById('caretinfo').hidden")
        assert browser.execute_script("return document.getElementById('status').getAttribute('aria-live')") == "polite"
        assert status(browser).startswith("Caret: ") and "Esc leaves" in status(browser)
        keys(browser, Keys.ARROW_DOWN)                 # a visual line down, then back up
        wait_js(browser, "return state.caret.head > 0")
        below = browser.execute_script(head)
        assert "\n" in text[words[0][1]:words[below][0]]
        keys(browser, Keys.ARROW_UP)
        wait_js(browser, "return state.caret.head === 0")
        keys(browser, Keys.END)                        # the last word of the first line
        wait_js(browser, "return state.caret.head > 0")
        end = browser.execute_script(head)
        assert "\n" not in text[words[0][0]:words[end][1]] and "\n" in text[words[end][1]:words[end + 1][0]]
        keys(browser, Keys.HOME)
        wait_js(browser, "return state.caret.head === 0")
        s, e = words[t][0], words[t + 1][1]
        _add_two_words_by_caret(browser, t, text[s:e], f"{s}-{e}")
        added = [(sp["start"], sp["end"], sp["subtype"], sp["status"]) for sp in store.spans(nid, "alice")
                 if sp["origin"] == "human"]
        assert added == [(s, e, "CITY", "accepted")]
        assert browser.execute_script("return state.caret !== null && state.caret.head === state.caret.anchor")
        keys(browser, Keys.ESCAPE)                     # leave caret mode: the review keys as before
        wait_js(browser, "return state.caret === null")
        assert browser.execute_script("return document.getElementById('caretinfo').hidden "
                                      "&& !CSS.highlights.has('caret-sel')")
        assert status(browser) == "Caret mode off."
        keys(browser, Keys.ARROW_RIGHT)                # no caret now: arrows do nothing
        cur, shown = browser.execute_script("return [state.review.cur, state.review.note.spans]")
        target = next(i for i, sp in enumerate(shown) if sp["status"] == "suggested")
        keys(browser, "j" * (target - cur) if target > cur else "k" * (cur - target))
        wait_js(browser, f"return state.review.cur === {target}")
        press(browser, "a")
        assert browser.execute_script("return state.caret") is None
        assert {sp["id"]: sp["status"] for sp in store.spans(nid, "alice")}[shown[target]["id"]] == "accepted"
        keys(browser, "s")                             # no caret, no mouse selection: nothing to add
        wait_js(browser, "return document.getElementById('status').textContent.startsWith('Select text first')")
        assert len(store.spans(nid, "alice")) == len(spans) + 1


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


def test_an_accept_on_a_note_of_hundreds_of_spans_redraws_one_mark(browser, tmp_path):
    p = Project.create(tmp_path / "proj")
    doc = headless.long_document(6000)
    nid = p.store.add_note(doc.__class__(doc.doc_id, doc.text, [], doc.meta))
    p.store.set_suggestions(nid, doc.spans, [0.9] * len(doc.spans), 0, 1.0)
    assert len(doc.spans) >= 500
    try:
        with headless.live_server(create_app(p)) as url:
            start(browser, url, "alice")
            keys(browser, "j")
            wait_js(browser, "return state.review.cur === 0")
            browser.execute_script("window.lastMark = document.querySelector('#review-text mark:last-of-type')")
            times = browser.execute_async_script("""
                const done = arguments[arguments.length - 1], out = [];
                (async () => {
                  for (let i = 0; i < 25; i++) {
                    const t0 = performance.now();
                    document.dispatchEvent(new KeyboardEvent('keydown', { key: i % 2 ? 'j' : 'a', bubbles: true }));
                    await state.chain;
                    if (i % 2 === 0) out.push(performance.now() - t0);
                  }
                  done(out);
                })();""")
            # the marks are the same nodes (nothing was drawn again) and every accept was saved
            assert browser.execute_script("return window.lastMark.isConnected")
            accepted = [sp for sp in p.store.spans(nid, "alice") if sp["status"] == "accepted"]
            assert len(accepted) == 13
            full = browser.execute_script("const t0 = performance.now(); for (let i = 0; i < 3; i++) drawReview(); "
                                          "return (performance.now() - t0) / 3")
            times.sort()
            median = times[len(times) // 2]
            print(f"accept on a note of {len(doc.spans)} spans: median {median:.1f} ms (request included), "
                  f"max {times[-1]:.1f} ms; a full redraw alone {full:.1f} ms")
            # the request and one mark cost less than drawing the note again alone (which every accept
            # did, on top of its request); a ratio, so that a busy machine slows both sides alike. Not
            # full / 2: on a quiet machine the request's own floor (about 20 ms, the store's commit) is
            # already half of a 40 ms redraw (2026-11-23, CI at 910cd40: median 20.4 ms, redraw 40.8 ms)
            assert median < full, (times, full)
    finally:
        p.close()


def test_the_span_panel_shows_why_the_model_suggested_the_span(browser, project):
    with headless.live_server(create_app(project)) as url:
        start(browser, url, "alice")
        keys(browser, "j")
        wait_js(browser, "return [...document.querySelectorAll('#current button')]"
                         ".some((b) => b.textContent === 'ask the model')")
        browser.execute_script("[...document.querySelectorAll('#current button')]"
                               ".find((b) => b.textContent === 'ask the model').click()")
        why = wait_js(browser, "const d = [...document.querySelectorAll('#current div')]"
                               ".find((d) => d.textContent.startsWith('Why: ') && !d.querySelector('button'));"
                               "return d ? d.textContent : false")
        assert " found" in why and "changed" not in why and "no longer" not in why
