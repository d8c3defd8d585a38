"""Provenance of every worked-example check: ``source`` is a validated vocabulary, and the checks that claim
"lecture" (the notes PRINT the expected value) are pinned here per example, from a reading of the notes, so a
future mislabel fails."""

import pytest

from exactlin.errors import ExactlinError
from exactlin.lectures.examples import Check, all_examples, source_kind

#: example id -> the ``what`` of every check whose expected value the notes print (everything else is a hand
#: derivation, a verifier, or an independent computation). Quotes are the notes' words.
LECTURE_CLAIMS = {
    # seed 000, Example 1: "w_3 = w_2 + y_2 x_2 = (4, 0) - (1, 1) = (3, -1)", "w_4 = w_3 = (3, -1)",
    # "w_5 = ... = (1, -3)"; w_2 = (4, 0) is printed in round 2 and in the voted example ("w_2 = ... = (4, 0)")
    "seed000-example1": ["w_2 after round 1 (y_1<w_1,x_1> = 0 is a mistake)", "w_3 = (4, 0) - (1, 1)",
                         "w_4 = w_3 (round 3 is correct)", "w_5 = (3, -1) + (-2, -2)"],
    "seed000-example1-strict": [],
    # Example 2: "w_2 = (1, 1)", "w_3 = (0, 2)", "w_4 = (1, 1)", "w_5 = 0"
    "seed000-example2": ["w_2 = w_1 + y_1 x_1", "w_3 = (1,1) - (1,-1)", "w_4 = (0,2) - (-1,1)",
                         "w_5 = (1,1) + (-1,-1) = 0"],
    # "So, margin = 0.01", "|<w, x_3>|/||w|| = 0.01"
    "seed000-margin": ["margin of w = (1,0) w.r.t. S (min |<w,x>|/||w||)",
                       "attained at x_3 = (0.01, 0) (index 3, 1-based)"],
    "seed004-theorem": [],
    # "Output: ((4, 0), 1) ((3, -1), 2) ((1, -3), 1)", "w_1 = (0, 0) (always)", "c_1 = 1"
    "seed000-voted-averaged": ["output after one pass: ((4,0),1), ((3,-1),2), ((1,-3),1)",
                               "w_1 = (0,0) (always), c_1 = 1"],
    "seed003-fixed-increment-ex1": [], "seed003-variable-increment-ex1": [], "seed003-batch-perceptron-ex1": [],
    "seed001-batch-pla-ex1": [], "seed001-pocket-ex2": [], "seed002-perceptron-gd-ex1": [], "seed003-winnow": [],
    "seed003-relaxation": [], "seed003-linear-machine": [], "seed001-one-vs-rest": [],
    # seed 003 prints Y, "Y^dagger = lim ... = (5/4 13/12 ...)", "a = Y^dagger b = (11/3, -4/3, -2/3)^t",
    # "Hyperplane: 4x_1 + 2x_2 - 11 = 0" and "Y Y^+ != I"
    "seed003-pseudoinverse": ["normalized Y from omega_1 = {(1,2),(2,0)}, omega_2 = {(3,1),(2,3)}, bias first",
                              "Y^+ = lim (Y^tY + eps I)^{-1} Y^t", "a = Y^+ b with b = (1,1,1,1)",
                              "hyperplane -3 a^t (1, x) = 4 x1 + 2 x2 - 11",
                              "but Y Y^+ != I (the notes' remark): it is the 4x4 projector onto the column space"],
    "seed003-ho-kashyap": [],
    # the printed a = (11/3, -4/3, -2/3)
    "seed003-widrow-hoff": ["the limit is the MSE solution Y^+ b"],
    "seed003-fisher": [], "seed004-circle-lift": [], "seed004-svm-diagonal": [], "seed004-svm-box": [],
    "sklearn-18606": [], "seed000-example2-gordan": [], "seed004-circle-svm": [], "seed004-tightest-bound": [],
    # new seed modules
    "seed000-exercise-repeat-mistake": ["the notes' round 2: w_3 = (3,-1)"],  # "= (4, 0) - (1, 1) = (3, -1)"
    "seed000-exercise-voted-boundary": [], "seed000-sum-of-mistakes": [], "seed002-duality": [],
    "seed003-step-size": [], "seed003-relaxation-factor": [], "seed003-linear-machine-distance": [],
    "seed003-fisher-rank-sb": [],
    # the printed Y^dagger of the example
    "seed003-pinv-limit": ["sympy limit for the notes' Y equals the printed Y^+"],
    "seed004-margin-invariance": [],
    # another course's convention (Mitchell 1997): every check is a hand derivation
    "mitchell-threshold-unit": [],
}


@pytest.mark.parametrize("ex", all_examples(), ids=lambda e: e.id)
def test_lecture_claims_pinned(ex):
    assert ex.id in LECTURE_CLAIMS, f"pin the 'lecture' checks of the new example {ex.id!r} in LECTURE_CLAIMS"
    res = ex.func()
    claimed = [c.what for c in res.checks if c.kind == "lecture"]
    assert claimed == LECTURE_CLAIMS[ex.id]


def test_every_pinned_example_exists():
    assert set(LECTURE_CLAIMS) == {e.id for e in all_examples()}


@pytest.mark.parametrize("source,kind", [
    ("lecture", "lecture"), ("lecture: |<w,x_3>|/||w|| = 0.01", "lecture"), ("hand derivation", "hand derivation"),
    ("hand derivation: Y^t b = (0,-2,-2)", "hand derivation"), ("verified: KKT (exactlin.theory.kkt)", "verified"),
    ("independent: sympy.limit", "independent")])
def test_source_vocabulary(source, kind):
    assert source_kind(source) == kind
    assert Check("x", 1, 1, source).kind == kind


@pytest.mark.parametrize("bad", ["exactlin's verifier", "lecture's Example 1", "verified:", "verified", "lecture:",
                                 "", "notes", None])
def test_source_outside_vocabulary_is_rejected(bad):
    with pytest.raises(ExactlinError, match="provenance vocabulary") as e:
        Check("w_2 after round 1", 1, 1, bad)
    assert isinstance(e.value, ValueError)
    assert "w_2 after round 1" in str(e.value)
