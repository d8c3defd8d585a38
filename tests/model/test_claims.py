"""exactlin.model.claims: the data block and the claims a saved result carries."""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction

from exactlin.algorithms import get
from exactlin.model.claims import FORMAT, build_claims, canonical_text, data_block, label_text
from exactlin.model.run import Run


def test_label_texts_and_the_canonical_text():
    assert [label_text(v) for v in (1, -1, Fraction(2, 4), "cat", "1")] == ["1", "-1", "1/2", "cat", "1"]
    # written by hand from the documented rule: entries "p/q" joined by ",", a tab, the label as a JSON string
    assert canonical_text([(Fraction(1, 2), 3)], ["a"]) == '1/2,3\t"a"\n'


def test_the_data_block_of_xor():
    # seed 000's XOR, +1 for (0,1) and (1,0)
    r = get("perceptron").func([(0, 0), (1, 1), (0, 1), (1, 0)], [-1, -1, 1, 1])
    d = data_block(r, {"delimiter": ",", "header": True})
    text = '0,0\t"-1"\n1,1\t"-1"\n0,1\t"1"\n1,0\t"1"\n'
    assert d["rows"] == [["0", "0"], ["1", "1"], ["0", "1"], ["1", "0"]]
    assert d["labels"] == ["-1", "-1", "1", "1"]
    assert d["sha256"] == hashlib.sha256(text.encode()).hexdigest()
    assert d["options"] == {"delimiter": ",", "header": True, "label_column": None, "positive": "1",
                            "negative": "-1"}
    assert d["bias"] == "none"


def test_xor_claims_gordan_and_cycle_from_the_certificate():
    # the perceptron through the origin on XOR corrects the four samples once each per period: lambda = 1/4 each
    r = get("perceptron").func([(0, 0), (1, 1), (0, 1), (1, 0)], [-1, -1, 1, 1])
    kinds = {c["kind"]: c for c in build_claims(r)}
    assert kinds["gordan"]["lambda"] == ["1/4"] * 4
    assert sorted(kinds["cycle"]["samples"]) == [0, 1, 2, 3]
    assert kinds["training-errors"]["errors"] == [0, 1, 2, 3]  # w = 0: every score is 0, undefined


def test_a_positive_label_and_text_labels():
    r = get("fixed-increment").func([(0, 0), (2, 0), (0, 2)], ["cat", "dog", "dog"], positive="dog")
    d = data_block(r)
    assert d["options"]["positive"] == "dog" and d["options"]["negative"] == "cat"


def test_the_carried_block_survives_a_json_round_trip():
    r = get("mse").func([(0, 0), (1, 1), (2, 0)], [1, -1, 1])
    text = r.to_json()
    back = Run.from_json(text)
    assert back == r
    assert json.loads(back.to_json())["claims"] == json.loads(text)["claims"]
    assert json.loads(text)["result_format"] == FORMAT


def test_a_run_without_data_carries_nothing():
    r = get("perceptron").func([(1, 0), (-1, 0)], [1, -1])
    r.problem = None
    assert data_block(r) is None and build_claims(r) == []
    assert "claims" not in json.loads(r.to_json())
