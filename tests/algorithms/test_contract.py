"""The algorithm contract, enforced once by the registry (exactlin.algorithms._contract), for every algorithm."""

import inspect
import pydoc
from fractions import Fraction as F

import pytest

import exactlin
from exactlin.algorithms import all_specs, get
from exactlin.errors import ParameterError

SPECS = all_specs()
IDS = [s.name for s in SPECS]
X4 = [(1, 2), (2, 0), (3, 1), (2, 3)]
Y4 = [1, 1, -1, -1]

#: one value per parameter kind that no table accepts (the kind's own rule rejects it)
BAD_BY_KIND = {"rational": "x/y", "int": "1/2", "vector": "1,a", "matrix": "1,0;a,1", "schedule": "k+q",
               "bool": "maybe", "choice": "no-such-choice"}


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_signature_is_the_table(spec):
    sig = inspect.signature(spec.func)
    common = ["bias", "floats", "max_epochs", "trace", "progress", "input_digits", "arithmetic"] \
        if spec.multiclass else \
        ["bias", "positive", "floats", "max_epochs", "trace", "progress", "input_digits", "arithmetic"]
    assert list(sig.parameters) == ["X", "y", *common, *(p.name for p in spec.params)]
    assert sig.parameters["X"].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    assert sig.parameters["y"].default is None
    assert sig.parameters["bias"].default == spec.bias_default
    assert sig.parameters["max_epochs"].default == 1000
    assert sig.parameters["trace"].default is None
    assert sig.parameters["progress"].default is None
    assert sig.parameters["input_digits"].default is None
    assert sig.parameters["arithmetic"].default == "auto"
    for p in spec.params:
        q = sig.parameters[p.name]
        assert q.kind is inspect.Parameter.KEYWORD_ONLY
        assert q.default is p.default


def test_perceptron_signature_text():
    text = str(inspect.signature(exactlin.perceptron))
    assert text.startswith("(X, y=None, *, bias='none', positive=None, floats='repr', max_epochs=1000, trace=None, "
                           "progress=None, input_digits=None, arithmetic='auto', eta=Fraction(1, 1), w0=None, "
                           "strict=None, ")


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_help_lists_every_parameter(spec):
    text = pydoc.render_doc(spec.func, renderer=pydoc.plaintext)
    assert "Parameters\n    ----------" in text or "Parameters\n----------" in text
    for name in ("bias", "floats", "max_epochs", "trace", "progress", "input_digits", *(p.name for p in spec.params)):
        assert f"{name} : " in text, name
    # the rule's own docstring is still there, and spec.doc is that docstring alone
    assert spec.doc.strip().splitlines()[0] in text
    assert "----------" not in spec.doc


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_unknown_parameter(spec):
    with pytest.raises(ParameterError, match=f"{spec.name} has no parameter 'no_such_param'") as info:
        spec.func(X4, Y4, no_such_param=1)
    assert info.value.parameter == "no_such_param"


@pytest.mark.parametrize("spec", [s for s in SPECS if s.params], ids=[s.name for s in SPECS if s.params])
def test_misspelled_parameter_gets_a_suggestion(spec):
    name = spec.params[0].name
    wrong = name + "x"
    with pytest.raises(ParameterError, match=f"has no parameter '{wrong}' \\(did you mean '{name}'\\?\\)"):
        spec.func(X4, Y4, **{wrong: 1})


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_bad_value_names_the_parameter(spec):
    checked = 0
    for p in spec.params:
        if p.kind not in BAD_BY_KIND:
            continue
        with pytest.raises(ParameterError, match=p.name) as info:
            spec.func(X4, Y4, **{p.name: BAD_BY_KIND[p.kind]})
        assert info.value.parameter == p.name
        checked += 1
    assert checked or all(p.kind == "str" for p in spec.params)


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_common_keywords_checked_once(spec):
    with pytest.raises(ParameterError, match="bias must be one of none, first, last") as info:
        spec.func(X4, Y4, bias="middle")
    assert info.value.parameter == "bias"
    with pytest.raises(ParameterError, match="max_epochs must be a whole number >= 1"):
        spec.func(X4, Y4, max_epochs=0)
    with pytest.raises(ParameterError, match="floats must be one of repr, exact, reject"):
        spec.func(X4, Y4, floats="round")
    with pytest.raises(ParameterError, match="trace must be None, True or False"):
        spec.func(X4, Y4, trace="yes")
    if spec.multiclass:
        with pytest.raises(ParameterError, match=f"{spec.name} has no parameter 'positive'"):
            spec.func(X4, Y4, positive=1)


def test_positional_calls_as_before():
    r = exactlin.perceptron(X4, Y4)
    assert r == exactlin.perceptron(X=X4, y=Y4)
    with pytest.raises(TypeError):
        exactlin.perceptron(X4, Y4, "first")  # bias is a keyword


@pytest.mark.parametrize("name, kwargs, both", [
    ("perceptron", {"w_star": (1, -3), "monitor": False}, ("w_star", "monitor")),
    ("fixed-increment", {"w_star": (0, 1, -3), "monitor": False}, ("w_star", "monitor")),
    ("voted-perceptron", {"w_star": (1, -3), "monitor": False}, ("w_star", "monitor")),
    ("lms", {"eta": "1/k", "eta1": 2}, ("eta", "eta1")),
    ("widrow-hoff", {"eta": "1/k", "eta1": 2}, ("eta", "eta1")),
    ("svm-hard", {"degree": 3}, ("degree", "kernel")),
    ("svm-soft", {"coef0": 2}, ("coef0", "kernel")),
    ("svm-soft-l2", {"degree": 3, "kernel": "linear"}, ("degree", "kernel")),
    ("feature-map", {"degree": 3}, ("degree", "map")),
])
def test_conflicts_still_raise(name, kwargs, both):
    with pytest.raises(ParameterError, match=f"{both[0]} and {both[1]} conflict"):
        get(name).func(X4, Y4, **kwargs)


