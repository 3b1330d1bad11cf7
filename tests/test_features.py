"""Feature templates, the +-window, caching and feature-set resolution."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crfdeid.errors import ConfigError
from crfdeid.features import TOKEN_TEMPLATES, WORD_TEMPLATES, Featurizer, resolve_feature_set, to_attributes
from crfdeid.features.surface import match_tokens
from crfdeid.text.tokenize import tokenize

ALL = {"groups": {"lexical": True, "orthographic": True, "pattern": True,
                  "dictionary": True, "context": True}}


def test_templates_are_registered_with_versioned_names():
    for name in WORD_TEMPLATES.names() + TOKEN_TEMPLATES.names():
        assert name.rsplit(".", 1)[1].startswith("v"), name


@pytest.mark.parametrize("name, word, expected", [
    ("shape.v1", "Lee12", {"shape": "Xxxdd"}),
    ("short_shape.v1", "McDonald", {"sshape": "XxXx"}),
    ("lower.v1", "LEE", {"lower": "lee"}),
    ("digits.v1", "02115", {"digits": "5"}),
    ("digits.v1", "2098", {"digits": "year"}),
    ("digits.v1", "17", {"digits": "day"}),
])
def test_word_templates(name, word, expected):
    assert WORD_TEMPLATES.get(name)(word) == expected


def test_item_format_matches_python_crfsuite():
    assert to_attributes({"a": "x", "b": True, "c": False, "d": {"e": "f"}}) == ["a:x", "b", "d:e:f"]


def test_window_keys_are_offset_prefixed():
    fz = Featurizer({"word": ["lower.v1"], "window": 2, "token_window": 0, "bigrams": False})
    feats = fz.featurize_text("Seen by Dr Lee today")
    assert feats[3] == ["lower:lee", "-2:lower:by", "-1:lower:dr", "+1:lower:today", "+2:EOS"]
    assert "-1:BOS" in feats[0] and "-2:BOS" in feats[1]


def test_window_size_is_configurable():
    fz = Featurizer({"word": ["lower.v1"], "window": 0, "token_window": 0, "bigrams": False})
    assert fz.featurize_text("Dr Lee")[1] == ["lower:lee"]


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet="ab AB12/.-:\n", max_size=60))
def test_cached_features_equal_uncached(text):
    fz = Featurizer(ALL)
    toks = tokenize(text)
    first = fz.featurize(text, toks)
    assert first == fz.featurize(text, toks, cache=False)
    assert fz.featurize(text, toks) == first  # second call served from the cache


def test_glued_flag_distinguishes_run_together_tokens():
    fz = Featurizer({"groups": {"orthographic": True}, "token_window": 0})
    glued = fz.featurize_text("Since6/03")
    spaced = fz.featurize_text("Since 6 / 03")
    assert "glued_r" in glued[0] and "glued_r" not in spaced[0]


def test_text_patterns_mark_every_covered_token():
    text = "call (617) 555-0199 on 7/22/2098, 91 yo"
    toks = tokenize(text)
    marks = match_tokens(text, toks)
    by_text = {t.text: m for t, m in zip(toks, marks)}
    assert "pat:phone" in by_text["617"] and "pat:phone" in by_text["0199"]
    assert "pat:date" in by_text["2098"] and "pat:age" in by_text["yo"]
    assert "pat:date" not in by_text["call"]


def test_context_features_section_line_and_triggers():
    fz = Featurizer({"groups": {"context": True}, "token_window": 0})
    text = "Social: lives with wife Ann\n- called Bob"
    toks = tokenize(text)
    feats = fz.featurize(text, toks)
    ann = [t.text for t in toks].index("Ann")
    assert "section:social" in feats[ann]
    assert "trig:name:1" in feats[ann]
    bob = [t.text for t in toks].index("Bob")
    assert "list_item" in feats[bob] and "linepos:last" in feats[bob]


def test_dictionary_features_use_gazetteers():
    fz = Featurizer({"groups": {"dictionary": True}, "window": 0, "token_window": 0})
    feats = fz.featurize_text("January")
    assert "g:month" in feats[0]


def test_unknown_group_or_template_lists_the_known_ones():
    with pytest.raises(ConfigError, match="known: lexical"):
        resolve_feature_set({"groups": {"lexicon": True}})
    with pytest.raises(ConfigError, match="shape.v1"):
        resolve_feature_set({"word": ["shape.v9"]})
    with pytest.raises(ConfigError, match="allowed"):
        resolve_feature_set({"windw": 2})


def test_resolution_is_idempotent():
    fs = resolve_feature_set(ALL)
    assert resolve_feature_set(fs) == fs


def _reference(fz, text, toks):
    """Per-token, per-offset features computed the slow obvious way."""
    words = [t.text for t in toks]
    n = len(words)
    out = []
    for i, w in enumerate(words):
        f = fz.word_attributes(w)
        for o in fz._offsets:
            j = i + o
            if 0 <= j < n:
                f += fz.neighbour_attributes(words[j], o)
            elif j in (-1, n):
                f.append(f"{o:+d}:{'BOS' if o < 0 else 'EOS'}")
        out.append(sorted(f))
    return out


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="ab A1/.\n", max_size=12), st.integers(0, 4))
def test_window_matches_reference_on_short_texts(text, window):
    fz = Featurizer({"word": ["lower.v1", "shape.v1"], "window": window, "token_window": 0,
                     "bigrams": False})
    toks = tokenize(text)
    assert [sorted(f) for f in fz.featurize(text, toks)] == _reference(fz, text, toks)


def _feats_of(fz, text):
    toks = tokenize(text)
    return {t.text: f for t, f in zip(toks, fz.featurize(text, toks))}


def test_triggers_after_mark_the_words_before_a_title_or_hospital():
    fz = Featurizer({"word": [], "token": ["triggers_after.v1"], "window": 0, "token_window": 0, "bigrams": False})
    feats = _feats_of(fz, "seen by V. Finn, RRT\nto Union hosp today")
    assert "trig_after:name:2" in feats["Finn"] and "trig_after:name:3" not in feats["Finn"]
    assert feats["Union"] == ["trig_after:place:1"]
    assert feats["seen"] == [] and feats["today"] == []  # other line / after the trigger


@pytest.mark.parametrize("text, word, expected", [
    ("we spoke with Sarah today", "Sarah", ["case:cap_mid_lower"]),
    ("we spoke with VARGA today", "VARGA", ["case:upper_mid_lower"]),
    ("Sarah called today", "Sarah", ["case:sent_start"]),
    ("PT CALLED sarah TODAY", "sarah", ["case:lower_in_upper"]),
    ("PT CALLED SARAH TODAY", "SARAH", []),
])
def test_case_context_compares_a_word_with_its_line(text, word, expected):
    fz = Featurizer({"word": [], "token": ["case_context.v1"], "window": 0, "token_window": 0, "bigrams": False})
    assert _feats_of(fz, text)[word] == expected


def test_rank_buckets_separate_frequent_and_rare_entries():
    rank = WORD_TEMPLATES.get("rank.v1")
    assert rank("the") == {"rank:eng": "top100"}
    assert rank("Smith")["rank:sur"] == "top100"
    assert rank("zzqxv") == {}


def test_rank_is_the_bucket_of_the_first_list_and_position_of_each_kind():
    """Every entry of the ranked lists, against the rule written out: for each kind, the first
    list of that kind holding the word (case-insensitive) at its first position gives the bucket."""
    from crfdeid import gazetteers
    from crfdeid.features.context import RANKED_LISTS
    rank = WORD_TEMPLATES.get("rank.v1")
    lists = [(kind, [e.lower() for e in gazetteers.entries(name)]) for name, kind in RANKED_LISTS.items()]

    def expected(word):
        got = {}
        for kind, entries in lists:
            if f"rank:{kind}" not in got and word.lower() in entries:
                r = entries.index(word.lower())
                got[f"rank:{kind}"] = next((f"top{b}" for b in (100, 1000, 5000) if r < b), "tail")
        return got
    words = {e for _, entries in lists for e in entries[::97]} | {"Nancy", "FINN", "the"}
    assert all(list(rank(w).items()) == list(expected(w).items()) for w in words)  # same order too
    fz = Featurizer({"groups": {"dictionary": True}, "window": 0, "token_window": 0})
    assert "g:sur_rare" in fz.featurize_text("Betschart")[0]  # census tail, not in the top 20000


def test_a_resolved_set_keeps_its_templates_when_a_group_gains_one():
    """A model's saved feature set must not pick up templates added to its groups later."""
    old = resolve_feature_set(ALL)
    old["word"] = [t for t in old["word"] if t != "rank.v1"]           # as saved before rank.v1
    old["token"] = [t for t in old["token"] if t != "case_context.v1"]
    again = resolve_feature_set(old)
    assert "rank.v1" not in again["word"] and "case_context.v1" not in again["token"]
    assert again == resolve_feature_set(again)


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(alphabet=st.characters(max_codepoint=127)), st.text()))
def test_shape_fast_paths_equal_the_regexes(w):
    from crfdeid.features import surface as orth
    by_regex = orth._DIGIT.sub("d", orth._LOWER.sub("x", orth._UPPER.sub("X", w)))
    assert orth._shape(w) == by_regex
    assert orth._collapse(w) == orth._COLLAPSE.sub(r"\1", w)


