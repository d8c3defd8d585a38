"""The saved-model record: frozen, value equality, exact JSON round trip, format versions."""

import dataclasses
import json
from fractions import Fraction

import pytest

from exactlin.errors import ParameterError
from exactlin.model.models import ArgmaxModel, LinearModel
from exactlin.model.saved import FORMAT, SavedModel, load_model_text, saved_model_json


def test_round_trip_and_frozen():
    s = SavedModel(ArgmaxModel(("a", "b"), ((Fraction(-4, 3), 1), (0, Fraction(10**30, 7)))), "linear-machine",
                   "none", ("a", "b"), 2, "9.9", feature_names=["u", "v"])
    back = load_model_text(saved_model_json(s))
    assert back == s and back.model.W[1][1] == Fraction(10**30, 7)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.algorithm = "x"


def test_versions():
    text = saved_model_json(SavedModel(LinearModel((1, -3)), "perceptron", "none", (1, -1), 2, "0"))
    d = json.loads(text)
    assert d["format"] == FORMAT == 2
    for v, word in ((FORMAT + 1, "newer"), (0, "older"), (None, "not a version number")):
        d["format"] = v
        with pytest.raises(ParameterError, match=word) as e:
            load_model_text(json.dumps(d))
        assert e.value.parameter == "format" and repr(v) in str(e.value) or str(v) in str(e.value)
