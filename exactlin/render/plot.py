"""Pictures of a Run: the data, the decision boundary, and the boundary after each update.

Needs the ``plot`` extra (matplotlib).  The numbers in a :class:`~exactlin.model.run.Run`
are exact; they become floats here only to be drawn, never to be computed with.

* Binary runs: the samples by label, the final boundary ``g(x) = 0`` with the side
  ``g(x) > 0`` shaded, and for iterative runs (``steps=True``) the boundary after
  every update, from the trace's ``w_after`` vectors (the augmentation is the run's
  ``bias`` mode).
* Linear SVMs besides: the margin lines ``g(x) = +1`` and ``g(x) = -1`` (dotted) and the support
  vectors, circled.
* Multi-class runs (``extras["W"]`` and ``extras["classes"]``): the linear machine's
  regions ``argmax_c <w_c, x~>`` (seed 003), each a convex polygon, and their edges,
  which are the pairwise boundaries ``<w_i - w_j, x~> = 0`` where they matter.

The legend sits inside the axes (``loc="best"``), so a plain ``savefig`` keeps it.  Only 2-D
features are drawn.  For more features pass ``projection=(i, j)`` (two
0-based feature indices): the picture then shows the plane where every other
feature is 0.

:func:`run_svg` returns the picture as an SVG string that is byte-identical from
one build to the next (fixed ``svg.hashsalt``, no date in the metadata); the
documentation site uses it.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from exactlin.errors import ParameterError, ShapeError

__all__ = ["plot_run", "run_svg", "save_figure", "figure_format", "MAX_STEP_LINES", "MAX_FRAMES", "Scene",
           "run_scene", "step_scenes", "scene_svg", "scene_css", "scene_latex"]

#: at most this many intermediate boundaries are drawn (evenly chosen, the last update always included)
MAX_STEP_LINES = 60

_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">")
_COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
           "#7f7f7f")


def _dataset(run):
    prob = run.problem
    if prob is None:
        raise ParameterError(f"this {run.algorithm} run has no data attached (a Run read back from JSON does not "
                             "keep its dataset); plot the Run the algorithm returned", parameter="run")
    data = getattr(prob, "data", prob)
    if not hasattr(data, "X") or not hasattr(data, "y"):
        raise ParameterError(f"cannot find the samples of this {run.algorithm} run", parameter="run")
    return data


def _projection(projection, d: int) -> tuple[int, int]:
    if projection is None:
        if d != 2:
            raise ShapeError(f"plot_run draws 2-D features, but this run has {d} feature"
                             f"{'' if d == 1 else 's'}; pass projection=(i, j) with two feature indices "
                             f"in 0..{d - 1}")
        return 0, 1
    try:
        i, j = projection
    except (TypeError, ValueError):
        raise ParameterError(f"projection must be two feature indices (i, j); got {projection!r}",
                             parameter="projection") from None
    for v in (i, j):
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < d:
            raise ParameterError(f"projection index {v!r} is not a feature index in 0..{d - 1}",
                                 parameter="projection")
    if i == j:
        raise ParameterError(f"projection needs two different features; got ({i}, {j})", parameter="projection")
    return i, j


def _line(w: Sequence, bias: str, proj: tuple[int, int], offset=0) -> tuple[float, float, float] | None:
    """(a, b, c) with the boundary a*u + b*v + c = 0 in the projected plane, for g(x) = <w, x~> + offset
    (Fisher: offset = -y0, possibly an exact irrational, rounded here for display only); None when w
    vanishes there."""
    from exactlin.data.dataset import split_bias

    feats, b0 = split_bias(tuple(w), bias)
    a, b = Fraction(feats[proj[0]]), Fraction(feats[proj[1]])
    if a == 0 and b == 0:
        return None
    c = Fraction(b0) + offset if isinstance(offset, (int, Fraction)) else Fraction(b0) + float(offset)
    return float(a), float(b), float(c)


_plane_line = _line  # (run_scene wraps it for one-feature data)


def _clip(poly: list[tuple[float, float]], a: float, b: float, c: float) -> list[tuple[float, float]]:
    """Sutherland-Hodgman: the part of a convex polygon where a*u + b*v + c >= 0."""
    out: list[tuple[float, float]] = []
    n = len(poly)
    for k in range(n):
        p, q = poly[k], poly[(k + 1) % n]
        fp, fq = a * p[0] + b * p[1] + c, a * q[0] + b * q[1] + c
        if fp >= 0:
            out.append(p)
        if (fp >= 0) != (fq >= 0):
            t = fp / (fp - fq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def _regions(W, offsets, bias: str, proj, rect, *, ties_empty: bool = False) -> list[tuple[int, list]]:
    """(class index, convex polygon) of each class's region argmax_c <w_c, x~> + offsets[c] inside ``rect``: the
    rectangle cut by the pairwise boundaries.  Two classes with the same function tie everywhere: skipped as a
    cut (``ties_empty``: the class then has no region drawn)."""
    out = []
    for c in range(len(W)):
        poly = rect
        for j in range(len(W)):
            if j == c:
                continue
            diff = tuple(Fraction(p) - Fraction(q) for p, q in zip(W[c], W[j]))
            ln = _line(diff, bias, proj, offsets[c] - offsets[j])
            if ln is None:
                if ties_empty:  # no feature separates c from j: c wins everywhere, or nowhere (a tie is no win)
                    from exactlin.data.dataset import split_bias

                    if Fraction(split_bias(diff, bias)[1]) + Fraction(offsets[c] - offsets[j]) <= 0:
                        poly = []
                        break
                continue
            poly = _clip(poly, *ln)
            if not poly:
                break
        area = sum(poly[k][0] * poly[k - 1][1] - poly[k - 1][0] * poly[k][1] for k in range(len(poly))) / 2
        if len(poly) >= 3 and (not ties_empty or abs(area) > 1e-9):  # (a region of no area: where classes tie)
            out.append((c, poly))
    return out


def _segment(line, box) -> list[tuple[float, float]] | None:
    """The part of the line a*u + b*v + c = 0 inside the box, as two end points."""
    a, b, c = line
    (u0, u1), (v0, v1) = box
    pts = []
    if b != 0:
        for u in (u0, u1):
            v = -(a * u + c) / b
            if v0 - 1e-12 <= v <= v1 + 1e-12:
                pts.append((u, v))
    if a != 0:
        for v in (v0, v1):
            u = -(b * v + c) / a
            if u0 - 1e-12 <= u <= u1 + 1e-12:
                pts.append((u, v))
    pts = sorted(set(pts))
    if len(pts) < 2:
        return None
    return [pts[0], pts[-1]]


def _box(points: list[tuple[float, float]], include_origin: bool) -> tuple[tuple[float, float], tuple[float, float]]:
    us = [p[0] for p in points] + ([0.0] if include_origin else [])
    vs = [p[1] for p in points] + ([0.0] if include_origin else [])
    lo_u, hi_u, lo_v, hi_v = min(us), max(us), min(vs), max(vs)
    span = max(hi_u - lo_u, hi_v - lo_v, 1.0)
    pad = 0.15 * span
    return (lo_u - pad, hi_u + pad), (lo_v - pad, hi_v + pad)


def _fmt(v) -> str:
    from exactlin.exact.format import text

    return text(v)


def _step_vectors(run) -> list[tuple]:
    ws = [tuple(s.w_after) for s in run.trace if s.update and s.w_after is not None]
    if len(ws) > MAX_STEP_LINES:
        idx = sorted({round(k * (len(ws) - 1) / (MAX_STEP_LINES - 1)) for k in range(MAX_STEP_LINES)})
        ws = [ws[k] for k in idx]
    return ws


def _voted_region(ax, voted, bias: str, proj, box, d: int, n: int = 160) -> None:
    """Shade where the voted rule says +1, evaluated (for display only) on an n x n grid."""
    import numpy as np

    from exactlin.data.dataset import split_bias

    (u0, u1), (v0, v1) = box
    U, V = np.meshgrid(np.linspace(u0, u1, n), np.linspace(v0, v1, n))
    vote = np.zeros_like(U)
    for item in voted:
        feats, b = split_bias(tuple(item["w"]), bias)
        g = float(feats[proj[0]]) * U + float(feats[proj[1]]) * V + float(b)
        vote += int(item["c"]) * np.sign(g)
    if (vote > 0).any():
        ax.contourf(U, V, (vote > 0).astype(float), levels=[0.5, 1.5], colors=["#d62728"], alpha=0.1, zorder=0)
        ax.contour(U, V, np.sign(vote), levels=[0.0], colors=["black"], linewidths=2, zorder=2)
    ax.plot([], [], color="black", lw=2, label="voted rule boundary")


def _feature_space(run):
    """For a run whose model is a :class:`~exactlin.model.models.FeatureMapModel` on 2-D raw samples:
    (phi, the original samples)."""
    from exactlin.model.models import FeatureMapModel

    model = run.model
    if not isinstance(model, FeatureMapModel):
        return None
    X0 = run.extras["original_X"] if "original_X" in run.extras else None
    if not X0 or len(X0[0]) != 2:
        return None
    from exactlin.exact.featuremaps import apply_map

    return (lambda X: apply_map(model.kind, model.degree, X)), X0


def _plot_feature_run(run, ax, phi, X0, steps: bool, n: int = 90):
    """Data in the original plane and the curve <w, phi~(x)> = 0 (evaluated on a grid, for display only)."""
    import numpy as np

    from exactlin.data.dataset import augment

    pts = [(float(x[0]), float(x[1])) for x in X0]
    box = _box(pts, False)
    (u0, u1), (v0, v1) = box
    us, vs = np.linspace(u0, u1, n), np.linspace(v0, v1, n)
    grid = [(Fraction(u), Fraction(v)) for v in vs for u in us]
    F = np.array([[float(c) for c in row] for row in augment(phi(grid), run.bias)])
    U, V = np.meshgrid(us, vs)

    def g(w):
        return (F @ np.array([float(c) for c in w])).reshape(n, n)

    if steps and run.trace:
        ws = _step_vectors(run)[-12:]
        for w in ws:
            G = g(w)
            if G.min() < 0 < G.max():
                ax.contour(U, V, G, levels=[0.0], colors=["0.55"], linewidths=0.9, linestyles="--", zorder=1)
        if ws:
            ax.plot([], [], ls="--", color="0.55", lw=0.9, label="boundary after each update")
    from exactlin.model.models import linear_form

    form = linear_form(run.model.inner)
    if form is not None:
        (w,), (off,), _ = form
        G = g(w) + float(off)
        if G.max() > 0:
            ax.contourf(U, V, (G > 0).astype(float), levels=[0.5, 1.5], colors=["#d62728"], alpha=0.08, zorder=0)
        if G.min() < 0 < G.max():
            ax.contour(U, V, G, levels=[0.0], colors=["black"], linewidths=2, zorder=2)
        ax.plot([], [], color="black", lw=2, label=f"final boundary <w, phi(x)> = 0 ({run.model.kind})")
    return pts, box


def _is_svm(run) -> bool:
    """A run with margins to draw: its model decides by one linear g(x) = w.x + b (checked on ``run.model``,
    never by algorithm name) and the run names its support vectors."""
    from exactlin.model.models import linear_form

    form = linear_form(run.model) if run.model is not None else None
    return form is not None and len(form[0]) == 1 and "support_vectors" in run.extras


def _margins(ax, run, w, wbias, proj, off, box, pts) -> None:
    """The margin lines g(x) = +1 and g(x) = -1 (dotted; gid ``margin-plus`` / ``margin-minus``) and the
    support vectors circled (gid ``support-vectors``)."""
    for level, gid in ((1, "margin-plus"), (-1, "margin-minus")):
        ln = _line(w, wbias, proj, off - level)  # g(x) - level = 0
        seg = _segment(ln, box) if ln is not None else None
        if seg is None:
            continue
        (line,) = ax.plot([seg[0][0], seg[1][0]], [seg[0][1], seg[1][1]], color="black", lw=1, ls=":", zorder=2,
                          label="margins g(x) = +1 and g(x) = -1" if level == 1 else None)
        line.set_gid(gid)
    sv = [int(i) for i in run.extras["support_vectors"]]
    if sv:
        circles = ax.scatter([pts[i][0] for i in sv], [pts[i][1] for i in sv], marker="o", s=190,
                             facecolors="none", edgecolors="black", linewidths=1.1, zorder=5,
                             label=f"support vectors ({len(sv)})")
        circles.set_gid("support-vectors")


def plot_run(run, ax=None, *, steps: bool = True, projection=None):
    """Draw a run: its samples by label, its final decision boundary and, for an iterative
    run, the boundary after each update.  Returns the matplotlib ``Axes``.

    ``projection=(i, j)`` draws features i and j (0-based) of data with more than two
    features (the boundary shown is its trace on the plane where the other features are 0);
    without it, data that are not 2-D raise :class:`~exactlin.errors.ShapeError`.
    """
    data = _dataset(run)
    feat = _feature_space(run) if projection is None else None
    d = 2 if feat else data.d
    proj = _projection(projection, d)
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(5.5, 4.5))
    if feat:
        pts, box = _plot_feature_run(run, ax, *feat, steps)
        from exactlin.data.dataset import class_labels

        labels = list(class_labels(data.y))
        color_of = {lab: _COLORS[k % len(_COLORS)] for k, lab in enumerate(labels)}
        marker_of = {lab: _MARKERS[k % len(_MARKERS)] for k, lab in enumerate(labels)}
        return _finish(ax, run, data, pts, box, labels, color_of, marker_of, (0, 1),
                       f"{run.algorithm}: w = {_fmt(run.w)} on phi(x)", ("x1", "x2"))
    pts = [(float(x[proj[0]]), float(x[proj[1]])) for x in data.X]
    from exactlin.model.models import ThresholdModel, VoteModel, linear_form

    model = run.model
    form = linear_form(model) if model is not None else None
    multiclass = model is not None and hasattr(model, "classes")
    if multiclass and form is None:
        raise ParameterError(f"{run.algorithm}: its multi-class model has no linear functions to draw",
                             parameter="algorithm")
    W, classes = (form[0], model.classes) if multiclass else (None, None)
    include_origin = run.bias == "none" and not multiclass
    box = _box(pts, include_origin)
    (u0, u1), (v0, v1) = box
    rect = [(u0, v0), (u1, v0), (u1, v1), (u0, v1)]

    from exactlin.data.dataset import class_labels

    labels = list(classes) if multiclass else list(class_labels(data.y))
    color_of = {lab: _COLORS[k % len(_COLORS)] for k, lab in enumerate(labels)}
    marker_of = {lab: _MARKERS[k % len(_MARKERS)] for k, lab in enumerate(labels)}

    if multiclass:
        for c, poly in _regions(W, form[1], form[2], proj, rect):
            lab = labels[c]
            ax.fill([p[0] for p in poly], [p[1] for p in poly], color=color_of[lab], alpha=0.12, lw=0, zorder=0)
            ax.plot([p[0] for p in poly] + [poly[0][0]], [p[1] for p in poly] + [poly[0][1]], color="black",
                    lw=0.8, zorder=1)
        title = f"{run.algorithm}: linear machine regions, argmax of <w_c, x>"
    else:
        if steps and run.trace:
            ws = _step_vectors(run)
            n = len(ws)
            for k, w in enumerate(ws):
                ln = _line(w, run.bias, proj)
                seg = _segment(ln, box) if ln is not None else None
                if seg is None:
                    continue
                shade = 0.75 - 0.5 * (k + 1) / max(n, 1)
                ax.plot([seg[0][0], seg[1][0]], [seg[0][1], seg[1][1]], ls="--", lw=0.9, color=str(round(shade, 3)),
                        zorder=1, label="boundary after each update" if k == 0 else None)
        if isinstance(model, VoteModel):  # sign(sum_i c_i sign<w_i, x>) is not one hyperplane
            _voted_region(ax, [{"w": w, "c": c} for w, c in model.vectors], model.bias, proj, box, d)
            title = f"{run.algorithm}: the voted rule (not a single hyperplane)"
            ln = None
        elif form is None:  # e.g. a proof of non-separability, or a kernel expansion: no line to draw
            title = f"{run.algorithm}: no weight vector ({run.reason})" if model is None else \
                f"{run.algorithm}: no linear boundary ({type(model).__name__})"
            ln = None
        else:
            (w,), (off,), wbias = form
            ln = _line(w, wbias, proj, off)  # Fisher: the line w.x = y0
            title = f"{run.algorithm}: w = {_fmt(w)}" + (f", y0 = {_fmt(-off)}" if off != 0 else "")
        z = getattr(run.problem, "z", None)
        pos = data.y[list(z).index(1)] if z is not None and 1 in z else None
        if ln is not None:
            half = _clip(rect, *ln)
            if len(half) >= 3:
                ax.fill([p[0] for p in half], [p[1] for p in half], color=color_of.get(pos, "0.5"), alpha=0.08,
                        lw=0, zorder=0, label="g(x) > 0" + (f" (label {pos})" if pos is not None else ""))
            seg = _segment(ln, box)
            if seg is not None:
                (bl,) = ax.plot([seg[0][0], seg[1][0]], [seg[0][1], seg[1][1]], color="black", lw=2, zorder=2,
                                label="threshold w.x = y0" if isinstance(model, ThresholdModel) else
                                "final boundary g(x) = 0")
                bl.set_gid("boundary")
            if _is_svm(run):
                _margins(ax, run, w, wbias, proj, off, box, pts)
        if ln is None and form is not None:
            title += " (no boundary in this plane)"

    names = data.feature_names
    axis_names = (names[proj[0]] if names else f"x{proj[0] + 1}", names[proj[1]] if names else f"x{proj[1] + 1}")
    return _finish(ax, run, data, pts, box, labels, color_of, marker_of, proj, title, axis_names)


def _finish(ax, run, data, pts, box, labels, color_of, marker_of, proj, title, axis_names):
    (u0, u1), (v0, v1) = box
    for lab in labels:
        idx = [k for k, yl in enumerate(data.y) if yl == lab]
        if not idx:
            continue
        dots = ax.scatter([pts[k][0] for k in idx], [pts[k][1] for k in idx], marker=marker_of[lab], s=46,
                          color=color_of[lab], edgecolors="black", linewidths=0.6, zorder=3, label=f"label {lab}")
        dots.set_gid(f"samples-{labels.index(lab) + 1}")
    for k, p in enumerate(pts):
        ax.annotate(str(k + 1), p, textcoords="offset points", xytext=(5, 4), fontsize=7, zorder=4)
    ax.set_xlim(u0, u1)
    ax.set_ylim(v0, v1)
    ax.set_xlabel(axis_names[0])
    ax.set_ylabel(axis_names[1])
    if len(title) > 70:
        title = title[:67] + "..."
    ax.set_title(title, fontsize=9)
    ax.grid(True, lw=0.3, alpha=0.5)
    ax.axhline(0, color="0.6", lw=0.5, zorder=0)
    ax.axvline(0, color="0.6", lw=0.5, zorder=0)
    # inside the axes (so inside the figure: savefig without bbox_inches="tight" keeps it), where it covers least
    legend = ax.legend(fontsize=7, loc="best", framealpha=0.8)
    legend.set_gid("legend")
    legend.set_zorder(2.5)  # above the lines and shading, below the samples (zorder 3): no sample is ever hidden
    return ax


def run_svg(run, *, steps: bool = True, projection=None, figsize=(5.5, 4.6)) -> str:
    """The picture of :func:`plot_run` as an SVG string, byte-identical across builds."""
    import matplotlib
    from matplotlib.figure import Figure

    with matplotlib.rc_context({"svg.hashsalt": "exactlin", "svg.fonttype": "none", "font.family": "DejaVu Sans"}):
        fig = Figure(figsize=figsize)
        ax = fig.add_axes((0.11, 0.1, 0.85, 0.82))
        plot_run(run, ax=ax, steps=steps, projection=projection)
        buf = io.StringIO()
        fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    return buf.getvalue()


# ----------------------------------------------------------------------------- scenes: the picture as geometry
# A Scene is what a picture of a binary run shows, as plain coordinates (floats, for drawing only): the samples,
# the lines (the boundary, the margins, the previous boundary) and the rings (support vectors, the sample tested).
# Two writers draw it without matplotlib: scene_svg (a small SVG: explain's HTML without matplotlib, and the
# site's step-through frames) and scene_latex (a LaTeX picture environment of the kernel: compiles with
# texlive-latex-base alone).  Which lines a scene has is decided by the run's model (run.model), never by the
# algorithm's name.

#: at most this many updates are stepped through (one frame each, plus the start)
MAX_FRAMES = 200


@dataclass
class Scene:
    """A picture of a binary run in the plane of its two features."""

    box: tuple  # ((u0, u1), (v0, v1))
    points: list  # (u, v) per sample
    classes: list  # index into ``names`` per sample
    names: list  # the label text of each class, in drawing order
    lines: list = field(default_factory=list)  # (kind, ((u, v), (u, v))): boundary | threshold | margin | previous
    regions: list = field(default_factory=list)  # (class index, polygon): a linear machine's argmax regions
    rings: list = field(default_factory=list)  # (sample index, kind): support | mistake | tested
    title: str = ""
    axis_names: tuple = ("x1", "x2")


def _plane_data(run, dims=(2,)):
    data = _dataset(run)
    if data.d not in dims:
        what = "two-dimensional" if dims == (2,) else "one- or two-dimensional"
        raise ShapeError(f"the picture draws {what} data (features, without the bias); this {run.algorithm} "
                         f"run has {data.d} feature{'' if data.d == 1 else 's'}")
    return data


def _lift(w, bias: str) -> tuple:
    """A weight vector of one-feature data as one of two features, the second weighted 0 (the boundary
    w_1 x + b = 0 becomes the vertical line x = -b/w_1 of the plane)."""
    w = tuple(w)
    if bias == "first":
        return w + (0,)
    if bias == "last":
        return w[:-1] + (0,) + w[-1:]
    return w + (0,)


def _binary_form(run):
    """(w, offset, bias) of the run's model when it decides by one linear function, else None."""
    from exactlin.model.models import linear_form

    form = linear_form(run.model) if run.model is not None else None
    if form is None or len(form[0]) != 1:
        return None
    (w,), (off,), wbias = form
    return w, off, wbias


