"""The closed-form algorithms (mse, fisher, separable, the SVMs) on every arithmetic they declare: the same Run,
field for field (run == run_ref, the reference being the first declared arithmetic), on hypothesis data and on
the worked examples; run.arithmetic says which arithmetic computed it."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactlin.algorithms import get
from exactlin.errors import ExactlinError
from exactlin.lectures.examples import all_examples
from exactlin.strategies import labelled_data, nonseparable_data, separable_data, svm_data

CLOSED_FORM = ("mse", "fisher", "separable", "svm-hard", "svm-soft", "svm-soft-l2")


def runs_on_every_arithmetic(name: str, X, y, **kw):
    """The Run of ``name`` on (X, y) in each declared arithmetic, checked equal to the first; or None when the
    first raises (then every arithmetic raises the same error type)."""
    spec = get(name)
    assert spec.arithmetics, f"{name} declares no arithmetic besides auto"
    ref_ar, *others = spec.arithmetics
    try:
        ref = spec.func(X, y, arithmetic=ref_ar, **kw)
    except ExactlinError as e:
        for ar in others:
            with pytest.raises(type(e)):
                spec.func(X, y, arithmetic=ar, **kw)
        return None
    assert ref.arithmetic["used"] == ref_ar
    for ar in (*others, "auto"):
        run = spec.func(X, y, arithmetic=ar, **kw)
        assert run == ref, (name, ar)
        assert _json_without_arithmetic(run) == _json_without_arithmetic(ref), (name, ar)
        assert run.arithmetic["requested"] == ar
        assert run.arithmetic["used"] in spec.arithmetics
    return ref


def _json_without_arithmetic(run) -> dict:
    d = json.loads(run.to_json())
    d.pop("arithmetic", None)
    return d


def test_the_declared_arithmetics():
    # what each one can honour (an undeclared one is a ParameterError: tests/algorithms/test_contract.py)
    assert get("mse").arithmetics == ("flint", "fraction")
    assert get("fisher").arithmetics == ("flint", "fraction")
    assert get("separable").arithmetics == ("flint", "fraction")
    for name in ("svm-hard", "svm-soft", "svm-soft-l2"):
        assert get(name).arithmetics == ("flint", "fraction")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["mse", "fisher", "separable"]),
       st.one_of(separable_data(max_n=9, max_d=3), nonseparable_data(max_n=8)), st.booleans())
def test_same_run_on_every_arithmetic(name, p, exact_only):
    kw = {"exact_only": exact_only} if name == "separable" else {}
    bias = "none" if name == "fisher" else p.bias
    runs_on_every_arithmetic(name, list(p.X), list(p.y), bias=bias, **kw)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(labelled_data(max_n=9, max_d=3), st.sampled_from([{}, {"scatter": "n"}, {"singular": "pinv"},
                                                        {"priors": "9/10,1/10"}]))
def test_fisher_on_rational_data_every_arithmetic(data, params):
    X, y = data
    runs_on_every_arithmetic("fisher", X, y, **params)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(svm_data(max_others=4), st.sampled_from(["svm-hard", "svm-soft", "svm-soft-l2"]))
def test_svms_every_arithmetic(p, name):
    runs_on_every_arithmetic(name, list(p.X), list(p.y))


@pytest.mark.parametrize("example", [e.id for e in all_examples() if e.algorithm in CLOSED_FORM])
def test_worked_examples_same_run_on_every_arithmetic(example):
    """Every run of a worked example by a closed-form algorithm, replayed on each declared arithmetic (same data,
    same bias, same table parameters) equals the example's own run."""
    from exactlin.lectures.examples import run_example

    runs = [r for r in run_example(example).runs if r.algorithm in CLOSED_FORM]
    assert runs
    for run in runs:
        defaults = {p.name: p.default for p in get(run.algorithm).params}
        kw = {k: v for k, v in run.params.items() if k in defaults and v != defaults[k]}  # as the example called it
        ref = runs_on_every_arithmetic(run.algorithm, run.problem.data.X, run.problem.data.y, bias=run.bias, **kw)
        assert ref == run


@pytest.mark.parametrize("arithmetic", ["flint", "fraction"])
def test_every_tier_of_the_integer_products_is_reached(arithmetic):
    # mse forms Y^tY and Y^t b (b = 1) for the n = 4 normalized samples; with M = max |Y| the bound of
    # exactlin.exact.products.gram is n M^2 for Y^tY and n M for Y^t b (hand arithmetic):
    # M = 3: 36 < 2**53, both float64; M = 2**28: 2**58 is in [2**53, 2**63): int64, and Y^t b (2**30) float64;
    # M = 2**40: 2**82 >= 2**63: Python integers, and Y^t b (2**42) float64
    from exactlin.algorithms.mse import mse

    y = [1, 1, -1, -1]
    for M, tiers in ((3, {"float64": 2}), (1 << 28, {"int64": 1, "float64": 1}),
                     (1 << 40, {"python": 1, "float64": 1})):
        X = [(1, M), (M, 0), (3, 1), (2, 3)]
        run = mse(X, y, arithmetic=arithmetic)
        assert run.arithmetic == {"requested": arithmetic, "used": arithmetic, "tiers": tiers}
        assert run == mse(X, y)


@pytest.mark.parametrize("name", ["svm-hard", "svm-soft", "svm-soft-l2"])
@pytest.mark.parametrize("kernel", [{}, {"kernel": "poly", "degree": 2}])
def test_svms_at_scale_every_arithmetic(name, kernel):
    # more than svm.LINEAR_SCALE_N samples: the float guess and the exact repair over integer rows
    # (exactlin.linalg.qp_linear), on python-flint and on Python integers / DomainMatrix / the Fraction tableau
    import numpy as np

    rng = np.random.default_rng(5)
    X = rng.integers(-9, 10, size=(60, 2))
    s = X[:, 0] * 3 - X[:, 1] * 2 + 1 if not kernel else X[:, 0] ** 2 + X[:, 1] ** 2 - 30
    y = np.where(s > 0, 1, -1)
    if name != "svm-hard":
        y[:4] = -y[:4]  # a few labels flipped: some slacks are positive
    run = runs_on_every_arithmetic(name, X.tolist(), y.tolist(), **kernel)
    assert run is not None and "guessed" in run.extras["method"]
