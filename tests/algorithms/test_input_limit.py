"""Issue 20 item 3: bounded on every input.  Entries of any size either finish within the default budgets or are
refused at once by the input-size limit (exactlin.exact.numbers.INPUT_DIGITS, checked once in the algorithm
contract, raised by ``input_digits=N``).  Walks the registry; each algorithm runs in a subprocess whose timeout
(60 s) is only a hang guard: the times are printed (``-s``), never asserted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from exactlin.algorithms import all_specs
from exactlin.errors import InputSizeError, ParameterError
from exactlin.exact.numbers import INPUT_DIGITS, INPUT_TOTAL_FACTOR, MACHINE_DIGITS, check_input_size

SPECS = all_specs()
ROOT = Path(__file__).resolve().parents[2]

#: the cases each algorithm runs: (name, what the data are, whether the default limit refuses them)
SCRIPT = r'''
import json, sys, time
from exactlin.algorithms import get
from exactlin.errors import ExactlinError, InputSizeError

spec = get(sys.argv[1])
labels = ("a", "b", "c") if spec.multiclass else (1, -1)


def data(n, big, every):
    """n samples in two (three) clusters; the first feature of every `every`-th sample is `big` times a small
    integer, the rest small integers."""
    X, y = [], []
    for i in range(n):
        c = i % len(labels)
        side = (1, -1, 3)[c]
        X.append((side * (big * (1 + i % 3) if i % every == 0 else 2 + i % 5), side * (1 + i % 4) + c))
        y.append(labels[c])
    return X, y


cases = {
    "issue: (10^10000, 2), (-1, -2)": ([(10**10000, 2), (-1, -2), (5, 10**10000)][: len(labels)], list(labels)),
    "2-3 samples, 10^1000": ([(10**1000, 2), (-1, -2), (5, 10**1000)][: len(labels)], list(labels)),
    "100 samples, 10^1000 every 10th": data(100, 10**1000, 10),
    "100 samples, 10^10000 every 50th": data(100, 10**10000, 50),
    "100 samples, one 300-digit entry": data(100, 10**299, 1000),
    "100 samples, 20 entries of 250 digits": data(100, 10**249, 5),
}
for name, (X, y) in cases.items():
    t = time.perf_counter()
    try:
        run = spec.func(X, y)
        out = "run: " + run.reason
    except InputSizeError as e:
        out = "InputSizeError: " + str(e)
    except ExactlinError as e:
        out = type(e).__name__ + ": " + str(e)
    print(json.dumps({"case": name, "outcome": out, "seconds": round(time.perf_counter() - t, 3)}), flush=True)
'''

REFUSED = ("issue: (10^10000, 2), (-1, -2)", "2-3 samples, 10^1000", "100 samples, 10^1000 every 10th",
           "100 samples, 10^10000 every 50th")


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_every_algorithm_is_bounded_on_large_entries(spec):
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run([sys.executable, "-c", SCRIPT, spec.name], capture_output=True, text=True, timeout=60,
                          env=env, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(rows) == 6
    for r in rows:
        print(f"{spec.name:26s} {r['seconds']:8.3f} s  {r['case']}: {r['outcome'][:90]}")
        assert "\n" not in r["outcome"]
        if r["case"] in REFUSED:
            assert r["outcome"].startswith("InputSizeError: "), r
            assert "input_digits=" in r["outcome"] and "--input-digits" in r["outcome"]  # how to raise it
        else:  # within the limit: a run, or a documented error about the data (never the size limit)
            assert not r["outcome"].startswith("InputSizeError"), r


def test_the_limit_is_named_and_raised_by_a_keyword():
    from exactlin import perceptron, svm_hard

    with pytest.raises(InputSizeError, match=r"sample 1, feature 1 is a number of 10001 digits, beyond the "
                                             rf"input-size limit of {INPUT_DIGITS} digits .*input_digits=10001"):
        svm_hard([(10**10000, 2), (-1, -2)], [1, -1])
    with pytest.raises(InputSizeError, match="parameter eta is a number of 401 digits"):
        perceptron([(1, 2), (-1, -2)], [1, -1], eta=10**400)
    # raised for one call: the perceptron's first update is w = eta x_1 (seed 000's rule, w0 = 0)
    run = perceptron([(1, 2), (-1, -2)], [1, -1], eta=10**400, input_digits=401)
    assert run.w == (Fraction(10**400), Fraction(2 * 10**400))
    with pytest.raises(ParameterError, match="input_digits must be None or a whole number >= 1"):
        perceptron([(1, 2), (-1, -2)], [1, -1], input_digits=0)


def test_the_total_counts_digits_beyond_a_machine_integer():
    """Ordinary data never meet the total (20-digit numbers count 0); 21 numbers of INPUT_DIGITS digits pass
    INPUT_TOTAL_FACTOR x INPUT_DIGITS beyond the first 20 of each when INPUT_TOTAL_FACTOR <= 20."""
    check_input_size([("x", Fraction(10**19))] * 100_000)  # 20 digits each: nothing counted
    big = Fraction(10 ** (INPUT_DIGITS - 1))  # INPUT_DIGITS digits: INPUT_DIGITS - 20 counted
    fits = (INPUT_TOTAL_FACTOR * INPUT_DIGITS) // (INPUT_DIGITS - MACHINE_DIGITS)
    check_input_size([("x", big)] * fits)
    with pytest.raises(InputSizeError, match="digits beyond the first 20 of each"):
        check_input_size([("x", big)] * (fits + 1))
    # a denominator counts as a numerator does
    with pytest.raises(InputSizeError, match="a number of 301 digits"):
        check_input_size([("x", Fraction(1, 10**300))], 300)


def test_one_vs_rest_checks_once_with_the_users_limit():
    """An algorithm run by another (one-vs-rest's binary perceptrons) is inside the user's call: the limit the
    user raised holds for it too."""
    from exactlin import one_vs_rest

    big = 10**400
    X = [(big, 1), (-big, 2), (3 * big, -1), (5, -1)]
    run = one_vs_rest(X, ["a", "b", "c", "a"], input_digits=401, max_epochs=2)
    assert run.reason in ("converged", "max_epochs")


def test_cli_refuses_a_huge_cell_at_once(tmp_path):
    from exactlin.cli.app import main

    path = tmp_path / "h.csv"
    path.write_text("1e100000,2,1\n-1,-2,-1\n")
    proc = subprocess.run([sys.executable, "-m", "exactlin.cli", "fit", "svm-hard", str(path)], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "100001 digits" in proc.stderr and "--input-digits 100001" in proc.stderr
    path.write_text("1e1000000,2,1\n-1,-2,-1\n")  # beyond the parser's exponent guard: never computed
    assert main(["fit", "perceptron", str(path)]) == 2
