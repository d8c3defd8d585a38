"""Exact I/O: JSON round trips of Runs, certificates and traces (hypothesis); sympy/numpy conversions;
trace CSV and LaTeX; atomic writes."""

from __future__ import annotations

import csv
import io
import json
import os
from fractions import Fraction as F

import numpy as np
import pytest
import sympy
from hypothesis import given
from hypothesis import strategies as st

from exactlin.algorithms.perceptron import perceptron
from exactlin.data.dataset import parse_csv
from exactlin.errors import ShapeError
from exactlin.io import (
    atomic_write_text,
    certificate_from_json,
    certificate_to_json,
    dataset_csv,
    read_run,
    to_float_array,
    to_numpy,
    to_sympy,
    trace_csv,
    trace_from_json,
    trace_latex,
    trace_to_json,
    write_json,
    write_trace_csv,
)
from exactlin.model.run import Run, Step
from exactlin.strategies import nonseparable_data, rationals, separable_data
from exactlin.theory.certificates import verify_gordan

EX1_X = [(4, 0), (1, 1), (0, 1), (-2, -2)]
EX1_Y = [1, -1, -1, 1]


def _canonical(run: Run) -> dict:
    d = run.to_dict()
    d.pop("exactlin_version")
    return d


# ---------------------------------------------------------------------------
# JSON round trips (hypothesis)


@given(separable_data(max_n=8, max_d=3, rational=True))
def test_run_json_round_trip_separable(p):
    run = perceptron(p.X, p.y, bias=p.bias, trace=True)
    back = Run.from_json(run.to_json())
    assert back.w == run.w and all(type(v) is F for v in back.w)  # exact, and Fractions again
    assert (back.converged, back.reason, back.updates, back.epochs, back.steps) == \
           (run.converged, run.reason, run.updates, run.epochs, run.steps)
    assert [(s.k, s.i, s.score, s.update, s.w_before, s.w_after) for s in back.trace] == \
           [(s.k, s.i, s.score, s.update, s.w_before, s.w_after) for s in run.trace]
    assert _canonical(back) == _canonical(run)  # JSON -> Run -> JSON is the identity
    assert Run.from_json(back.to_json()).to_json() == back.to_json()


@given(nonseparable_data(max_n=6, max_d=2))
def test_certificate_json_round_trip_still_verifies(p):
    run = perceptron(p.X, p.y, bias=p.bias, max_epochs=200)
    cert = run.extras.get("certificate")
    if cert is None:  # the run stopped on its bound before the cycle closed: nothing to certify
        assert run.reason == "max_epochs"
        return
    back = certificate_from_json(certificate_to_json(cert))
    assert back == cert and type(back) is type(cert)  # the same typed certificate (read back, not re-verified)
    assert back.lam == cert.lam and all(type(v) is F for v in back.lam)
    assert back["kind"] == "gordan" and back["verified"] is True and back.source == "cycle"
    # the certificate read back from JSON is checked again by the independent verifier
    Z = run.problem.Z
    assert verify_gordan(Z, back.lam, source="cycle", cycle=back.cycle, through_origin=back.through_origin) == cert
    # and it travels inside the Run's JSON too
    assert Run.from_json(run.to_json()).extras["certificate"] == cert


steps = st.builds(
    Step, k=st.integers(1, 10**6), epoch=st.integers(1, 1000), i=st.one_of(st.none(), st.integers(0, 99)),
    score=rationals(10**9, 10**6), update=st.booleans(),
    w_before=st.one_of(st.none(), st.tuples(rationals(), rationals())),
    w_after=st.one_of(st.none(), st.tuples(rationals(), rationals())),
    info=st.dictionaries(st.sampled_from(["eta", "b", "E_in"]), rationals(), max_size=2))


@given(st.lists(steps, max_size=6))
def test_trace_json_round_trip(trace):
    back = trace_from_json(trace_to_json(trace))
    assert [s.to_dict() for s in back] == [s.to_dict() for s in trace]
    assert [(s.score, s.w_after, s.info) for s in back] == [(s.score, s.w_after, s.info) for s in trace]


