"""Every algorithm gives the same Run on every exact arithmetic it declares (issue 22 item 5), walking the registry.

As sympy's ``test_xxm.py`` runs one set of cases over DDM, SDM and DFM, this file runs every registered algorithm,
with the option combinations its own parameter table offers (never chosen by the algorithm's name), on every
arithmetic of ``spec.arithmetics``, and requires the whole Run to equal the one computed with
``arithmetic="fraction"`` (the readable reference) -- ``Run ==`` compares type-strictly, trace included -- and the
JSON to be the same text apart from the ``arithmetic`` record, which says what was used.  A call that fails must
fail the same way on every arithmetic.  Hypothesis draws the data: small rationals, and integers past 2^62 so the
integer representation leaves float64 and int64.
"""

import json
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactlin.algorithms import all_specs
from exactlin.errors import ExactlinError

SPECS = [s for s in all_specs() if s.arithmetics]
IDS = [s.name for s in SPECS]

small = st.fractions(min_value=-4, max_value=4, max_denominator=3)
large = st.integers(min_value=-(1 << 64), max_value=1 << 64).map(Fraction)


@st.composite
def datasets(draw, multiclass: bool):
    n = draw(st.integers(2, 6))
    d = draw(st.integers(1, 3))
    entry = st.one_of(small, small, small, large) if draw(st.booleans()) else small
    X = [tuple(draw(entry) for _ in range(d)) for _ in range(n)]
    if multiclass:
        y = [i % 3 for i in range(n)]
    else:
        y = [1 if i % 2 == 0 else -1 for i in range(n)]
    return X, draw(st.permutations(y))


def option_sets(spec) -> list[dict]:
    """The calls to compare, from the spec's own table: the default call, each trace mode, and each switch the
    table has (a printed variant, stop_on_cycle=False, the other clean stop, tight budgets)."""
    names = {p.name: p for p in spec.params}
    out = [{}, {"trace": True}, {"trace": False}]
    variant = names.get("variant")
    if variant is not None and variant.choices and "printed" in variant.choices:
        out.append({"variant": "printed", "trace": True})
    if "stop_on_cycle" in names:
        out.append({"stop_on_cycle": False, "trace": True})
    if "stop" in names:
        out.append({"stop": "clean-epoch"})
    for budget, value in (("max_steps", 3), ("max_updates", 2), ("max_bits", 6)):
        if budget in names:
            out.append({budget: value, "trace": True})
    return out


def outcome(spec, X, y, arithmetic, options):
    try:
        return spec.func(X, y, arithmetic=arithmetic, max_epochs=25, **options)
    except ExactlinError as e:
        return type(e), str(e), getattr(e, "parameter", None)


def json_without_arithmetic(run) -> dict:
    d = json.loads(run.to_json())
    d.pop("arithmetic", None)
    return d


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_arithmetic_gives_the_reference_run(spec, data):
    X, y = data.draw(datasets(spec.multiclass))
    for options in option_sets(spec):
        ref = outcome(spec, X, y, "fraction", options)
        for arithmetic in spec.arithmetics:
            if arithmetic == "fraction":
                continue
            got = outcome(spec, X, y, arithmetic, options)
            if isinstance(got, tuple) and got[2] == "arithmetic":
                # an option this arithmetic cannot serve: a ParameterError that names both, never a fall-back
                assert arithmetic in got[1] and any(f"{k}=" in got[1] for k in options), got
                continue
            if isinstance(ref, tuple):
                assert got == ref, (arithmetic, options)
                continue
            assert not isinstance(got, tuple), (arithmetic, options, got)
            assert got == ref, (arithmetic, options)
            assert json_without_arithmetic(got) == json_without_arithmetic(ref), (arithmetic, options)
            assert got.arithmetic["used"] == arithmetic and got.arithmetic["requested"] == arithmetic


@pytest.mark.parametrize("spec", SPECS, ids=IDS)
def test_the_reference_is_always_declared(spec):
    """Every algorithm with a choice of arithmetic has the readable reference among them, and says which one
    ``auto`` chose."""
    assert "fraction" in spec.arithmetics
    X, y = ([(0, 0), (3, 0), (0, 3)], [0, 1, 2]) if spec.multiclass else ([(4, 0), (1, 1), (0, 1), (-2, -2)],
                                                                            [1, -1, -1, 1])
    run = spec.func(X, y)
    assert run.arithmetic is not None and run.arithmetic["requested"] == "auto"
    assert run.arithmetic["used"] in spec.arithmetics
