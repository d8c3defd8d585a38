"""parse_csv's delimiter (and its detection), label_column and labels=False."""

from fractions import Fraction

import pytest

from exactlin.data.dataset import detect_delimiter, parse_csv, parse_csv_reference
from exactlin.errors import CSVError, ParameterError


@pytest.mark.parametrize("text, want", [
    ("4,0,1\n1,1,-1\n", ","),
    ("4;0;1\n1;1;-1\n", ";"),
    ("4\t0\t1\n1\t1\t-1\n", "\t"),
    ("# a comment, with commas, here\nx;y;z\n1,5;2;1\n0;1,25;-1\n", ";"),  # decimal commas in a ; file
    ('"a;b",1,2\n"c;d",3,4\n', ","),  # quoted text does not count
    ("1\n2\n", ","),  # nothing to detect: the comma
])
def test_detect_delimiter(text, want):
    assert detect_delimiter(text) == want


def test_label_column_equals_reordered_file():
    # the same data written label-first and label-last parse to the same dataset (fast and reference paths)
    last = parse_csv("x1,x2,y\n4,0,1\n1,1/2,-1\n")
    for parse in (parse_csv, parse_csv_reference):
        first = parse("y,x1,x2\n1,4,0\n-1,1,1/2\n", label_column="y")
        assert tuple(first.X) == tuple(last.X) == ((4, 0), (1, Fraction(1, 2)))
        assert first.y == last.y and first.feature_names == ("x1", "x2") and first.label_name == "y"
        assert parse("1;4;0\n-1;1;1/2\n", delimiter=";", label_column=1).y == (1, -1)
        assert parse("1;4;0\n-1;1;1/2\n", delimiter=";", label_column=-3).y == (1, -1)


def test_labels_false():
    ds = parse_csv("a,b\n1,2\n3,4/5\n", labels=False)
    assert tuple(ds.X) == ((1, 2), (3, Fraction(4, 5))) and ds.y == (None, None) and ds.feature_names == ("a", "b")
    with pytest.raises(CSVError, match="line 2: 1 cells, expected 2 \\(features, no label column"):
        parse_csv("1,2\n3\n", labels=False)


def test_bad_delimiter_and_label_column():
    with pytest.raises(ParameterError, match="delimiter"):
        parse_csv("1,2\n", delimiter="ab")
    with pytest.raises(CSVError, match="no such column"):
        parse_csv("a,b\n1,2\n", label_column="c")
    with pytest.raises(CSVError, match="1..2"):
        parse_csv("1,2\n", label_column=3)


def test_detect_delimiter_samples_the_head_of_a_large_file():
    # 20,000 rows of "1;2;3" (> 64 KiB): the sample is the head, its partial last line left out
    text = "1;2;3\n" * 20000
    assert len(text) > 1 << 16 and detect_delimiter(text) == ";"
    assert parse_csv(text, delimiter=None).d == 2
