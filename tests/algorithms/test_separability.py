"""Tests of the [separable] algorithm and the `exactlin separable` CLI plugin.

Expected verdicts are hand-derived: XOR is not separable (the four normalized augmented samples sum to
0), the scikit-learn issue 18606 points are separable (w = (-2,-2), b = 9 separates them, see
examples_margin)."""

import json
from fractions import Fraction as F

import pytest
from hypothesis import given

from exactlin.algorithms import get
from exactlin.algorithms.separability import separable
from exactlin.errors import LabelError, ParameterError, ShapeError
from exactlin.strategies import nonseparable_data, separable_data
from exactlin.theory.certificates import verify_gordan, verify_separator

XOR = ([(0, 0), (1, 1), (1, 0), (0, 1)], [1, 1, -1, -1])


def test_registered():
    spec = get("separable")
    assert spec.family == "margin" and spec.iterative is False and spec.bias_default == "first"


def test_xor_not_separable_with_certificate():
    # hand: lambda = 1/4 each; y_i x~_i = (1,0,0), (1,1,1), (-1,-1,0), (-1,0,-1) sum to 0
    r = separable(*XOR)
    assert r.extras["separable"] is False and r.reason == "not_separable" and not r.converged
    cert = r.extras["certificate"]
    assert cert["kind"] == "gordan" and cert["verified"] is True
    assert cert["lambda"] == (F(1, 4),) * 4


def test_seed000_example2_through_origin():
    X, y = [(1, 1), (1, -1), (-1, 1), (-1, -1)], [1, -1, -1, 1]
    r = separable(X, y, bias="none")
    assert r.extras["separable"] is False
    assert "through the origin" in r.extras["certificate"]["meaning"]
    # with an intercept the XOR pattern is still not separable
    assert separable(X, y, bias="first").extras["separable"] is False


@pytest.mark.parametrize("bias", ["first", "last", "none"])
def test_separator_layout_and_constraints(bias):
    X, y = [(1, 2), (2, 3), (-1, -1), (-2, 0)], [1, 1, -1, -1]
    r = separable(X, y, bias=bias)
    assert r.extras["separable"] is True and r.reason == "solved"
    w, b = r.extras["w"], r.extras["b"]
    for x, yi in zip(X, y):
        assert yi * (sum(a * c for a, c in zip(w, x)) + b) >= 1
    if bias == "first":
        assert r.w == (b, *w)
    elif bias == "last":
        assert r.w == (*w, b)
    else:
        assert r.w == w and b == 0
    # Run.decision uses the augmented w
    assert all(yi * r.decision(x) >= 1 for x, yi in zip(X, y))


def test_exact_only_agrees():
    assert separable(*XOR, exact_only=True).extras["separable"] is False
    r = separable([(0,), (2,)], [-1, 1], exact_only=True)
    assert r.extras["separable"] is True and "Bland" in r.extras["method"]


@given(separable_data(max_n=10))
def test_separable_data_get_a_verified_separator(p):
    r = separable(p.X, p.y, bias=p.bias)
    assert r.extras["separable"] is True
    verify_separator(r.problem.Z, r.w, margin=F(1), strict=False)


@given(nonseparable_data(max_n=8))
def test_planted_contradiction_get_a_verified_certificate(p):
    r = separable(p.X, p.y, bias=p.bias)
    assert r.extras["separable"] is False
    verify_gordan(r.problem.Z, r.extras["certificate"]["lambda"])


def test_bad_input():
    with pytest.raises(ParameterError, match="no parameter 'C'"):
        separable(*XOR, C=1)
    with pytest.raises(ParameterError, match="bias must be one of"):
        separable(*XOR, bias="middle")
    with pytest.raises(LabelError, match="not \\+1 or -1"):
        separable([(0,), (1,)], ["a", "b"])
    with pytest.raises(ShapeError, match="ragged"):
        separable([(0,), (1, 2)], [1, -1])


def test_single_class_is_separable_with_intercept():
    # one class: w = 0, b >= 1 already satisfies y_i (w.x_i + b) >= 1
    r = separable([(1,), (2,)], [1, 1])
    assert r.extras["separable"] is True


def _cli(args, capsys):
    from exactlin.cli.app import main

    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_separable_json(tmp_path, capsys):
    p = tmp_path / "xor.csv"
    p.write_text("x1,x2,y\n0,0,1\n1,1,1\n1,0,-1\n0,1,-1\n")
    code, out, _ = _cli(["separable", str(p), "--json"], capsys)
    assert code == 0
    d = json.loads(out)
    assert d["separable"] is False and d["verified"] is True and d["bias"] == "first"
    assert d["certificate"]["lambda"] == ["1/4"] * 4 and "exactlin_version" in d
    p2 = tmp_path / "sk.csv"
    p2.write_text("1.5,2.5,yes\n2.5,1.5,yes\n2.5,2.5,no\n")
    code, out, _ = _cli(["separable", str(p2), "--positive", "yes", "--json", "--bias", "last"], capsys)
    d = json.loads(out)
    assert code == 0 and d["separable"] is True and d["verified"] is True and d["bias"] == "last"
    # the JSON contract: w augmented with the bias entry last (--bias last), b that entry, w_features the rest;
    # the separator itself checked here: y_i (w . x_i + b) >= 1 on the three points, in Fractions
    w = [F(v) for v in d["w"]]
    assert len(w) == 3 and F(d["b"]) == w[2] and [F(v) for v in d["w_features"]] == w[:2]
    for x, yi in (((F(3, 2), F(5, 2)), 1), ((F(5, 2), F(3, 2)), 1), ((F(5, 2),
                                                                                                  F(5, 2)), -1)):
        assert yi * (w[0] * x[0] + w[1] * x[1] + w[2]) >= 1
    code, out, _ = _cli(["separable", str(p2), "--positive", "yes"], capsys)
    assert code == 0 and "separable (with intercept): verified" in out


def test_cli_separable_bad_file(tmp_path, capsys):
    p = tmp_path / "bad.csv"
    p.write_text("1,x,1\n")
    code, _, err = _cli(["separable", str(p)], capsys)
    assert code == 2 and err.startswith("exactlin: error:")
