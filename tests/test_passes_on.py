"""One mechanism gives a component that passes its ``**kwargs`` on the signature of what it passes on
(:class:`crfdeid.registry.PassesOn`): the surrogator and the ``surrogate`` writer (the
:class:`~crfdeid.deid.defaults.SurrogateOptions` fields), the ``fhir`` and ``hl7`` writers (the text
writers' options). The registry's option check, ``tag``'s hand-over of ``date_order`` and ``help()`` read it."""

import inspect
from dataclasses import fields

import pytest

from crfdeid.deid.defaults import SurrogateOptions
from crfdeid.deid.surrogate import Surrogator
from crfdeid.deid.writers import SurrogateWriter
from crfdeid.errors import ConfigError
from crfdeid.io import open_writer
from crfdeid.io.fhir import FhirWriter
from crfdeid.io.hl7 import Hl7Writer
from crfdeid.io.registry import writer_class
from crfdeid.registry import PassesOn

OPTION_FIELDS = [f.name for f in fields(SurrogateOptions)]


class _Inner:
    def __init__(self, size=1, colour="red", *args, shade=None, **rest):
        pass


class _Outer:
    __signature__ = PassesOn(lambda cls: list(inspect.signature(_Inner).parameters.values())
                             + [inspect.Parameter("size", inspect.Parameter.KEYWORD_ONLY, default=9)])

    def __init__(self, out, colour="blue", **given):
        pass


class _Child(_Outer):
    def __init__(self, out, depth=2, **given):
        pass


def test_own_parameters_first_then_the_passed_ones_keyword_only_first_of_a_name_wins():
    sig = inspect.signature(_Outer)
    assert str(sig) == "(out, colour='blue', *, size=1, shade=None)"
    # *args and **rest of the inner one are passed on as what they are: not named options
    assert [p.kind for p in sig.parameters.values()][2:] == [inspect.Parameter.KEYWORD_ONLY] * 2


def test_a_subclass_gets_its_own_parameters_not_its_parents():
    assert str(inspect.signature(_Child)) == "(out, depth=2, *, size=1, colour='red', shade=None)"


@pytest.mark.parametrize("component", [Surrogator, SurrogateWriter])
def test_the_surrogates_name_every_option_field_with_its_default(component):
    params = inspect.signature(component).parameters
    for f in fields(SurrogateOptions):
        assert params[f.name].kind is inspect.Parameter.KEYWORD_ONLY and params[f.name].default == f.default
    assert not any(p.kind is p.VAR_KEYWORD for p in params.values())


@pytest.mark.parametrize("record_writer", [FhirWriter, Hl7Writer])
def test_record_writers_name_every_text_writers_option_as_none(record_writer):
    params = inspect.signature(record_writer).parameters
    own = list(inspect.signature(record_writer.__init__).parameters)[1:-1]
    assert list(params)[:len(own)] == own
    for style in ("redacted", "masked", "surrogate"):
        for name in inspect.signature(writer_class(style)).parameters:
            if name not in ("out", "xml") and name not in own:
                assert params[name].default is None, (style, name)
    assert "xml" not in params and set(OPTION_FIELDS) <= set(params)


def test_the_registry_checks_options_against_that_signature():
    assert open_writer("hl7", None, {"text": "surrogate", "seed": 1, "age_bucket": 5}).inner.surrogator.age_bucket == 5
    with pytest.raises(ConfigError, match="does not take shade"):
        open_writer("surrogate", None, {"seed": 1, "shade": "x"})


def test_the_surrogator_derives_its_option_attributes_and_copies_none():
    s = Surrogator(seed=1, dob="no-year", age_bucket=5, date_shift=[-400, -370], proven="off", date_order="dmy")
    assert not set(vars(s)) & (set(OPTION_FIELDS) | {"proven"})  # nothing kept beside the options object
    for name in OPTION_FIELDS:
        if name != "proven":
            assert getattr(s, name) == getattr(s.options, name), name
    assert (s.dob, s.age_bucket, s.date_shift, s.proven, s.date_order) == ("no-year", 5, (-400, -370), None, "dmy")
    assert Surrogator(seed=1, proven=0.9).proven == 0.9


@pytest.mark.parametrize("given, message", [({"dob": "year"}, "dob="), ({"proven": 2}, "proven="),
                                            ({"date_order": "myd"}, "date_order"),
                                            ({"unparsed_dates": "x"}, "unparsed")])
def test_a_bad_option_is_still_refused_when_the_surrogator_is_made(given, message):
    with pytest.raises(ConfigError, match=message):
        Surrogator(seed=1, **given)
