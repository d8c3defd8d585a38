"""Balanced Winnow, seed 003 Algorithm 7, with exact powers.  Expected values are hand derivations."""

import json
from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactlin.algorithms.winnow import balanced_winnow, exact_power
from exactlin.errors import InputError, ParameterError
from exactlin.lectures.errata import all_errata
from exactlin.lectures.examples import run_example
from exactlin.strategies import nonseparable_data, separable_data

EX1 = ([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1])
EX2 = ([(1, 1), (1, -1), (-1, 1), (-1, -1)], [1, -1, -1, 1])


def dot(u, v):
    return sum(F(a) * F(b) for a, b in zip(u, v))


def test_two_unit_vectors():
    # hand derivation in exactlin/examples_family.py (seed003-winnow)
    r = balanced_winnow([(1, 0), (0, 1)], [1, -1], bias="none")
    assert r.extras["a_plus"] == (2, F(1, 2)) and r.extras["a_minus"] == (F(1, 2), 2)
    assert r.w == (F(3, 2), F(-3, 2)) and r.converged and r.updates == 2
    assert run_example("seed003-winnow").ok


def test_example1_bias_first():
    # hand derivation, alpha = 2, a+ = a- = (1,1,1), y_k = (1, x):
    #  k=1 y=(1,4,0), z=+1: score 0 -> a+ = (2,16,1), a- = (1/2,1/16,1)
    #  k=2 y=(1,1,1), z=-1: score (2+16+1) - (1/2+1/16+1) = 19 - 25/16 > 0 -> a+ = (1,8,1/2), a- = (1,1/8,2)
    #  k=3 y=(1,0,1), z=-1: score (1 + 1/2) - (1 + 2) = -3/2 < 0 correct
    #  k=4 y=(1,-2,-2), z=+1: score (1 - 16 - 1) - (1 - 1/4 - 4) = -16 + 13/4 < 0 -> a+ = (2,2,1/8), a- = (1/2,1/2,8)
    #  pass 2: scores 3/2+6 = 15/2 > 0; (2+2+1/8) - (1/2+1/2+8) = -39/8 < 0; 17/8 - 17/2 < 0; (2-4-1/4)-(1/2-1-16) > 0
    r = balanced_winnow(*EX1)
    assert r.extras["a_plus"] == (2, 2, F(1, 8)) and r.extras["a_minus"] == (F(1, 2), F(1, 2), 8)
    assert r.updates == 3 and r.converged and r.extras["separates"]


def test_products_invariant_and_rational_alpha():
    # each update multiplies a+_i by alpha^e and a-_i by alpha^-e: a+_i a-_i stays at its start value 1
    r = balanced_winnow(*EX1, alpha="3/2")
    assert all(p * m == 1 for p, m in zip(r.extras["a_plus"], r.extras["a_minus"]))
    # hand derivation: 3/2 instead of 2 in the first line of test_example1_bias_first: a+ = (3/2, 81/16, 1)
    assert r.trace[0].w_after[:3] == (F(3, 2), F(81, 16), 1)


def test_cycle_certificate_example2():
    # through the origin, Example 2: from a+ = a- the four corrections sum to 0 in log space
    r = balanced_winnow(*EX2, bias="none")
    assert r.reason == "cycle" and r.extras["certificate"]["lambda"] == (F(1, 4),) * 4


def test_exact_power():
    assert exact_power(F(2), F(3)) == 8 and exact_power(F(2), F(-2)) == F(1, 4)
    assert exact_power(F(9, 4), F(1, 2)) == F(3, 2) and exact_power(F(8), F(-2, 3)) == F(1, 4)
    with pytest.raises(InputError, match="irrational"):
        exact_power(F(2), F(1, 2))
    # roots wider than a float's 53 bits (a float first guess got these wrong): 9^(61/2) = 3^61 and
    # (4/25)^(-41/2) = (5/2)^41 exactly (hand: 9 = 3^2, 4/25 = (2/5)^2); (2 * 9^30)^(1/2) = 3^30 sqrt 2 is irrational
    assert exact_power(F(9), F(61, 2)) == 3 ** 61
    assert exact_power(F(4, 25), F(-41, 2)) == F(5, 2) ** 41
    with pytest.raises(InputError, match="irrational"):
        exact_power(F(2 * 9 ** 30), F(1, 2))
    with pytest.raises(InputError, match="integer feature values"):
        balanced_winnow([("1/2",), (1,)], [1, -1])


