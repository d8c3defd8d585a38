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

import io
from collections.abc import Sequence
from fractions import Fraction

from exactlin.errors import ParameterError, ShapeError

__all__ = ["plot_run", "run_svg", "MAX_STEP_LINES"]

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
    """A linear SVM run (its model decides by g(x) = w.x + b and its extras name the support vectors)."""
    return run.algorithm.startswith("svm") and "support_vectors" in run.extras


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
    from exactlin.model.models import VoteModel, linear_form

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
        for c, lab in enumerate(labels):
            poly = rect
            for j in range(len(labels)):
                if j == c:
                    continue
                diff = tuple(Fraction(p) - Fraction(q) for p, q in zip(W[c], W[j]))
                ln = _line(diff, form[2], proj, form[1][c] - form[1][j])
                if ln is None:
                    continue
                poly = _clip(poly, *ln)
                if not poly:
                    break
            if len(poly) >= 3:
                ax.fill([p[0] for p in poly], [p[1] for p in poly], color=color_of[lab], alpha=0.12, lw=0,
                        zorder=0)
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
                ax.plot([seg[0][0], seg[1][0]], [seg[0][1], seg[1][1]], color="black", lw=2, zorder=2,
                        label="final boundary g(x) = 0")
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
        ax.scatter([pts[k][0] for k in idx], [pts[k][1] for k in idx], marker=marker_of[lab], s=46,
                   color=color_of[lab], edgecolors="black", linewidths=0.6, zorder=3, label=f"label {lab}")
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
