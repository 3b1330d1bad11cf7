"""The recognizers' rule tables (crfdeid/_data/rules/*.tsv) and the engine that reads them
(crfdeid/recognizers/ruledata.py): every shipped row parses and compiles, every table names its
source and licence, and a malformed row is an error that names the table, line and what is allowed."""

from __future__ import annotations

import re
from importlib import resources

import pytest
import regex

from crfdeid.errors import RegistryError
from crfdeid.recognizers import ruledata

TABLES = sorted(p.name[:-4] for p in resources.files("crfdeid._data").joinpath("rules").iterdir()
                if p.name.endswith(".tsv"))


def test_the_tables_are_shipped():
    assert {"overlay", "phrases", "values", "contextforms"} <= set(TABLES)


@pytest.mark.parametrize("name", TABLES)
def test_every_table_names_its_source_and_licence(name):
    head = resources.files("crfdeid._data").joinpath("rules", f"{name}.tsv").read_text(encoding="utf-8")
    header = [line for line in head.splitlines()[:8] if line.startswith("#")]
    assert any(line.startswith("# source:") for line in header), name
    assert any(line.startswith("# licence:") for line in header), name


@pytest.mark.parametrize("name", TABLES)
def test_every_row_of_every_table_compiles(name):
    # a table of its own: the shared one's namespace must be filled by its module, not with "word"
    table = ruledata._parse(name, resources.files("crfdeid._data").joinpath("rules", f"{name}.tsv")
                            .read_text(encoding="utf-8"))
    pieces = {n for n, (kind, _, _) in table.rows.items() if kind in ("define", "pattern", "regex", "lazy")}
    texts = [r[2] for r in table.rows.values()] + [t for m in table.maps.values() for t in m.values()]
    # what the module fills in (a word list's alternation, another module's piece): a word
    given = {n: "word" for text in texts for n in re.findall(r"\$\{(\w+)\}", text) if n not in pieces}
    ns = table.namespace(**given)  # every pattern and regex row compiled (the lazy ones below)
    for row, (kind, _, _) in table.rows.items():
        if kind == "lazy":
            assert getattr(ns, row).pattern, (name, row)
    for row, (kind, _, _) in table.rows.items():
        if kind in ("rule", "template"):
            regex.compile(table.source(row, **given), table.flags(row))
        if kind == "rule":
            assert re.fullmatch(r"[A-Z-]+", table.labels[row]), (name, row)
    for items in table.lists:
        assert all(regex.compile(item) for item in table.items(items))


def test_defines_continuations_and_given_values_fill_a_pattern():
    table = ruledata._parse("t", "# source: test\n# licence: MIT\ndefine\tD\t[0-9]\n+\t+\n"
                                 "pattern\tP\ti\tab${D}\ntemplate\tT\tt\t${D}${X}\nwords\tW\tx y\n"
                                 "phrases\tF\ta b|c\nrule\tR\tZIP\t-\t${P}\n"
                                 "item\tL\tx${D}\n+\ty\nitem\tL\tz\n")
    assert table.re("P").pattern == "ab[0-9]+" and table.flags("P") == re.I
    assert table.source("T", X="z") == "[0-9]+z" and table.templates() == [("T", 0, True)]
    assert table.words("W") == {"x", "y"} and table.entries("F") == ("a b", "c")
    assert table.rules() == [("R", "ZIP", 0)] and table.source("R") == "ab[0-9]+"
    assert table.namespace().P.match("AB12") is not None
    assert table.items("L") == ["x[0-9]+y", "z"]  # a list's rows in order, continued and filled


def test_lazy_rows_compile_on_first_use_and_maps_keep_their_order():
    table = ruledata._parse("t", "define\tD\t[0-9]\nlazy\tL\tm\t^${D}${X}$\n"
                                 "map\tM\tb\tx ${D}\n+\t y\nmap\tM\ta\tz\n")
    lazy = table.namespace(X="q").L
    assert "pattern" not in vars(lazy) and lazy.source == "^[0-9]q$" and lazy.flags & regex.M
    assert lazy.search("a\n7q") is not None
    assert table.mapping("M") == {"b": "x [0-9] y", "a": "z"} and list(table.mapping("M")) == ["b", "a"]
    with pytest.raises(RegistryError, match="known: M"):
        table.mapping("N")


