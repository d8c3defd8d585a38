"""Strategies and the run comparison the kernel tests of the rules not yet on the engine share (pocket, batch,
linear machine, relaxation, the flint iterations); they were defined in the perceptron's kernel tests, which
tests/engine/test_cyclic.py replaced.  They go with those tests."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

SMALL = st.integers(-5, 5)
rationals = st.fractions(min_value=-9, max_value=9, max_denominator=12)
big_ints = st.one_of(
    st.integers(-(2**63) - 5, -(2**63) + 5), st.integers(2**63 - 5, 2**63 + 5),
    st.integers(-(2**62), 2**62), st.integers(-(2**31), 2**31), st.integers(-3, 3),
)
big_denominators = st.builds(Fraction, st.integers(-(10**6), 10**6), st.sampled_from([1, 3, 2**40 + 1, 10**19 + 7]))

SETTINGS = settings(max_examples=2 * settings.default.max_examples, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@st.composite
def problems(draw, entries=SMALL, n_max=7, d_max=4):
    n = draw(st.integers(1, n_max))
    d = draw(st.integers(1, d_max))
    X = [[draw(entries) for _ in range(d)] for _ in range(n)]
    y = [draw(st.sampled_from([1, -1])) for _ in range(n)]
    return X, y


def same_run(fast, ref):
    """Two runs equal field by field (or the two errors' (class, message) equal)."""
    if isinstance(ref, tuple):
        assert fast == ref
        return
    for name in ("w", "converged", "reason", "updates", "epochs", "steps", "trace_complete"):
        assert getattr(fast, name) == getattr(ref, name), name
    assert all(type(a) is Fraction for a in fast.w)
    assert fast.trace == ref.trace
    assert set(fast.extras) == set(ref.extras)
    for key, value in ref.extras.items():
        assert fast.extras[key] == value, key
