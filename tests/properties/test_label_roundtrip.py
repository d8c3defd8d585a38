"""Labels of every type keep their type and identity (issue 20 item 1): fit -> predict -> Run JSON -> saved
model -> predict, and a CSV whose labels are the labels' texts.

The confusion rule and the texts are written here independently of exactlin.data.labels, from the issue's
words: two labels are the same label when they have the same type and value (a numpy scalar is the Python value
it holds); two different labels would be confused when they are equal as values (1 and 1.0, True and 1) or are
written the same way (1 and "1").

Data: seed 000 Example 1 (000_478cb53c624e7eb5.txt), separable by w = (1, -3), on which the perceptron
converges: its predictions are then the training labels themselves.  For three classes, the points (0, 0),
(3, 0), (0, 3), (1, 0), (4, 1), (1, 4), which the linear machine separates (the same check: when it
converges, predict(X) is y).
"""

import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from exactlin import linear_machine, perceptron
from exactlin.algorithms import all_specs
from exactlin.cli.app import main
from exactlin.model.run import Run
from exactlin.model.saved import SavedModel, load_model_text, saved_model_json

EX1 = [(4, 0), (1, 1), (0, 1), (-2, -2)]
EX1_SIGNS = [1, -1, -1, 1]
THREE = [(0, 0), (3, 0), (0, 3), (1, 0), (4, 1), (1, 4)]
THREE_CLASS = [0, 1, 2, 0, 1, 2]


def py(v):
    """A numpy scalar as the Python value it holds."""
    return v.item() if isinstance(v, np.generic) else v


def text(v):
    v = py(v)
    if isinstance(v, float):
        return repr(v)
    return str(v)  # str, int, bool ("True"), Fraction ("1/2")


def identity(v):
    v = py(v)
    return (type(v), repr(v) if isinstance(v, float) else v)


def confusable(labels) -> bool:
    ids = {identity(v) for v in labels}
    if len(ids) < len(labels):
        return True  # the same label twice: not two classes
    vals = [py(v) for v in labels]
    return any(vals[i] == vals[j] or text(vals[i]) == text(vals[j])
               for i in range(len(vals)) for j in range(i + 1, len(vals)))


def typed(values):
    return [identity(v) for v in values]


NUMERIC_TEXTS = ["01", "1", "-1", "+1", "0", "0.5", "1/2", "1.0", "1e3", "True", " 1", "-0"]
labels = st.one_of(
    st.integers(-10, 10), st.integers(-10**30, 10**30),
    st.sampled_from(NUMERIC_TEXTS), st.text(min_size=1, max_size=6),
    st.floats(allow_nan=False, allow_infinity=False, width=64),
    st.fractions(max_denominator=50), st.booleans(),
    st.integers(-5, 5).map(np.int64), st.floats(-4, 4, allow_nan=False).map(np.float64),
    st.sampled_from(["a", "01", "1"]).map(np.str_), st.booleans().map(np.bool_),
)


def _through_everything(run, X, y, classes):
    """predict on the run, on the Run read back from JSON, and on the saved model read back: always y."""
    want = typed(y)
    assert typed(run.predict(X)) == want
    back = Run.from_json(run.to_json())
    assert typed(back.predict(X)) == want
    saved = SavedModel(run.model, run.algorithm, run.bias, classes, len(X[0]), "0")
    loaded = load_model_text(saved_model_json(saved))
    assert typed(loaded.labels) == typed(classes)
    assert typed(loaded.model.predict(X)) == want
    # and the saved model read from the run's JSON read back (the JSON of `exactlin fit --json`)
    assert typed(load_model_text(back.to_json()).model.predict(X)) == want


@given(a=labels, b=labels)
def test_two_labels_round_trip_with_their_type(a, b):
    assume(not confusable([a, b]))
    y = [a if s == 1 else b for s in EX1_SIGNS]
    run = perceptron(EX1, y, positive=a)
    assert run.converged
    _through_everything(run, EX1, y, (a, b))


