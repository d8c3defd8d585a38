"""The threshold unit's default positive label under the label policy (issue 20 item 1).

Seed 000 Example 1 (000_478cb53c624e7eb5.txt) is separable, so the unit converges and predicts every training
label back; the targets t = 1 are the samples whose label reads as 1, whatever its type."""

import pytest

from exactlin import threshold_unit

X = [(4, 0), (1, 1), (0, 1), (-2, -2)]


@pytest.mark.parametrize("pos, neg", [(1, 0), (1.0, 0.0), ("+1", "-1"), (1, -1), ("1.0", "0")])
def test_default_positive_is_the_label_that_reads_as_one(pos, neg):
    y = [pos, neg, neg, pos]
    run = threshold_unit(X, y)
    assert run.converged
    assert [(type(v), v) for v in run.predict(X)] == [(type(v), v) for v in y]
    assert (run.model.positive, run.model.negative) == (pos, neg) and type(run.model.positive) is type(pos)