def run_scene(run, w=None, *, previous=None, rings=(), title: str | None = None) -> Scene:
    """The scene of a binary run on 2-D data: its final boundary (the model's: Fisher's threshold w.x = y0, an
    SVM's margins and support vectors), or, with ``w``, the boundary <w, x~> = 0 of a weight vector of the trace
    (``previous``: the one before it, dashed; ``rings``: (sample index, kind) to mark).

    One-feature data are drawn on the horizontal axis (every sample at height 0), the boundary w_1 x + b = 0 as
    the vertical line through its point."""
    from exactlin.data.dataset import class_labels
    from exactlin.model.models import ThresholdModel

    multiclass = run.model is not None and hasattr(run.model, "classes")
    data = _plane_data(run, (2,) if multiclass else (1, 2))
    if multiclass and w is None:
        raise ParameterError(f"{run.algorithm} is multi-class: its scenes are the step-through's (a linear "
                             "machine's regions after each update)", parameter="run")
    one = data.d == 1
    pts = [(float(x[0]), 0.0 if one else float(x[1])) for x in data.X]
    names = list(run.model.classes) if multiclass else list(class_labels(data.y))
    box = _box(pts, run.bias == "none")
    if one:  # a band around the axis, a third as high as it is wide
        (u0, u1), _ = box
        box = ((u0, u1), (-(u1 - u0) / 6, (u1 - u0) / 6))
    names_ax = (tuple(data.feature_names[:2]) if data.feature_names else ("x1", "x2")) if not one else \
        ((data.feature_names[0] if data.feature_names else "x1"), "")

    def _line(w, bias, proj, offset=0):  # noqa: F811 - one-feature weights drawn in the plane
        return _plane_line(_lift(w, bias) if one else w, bias, proj, offset)
    scene = Scene(box, pts, [names.index(lab) for lab in data.y], [str(n) for n in names],
                  title=title or "", axis_names=names_ax)

    def add(kind, ln):
        seg = _segment(ln, box) if ln is not None else None
        if seg is not None:
            scene.lines.append((kind, tuple(seg)))

    if multiclass:  # w: the rows w_c, one per class
        (u0, u1), (v0, v1) = box
        scene.regions = _regions(w, [0] * len(w), run.bias, (0, 1), [(u0, v0), (u1, v0), (u1, v1), (u0, v1)],
                                 ties_empty=True)
    elif w is not None:
        if previous is not None:
            add("previous", _line(previous, run.bias, (0, 1)))
        add("boundary", _line(w, run.bias, (0, 1)))
    else:
        form = _binary_form(run)
        if form is not None:
            fw, off, wbias = form
            add("threshold" if isinstance(run.model, ThresholdModel) else "boundary", _line(fw, wbias, (0, 1), off))
            if _is_svm(run):
                for level in (1, -1):
                    add("margin", _line(fw, wbias, (0, 1), off - level))
                scene.rings += [(int(i), "support") for i in run.extras["support_vectors"]]
        if not title:
            scene.title = (f"{run.algorithm}: w = {_fmt(run.w)}" if form is not None and run.w is not None
                           else f"{run.algorithm}: no single linear boundary")
    scene.rings += list(rings)
    return scene