@given(a=labels, b=labels, c=labels)
def test_three_labels_round_trip_with_their_type(a, b, c):
    assume(not confusable([a, b, c]))
    y = [(a, b, c)[k] for k in THREE_CLASS]
    run = linear_machine(THREE, y)
    assume(run.converged)
    _through_everything(run, THREE, y, tuple(run.model.classes))
    assert typed(run.extras["classes"]) == typed(Run.from_json(run.to_json()).extras["classes"])


def _twins(v):
    """Labels of another type that ``v`` would be confused with: equal values, or the same text."""
    v = py(v)
    out = [text(v)] if not isinstance(v, str) else []
    if isinstance(v, bool):
        out += [int(v), float(v)]
    elif isinstance(v, int):
        out += [float(v), Fraction(v)] + ([bool(v)] if v in (0, 1) else [])
    elif isinstance(v, float):
        out += [Fraction(v)] + ([int(v)] if v.is_integer() else []) + ([-v] if v == 0 else [])
    elif isinstance(v, Fraction):
        out += [float(v)] if Fraction(float(v)) == v else []
    return out


confused_pairs = labels.filter(lambda v: not isinstance(py(v), str)).flatmap(
    lambda v: st.tuples(st.just(v), st.sampled_from(_twins(v))))


@given(pair=confused_pairs, flip=st.booleans())
def test_confused_labels_are_never_merged(pair, flip):
    from exactlin.errors import LabelError

    a, b = pair[::-1] if flip else pair
    assert confusable([a, b]) and identity(a) != identity(b)
    with pytest.raises(LabelError) as e:
        perceptron(EX1, [a if s == 1 else b for s in EX1_SIGNS], positive=a)
    assert "would be confused" in str(e.value)


def _csv_safe(t: str) -> bool:
    return t == t.strip() and t and not any(ch in t for ch in ',;\t"#\r\n\x00') and t != "-0"


@given(a=labels, b=labels)
def test_a_csv_of_the_labels_texts_predicts_every_point_right(tmp_path_factory, a, b):
    # in a file a label is its text: the model trained in Python matches the file's labels by text
    assume(not confusable([a, b]) and _csv_safe(text(a)) and _csv_safe(text(b)))
    y = [a if s == 1 else b for s in EX1_SIGNS]
    run = perceptron(EX1, y, positive=a)
    d = tmp_path_factory.mktemp("csv")
    m, f = d / "m.json", d / "t.csv"
    m.write_text(saved_model_json(SavedModel(run.model, "perceptron", "none", (a, b), 2, "0")))
    f.write_text("".join(f"{x1},{x2},{text(lab)}\n" for (x1, x2), lab in zip(EX1, y)))
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--no-progress", "predict", str(m), str(f), "--json"])
    assert code == 0, err.getvalue()
    s = json.loads(out.getvalue())["summary"]
    assert s["correct"] == 4 and "label_mismatch" not in s and err.getvalue() == ""
    # and trained from the file: two labels, never merged, with the file's texts
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["--no-progress", "fit", "perceptron", str(f), f"--positive={text(a)}", "--save", str(m)]) == 0
    saved = load_model_text(m.read_text())
    assert [text(v) for v in saved.labels] == [text(a), text(b)]


PAIRS = [("01", 1), (0.5, Fraction(3, 2)), (True, "no"), (np.int64(7), "7.0")]


@pytest.mark.parametrize("spec", all_specs(), ids=[s.name for s in all_specs()])
def test_every_algorithm_keeps_the_labels_type(spec):
    # walk the registry: every model predicts only the data's own labels, with their types, also after JSON
    for a, b in PAIRS:
        y = [a if s == 1 else b for s in EX1_SIGNS]
        kw = {} if spec.multiclass else {"positive": a}  # a few epochs: the labels, not the weights, are tested
        run = spec.func(EX1, y, max_epochs=20, **kw)
        if run.model is None:
            continue
        allowed = set(typed([a, b])) | {identity(None)}
        for back in (run, Run.from_json(run.to_json())):
            assert set(typed(back.predict(EX1 + [(3, -5), (-7, 2)]))) <= allowed
        if run.reason in ("converged", "solved"):
            assert typed(run.predict(EX1)) == typed(y)
