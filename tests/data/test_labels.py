"""The one label policy (exactlin.data.labels; issue 20 item 1), through the public API.

Expected values come from the issue's text: "01", "1" and 1 are three labels; 0.5 stays a float, Fraction(1, 2)
a Fraction; 1 and "1", 1 and 1.0, True and 1 are a LabelError naming both; numpy scalars are the Python value
they hold; in a file a label is its text.  Example 1 of seed 000 (000_478cb53c624e7eb5.txt): x = (4, 0), (1, 1),
(0, 1), (-2, -2) with labels +1, -1, -1, +1 is separated by w = (1, -3), which the perceptron reaches.
"""

from fractions import Fraction

import numpy as np
import pytest

from exactlin import linear_machine, perceptron
from exactlin.algorithms._loop import binary_problem
from exactlin.data.dataset import (
    binary_labels,
    class_labels,
    distinct_labels,
    find_label,
    label_text,
    parse_csv,
    same_label,
)
from exactlin.data.labels import negative_mask
from exactlin.errors import LabelError

EX1 = [(4, 0), (1, 1), (0, 1), (-2, -2)]


def typed(values):
    """Values with their types: equality that tells 1 from 1.0, True and "1"."""
    return [(type(v), v) for v in values]


def test_three_labels_that_read_alike_stay_three():
    assert distinct_labels(["01", "1", "01"]) == ("01", "1")
    with pytest.raises(LabelError, match=r"'1' \(str, sample 2\) and 1 \(int, sample 3\) .*the same text"):
        distinct_labels(["01", "1", 1])
    assert distinct_labels(["01", 1, "01", 1]) == ("01", 1)
    assert class_labels(["01", 1]) == ("01", 1)  # not comparable: first appearance


@pytest.mark.parametrize("a, b, why", [(1, "1", "the same text"), (1, 1.0, "equal values"),
                                       (True, 1, "equal values"), (Fraction(1, 2), 0.5, "equal values"),
                                       (0.0, -0.0, "equal values")])
def test_confusable_labels_are_an_error_naming_both(a, b, why):
    for y in ([a, b, b, a], [b, a, a, b]):
        with pytest.raises(LabelError) as e:
            perceptron(EX1, y, positive=y[0])
        msg = str(e.value)
        assert why in msg and "sample 1" in msg and "sample 2" in msg
        for v in (a, b):
            assert f"({type(v).__name__}, sample" in msg


def test_issue_reproducer_1_and_str_1_is_an_error_not_a_merge():
    # before: both labels mapped to +1, and the model predicted -1, no label of the data
    with pytest.raises(LabelError, match=r"labels '1' \(str, sample 1\) and 1 \(int, sample 2\)"):
        perceptron([(4, 0), (1, 1), (0, 1), (-2, -2), (3, 3)], ['1', 1, 1, '1', '1'], positive='1')


def test_float_and_fraction_labels_keep_their_type():
    run = perceptron(EX1, [0.5, 1.5, 1.5, 0.5], positive=0.5)
    assert typed(run.predict([(4, 0)])) == [(float, 0.5)]
    assert typed([run.predict((4, 0))]) == [(float, 0.5)]
    half = Fraction(1, 2)
    run = perceptron(EX1, [half, 1.5, 1.5, half], positive=half)
    assert typed(run.predict(EX1)) == typed([half, 1.5, 1.5, half])


def test_numpy_scalars_are_the_python_value():
    run = perceptron(EX1, np.array([1, -1, -1, 1]))
    assert typed(run.predict(EX1)) == typed([1, -1, -1, 1])
    run = perceptron(EX1, np.array(["a", "b", "b", "a"]), positive=np.str_("a"))
    assert typed(run.predict(EX1)) == typed(["a", "b", "b", "a"])
    run = perceptron(EX1, np.array([0.5, 1.5, 1.5, 0.5]), positive=0.5)
    assert typed(run.predict(EX1)) == typed([0.5, 1.5, 1.5, 0.5])
    assert same_label(np.int64(3), 3) and not same_label(np.float64(3), 3)