def _tested(s, n: int, wrong) -> tuple[list, str]:
    """The rings of an update step ``s`` and its words: a batch update circles every sample i with
    ``wrong(s.w_before, i)`` (on the wrong side before it), a single-sample one circles its sample, red for a
    mistake, orange for a correction."""
    if s.i is None:
        rings = [(i, "mistake") for i in range(n) if wrong(s.w_before, i)]
        return rings, f"batch update ({len(rings)} sample{'' if len(rings) == 1 else 's'} misclassified before it)"
    rings = [(s.i, "mistake" if wrong(s.w_before, s.i) else "tested")]
    return rings, f"sample {s.i + 1} tested: " + ("a mistake" if rings[0][1] == "mistake" else "corrected")


def step_scenes(run) -> list[Scene]:
    """One scene per update of an iterative binary run, after the start: the boundary of w before the first
    update, then for each update the new boundary, the old one dashed and the sample tested circled (red when
    <w, x~_i> had the wrong sign or was 0 -- a mistake, checked exactly here --, orange when the rule corrected a
    sample it already classified right, as Widrow-Hoff does); a batch update circles every mistake it sums.
    ``len(step_scenes(run)) == run.updates + 1``."""
    ups = [s for s in run.trace if s.update]
    if not ups or not run.trace_complete or len(ups) != run.updates:
        raise ParameterError(f"this {run.algorithm} run has no complete trace of its updates to step through "
                             "(fit it with trace=True)", parameter="run")
    if len(ups) > MAX_FRAMES:
        raise ParameterError(f"this {run.algorithm} run has {len(ups)} updates; the step-through shows at most "
                             f"{MAX_FRAMES}", parameter="run")
    if run.model is not None and hasattr(run.model, "models") and hasattr(run.model, "classes"):
        return _per_class_scenes(run, ups)
    if run.model is not None and hasattr(run.model, "classes"):
        return _machine_scenes(run, ups)
    prob = run.problem
    Y, z = list(getattr(prob, "Y", [])), list(getattr(prob, "z", []))
    m = len(Y[0]) if Y else 0
    # a trace of twice the samples' length keeps the positive and negative parts (w+, w-) of the decision
    # vector w = w+ - w- (balanced Winnow's form); that reading is accepted only when it gives the run's own w
    split = bool(ups) and all(s.w_after is not None and len(s.w_after) == 2 * m for s in ups)

    def decision(w):
        w = tuple(Fraction(v) for v in w)
        return tuple(a - b for a, b in zip(w[:m], w[m:])) if split else w

    if not Y or any(s.w_before is None or s.w_after is None or len(s.w_after) != (2 * m if split else m)
                    for s in ups) or (split and (run.w is None or decision(ups[-1].w_after) != tuple(run.w))):
        raise ParameterError(f"the trace of this {run.algorithm} run does not keep weight vectors of its samples' "
                             "space", parameter="run")

    def show(w) -> str:
        return (f"w+ = {_fmt(w[:m])}, w- = {_fmt(w[m:])}, w = w+ - w- = {_fmt(decision(w))}" if split
                else f"w = {_fmt(w)}")
    # the bias entry of the samples as the rule sees them (1, or -1 for a threshold unit's bias input)
    j = {"first": 0, "last": len(Y[0]) - 1}.get(run.bias)
    bv = Fraction(Y[0][j]) if j is not None else Fraction(1)

    def drawn(w):  # w acting on (1, x) as it acts on the rule's (bias value, x)
        return tuple(v * (bv if i == j else 1) for i, v in enumerate(decision(w)))

    def wrong(w, i) -> bool:
        g = sum((a * Fraction(b) for a, b in zip(decision(w), Y[i])), Fraction(0))
        return z[i] * g <= 0

    feat = _feature_space(run)
    scene = _feature_scenes(run, *feat) if feat else run_scene
    n = len(ups)
    scenes = [scene(run, drawn(ups[0].w_before), title=f"start: {show(ups[0].w_before)}")]
    for k, s in enumerate(ups, 1):
        rings, what = _tested(s, len(Y), wrong)
        scenes.append(scene(run, drawn(s.w_after), previous=drawn(s.w_before), rings=rings,
                            title=f"update {k} of {n} (step {s.k}), {what}; {show(s.w_after)}"))
    return scenes