@pytest.mark.parametrize("text, message", [
    ("pattern\tP\tq\tx\n", "flags 'q'"),
    ("patern\tP\t-\tx\n", "unknown row kind 'patern'"),
    ("words\tW\ta\nwords\tW\tb\n", "'W' twice"),
    ("map\tM\tk\ta\nmap\tM\tk\tb\n", "'M' 'k' twice"),
])
def test_a_malformed_row_is_an_error_naming_the_line(text, message):
    with pytest.raises(RegistryError, match=re.escape(message)):
        ruledata._parse("t", text)


def test_an_unknown_table_or_row_is_an_error_listing_the_known_ones():
    with pytest.raises(RegistryError, match="known: .*overlay"):
        ruledata.table("no_such_table")
    with pytest.raises(RegistryError, match="known: .*AGE"):
        ruledata.table("values").re("NO_SUCH_ROW")


def test_checks_serve_several_rows_and_a_row_without_one_is_its_pattern_alone():
    checks = ruledata.Checks()

    @checks.register("a", "b")
    def even(m, text):
        return len(text) % 2 == 0

    assert checks.of("a") is even and checks.of("b") is even
    assert checks.of("c")(None, "odd") is True


def test_a_rule_rows_gate_is_its_needs_row():
    table = ruledata._parse("t", "rule\tR\tZIP\t-\tx\nphrases\tR.needs\tab|c d\nrule\tS\tZIP\t-\ty\n"
                                 "pattern\tS.needs\t-\t[0-9]\nrule\tT\tZIP\t-\tz\n")
    assert table.gate("R") == ("ab", "c d") and table.gate("S").pattern == "[0-9]" and table.gate("T") is None


def test_item_lists_by_prefix_keep_the_tables_order():
    table = ruledata._parse("t", "define\tD\t[0-9]\nitem\tL.B\tx${D}\nitem\tL.A\ty\nitem\tL.B\tz\nitem\tM.C\tw\n")
    assert table.groups("L") == {"B": ["x[0-9]", "z"], "A": ["y"]} and list(table.groups("L")) == ["B", "A"]
    assert table.groups("N") == {}


# The rows moved out of the recognizers' code on 2026-11-27 (docs/rules.md "diet16"): a row of each kind
# resolves to what the code it replaced held (made-up text).
def test_moved_words_and_maps_resolve():
    assert ruledata.table("values").entries("TITLES") == ("dr", "mr", "mrs", "ms", "prof")
    assert ruledata.table("fields").words("CAPS_JOINS") == {"to", "of", "for", "and", "on", "the"}
    assert ruledata.table("fixedforms").words("LONG") >= {"card", "nhs", "phone_pairs"}
    classes = ruledata.table("phrases").mapping("ASCII_CLASSES")
    assert list(classes.items())[0] == (r"[\p{L}\p{M}\p{N}'’-]", r"[A-Za-z0-9'’-]") and classes[r"\p{Ll}"] == "[a-z]"
    from crfdeid.recognizers import safeharbor
    assert list(safeharbor.LABELS) == ["SSN", "MEDICALRECORD", "ACCOUNT", "HEALTHPLAN", "VEHICLE", "LICENSE",
                                       "DEVICE", "IDNUM"]
    assert list(safeharbor.FAR_LABELS) == ["SSN", "MEDICALRECORD", "HEALTHPLAN", "VEHICLE", "LICENSE", "DEVICE"]
    assert safeharbor.MIN_LENGTH == {"MEDICALRECORD": 3, "ACCOUNT": 3, "SSN": 9, "IDNUM": 4}