@given(st.lists(rationals(10**12, 10**12), min_size=1, max_size=5), st.sampled_from(["none", "first", "last"]))
def test_handmade_run_round_trip(w, bias):
    run = Run("perceptron", tuple(w), bias, False, "max_epochs", 3, 2, 8, params={"eta": F(1, 3)},
              extras={"b": w[0], "W": (tuple(w), tuple(w)), "classes": ("cat", "dog")})
    back = Run.from_json(run.to_json())
    assert back.w == tuple(w) and back.extras["b"] == w[0] and back.params["eta"] == F(1, 3)
    assert back.extras["classes"] == ("cat", "dog") and back.extras["W"] == (tuple(w), tuple(w))
    assert back == run


# ---------------------------------------------------------------------------
# conversions


def test_to_sympy_numpy_float():
    v = (F(1, 3), F(-2))
    assert to_sympy(v) == sympy.Matrix([[sympy.Rational(1, 3)], [-2]])
    M = ((F(1, 2), 0), (3, "4/5"))
    assert to_sympy(M) == sympy.Matrix([[sympy.Rational(1, 2), 0], [3, sympy.Rational(4, 5)]])
    a = to_numpy(M)
    assert a.dtype == object and a.shape == (2, 2) and a[1, 1] == F(4, 5) and type(a[0, 1]) is F
    f = to_float_array(M)
    assert f.dtype == np.float64 and f[1, 1] == 0.8
    assert to_float_array([F(1, 3)])[0] == 1 / 3  # correctly rounded
    assert to_numpy(np.array([1, 2]))[1] == F(2)
    with pytest.raises(ShapeError, match="ragged"):
        to_numpy([[1, 2], [3]])


# ---------------------------------------------------------------------------
# traces to CSV and LaTeX; files


def test_trace_csv_and_latex_example1():
    run = perceptron(EX1_X, EX1_Y, trace=True)
    rows = list(csv.reader(io.StringIO(trace_csv(run))))
    assert rows[0][:3] == ["k", "epoch", "i"]
    # round 4 of the lecture: x_4 = (-2, -2), w_5 = (1, -3)
    r4 = rows[4]
    assert r4[0] == "4" and "(-2, -2)" in r4 and "(1, -3)" in r4
    tex = trace_latex(run)
    assert tex.startswith(r"\begin{tabular}") and r"\toprule" in tex and r"\bottomrule" in tex
    assert "(1, -3)" in tex


def test_atomic_writes(tmp_path):
    run = perceptron(EX1_X, EX1_Y, trace=True)
    p = tmp_path / "run.json"
    write_json(run, p)
    assert read_run(p).w == (F(1), F(-3))
    assert json.loads(p.read_text())["w"] == ["1", "-3"]
    write_trace_csv(run, tmp_path / "trace.csv")
    assert (tmp_path / "trace.csv").read_text().startswith("k,epoch,i")
    # overwrite keeps no temporary files behind; a failure leaves the old file intact
    atomic_write_text(p, "new")
    assert p.read_text() == "new" and sorted(os.listdir(tmp_path)) == ["run.json", "trace.csv"]


    with pytest.raises(TypeError):
        atomic_write_text(p, 12345)  # not text: the write fails
    assert p.read_text() == "new" and sorted(os.listdir(tmp_path)) == ["run.json", "trace.csv"]


@given(separable_data(max_n=6, max_d=3, rational=True))
def test_dataset_csv_round_trip(p):
    text = dataset_csv(p.X, p.y)
    ds = parse_csv(text)
    assert ds.X == tuple(tuple(F(v) for v in x) for x in p.X) and ds.y == tuple(p.y)


def test_dataset_latex_repr():
    from exactlin.data.dataset import as_dataset

    tex = as_dataset([(4, "1/2"), (1, -1)], [1, -1])._repr_latex_()
    assert r"\toprule" in tex and r"$\frac{1}{2}$" in tex and "2 & $1$ & $-1$ & -1" in tex