def _contour(G, us, vs) -> list[tuple]:
    """The zero level of the grid values G[j][i] = g(us[i], vs[j]) as short segments (marching squares, for
    display only: the frames' mistakes and weights stay exact)."""
    out = []
    for j in range(len(vs) - 1):
        for i in range(len(us) - 1):
            corners = [(us[i], vs[j], G[j][i]), (us[i + 1], vs[j], G[j][i + 1]),
                       (us[i + 1], vs[j + 1], G[j + 1][i + 1]), (us[i], vs[j + 1], G[j + 1][i])]
            cut = []
            for (a, b, ga), (c, d, gc) in zip(corners, corners[1:] + corners[:1]):
                if (ga > 0) != (gc > 0):
                    t = ga / (ga - gc)
                    cut.append((a + t * (c - a), b + t * (d - b)))
            out += [(cut[k], cut[k + 1]) for k in range(0, len(cut) - 1, 2)]
    return out


def _feature_scenes(run, phi, X0, n: int = 48):
    """``run_scene`` for a run whose model applies a feature map to 2-D samples: the samples in their own plane
    and the boundary <w, phi~(x)> = 0 of a trace's w as a curve there (the static plot's picture)."""
    import numpy as np

    from exactlin.data.dataset import augment, class_labels

    data = _dataset(run)
    pts = [(float(x[0]), float(x[1])) for x in X0]
    names = list(class_labels(data.y))
    box = _box(pts, False)
    (u0, u1), (v0, v1) = box
    us, vs = list(np.linspace(u0, u1, n)), list(np.linspace(v0, v1, n))
    F = np.array([[float(c) for c in row]
                  for row in augment(phi([(Fraction(u), Fraction(v)) for v in vs for u in us]), run.bias)])

    def scene(run, w, *, previous=None, rings=(), title=""):
        sc = Scene(box, pts, [names.index(lab) for lab in data.y], [str(c) for c in names], title=title,
                   axis_names=("x1", "x2"))
        for kind, v in (("previous", previous), ("boundary", w)):
            if v is not None:
                G = (F @ np.array([float(c) for c in v])).reshape(n, n)
                sc.lines += [(kind, seg) for seg in _contour(G.tolist(), us, vs)]
        sc.rings += list(rings)
        return sc

    return scene


