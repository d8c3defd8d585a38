"""Rule-level helpers of the iterative algorithms: the binary problem (:func:`binary_problem`), the start vector
(:func:`start_vector`) and the representation a rule computes in (:func:`representation`).

The loops themselves and what they share (the trace, the bounds, cycle detection, the budget rows) are the engine's:
:mod:`exactlin.engine.cyclic`, :mod:`exactlin.engine.trace`; import those names from there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from exactlin.engine.arith import make_arith
from exactlin.errors import ParameterError

__all__ = ["BinaryProblem", "binary_problem", "start_vector", "representation"]

#: what ``arithmetic="auto"`` means for a rule that does not say otherwise: integers over one denominator
AUTO = "integer"


def representation(P, Z, w1, *, step=None, auto: str = AUTO):
    """The representation (:func:`exactlin.engine.arith.make_arith`) of the samples ``Z`` and the start ``w1`` in
    the arithmetic the call asked for (``P.arithmetic``; ``"auto"``: ``auto``), ``step`` the rule's usual
    coefficient.  The rule records ``P.record_arithmetic(rep.name, rep.tiers)`` when its loop is done."""
    return make_arith(auto if P.arithmetic == "auto" else P.arithmetic, Z, w1, step=step)


@dataclass
class BinaryProblem:
    """A binary problem ready for an algorithm: the Dataset, the augmented samples ``Y``
    (rows x~_i), the +1/-1 labels ``z`` and the normalized samples ``Z`` (rows z_i x~_i)."""

    data: Any
    bias: str
    Y: tuple
    z: tuple
    Z: tuple

    @property
    def n(self) -> int:
        return len(self.Y)

    @property
    def d(self) -> int:
        shape = getattr(self.Y, "shape", None)  # ExactRows: no Fraction is built
        return shape[1] if shape is not None else len(self.Y[0])


def binary_problem(X, y, *, bias: str, positive=None, floats: str = "repr") -> BinaryProblem:
    """Convert, label and augment once, by the rules of layers 1 and 2."""
    from exactlin.data.dataset import as_dataset, augment, binary_labels, check_bias, normalize
    from exactlin.data.labels import negative_mask

    check_bias(bias)
    ds = as_dataset(X, y, floats=floats)
    neg = negative_mask(y, positive)  # numpy +1/-1 labels: their signs at once, vectorized
    # (then ds.y, the tuple of y's ints, is what binary_labels would return: each +1/-1 maps to itself)
    z = ds.y if neg is not None else binary_labels(ds.y, positive)
    Y = augment(ds.X, bias)
    return BinaryProblem(ds, bias, Y, z, normalize(Y, z, negative=neg))


def start_vector(w0, d: int, name: str = "w0") -> tuple:
    from exactlin.exact.numbers import to_vector, zeros

    if w0 is None:
        return zeros(d)
    v = to_vector(w0)
    if len(v) != d:
        raise ParameterError(f"{name} has {len(v)} entries but the (augmented) samples have {d}; "
                             "remember the bias entry", parameter=name)
    return v