@pytest.mark.parametrize("name, row, text, found", [
    ("fields", "SLASH", "ENT/A&E", ["ENT", "A", "E"]),
    ("fields", "DASH_END", "EMERGENCY DEPARTMENT -", True),
    ("fields", "DASH_START", "-10-5523", False),
    ("phrases", "OPENS", "ok. ", True),
    ("phrases", "OPENS", "ok ", False),
    ("phrases", "DE_AT_GATE", "wohnt Am Mühlbach 5", True),
    ("contextforms", "STREET_BEFORE", "14 Acacia Road, Leeds ", True),
    ("contextforms", "STREET_BEFORE", "sinus tachycardia ", False),
    ("contextforms", "PROVINCE_BEFORE", "toronto, on ", True),
    ("contextforms", "TOWN_AFTER", " Philadelphia, PA", True),
    ("fixedforms", "ADDRESS_LINE", "12 Harbour Road, ", True),
    ("fixedforms", "EXTENSION_END", "+44 20 7946 0958 ext. 12", True),
    ("fixedforms", "SWEDEN_GROUPS", "08-17 01 76", True),
    ("phones", "FAX_BEFORE", "FAX: ", True),
    # moved on 2026-11-29 (docs/rules.md "diet51"): the table cells and word runs of safeharbor and dateforms
    ("safeharbor", "SIGN_CELL", "Sign. | HØ | HØ | TV", ["HØ", "HØ", "TV"]),
    ("safeharbor", "CELL_PIPE", "| 08:00 | 420 |  MJS |", ["08:00", "420", "MJS"]),
    ("safeharbor", "CELL_TAB", "08:00\t420 ml\tSK", ["08:00", "420 ml", "SK"]),
    ("safeharbor", "CELL_BLANKS", "08:00   420 ml   KM", ["08:00", "420 ml", "KM"]),
    ("safeharbor", "WORD_RUN", "Kate Mulholland, RN: O'Neil-Shaw", ["Kate Mulholland", "RN", "O'Neil-Shaw"]),
    ("dateforms", "DAY_MONTH_CELL", " 22.11 ", True),
    ("dateforms", "DAY_MONTH_CELL", " 4.2 ", False),
])
def test_moved_patterns_resolve(name, row, text, found):
    rx = getattr(ruledata.table(name).namespace(), row)
    if row == "SLASH":
        assert rx.split(text) == found
    elif row == "SIGN_CELL":
        assert [m.group(1) for m in rx.finditer(text)] == found
    elif row.startswith("CELL_") or row == "WORD_RUN":
        assert rx.findall(text) == found
    elif row == "DAY_MONTH_CELL":
        assert (rx.fullmatch(text) is not None) is found
    elif row in ("DASH_START", "TOWN_AFTER", "SWEDEN_GROUPS"):
        assert (rx.match(text) is not None) is found
    else:
        assert (rx.search(text) is not None) is found


def test_the_postcode_candidate_is_its_define_filled_with_the_shapes():
    from crfdeid.recognizers import postcodes
    assert postcodes._CANDIDATE_SOURCE.startswith("(?=[0-9]|[A-Za-z]{1,2}[0-9])")
    assert f"(?:{postcodes.SHAPES['digits']})" in postcodes._CANDIDATE_SOURCE
    assert postcodes._CANDIDATE.search("Leeds LS1 4AP") is not None


def test_every_fixed_form_is_stdlib_re_syntax():
    # fixedforms compiles its forms with ``re`` alone (its ``regex`` fallback was never reached: 2026-11-27)
    t = ruledata.table("fixedforms")
    for name, _, flags in t.rules():
        assert re.compile(t.source(name), flags).pattern, name


@pytest.mark.parametrize("word, unplain", [("wroclaw", True), ("walking", False), ("treated", False),
                                           ("daily", False), ("chest", False)])
def test_a_verb_or_adverb_ending_or_a_plain_word_is_no_name(word, unplain):
    # VERB_ENDINGS (fixedforms.tsv), read by a city after a postal code and by a user name after a user word
    from crfdeid.recognizers import fixedforms
    assert fixedforms.unplain(word) is unplain