def _per_class_scenes(run, ups) -> list[Scene]:
    """The step-through of a model made of one binary model per class (one-vs-rest), whose trace keeps each
    class's binary run one after another (``info["class"]``): per update, that class's boundary <w_c, x~> = 0
    before it (dashed) and after it (solid), the sample tested circled red when it was on the wrong side of
    "class c against the rest" (z <w_c, x~> <= 0 with z = +1 for class c, -1 otherwise: exact).  The last w_c of
    each class must be the model's own, else no picture."""
    from exactlin.data.dataset import augment
    from exactlin.model.models import linear_form

    data = _plane_data(run)
    classes = list(run.model.classes)
    form = linear_form(run.model)
    last = {s.info.get("class"): s.w_after for s in ups}
    if (form is None or len(form[0]) != len(classes) or any(o != 0 for o in form[1]) or form[2] != run.bias
            or not set(last) <= set(classes) or any(s.w_before is None for s in ups)
            or any(tuple(w) != tuple(form[0][classes.index(c)]) for c, w in last.items())):
        raise ParameterError(f"the trace of this {run.algorithm} run does not keep its binary runs' weights",
                             parameter="run")
    Xa = augment([tuple(x) for x in data.X], run.bias)
    pts = [(float(x[0]), float(x[1])) for x in data.X]
    box = _box(pts, run.bias == "none")
    axis = tuple(data.feature_names[:2]) if data.feature_names else ("x1", "x2")

    def scene(w, previous, rings, title) -> Scene:
        sc = Scene(box, pts, [classes.index(lab) for lab in data.y], [str(c) for c in classes], rings=rings,
                   title=title, axis_names=axis)
        for kind, v in (("previous", previous), ("boundary", w)):
            ln = _line(v, run.bias, (0, 1)) if v is not None else None
            seg = _segment(ln, box) if ln is not None else None
            if seg is not None:
                sc.lines.append((kind, tuple(seg)))
        return sc

    def wrong(c, w, i) -> bool:
        g = sum((Fraction(a) * Fraction(b) for a, b in zip(w, Xa[i])), Fraction(0))
        return (1 if data.y[i] == c else -1) * g <= 0

    n, first = len(ups), ups[0]
    scenes = [scene(first.w_before, None, [], f"start: class {first.info['class']} against the rest, "
                                              f"w_{first.info['class']} = {_fmt(first.w_before)}")]
    for k, s in enumerate(ups, 1):
        c = s.info["class"]
        rings, what = _tested(s, len(Xa), functools.partial(wrong, c))
        scenes.append(scene(s.w_after, s.w_before, rings, f"class {c} against the rest: update {k} of {n} "
                                                          f"(step {s.k}), {what}; w_{c} = {_fmt(s.w_after)}"))
    return scenes


