"""The schedule guard refuses step sizes whose growth is not bounded by their text (``eta=2^2^k``
passed the guard and grew memory without bound)."""

from fractions import Fraction

import pytest

from exactlin.cli import main
from exactlin.errors import ParameterError
from exactlin.model.params import Schedule


@pytest.mark.parametrize("text", ["2^2^k", "2^(k^2)", "3^(2^k)", "2^(k*k)", "(2^k)^(2^k)", "2^(20000*k)"])
def test_super_linear_exponents_are_refused(text):
    with pytest.raises(ParameterError, match="exponent") as e:
        Schedule(text)
    assert e.value.parameter == "eta"


@pytest.mark.parametrize("text, k, want", [
    ("2^k", 3, Fraction(8)),             # 2^3
    ("(1/2)^k", 3, Fraction(1, 8)),      # 1/2^3
    ("2^(3*k+1)", 2, Fraction(128)),     # 2^7
    ("k^k", 3, Fraction(27)),            # 3^3
    ("1/k", 4, Fraction(1, 4)),
])
def test_linear_exponents_still_run(text, k, want):
    assert Schedule(text)(k) == want


def test_cli_refuses_a_nested_power_with_exit_2(capsys, tmp_path):
    p = tmp_path / "d.csv"
    p.write_text("1,0,1\n0,1,-1\n")
    assert main(["fit", "lms", str(p), "--param", "eta=2^2^k"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "eta" in err and "exponent" in err