def test_positive_names_a_label_by_identity_then_text():
    assert find_label(["01", 1], "01") == "01"
    assert typed([find_label([1, -1], "1")]) == [(int, 1)]  # --positive 1 names the file's label 1
    assert find_label(["0.5", "1.5"], 0.5) == "0.5"  # the float 0.5 is written 0.5
    assert find_label([Fraction(1, 2)], "0.5") is None  # 1/2 is written 1/2, not 0.5
    with pytest.raises(LabelError, match=r"1 \(int\).*1.0 \(float\)"):
        find_label([1.0, -1.0], 1)
    assert binary_labels(["01", 1, "01"], positive="01") == (1, -1, 1)
    assert binary_labels(["01", 1, "01"], positive=1) == (-1, 1, -1)


def test_without_positive_one_label_per_sign():
    assert binary_labels(["+1", -1, "+1"]) == (1, -1, 1)
    assert binary_labels([Fraction(1), -1.0]) == (1, -1)
    assert binary_labels(parse_csv("1,2,1.0\n3,4,-1.0\n").y) == (1, -1)  # texts that read as +1/-1
    with pytest.raises(LabelError, match=r"'01' of sample 1 is not \+1 or -1"):
        binary_labels(parse_csv(L_CSV).y)
    with pytest.raises(LabelError, match=r"labels 1 \(int\) and '\+1' \(str\) both read as \+1"):
        binary_labels([1, "+1", -1])


def test_a_file_label_is_its_text():
    ds = parse_csv("0,-2,01\n-3,1,1\n1,-1,01\n3,1,01\n2,3,01\n4,4, +1 \n5,5,0.5\n6,6,1/2\n7,7,-0\n8,8,-1\n")
    assert typed(ds.y) == typed(["01", 1, "01", "01", "01", "+1", "0.5", "1/2", "-0", -1])
    for lab, cell in zip(ds.y, ["01", "1", "01", "01", "01", "+1", "0.5", "1/2", "-0", "-1"]):
        assert label_text(lab) == cell


L_CSV = "0,-2,01\n-3,1,1\n1,-1,01\n3,1,01\n2,3,01\n"


def test_csv_01_and_1_are_two_labels():
    # the issue's file: 4 samples labelled 01, one labelled 1
    ds = parse_csv(L_CSV)
    assert binary_labels(ds.y, positive="01") == (1, -1, 1, 1, 1)
    run = linear_machine(ds.X, ds.y)
    assert typed(run.extras["classes"]) == typed(["01", 1])


def test_label_texts():
    assert [label_text(v) for v in ("01", 1, -3, Fraction(1, 2), 0.5, 1.0, True, np.int64(7))] == \
        ["01", "1", "-3", "1/2", "0.5", "1.0", "True", "7"]


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint8, np.intp])
def test_numpy_plus_minus_one_labels_take_the_vectorized_route_to_the_same_problem(dtype):
    # the same problem as from a list of Python ints: labels, normalized rows (z_i x_i, seed 003), the ints' types
    X = np.array([[4, 0], [1, 1], [0, 1], [-2, -2]])
    y = [1, -1, -1, 1] if np.dtype(dtype).kind == "i" else [1, 1, 1, 1]
    a, b = binary_problem(X, np.array(y, dtype=dtype), bias="first"), binary_problem(X, y, bias="first")
    assert typed(a.z) == typed(b.z) == typed(y)
    assert a.Z == b.Z and a.Y == b.Y
    assert a.Z[1] == tuple(y[1] * v for v in (1, 1, 1))  # the augmented sample 2, (1, 1, 1), times its label
    assert negative_mask(np.array(y, dtype=dtype)).tolist() == [v == -1 for v in y]


@pytest.mark.parametrize("y, positive", [(np.array([1, 2]), None), (np.array([1, 0, -1]), None),
                                         (np.array([True, False]), None), (np.array([[1], [-1]]), None),
                                         (np.array([1.0, -1.0]), None), ([1, -1], None),
                                         (np.array([1, -1]), 1)])
def test_labels_the_vectorized_route_does_not_take(y, positive):
    # anything but a 1-D numpy integer array of +1/-1 without positive goes through binary_labels' checks
    assert negative_mask(y, positive) is None


def test_numpy_labels_that_are_not_plus_minus_one_keep_binary_labels_message():
    with pytest.raises(LabelError, match=r"label 2 of sample 2 is not \+1 or -1"):
        perceptron([[1, 0], [0, 1]], np.array([1, 2]))