def _machine_scenes(run, ups) -> list[Scene]:
    """The step-through of a linear machine (a model deciding by argmax_c <w_c, x~>, whose trace keeps the rows
    w_c one after another): its regions before the first update and after each, the sample tested circled red
    when it was a mistake (a class other than its own scored at least as high under the old rows: exact)."""
    from exactlin.data.dataset import augment
    from exactlin.model.models import linear_form

    form = linear_form(run.model)
    data = _plane_data(run)
    c = len(run.model.classes)
    if form is None or len(form[0]) != c or any(len(s.w_after) != c * len(form[0][0]) or s.w_before is None
                                                for s in ups):
        raise ParameterError(f"the trace of this {run.algorithm} run does not keep the rows of a linear machine",
                             parameter="run")
    m = len(form[0][0])
    Xa = augment([tuple(x) for x in data.X], run.bias)
    truth = [list(run.model.classes).index(lab) for lab in data.y]

    def rows(w):
        return [tuple(w[k * m:(k + 1) * m]) for k in range(c)]

    def wrong(w, i) -> bool:
        g = [sum((Fraction(a) * Fraction(b) for a, b in zip(r, Xa[i])), Fraction(0)) for r in rows(w)]
        return any(g[j] >= g[truth[i]] for j in range(c) if j != truth[i])

    def show(w) -> str:
        return ", ".join(f"w_{lab} = {_fmt(r)}" for lab, r in zip(run.model.classes, rows(w)))

    n = len(ups)
    scenes = [run_scene(run, rows(ups[0].w_before), title=f"start: {show(ups[0].w_before)}")]
    for k, s in enumerate(ups, 1):
        rings, what = _tested(s, len(Xa), wrong)
        scenes.append(run_scene(run, rows(s.w_after), rings=rings,
                                title=f"update {k} of {n} (step {s.k}), {what}; {show(s.w_after)}"))
    return scenes


_RING = {"support": ("black", 1.2, 9), "mistake": ("#d62728", 2.5, 11), "tested": ("#ff7f0e", 2.5, 11)}
_LINE = {"boundary": ("black", 2, None), "threshold": ("black", 2, None), "margin": ("black", 1, "2,3"),
         "previous": ("#888888", 1.2, "6,4")}
_LEGEND = {"boundary": "boundary g(x) = 0", "threshold": "threshold w.x = y0", "margin": "margins g(x) = +1, -1",
           "previous": "boundary before the update", "support": "support vectors", "mistake": "the mistake",
           "tested": "the sample tested"}


def _num(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".") if abs(v) < 1e6 else f"{v:.6g}"


def scene_css(scope: str) -> str:
    """The CSS that styles the overlays :func:`scene_svg` writes with ``styled=False``, for elements inside
    ``scope`` (a CSS selector): one rule per line and ring kind, instead of attributes in every frame."""
    rules = [f"{scope} svg{{font-family:'DejaVu Sans',sans-serif;font-size:11px}}",
             f"{scope} text.title{{text-anchor:middle}}",
             f"{scope} polygon.region{{fill-opacity:0.15;stroke:black;stroke-width:0.8}}"]
    for kind, (color, lw, dash) in _LINE.items():
        rules.append(f"{scope} line.{kind}{{stroke:{color};stroke-width:{lw}"
                     + (f";stroke-dasharray:{dash}" if dash else "") + "}")
    for kind, (color, lw, _r) in _RING.items():
        rules.append(f"{scope} circle.{kind}{{fill:none;stroke:{color};stroke-width:{lw}}}")
    return "".join(rules)


