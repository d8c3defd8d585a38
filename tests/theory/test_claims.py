"""exactlin.theory.claims.verify_result: exactlin's own verdict on a saved result (the stand-alone checker's
verdict must equal it: tests/test_exactlin_check.py)."""

from __future__ import annotations

import json

import pytest

from exactlin.algorithms import get
from exactlin.errors import VerificationError
from exactlin.theory.claims import verify_result


def test_a_true_and_a_false_gordan_claim():
    d = json.loads(get("separable").func([(0, 0), (1, 1), (0, 1), (1, 0)], [-1, -1, 1, 1]).to_json())
    assert verify_result(d) == [("data", True), ("gordan", True)]
    d["claims"][0]["lambda"] = ["1/2", "1/2", "0", "0"]  # (0,0) and (1,1) only: sum of -x~ is not 0
    assert verify_result(d) == [("data", True), ("gordan", False)]
    d["data"]["rows"][0] = ["5", "5"]
    assert verify_result(d)[0] == ("data", False)


def test_not_a_result():
    with pytest.raises(VerificationError):
        verify_result({"algorithm": "perceptron"})
