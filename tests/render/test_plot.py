"""exactlin.render.plot: pictures of runs (2-D data, projections, multi-class regions, deterministic SVG)."""

from __future__ import annotations

import pytest

pytest.importorskip("matplotlib")

from exactlin import perceptron  # noqa: E402
from exactlin.errors import ParameterError, ShapeError  # noqa: E402
from exactlin.model.models import ArgmaxModel  # noqa: E402
from exactlin.model.run import Run  # noqa: E402
from exactlin.render.plot import plot_run, run_svg  # noqa: E402

EX1_X = [(4, 0), (1, 1), (0, 1), (-2, -2)]  # seed 000, Example 1
EX1_Y = [1, -1, -1, 1]


def _figure_axes():
    from matplotlib.figure import Figure

    fig = Figure()
    return fig, fig.add_subplot()


def test_2d_run_draws_points_final_boundary_and_each_update():
    run = perceptron(EX1_X, EX1_Y, trace=True)
    _, ax = _figure_axes()
    assert plot_run(run, ax=ax) is ax
    labels = [ln.get_label() for ln in ax.get_lines()]
    assert "final boundary g(x) = 0" in labels
    # 3 updates (seed 000: w_2 = (4,0), w_3 = (3,-1), w_5 = (1,-3)): three dashed boundaries, one labelled
    dashed = [ln for ln in ax.get_lines() if ln.get_linestyle() == "--"]
    assert len(dashed) == 3
    assert len(ax.collections) == 2  # one scatter per label


def test_final_boundary_is_the_runs_line():
    # bias first: w = (b, w1, w2); the final line must satisfy b + w1 x + w2 y = 0 at both ends
    run = perceptron(EX1_X, EX1_Y, bias="first", trace=True)
    _, ax = _figure_axes()
    plot_run(run, ax=ax, steps=False)
    final = next(ln for ln in ax.get_lines() if ln.get_label() == "final boundary g(x) = 0")
    b, w1, w2 = (float(v) for v in run.w)
    for x, y in zip(final.get_xdata(), final.get_ydata()):
        assert abs(b + w1 * x + w2 * y) < 1e-9
    assert not [ln for ln in ax.get_lines() if ln.get_linestyle() == "--"]


def test_3d_data_needs_a_projection():
    X = [(1, 0, 2), (0, 1, -1), (-1, 0, 1), (0, -1, 0)]
    run = perceptron(X, [1, 1, -1, -1], trace=True)
    with pytest.raises(ShapeError, match="2-D features.*3 features.*projection"):
        plot_run(run)
    _, ax = _figure_axes()
    plot_run(run, ax=ax, projection=(0, 2))
    assert ax.get_xlabel() == "x1" and ax.get_ylabel() == "x3"
    with pytest.raises(ParameterError, match="not a feature index"):
        plot_run(run, ax=ax, projection=(0, 3))
    with pytest.raises(ParameterError, match="two different features"):
        plot_run(run, ax=ax, projection=(1, 1))


def test_run_without_data_is_a_clear_error():
    run = Run.from_json(perceptron(EX1_X, EX1_Y).to_json())
    with pytest.raises(ParameterError, match="no data attached"):
        plot_run(run)


def test_multiclass_regions():
    from exactlin.data.dataset import as_dataset

    ds = as_dataset([(2, 0), (0, 2), (-2, -2)], ["a", "b", "c"])
    # a hand-made linear machine (bias none): w_a = (1, 0), w_b = (0, 1), w_c = (-1, -1)
    run = Run("linear-machine", None, "none", True, "converged", problem=type("P", (), {"data": ds})(),
              extras={"W": ((1, 0), (0, 1), (-1, -1)), "classes": ("a", "b", "c")},
              model=ArgmaxModel(("a", "b", "c"), ((1, 0), (0, 1), (-1, -1)), "none"))
    _, ax = _figure_axes()
    plot_run(run, ax=ax)
    assert len(ax.patches) == 3  # one region per class
    assert len(ax.collections) == 3  # the samples of each class


def test_svg_is_deterministic():
    run = perceptron(EX1_X, EX1_Y, trace=True)
    a, b = run_svg(run), run_svg(perceptron(EX1_X, EX1_Y, trace=True))
    assert a == b
    assert a.lstrip().startswith("<?xml") and "<svg" in a
    assert "dc:date" not in a


def test_feature_map_run_is_drawn_in_the_original_plane():
    from exactlin.algorithms.features import feature_map_run

    # seed 004's circle lift: the origin inside the circle is +1, four points outside are -1
    X = [(0, 0), (2, 0), (-2, 0), (0, 2), (0, -2)]
    run = feature_map_run(X, [1, -1, -1, -1, -1], trace=True)
    assert len(run.w) == 4  # bias + (x, y, x^2 + y^2): the weights live in the feature space
    _, ax = _figure_axes()
    plot_run(run, ax=ax)
    labels = [ln.get_label() for ln in ax.get_lines()]
    assert any(lab.startswith("final boundary <w, phi(x)> = 0") for lab in labels)
    assert ax.get_xlabel() == "x1" and ax.get_ylabel() == "x2"
    lo, hi = ax.get_xlim()
    assert lo < -2 and hi > 2


def test_run_plot_method_uses_plot_run():
    run = perceptron(EX1_X, EX1_Y, trace=True)
    _, ax = _figure_axes()
    assert run.plot(ax=ax, steps=False) is ax
    assert not [ln for ln in ax.get_lines() if ln.get_linestyle() == "--"]
