"""Datasets, labels, augmentation, normalized samples and CSV (exactlin/data.py)."""

from fractions import Fraction as F

import pytest

from exactlin.data.dataset import (
    as_dataset,
    augment,
    binary_labels,
    class_labels,
    normalize,
    parse_csv,
    read_csv,
    split_bias,
)
from exactlin.errors import CSVError, InputTypeError, LabelError, ParameterError, ShapeError


def test_augment_modes():
    # seeds 001/003/004 prepend 1; seed 002 appends it; seed 000 works through the origin
    assert augment([(4, 0)], "first") == ((F(1), F(4), F(0)),)
    assert augment([(4, 0)], "last") == ((F(4), F(0), F(1)),)
    assert augment([(4, 0)], "none") == ((F(4), F(0)),)
    with pytest.raises(ParameterError, match="bias must be one of none, first, last"):
        augment([(1,)], "middle")
    assert split_bias((F(-11), F(4), F(2)), "first") == ((F(4), F(2)), F(-11))
    assert split_bias((F(4), F(2), F(-11)), "last") == ((F(4), F(2)), F(-11))


def test_normalize_multiplies_by_label():
    assert normalize([(1, 2), (3, -1)], [1, -1]) == ((F(1), F(2)), (F(-3), F(1)))


def test_binary_labels():
    assert binary_labels(["+1", "-1", "+1"]) == (1, -1, 1)  # texts that read as +1/-1
    assert binary_labels([1, -1, 1]) == (1, -1, 1)
    # two labels, both read as +1 (or -1), are never merged (issue 20: one label policy)
    with pytest.raises(LabelError, match=r"labels 1 \(int\) and '\+1' \(str\) both read as \+1"):
        binary_labels([1, -1, "+1"])
    with pytest.raises(LabelError, match=r"labels -1 \(int, sample 2\) and '-1' \(str, sample 4\) would be confused"):
        binary_labels([1, -1, "+1", "-1"])
    assert binary_labels(["cat", "dog"], positive="cat") == (1, -1)
    assert binary_labels([2, 5, 2], positive=5) == (-1, 1, -1)
    with pytest.raises(LabelError, match="label 0 of sample 2 is not \\+1 or -1"):
        binary_labels([1, 0])
    with pytest.raises(LabelError, match="more than two labels"):
        binary_labels(["a", "b", "c"], positive="a")
    with pytest.raises(LabelError, match="linear-machine or one-vs-rest"):
        binary_labels([1, 2, 3], positive=1)


def test_dataset_errors():
    with pytest.raises(ShapeError, match="X has 2 rows but y has 1 labels"):
        as_dataset([(1,), (2,)], [1])
    with pytest.raises(InputTypeError, match="label of sample 1 is missing"):
        as_dataset([(1,)], [None])
    with pytest.raises(ShapeError, match="labels y are missing"):
        as_dataset([(1,)], None)


def test_class_label_order():
    assert class_labels([3, 1, 2, 1]) == (1, 2, 3)
    assert class_labels(["b", 1, "a"]) == ("b", 1, "a")  # not comparable: first appearance


def test_csv_parsing():
    text = "x1,x2,label\n# seed 000 Example 1\n4,0,1\n1,1,-1   # comment\n0.5,-3/4,-1\n\n"
    ds = parse_csv(text)
    assert ds.feature_names == ("x1", "x2") and ds.label_name == "label"
    assert ds.X == ((F(4), F(0)), (F(1), F(1)), (F(1, 2), F(-3, 4)))
    assert ds.y == (1, -1, -1)
    ds2 = parse_csv("1,2,cat\n3,4,dog\n")
    assert ds2.feature_names is None and ds2.y == ("cat", "dog")


@pytest.mark.parametrize("text, fragment", [
    ("1,2,1\n3,x,1\n", "line 2, column 2"),
    ("1,2,1\n3,1\n", "line 2: 2 cells, expected 3"),
    ("# nothing\n", "no data rows"),
    ("a,b,c\n", "only a header"),
    ("1,nan,1\n", "line 1, column 2"),
    ("1,2,\n", "the label is empty"),
])
def test_csv_errors(text, fragment):
    with pytest.raises(CSVError, match=fragment):
        parse_csv(text)


def test_read_csv_file_errors(tmp_path):
    with pytest.raises(CSVError, match="no such file"):
        read_csv(tmp_path / "missing.csv")
    p = tmp_path / "bad.csv"
    p.write_bytes(b"1,2,1\n\xff\xfe,1,1\n")
    with pytest.raises(CSVError, match="line 2 is not valid UTF-8"):
        read_csv(p)
    p.write_bytes("\ufeffx,y\n1,1\n".encode())
    assert read_csv(p).X == ((F(1),),)


# --- first-row header detection, float labels, an absent positive label (new-user walkthrough findings) -----


def test_a_first_row_with_one_bad_cell_is_an_error_not_a_header():
    with pytest.raises(CSVError, match=r"line 1, column 2.*'O' is not a number"):
        parse_csv("4,O,1\n1,1,-1\n0,1,-1\n")
    with pytest.raises(CSVError, match=r"line 1, column 1.*exponent"):
        parse_csv("1e999999999,0,1\n1,1,-1\n")


def test_a_header_names_every_feature_column():
    ds = parse_csv("height,weight,class\n1,2,a\n3,4,b\n")
    assert ds.feature_names == ("height", "weight") and ds.label_name == "class" and len(ds.X) == 2
    # numeric-looking label header cells do not matter: only the feature cells decide
    ds = parse_csv("x1,x2,1\n5,6,-1\n")
    assert ds.feature_names == ("x1", "x2") and ds.X == ((F(5), F(6)),)


def test_float_labels_plus_and_minus_one_are_accepted():
    import numpy as np

    assert binary_labels([1.0, -1.0, -1.0]) == (1, -1, -1)
    assert binary_labels(np.array([1.0, -1.0])) == (1, -1)
    with pytest.raises(LabelError, match="1.5"):
        binary_labels([1.0, 1.5])


def test_a_positive_label_that_does_not_occur_is_named():
    with pytest.raises(LabelError, match="positive label 'bird' does not occur among the labels \\('cat', 'dog'\\)"):
        binary_labels(["cat", "dog", "cat"], positive="bird")


def test_scaled_needs_rows():
    from exactlin.exact.rows import scaled

    with pytest.raises(ShapeError, match="2-D"):
        scaled([1, 2], 2)