_ASCII = st.lists(st.sampled_from(["7", "22", "/", "-", ".", " ", "\n", "Jan", "march", "SEPT", "of", "th",
                                   "1998", "2098", "'", ",", "Mon", "tues", "A12B3", "x", "_", "ab12cd", "DEC",
                                   "Sun", "1st", "ND"]),
                  max_size=25).map("".join)


@settings(max_examples=300, deadline=None)
@given(_ASCII)
def test_ascii_twins_match_like_the_regex_patterns(text):
    from crfdeid.features.surface import ASCII_TWINS
    for rx, twin in ASCII_TWINS.items():
        assert [m.span() for m in twin.finditer(text.lower())] == [m.span() for m in rx.finditer(text)], rx.pattern


def test_ascii_twins_match_like_the_regex_patterns_on_physionet(physionet_docs):
    from crfdeid.features.surface import ASCII_TWINS
    for doc in physionet_docs[::5]:
        assert doc.text.isascii()
        for rx, twin in ASCII_TWINS.items():
            assert [m.span() for m in twin.finditer(doc.text.lower())] == [m.span() for m in rx.finditer(doc.text)]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="a|:", max_size=4), st.text(alphabet="a|:", max_size=4))
def test_bigram_pairs_of_inverts_bigram_pair_attributes(left, right):
    for k, attr in enumerate(Featurizer.bigram_pair_attributes(left, right)):
        found = Featurizer.bigram_pairs_of(attr)
        assert (k, left, right) in found
        assert all(Featurizer.bigram_pair_attributes(a, b)[j] == attr for j, a, b in found)