@pytest.mark.parametrize("params,fragment", [
    ({"alpha": 1}, "alpha must be > 1, got 1"),
    ({"alpha": "1/2"}, "alpha must be > 1"),
    ({"eta": 1}, "has no parameter 'eta'"),
    ({"a_plus": (1, 1)}, "a_plus has 2 entries"),
    # a zero weight never moves: on (1,1), (1,-1) (+1) and (1,2) (-1) through the origin (separable by
    # (3/2, -1), hand) a+ = a- = (0, 1) used to cycle and fail its own certificate check (VerificationError)
    ({"a_plus": (0, 1, 1)}, "a_plus[0] = 0"),
    ({"a_minus": (1, "-1/2", 1)}, "a_minus must be > 0 in every entry"),
    ({"max_updates": 0}, "max_updates must be >= 1"),
])
def test_bad_parameters(params, fragment):
    with pytest.raises(ParameterError) as e:
        balanced_winnow(*EX1, **params)
    assert fragment in str(e.value)


def test_erratum():
    e = next(e for e in all_errata() if e.id == "winnow-exponent")
    assert e.demonstrate()["holds"] is True


def reference_winnow(Y, z, alpha, passes):
    """An independent Balanced Winnow on integer augmented samples, written here."""
    d = len(Y[0])
    ap, am = [F(1)] * d, [F(1)] * d
    for _ in range(passes):
        clean = True
        for y, zk in zip(Y, z):
            s = dot(ap, y) - dot(am, y)
            if (s > 0) - (s < 0) != zk:
                clean = False
                for i in range(d):
                    ap[i] *= alpha ** (zk * y[i])
                    am[i] *= alpha ** (-zk * y[i])
        if clean:
            return tuple(ap), tuple(am), True
    return tuple(ap), tuple(am), False


@given(st.lists(st.tuples(st.integers(-2, 2), st.integers(-2, 2)), min_size=1, max_size=5), st.data())
def test_independent_reference(X, data):
    y = [data.draw(st.sampled_from([1, -1])) for _ in X]
    Y = [(1, *x) for x in X]
    ap, am, ok = reference_winnow(Y, y, F(2), 15)
    r = balanced_winnow(X, y, max_epochs=15)
    if ok:
        assert r.converged and (r.extras["a_plus"], r.extras["a_minus"]) == (ap, am)
    else:
        assert not r.converged and r.reason in ("cycle", "max_epochs")


@given(separable_data(max_n=6, max_d=2, coord=3))
def test_separable_converges_or_bound(p):
    # Winnow's own theorem needs more than a separator; the property here: the run ends within its bound,
    # and a converged run classifies every sample
    r = balanced_winnow(p.X, p.y, bias=p.bias, max_epochs=60)
    assert r.epochs <= 60
    if r.converged:
        Y = r.problem.Y
        assert all((dot(r.w, x) > 0) - (dot(r.w, x) < 0) == yi for x, yi in zip(Y, p.y))


@given(nonseparable_data(max_n=6, max_d=2, coord=3))
def test_nonseparable_ends(p):
    r = balanced_winnow(p.X, p.y, bias=p.bias, max_epochs=40)
    assert not r.converged and r.reason in ("cycle", "max_epochs")
    if r.reason == "cycle":
        lam = r.extras["certificate"]["lambda"]
        Z = r.problem.Z
        assert sum(lam) == 1 and all(sum(v * z[j] for v, z in zip(lam, Z)) == 0 for j in range(len(Z[0])))


def test_cli(capsys, tmp_path):
    from exactlin.cli.app import main

    p = tmp_path / "w.csv"
    p.write_text("x1,x2,y\n1,0,1\n0,1,-1\n")
    assert main(["fit", "balanced-winnow", str(p), "--bias", "none", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["algorithm"] == "balanced-winnow" and d["w"] == ["3/2", "-3/2"] and d["converged"] is True
    assert d["a_plus"] == ["2", "1/2"] and d["a_minus"] == ["1/2", "2"] and d["bias"] == "none"
    assert main(["fit", "balanced-winnow", str(p), "--param", "alpha=1"]) == 2
    assert "alpha must be > 1" in capsys.readouterr().err