def test_json_round_trip_beyond_4300_digits():
    # lms on seed 000's Example 1 (bias first, max_epochs 1000) ends with ~23,800-digit numerators: past Python's
    # 4300-digit str <-> int limit, the JSON round trip must still be exact
    big = F(7**20000 + 1, 3**9000)
    run = Run("perceptron", (big, F(1)), "none", False, "max_epochs", 1, 1, 1)
    back = Run.from_json(run.to_json())
    assert back.w == (big, F(1))


# ---------------------------------------------------------------------------
# the convergence monitor's report survives a JSON round trip (README: run.extras["monitor"].bound)


def test_monitor_report_rebuilt_after_read_run(tmp_path):
    from exactlin.io import read_run, write_json
    from exactlin.theory.monitor import MonitorReport

    run = perceptron(EX1_X, EX1_Y)
    path = tmp_path / "run.json"
    write_json(run, path)
    back = read_run(path)
    mon = back.extras["monitor"]
    assert isinstance(mon, MonitorReport)
    # hand derivation: z_i = y_i x_i = (4,0), (-1,-1), (0,-1), (-2,-2); w* = the final w = (1,-3) has margins
    # 4, 2, 3, 4 (gamma_min = 2), R^2 = max(16, 2, 1, 8) = 16, ||w*||^2 = 10: K = 3 <= 16 * 10 / 2^2 = 40
    assert mon.bound == 40 and type(mon.bound) is F
    assert (mon.w_star, mon.gamma_min, mon.R2, mon.norm2_w_star, mon.eta) == ((1, -3), 2, 16, 10, 1)
    assert (mon.K, mon.checked, mon.holds, mon.slack) == (3, 3, True, 37)
    assert back.to_dict() == run.to_dict()


def test_monitor_irrational_bound_round_trips_exactly():
    from exactlin.theory.monitor import MonitorReport

    # from w_1 = (1,1) with w* = (1,-3): a = <w_1,w*> = -2, gamma = 2, ||w_1||^2 = 2, R^2 = 16, ||w*||^2 = 10:
    # (-2 + 2K)^2 <= 10 (2 + 16K)  <=>  K^2 - 42K - 4 <= 0, whose larger root is 21 + sqrt(445)
    run = perceptron(EX1_X, EX1_Y, w0=(1, 1), w_star=(1, -3))
    back = Run.from_json(run.to_json())
    mon = back.extras["monitor"]
    assert isinstance(mon, MonitorReport)
    assert sympy.simplify(mon.bound - (21 + sympy.sqrt(445))) == 0
    assert mon.bound == run.extras["monitor"].bound


def test_batch_monitor_report_rebuilt():
    from exactlin.algorithms.perceptron_family import batch_perceptron
    from exactlin.theory.monitor import BatchMonitorReport

    # from a = 0 every sample is corrected at once: a(2) = (4,0) + (-1,-1) + (0,-1) + (-2,-2) = (1,-4), which has
    # margins 4, 3, 4, 6: gamma = 3, R^2 = 16, ||a*||^2 = 17, n = 4, M = 4 <= n R^2 ||a*||^2 / gamma^2 = 1088/9
    run = batch_perceptron(EX1_X, EX1_Y, bias="none")
    mon = Run.from_json(run.to_json()).extras["monitor"]
    assert isinstance(mon, BatchMonitorReport)
    assert (mon.w_star, mon.gamma_min, mon.R2, mon.norm2_w_star, mon.n) == ((1, -4), 3, 16, 17, 4)
    assert (mon.bound, mon.K, mon.iterations, mon.slack) == (F(1088, 9), 4, 1, F(1052, 9))


def test_monitor_bound_text_is_checked_before_parsing():
    from exactlin.errors import InputError
    from exactlin.theory.monitor import monitor_from_dict

    d = perceptron(EX1_X, EX1_Y).extras["monitor"].to_dict()
    for bad in ("__import__('os')", "9**9**9", "1.5", "x + 1"):
        with pytest.raises(InputError, match="monitor.bound"):
            monitor_from_dict({**d, "bound": bad})