@pytest.mark.parametrize("caseless", [False, True, ["lower", "upper"]])
def test_a_words_attributes_at_each_offset_are_those_of_its_one_template_run(caseless):
    from crfdeid.features import caseless as marks
    fz = Featurizer({**ALL, "caseless": caseless})
    for word in ["Lee", "02115", "dr.", "MRN", "3/14/98", marks.MARK + "dorset", marks.MARK + "lee",
                 marks.UPPER_MARK + "DR", marks.UPPER_MARK + "LEE"]:
        mine, windowed = fz.type_attributes(word)
        assert fz.word_attributes(word) == mine
        assert fz.window_attributes(word)[0] == mine
        for o in fz.offsets:
            assert fz.neighbour_attributes(word, o) == [f"{o:+d}:{a}" for a in windowed]
    assert fz.word_attributes(marks.MARK + "dorset") == marks.marked(fz.word_attributes("dorset"))
    assert fz.word_attributes(marks.UPPER_MARK + "LEE") == marks.marked(fz.word_attributes("LEE"), marks.UPPER_MARK)


def test_uncached_featurize_runs_each_word_template_once_a_word_type():
    fz = Featurizer(ALL)
    calls = []

    def counted(template):
        def run(word):
            calls.append(word)
            return template(word)
        return run

    text = "Seen by Dr Lee today; Dr Lee seen again 3/14/98."
    toks = tokenize(text)
    expected = Featurizer(ALL).featurize(text, toks)
    fz._word = [counted(t) for t in fz._word]
    assert fz.featurize(text, toks, cache=False) == expected
    assert len(calls) == len(fz._word) * len({t.text for t in toks})
