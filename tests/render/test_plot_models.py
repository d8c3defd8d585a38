"""exactlin.render.plot draws the model's boundary: Fisher's line is w.x = y0, not w.x = 0."""

from __future__ import annotations

import pytest

pytest.importorskip("matplotlib")

from exactlin.algorithms.fisher import fisher  # noqa: E402
from exactlin.render.plot import plot_run  # noqa: E402


def test_fisher_plot_draws_w_dot_x_equals_y0():
    from matplotlib.figure import Figure

    run = fisher([(10, 10), (11, 12), (12, 11), (5, 5), (4, 6), (6, 4)], [1, 1, 1, -1, -1, -1])
    ax = Figure().add_subplot()
    plot_run(run, ax=ax)
    lines = [ln for ln in ax.get_lines() if ln.get_gid() == "boundary"]
    assert len(lines) == 1 and lines[0].get_label() == "threshold w.x = y0"  # the legend names Fisher's line
    xs, ys = lines[0].get_xdata(), lines[0].get_ydata()
    assert len(xs) == 2 and xs[0] != xs[1]
    for u, v in zip(xs, ys):  # w = (2, 2), y0 = 32 (hand derivation in tests/model/test_models.py)
        assert 2 * u + 2 * v == pytest.approx(32, abs=1e-9)