def scene_svg(scene: Scene, width: int = 460, height: int = 400, *, layer: str = "all",
              legend: Sequence[str] | None = None, styled: bool = True) -> str:
    """The scene as a small self-contained SVG (no ids, no scripts, no external reference): several can share a
    page.  Lines carry ``class="boundary"`` (and so on), samples ``class="sample"`` with ``data-i`` (1-based).

    ``layer``: ``"all"``; or ``"background"`` (the axes, the samples and the legend: what every frame of a
    step-through shares; ``legend`` names the line and ring kinds to list) and ``"overlay"`` (the title, the lines
    and the rings, on a transparent ground), drawn one over the other.  ``styled=False`` (an overlay for a page
    that has :func:`scene_css`): the overlay's elements carry their class only, no colours or widths."""
    import html

    if layer not in ("all", "background", "overlay"):
        raise ParameterError(f"layer must be all, background or overlay; got {layer!r}", parameter="layer")
    (u0, u1), (v0, v1) = scene.box
    left, right, top, bottom = 46, 12, 34, 62
    pw, ph = width - left - right, height - top - bottom

    def X(u):
        return left + (u - u0) / (u1 - u0) * pw

    def Y(v):
        return top + (v1 - v) / (v1 - v0) * ph

    e = html.escape
    compact = not styled and layer == "overlay"
    out = [f'<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}">' if compact else
           f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, sans-serif" font-size="11">']
    if layer != "background":  # the title: a long one on two lines, broken after its "; "
        head, sep, tail = scene.title.partition("; ")
        parts = [head + sep.rstrip(), tail] if len(scene.title) > 72 and sep else [scene.title]
        out.append(f'<text class="title" x="{width // 2}" y="{16 if len(parts) == 1 else 12}"'
                   + ("" if compact else ' text-anchor="middle" font-size="11"') + ">"
                   + (e(parts[0]) if len(parts) == 1 else
                      "".join(f'<tspan x="{width // 2}" dy="{0 if k == 0 else 13}">{e(t)}</tspan>'
                              for k, t in enumerate(parts))) + "</text>")
    if layer != "overlay":
        out.append(f'<rect x="{left}" y="{top}" width="{pw}" height="{ph}" fill="white" stroke="#444"/>')
        if u0 < 0 < u1:
            out.append(f'<line x1="{X(0):.1f}" y1="{top}" x2="{X(0):.1f}" y2="{top + ph}" stroke="#bbb"/>')
        if v0 < 0 < v1:
            out.append(f'<line x1="{left}" y1="{Y(0):.1f}" x2="{left + pw}" y2="{Y(0):.1f}" stroke="#bbb"/>')
        out += [f'<text x="{left}" y="{top + ph + 14}" font-size="9">{_num(u0)}</text>',
                f'<text x="{left + pw}" y="{top + ph + 14}" font-size="9" text-anchor="end">{_num(u1)}</text>',
                f'<text x="{left - 4}" y="{top + ph}" font-size="9" text-anchor="end">'
                f'{_num(v0) if scene.axis_names[1] else ""}</text>',  # (one-feature data: no vertical scale)
                f'<text x="{left - 4}" y="{top + 9}" font-size="9" text-anchor="end">'
                f'{_num(v1) if scene.axis_names[1] else ""}</text>',
                f'<text x="{left + pw / 2:.1f}" y="{top + ph + 16}" text-anchor="middle">'
                f'{e(scene.axis_names[0])}</text>',
                f'<text x="{left - 30}" y="{top + ph / 2:.1f}" text-anchor="middle" '
                f'transform="rotate(-90 {left - 30} {top + ph / 2:.1f})">{e(scene.axis_names[1])}</text>']
    if layer != "background":
        for c, poly in scene.regions:
            color = _COLORS[c % len(_COLORS)]
            pts_ = " ".join(f"{X(u):.1f},{Y(v):.1f}" for u, v in poly)
            out.append(f'<polygon class="region" data-class="{e(scene.names[c])}" points="{pts_}" fill="{color}"'
                       + ("" if compact else ' fill-opacity="0.15" stroke="black" stroke-width="0.8"') + "/>")
        for kind, ((a, b), (c, d)) in scene.lines:
            color, lw, dash = _LINE[kind]
            out.append(f'<line class="{kind}" x1="{X(a):.1f}" y1="{Y(b):.1f}" x2="{X(c):.1f}" y2="{Y(d):.1f}"'
                       + ("" if compact else f' stroke="{color}" stroke-width="{lw}"'
                          + (f' stroke-dasharray="{dash}"' if dash else "")) + "/>")
        for i, kind in scene.rings:
            color, lw, r = _RING[kind]
            u, v = scene.points[i]
            out.append(f'<circle class="{kind}" cx="{X(u):.1f}" cy="{Y(v):.1f}" r="{r}"'
                       + ("" if compact else f' fill="none" stroke="{color}" stroke-width="{lw}"') + "/>")
    if layer == "overlay":
        out.append("</svg>")
        return ("" if compact else "\n").join(out)
    for i, ((u, v), c) in enumerate(zip(scene.points, scene.classes)):
        color = _COLORS[c % len(_COLORS)]
        x, y = X(u), Y(v)
        shape = (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4.5"' if c % 2 == 0 else
                 f'<rect x="{x - 4:.1f}" y="{y - 4:.1f}" width="8" height="8"')
        out.append(f'<g class="sample" data-i="{i + 1}" data-label="{e(scene.names[c])}">{shape} fill="{color}" '
                   f'stroke="black" stroke-width="0.6"/><text x="{x + 6:.1f}" y="{y - 5:.1f}" font-size="9">'
                   f'{i + 1}</text></g>')
    # the legend: rows under the axes
    if legend is None:
        legend = list(dict.fromkeys([kind for kind, _ in scene.lines] + [kind for _, kind in scene.rings]))
    items = [(f"label {n}", ("dot", k)) for k, n in enumerate(scene.names)]
    items += [(_LEGEND[k], ("line" if k in _LINE else "ring", k)) for k in legend]
    x, y = float(left), top + ph + 32
    for text_, (what, key) in items:
        w_ = 26 + 6.2 * len(text_)
        if x + w_ > width and x > left:
            x, y = float(left), y + 14
        if what == "dot":
            color = _COLORS[key % len(_COLORS)]
            out.append(f'<circle cx="{x + 8}" cy="{y - 4}" r="4" fill="{color}" stroke="black" stroke-width="0.6"/>'
                       if key % 2 == 0 else f'<rect x="{x + 4}" y="{y - 8}" width="8" height="8" fill="{color}" '
                       f'stroke="black" stroke-width="0.6"/>')
        elif what == "line":
            color, lw, dash = _LINE[key]
            out.append(f'<line x1="{x}" y1="{y - 4}" x2="{x + 18}" y2="{y - 4}" stroke="{color}" stroke-width="{lw}"'
                       + (f' stroke-dasharray="{dash}"' if dash else "") + "/>")
        else:
            color, lw, _r = _RING[key]
            out.append(f'<circle cx="{x + 8}" cy="{y - 4}" r="5" fill="none" stroke="{color}" stroke-width="{lw}"/>')
        out.append(f'<text x="{x + 22}" y="{y}" font-size="10">{e(text_)}</text>')
        x += w_
    out.append("</svg>")
    return "\n".join(out)


def scene_latex(scene: Scene, width_mm: float = 100.0, height_mm: float = 75.0) -> str:
    """The scene as a LaTeX ``picture`` of the kernel (lines by ``\\qbezier``, dotted ones by ``\\qbezier[n]``):
    no package beyond texlive-latex-base is needed.  Text is escaped by the one LaTeX text rule."""
    from exactlin.exact.format import latex_text

    (u0, u1), (v0, v1) = scene.box

    def P(u, v):
        return f"({(u - u0) / (u1 - u0) * width_mm:.2f},{(v - v0) / (v1 - v0) * height_mm:.2f})"

    def seg(a, b, dots=None):
        (ua, va), (ub, vb) = a, b
        n = f"[{dots}]" if dots else ""
        return f"\\qbezier{n}{P(ua, va)}{P((ua + ub) / 2, (va + vb) / 2)}{P(ub, vb)}"

    def axis(name: str) -> str:  # x1 -> $x_1$, other feature names as text
        m = re.fullmatch(r"x(\d+)", name)
        return f"$x_{{{m.group(1)}}}$" if m else latex_text(name)

    out = ["\\begin{center}", "\\setlength{\\unitlength}{1mm}",
           f"\\begin{{picture}}({width_mm:.0f},{height_mm + 4:.0f})(-8,-8)",
           f"\\put(0,0){{\\framebox({width_mm:.0f},{height_mm:.0f}){{}}}}"]
    if u0 < 0 < u1:
        out.append(seg((0, v0), (0, v1), 25))
    if v0 < 0 < v1:
        out.append(seg((u0, 0), (u1, 0), 30))
    out += [f"\\put(0,-4){{\\makebox(0,0)[l]{{\\scriptsize ${_num(u0)}$}}}}",
            f"\\put({width_mm:.0f},-4){{\\makebox(0,0)[r]{{\\scriptsize ${_num(u1)}$}}}}",
            f"\\put(-1,1){{\\makebox(0,0)[r]{{\\scriptsize ${_num(v0)}$}}}}",
            f"\\put(-1,{height_mm - 1:.0f}){{\\makebox(0,0)[r]{{\\scriptsize ${_num(v1)}$}}}}",
            f"\\put({width_mm / 2:.0f},-5){{\\makebox(0,0){{\\small {axis(scene.axis_names[0])}}}}}",
            f"\\put(-7,{height_mm / 2:.0f}){{\\makebox(0,0){{\\small {axis(scene.axis_names[1])}}}}}"]
    for kind, (a, b) in scene.lines:
        if kind == "margin":
            out.append(seg(a, b, 120))
        elif kind == "previous":
            out.append(seg(a, b, 60))
        else:
            out += ["\\thicklines", seg(a, b), "\\thinlines"]
    for i, _kind in scene.rings:
        out.append(f"\\put{P(*scene.points[i])}{{\\circle{{4}}}}")
    for i, ((u, v), c) in enumerate(zip(scene.points, scene.classes)):
        mark = "\\circle*{1.8}" if c % 2 == 0 else "\\makebox(0,0){\\rule[-0.75mm]{1.5mm}{1.5mm}}"
        out.append(f"\\put{P(u, v)}{{{mark}}}")
        out.append(f"\\put{P(u, v)}{{\\makebox(0,0)[bl]{{\\hspace{{1mm}}\\raisebox{{0.8mm}}{{\\tiny {i + 1}}}}}}}")
    out += ["\\end{picture}", "\\end{center}"]
    shapes = ["filled circles", "squares"]
    key = [f"{shapes[k % 2]}: label {latex_text(n)}" for k, n in enumerate(scene.names)]
    kinds = {kind for kind, _ in scene.lines}
    if kinds & {"boundary", "threshold"}:
        key.append("solid line: " + ("the threshold $w^t x = y_0$" if "threshold" in kinds else
                                     "the boundary $g(x) = 0$"))
    if "margin" in kinds:
        key.append("dotted lines: the margins $g(x) = \\pm 1$")
    if any(k == "support" for _, k in scene.rings):
        key.append("circled: the support vectors")
    out.append("\\begin{center}\\small " + "; ".join(key) + ".\\end{center}")
    return "\n".join(out)


#: what ``save_figure`` writes, by the file name's ending
FIGURE_FORMATS = ("svg", "png")


def figure_format(path: str) -> str:
    """``svg`` or ``png``, by the file name's ending; anything else is a one-line error."""
    import os

    ext = os.path.splitext(str(path))[1].lower().lstrip(".")
    if ext not in FIGURE_FORMATS:
        raise ParameterError(f"--plot {path}: the file name must end in .svg or .png (got "
                             f"{'.' + ext if ext else 'no ending'})", parameter="plot")
    return ext


def save_figure(run, path: str) -> None:
    """Write the picture of :func:`plot_run` to ``path`` (``.svg`` or ``.png``, by its ending) for 2-D data: the
    samples, the model's boundary (Fisher: the threshold w.x = y0), an SVM's margins and support vectors, and
    the boundary after each update.  Needs matplotlib (the ``plot`` extra); every problem is one clear error."""
    ext = figure_format(path)
    _plane_data(run)
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError:
        raise ParameterError("--plot needs matplotlib: pip install 'exactlin[plot]'", parameter="plot") from None
    with matplotlib.rc_context({"svg.hashsalt": "exactlin", "svg.fonttype": "none", "font.family": "DejaVu Sans"}):
        fig = Figure(figsize=(5.5, 4.6))
        ax = fig.add_axes((0.11, 0.1, 0.85, 0.82))
        plot_run(run, ax=ax)
        try:
            fig.savefig(path, format=ext, dpi=120, metadata={"Date": None, "Creator": None} if ext == "svg" else {})
        except OSError as e:
            raise ParameterError(f"--plot {path}: cannot write ({e.strerror or e})", parameter="plot") from None
