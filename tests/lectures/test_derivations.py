"""Symbolic derivations of seed 003 (003_ffe0ec08819b37d8.txt), checked by sympy."""

import pytest
import sympy

from exactlin.errors import VerificationError
from exactlin.lectures import derivations as D


@pytest.mark.parametrize("name", sorted(D.ALL_DERIVATIONS))
def test_every_derivation_checks(name):
    steps = D.ALL_DERIVATIONS[name]()
    assert steps and steps[-1].text.startswith("checked")
    assert all(isinstance(s.text, str) for s in steps)
    assert any(s.expr is not None for s in steps)
    for s in steps:
        s.latex()


def test_gradient_Js_other_shape():
    D.gradient_Js(n=2, d=3)


def test_the_checker_rejects_a_false_identity():
    x = sympy.Symbol("x")
    with pytest.raises(VerificationError, match="derivation check failed: wrong"):
        D._check(x ** 2 - x, "wrong")
    D._check(sympy.Matrix([x / x - 1, 0]), "right")