def test_conflicts_live_with_the_tables():
    owners = {s.name: {(c.first, c.second) for c in s.conflicts} for s in SPECS}
    assert owners["perceptron"] == {("w_star", "monitor"), ("stop", "variant")}
    assert owners["lms"] == owners["widrow-hoff"] == {("eta", "eta1")}
    assert owners["svm-hard"] == {("degree", "kernel"), ("coef0", "kernel")}
    assert owners["feature-map"] == {("degree", "map")}
    for s in SPECS:  # a conflict names two parameters of its own table
        names = {p.name for p in s.params}
        assert all(c.first in names and c.second in names for c in s.conflicts)


def test_defaults_filled_and_values_exact():
    # eta given as text "1/2" reaches the rule as the Fraction 1/2 (the table's rule), and a parameter not
    # given is the table's default: the run records both
    r = exactlin.perceptron(X4, Y4, bias="first", eta="1/2")
    assert r.params["eta"] == F(1, 2) and r.params["strict"] is False and r.params["max_epochs"] == 1000


def test_none_means_default_but_max_bits_none_switches_the_guard_off():
    # lms: max_bits defaults to 4096; an explicit None switches it off (documented in the table)
    assert get("lms").func(X4, Y4, k_max=2).params["max_bits"] == 4096
    assert get("lms").func(X4, Y4, k_max=2, max_bits=None).params["max_bits"] is None  # recorded as the run used it
    # for other parameters None means "the default"
    assert exactlin.perceptron(X4, Y4, eta=None).params["eta"] == 1


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_arithmetic_is_declared_and_checked(spec):
    """``arithmetic=`` takes "auto" and the arithmetics the algorithm declares; any other is a ParameterError
    naming the ones it has (never a silent fall-back), and an unknown name is refused by the contract."""
    from exactlin.errors import ParameterError

    assert spec.func.arithmetics == ("auto", *spec.arithmetics)
    for other in ("fraction", "integer", "flint"):
        if other not in spec.arithmetics:
            with pytest.raises(ParameterError, match=f"arithmetic={other!r}") as e:
                spec.func(X4, [1, 1, 2, 2] if spec.multiclass else Y4, arithmetic=other)
            assert e.value.parameter == "arithmetic"
    with pytest.raises(ParameterError, match="arithmetic must be one of auto, fraction, integer, flint"):
        spec.func(X4, Y4, arithmetic="float")


# -- the params policy: every run records every row of its table and max_epochs, each with its effective value --

def _labels(spec):
    return [1, 1, 2, 3] if spec.multiclass else Y4


def _call(spec, **kw):
    """One run on the 4-point data (Fisher's S_W is singular there: its pinv rule)."""
    if spec.name == "fisher":
        kw.setdefault("singular", "pinv")
    return spec.func(X4, _labels(spec), **kw)


def _other_value(p):
    """A valid value of parameter ``p`` that is not its default (None when the test has none for its kind)."""
    d = p.default
    if p.kind == "bool" and d is not None:
        return not d
    if p.kind == "choice":
        return next((c for c in p.choices if c != d), None)
    if p.kind == "int":
        return 7 if d is None else d + 1
    if p.kind == "rational" and d is not None and d > 0:
        return d * 2
    return None


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_params_are_every_table_row_with_its_effective_value(spec):
    """The one params policy (the entry point applies it to whatever the rule recorded): the keys are the
    table's rows in order and ``max_epochs``; a value not given is the table's default, unless the default is
    None ("the rule decides": then the value the rule settled, e.g. the perceptron's strict test)."""
    r = _call(spec)
    assert list(r.params) == [p.name for p in spec.params] + ["max_epochs"]
    assert r.params["max_epochs"] == 1000  # the common default bound, also for a closed-form algorithm
    given = {"singular": "pinv"} if spec.name == "fisher" else {}
    for p in spec.params:
        if p.name in given:
            continue
        if p.default is not None:
            assert r.params[p.name] == p.default, p.name
    # the run's params passed back as given reproduce them (an effective value is a value the rule accepts)
    defaults = {p.name: p.default for p in spec.params}
    again = _call(spec, **{k: v for k, v in r.params.items() if k not in defaults or v != defaults[k]})
    assert again.params == r.params


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_params_record_the_given_value(spec):
    r = _call(spec, max_epochs=7)
    assert r.params["max_epochs"] == 7
    checked = 0
    for p in spec.params:
        v = _other_value(p)
        if v is None:
            continue
        try:
            r = _call(spec, **{p.name: v})
        except ParameterError:  # a value this table rejects with another of its rows (a conflict, a range)
            continue
        assert r.params[p.name] == p.validate(v), p.name
        assert list(r.params) == [q.name for q in spec.params] + ["max_epochs"]
        checked += 1
    assert checked or not any(_other_value(p) is not None for p in spec.params)


def test_mse_records_its_params():
    # issue 22: mse(X, y).params was {} -- now its table (b, pinv) with their defaults, and max_epochs
    r = exactlin.mse(X4, Y4)
    assert dict(r.params) == {p.name: p.default for p in get("mse").params} | {"max_epochs": 1000}


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_params_survive_json(spec):
    from exactlin.model.run import Run

    r = _call(spec)
    assert Run.from_json(r.to_json()).params == r.params
