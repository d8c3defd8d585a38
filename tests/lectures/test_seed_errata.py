"""The errata of exactlin/lectures/seed00*.py: each demonstration holds, and its numbers are recomputed here
independently (expected values derived by hand in the comments)."""

from fractions import Fraction as F

import pytest

from exactlin.lectures.errata import ERRATA, all_errata

NEW = ["seed000-fact1-conclusion", "seed000-theorem-unit-norm", "seed000-gamma-label", "seed000-index-meaning",
       "seed001-pla-missing-update", "seed001-batch-pla-reset", "seed001-batch-pla-cancel", "seed003-lms-stop",
       "seed003-hk-nonseparable-untested", "seed004-add-away", "seed004-soft-margin-c"]


def demo(id):
    all_errata()
    return ERRATA[id].demonstrate()


def dot(u, v):
    return sum(F(a) * F(b) for a, b in zip(u, v))


@pytest.mark.parametrize("id", NEW)
def test_new_erratum_holds_and_is_documented(id):
    all_errata()
    e = ERRATA[id]
    d = e.demonstrate()
    assert d["holds"] is True, d
    assert d["text"] and e.seed.split("_")[0] in {"000", "001", "003", "004"}
    assert len(e.notes_say) < 250 and e.correct and e.where


def test_no_duplicate_ids_and_at_least_nine_new():
    assert len(set(NEW)) == len(NEW) >= 9
    ids = [e.id for e in all_errata()]
    assert len(ids) == len(set(ids))


def test_fact1_numbers():
    d = demo("seed000-fact1-conclusion")
    # u = (1,-3): <x, u> for the mistakes x_1 = (4,0), x_2 = (1,1), x_4 = (-2,-2) is 4, -2, 4; the weights after
    # the mistakes (4,0), (3,-1), (1,-3) give <w, u> = 4, 6, 10
    assert d["<x_t, w*> at mistakes"] == [dot(x, (1, -3)) for x in [(4, 0), (1, 1), (-2, -2)]] == [4, -2, 4]
    assert d["<w_(t+1), w*>"] == [dot(w, (1, -3)) for w in [(4, 0), (3, -1), (1, -3)]]
    assert d["gamma"] == 2


def test_theorem_unit_norm_numbers():
    d = demo("seed000-theorem-unit-norm")
    # minimum-norm w with y<w,x> >= 1 on Example 1 is (1/4, -5/4): ||w||^2 = 1/16 + 25/16 = 13/8, gamma^2 = 8/13
    w = (F(1, 4), F(-5, 4))
    assert min(y * dot(w, x) for x, y in [((4, 0), 1), ((1, 1), -1), ((0, 1), -1), ((-2, -2), 1)]) == 1
    assert d["gamma^2"] == 1 / dot(w, w) == F(8, 13)
    assert d["K"] == 3 > 1 / d["gamma^2"]
    assert d["R^2"] == 16


def test_gamma_label_numbers():
    d = demo("seed000-gamma-label")
    assert d["w + y x"] == (3, -1)
    assert d["w + gamma x"] == (F(401, 100), F(1, 100))  # (4,0) + (1/100)(1,1)


def test_index_meaning_numbers():
    d = demo("seed000-index-meaning")
    assert d["round-indexed"] == [(0, 0), (4, 0), (3, -1), (3, -1), (1, -3)]
    assert d["mistake-indexed"] == [(0, 0), (4, 0), (3, -1), (1, -3)]


def test_pla_missing_update_numbers():
    d = demo("seed001-pla-missing-update")
    assert d["w as printed"] == (0, 0, 0)
    # the PLA with the update on (1, x): hand trace a = (1,4,0), (0,3,-1), (1,1,-3)
    assert d["PLA w"] == (1, 1, -3)


def test_batch_pla_reset_numbers():
    d = demo("seed001-batch-pla-reset")
    # w_k = (0, 1/4, -1) * (1 + 1/4 + ... + 1/4^(k-1))
    geo = [sum(F(1, 4**j) for j in range(k)) for k in range(1, 5)]
    assert d["w without reset"] == [(0, F(1, 4) * g, -g) for g in geo]
    assert d["exactlin w"] == (0, F(1, 4), -1)


def test_batch_pla_cancel_numbers():
    d = demo("seed001-batch-pla-cancel")
    assert d["Delta"] == (0, 0) and d["w"] == (0, 0) and d["reason"] == "cycle"


def test_lms_stop_numbers():
    d = demo("seed003-lms-stop")
    Y = [(1, 1, 2), (1, 2, 0), (-1, -3, -1), (-1, -2, -3)]
    assert d["a"] == (1, 0, 0)
    assert d["J_s"] == sum((dot((1, 0, 0), y) - 1) ** 2 for y in Y) == 8


def test_hk_untested_numbers():
    d = demo("seed003-hk-nonseparable-untested")
    # a = (1/3, 0) on Y = [[1,0],[-1,-1],[1,2]]: Y a - 1 = (1/3 - 1, -1/3 - 1, 1/3 - 1)
    assert d["e"] == (F(-2, 3), F(-4, 3), F(-2, 3))
    assert d["b"] == (1, 1, 1)


def test_add_away_numbers():
    d = demo("seed004-add-away")
    w, b = d["w after"], d["b after"]
    assert (w, b) == ((F(6, 5), F(4, 5)), -1)
    # all three points on the margin: y (w.x + b) = 1
    assert [y * (dot(w, x) + b) for x, y in [((0, 0), -1), ((1, 1), 1), ((5, -5), 1)]] == [1, 1, 1]
    assert d["margin^2 after"] == 1 / dot(w, w) == F(25, 52)


def test_soft_margin_C_numbers():
    d = demo("seed004-soft-margin-c")
    for key, C in (("C = 1/4", F(1, 4)), ("C = 1", F(1)), ("C = 4", F(4))):
        w = 4 * C / (1 + 4 * C)  # minimizer of w^2/2 + 2 C (1 - w)^2
        assert d["(w, b) by C"][key] == (w, -w)
