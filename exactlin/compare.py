"""Float cross-checks: run an exact algorithm and the nearest float implementation side by side.

The float result is only a comparison anchor, never a result: it tells where the float
library would have said something different.  Reported per anchor:

* ``decisions_differ``: training points whose side (sign of g) differs from the exact
  run's (a point exactly on the exact boundary, g = 0, counts as its own side);
* ``training_errors`` of each, and ``stopped_early`` when the float run stopped with
  training errors although the exact run converged (so the data are separable);
* the final weights: the float ``coef``/``intercept``, scaled to the exact vector when
  only the direction is defined (Fisher), and ``max_abs_diff`` from the exact values;
* ``support_differs`` for the SVMs (the exact support set against ``SVC.support_``).

Anchors (scikit-learn, an optional extra, and numpy):

=====================  =================================================================
exact algorithm         float anchors
=====================  =================================================================
perceptron family       ``Perceptron()`` with its defaults (what a user runs), and
                        ``Perceptron(shuffle=False, tol=None, eta0=1, alpha=0)`` (the
                        lecture's cyclic order and fixed increment, in float)
mse, ho-kashyap         ``RidgeClassifier(alpha=0)``, ``numpy.linalg.lstsq``, ``numpy.linalg.pinv``
widrow-hoff, lms        ``SGDClassifier(loss="squared_error", penalty=None)``, ``numpy.linalg.lstsq``
fisher                  ``LinearDiscriminantAnalysis()`` (direction only)
svm-hard                ``SVC(kernel="linear", C=1e6)``
svm-soft                ``SVC(kernel="linear", C=C)``
svm-soft-l2             ``LinearSVC(loss="squared_hinge", C=C, intercept_scaling=1000)``
linear-machine, ovr     ``Perceptron()`` (one-vs-rest, float)
=====================  =================================================================
"""

from __future__ import annotations

import logging
import warnings
from fractions import Fraction
from typing import Any

from exactlin.data.dataset import split_bias
from exactlin.errors import InputError, ParameterError
from exactlin.exact.rows import ExactRows
from exactlin.model.models import linear_form

__all__ = ["compare", "compare_text", "report_jsonable", "ANCHORS", "RELATIVE_TOLERANCE"]

#: a float w within this relative distance of the exact w is reported as rounding, not as a difference
RELATIVE_TOLERANCE = 1e-9

log = logging.getLogger("exactlin")

PERCEPTRON_LIKE = ("perceptron", "fixed-increment", "variable-increment", "batch-perceptron", "batch-pla",
                   "perceptron-gd", "pocket", "averaged-perceptron", "balanced-winnow", "batch-relaxation",
                   "single-sample-relaxation", "voted-perceptron")


def _anchors(name: str, family: str, bias: str, params: dict, max_epochs: int) -> list[tuple[str, Any, str]]:
    """(label, factory, scaling) for the float anchors of an algorithm; factory() -> an unfitted model, or
    a string naming a numpy routine."""
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.linear_model import Perceptron, RidgeClassifier, SGDClassifier
    from sklearn.svm import SVC

    fi = bias != "none"
    if name in PERCEPTRON_LIKE or family == "perceptron":
        eta = float(params.get("eta", 1)) if not hasattr(params.get("eta", 1), "constant") else 1.0
        return [("sklearn Perceptron() defaults", lambda: Perceptron(fit_intercept=fi, random_state=0), "none"),
                ("sklearn Perceptron cyclic (shuffle=False, tol=None)",
                 lambda: Perceptron(fit_intercept=fi, shuffle=False, tol=None, eta0=eta, alpha=0.0,
                                    max_iter=max_epochs), "none")]
    if name in ("mse", "ho-kashyap", "ho-kashyap-mod1", "ho-kashyap-mod2"):
        return [("sklearn RidgeClassifier(alpha=0)", lambda: RidgeClassifier(alpha=0.0, fit_intercept=fi), "none"),
                ("numpy.linalg.lstsq", "lstsq", "none"), ("numpy.linalg.pinv", "pinv", "none")]
    if name in ("widrow-hoff", "lms"):
        return [("sklearn SGDClassifier(loss='squared_error', penalty=None)",
                 lambda: SGDClassifier(loss="squared_error", penalty=None, fit_intercept=fi, shuffle=False,
                                       max_iter=max_epochs, random_state=0), "none"),
                ("numpy.linalg.lstsq", "lstsq", "none")]
    if name == "fisher" or family == "fisher":
        return [("sklearn LinearDiscriminantAnalysis()", lambda: LinearDiscriminantAnalysis(), "direction")]
    if name == "svm-hard" or name == "separable":
        return [("sklearn SVC(kernel='linear', C=1e6)", lambda: SVC(kernel="linear", C=1e6), "none")]
    if name == "svm-soft":
        C = float(params.get("C", 1))
        return [(f"sklearn SVC(kernel='linear', C={C:g})", lambda: SVC(kernel="linear", C=C), "none")]
    if name == "svm-soft-l2":
        from sklearn.svm import LinearSVC

        C = float(params.get("C", 1))
        # seed 004's ||w||^2/2 + C sum xi_i^2 is LinearSVC's squared hinge, except that liblinear penalizes the
        # intercept as one more weight: a large intercept_scaling makes that penalty negligible
        return [(f"sklearn LinearSVC(loss='squared_hinge', C={C:g}, intercept_scaling=1000)",
                 lambda: LinearSVC(loss="squared_hinge", C=C, intercept_scaling=1000.0, tol=1e-10, max_iter=100000,
                                   fit_intercept=fi), "none")]
    if family == "multiclass":
        return [("sklearn Perceptron() (one-vs-rest, defaults)", lambda: Perceptron(random_state=0), "none")]
    return []


ANCHORS = "perceptron family, mse, ho-kashyap, widrow-hoff, lms, fisher, svm-hard, svm-soft, linear-machine"


def _sign(q) -> int:
    return int(bool(q > 0)) - int(bool(q < 0))  # bool(): also for exact sympy numbers (Fisher's y0^(3))


def _fit_float(factory, Xf, yf, bias: str):
    """Fit one anchor; returns (coef rows, intercepts, model or None, notes)."""
    import numpy as np

    notes: list[str] = []
    if isinstance(factory, str):  # numpy least squares on the augmented samples, targets +1/-1
        A = np.asarray(augment_float(Xf, bias))
        if factory == "lstsq":
            a = np.linalg.lstsq(A, yf, rcond=None)[0]
        else:
            a = np.linalg.pinv(A) @ yf
        coef, b = _split_float(list(a), bias)
        return [coef], [b], None, notes
    model = factory()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.fit(Xf, yf)
    for w in caught:
        notes.append(f"{w.category.__name__}: {w.message}")
    coef = [list(map(float, row)) for row in np.atleast_2d(model.coef_)]
    intercept = [float(v) for v in np.atleast_1d(model.intercept_)]
    return coef, intercept, model, notes


def augment_float(Xf, bias: str):
    rows = [list(map(float, x)) for x in Xf]
    if bias == "first":
        return [[1.0, *r] for r in rows]
    if bias == "last":
        return [[*r, 1.0] for r in rows]
    return rows


def _split_float(a: list, bias: str):
    if bias == "first":
        return a[1:], a[0]
    if bias == "last":
        return a[:-1], a[-1]
    return a, 0.0


def _float_rows(ds) -> list[list[float]]:
    """The samples as floats for the float anchors; a value beyond the float range (such as 1e400) is an
    InputError naming its sample (and file line), as the anchors cannot run on it (the exact run can)."""
    rows = []
    for i, x in enumerate(ds.X):
        row = []
        for j, v in enumerate(x):
            try:
                row.append(float(v))
            except OverflowError:
                q = Fraction(v)
                bits = abs(q.numerator).bit_length() - q.denominator.bit_length()
                lines = getattr(ds, "lines", None)
                where = (f"line {lines[i]}{' of ' + ds.source if ds.source else ''}, "
                         if lines and i < len(lines) else "")
                raise InputError(
                    f"{where}sample {i + 1}, feature {j + 1}: a value of magnitude about 2^{bits} is beyond the "
                    "float range (largest float about 2^1024): the float anchors cannot run on these data; "
                    "the exact run can (exactlin fit)", row=i, column=j) from None
        rows.append(row)
    return rows


def compare(algorithm: str, X, y=None, *, bias: str | None = None, positive=None, params: dict | None = None,
            max_epochs: int = 1000, floats: str = "repr") -> dict:
    """Run ``algorithm`` exactly and its float anchors on the same data; report where they differ.

    Returns a dict (exact numbers as Fractions; float numbers as floats, marked as such)::

        {"algorithm", "bias", "n", "d", "exact": {...}, "anchors": [{...}, ...], "differences": [str, ...]}
    """
    from exactlin.algorithms import get
    from exactlin.data.dataset import as_dataset, binary_labels, check_bias

    spec = get(algorithm)
    params = dict(params or {})
    bias = spec.bias_default if bias is None else check_bias(bias)
    ds = as_dataset(X, y, floats=floats)
    kwargs: dict[str, Any] = {"bias": bias, "floats": floats, "max_epochs": max_epochs, "trace": False}
    if not spec.multiclass:
        kwargs["positive"] = positive
    elif positive is not None:
        raise ParameterError(f"{spec.name} is multi-class: positive does not apply", parameter="positive")
    log.info("compare: exact %s on %d samples", spec.name, ds.n)
    run = spec.func(ds, None, **kwargs, **params)
    Xf = _float_rows(ds)
    report: dict[str, Any] = {"algorithm": spec.name, "bias": bias, "n": ds.n, "d": ds.d, "anchors": [],
                              "differences": [], "rounding": []}
    multiclass = spec.multiclass
    if multiclass:
        model = run.model
        form = linear_form(model) if model is not None else None
        if form is None:
            raise ParameterError(f"{spec.name} has no linear decision functions to compare", parameter="algorithm")
        classes = list(model.classes)
        exact_pred = list(model.predict(ds.X))  # the model's rule: None where the notes leave a point undefined
        coefs = [split_bias(tuple(w), form[2]) for w in form[0]]
        report["exact"] = {"converged": run.converged, "reason": run.reason, "updates": run.updates,
                           "epochs": run.epochs, "classes": classes,
                           "coef": [list(c) for c, _ in coefs], "intercept": [b for _, b in coefs],
                           "training_errors": sum(1 for p, t in zip(exact_pred, ds.y) if p != t)}
        yf = list(ds.y)
    else:
        z = binary_labels(ds.y, positive)
        model = run.model
        form = linear_form(model) if model is not None else None
        if form is None:
            raise ParameterError(f"{spec.name} has no single linear decision function to compare (a kernel or "
                                 "voted run, or no classifier)", parameter="algorithm")
        (w,), (offset,), wbias = form  # g(x) = <w, x~> + offset (Fisher: offset = -y0)
        exact_side = list(model.side(ds.X))  # exact, also against an irrational y0 (proven bounds)
        coef, b = split_bias(tuple(w), wbias)
        b = b + offset
        report["exact"] = {"converged": run.converged, "reason": run.reason, "updates": run.updates,
                           "epochs": run.epochs, "w": tuple(w), "coef": list(coef), "intercept": b,
                           "training_errors": sum(1 for s, t in zip(exact_side, z) if s != t),
                           "on_boundary": [i for i, s in enumerate(exact_side) if s == 0]}
        if "support_vectors" in run.extras:
            report["exact"]["support"] = sorted(run.extras["support_vectors"])
        yf = list(z)
    import numpy as np

    for label, factory, scaling in _anchors(spec.name, spec.family, bias, params, max_epochs):
        try:
            fcoef, fint, model, notes = _fit_float(factory, np.asarray(Xf), np.asarray(yf), bias)
        except Exception as e:  # a float library failing is itself a finding; never hide it
            report["anchors"].append({"name": label, "error": f"{type(e).__name__}: {e}"})
            report["differences"].append(f"{label}: failed ({type(e).__name__}: {e})")
            continue
        entry: dict[str, Any] = {"name": label, "notes": notes}
        if model is not None and getattr(model, "n_iter_", None) is not None:
            it = model.n_iter_
            entry["n_iter"] = int(np.max(it)) if np.ndim(it) else int(it)
            if hasattr(model, "max_iter"):
                entry["max_iter"] = int(model.max_iter) if model.max_iter not in (None, -1) else None
        if multiclass:
            pred = model.predict(np.asarray(Xf)).tolist()
            entry["coef"] = fcoef
            entry["intercept"] = fint
            entry["training_errors"] = sum(1 for p, t in zip(pred, ds.y) if p != t)
            diff = [i for i, (p, q) in enumerate(zip(pred, exact_pred)) if p != q]
        else:
            fc, fb = fcoef[0], fint[0]
            factor = 1.0
            if scaling == "direction":
                ex = [float(v) for v in (*report["exact"]["coef"], report["exact"]["intercept"])]
                fl = [*fc, fb]
                den = sum(v * v for v in fl)
                factor = sum(p * q for p, q in zip(ex, fl)) / den if den else 1.0
            g_float = [sum(c * x for c, x in zip(fc, xf)) + fb for xf in Xf]
            side = [int(np.sign(g)) for g in g_float]
            entry["coef"] = fc
            entry["intercept"] = fb
            if scaling == "direction":
                entry["scaled_by"] = factor
                entry["coef_scaled"] = [factor * v for v in fc]
                entry["intercept_scaled"] = factor * fb
            cs = entry.get("coef_scaled", fc)
            bs = entry.get("intercept_scaled", fb)
            entry["max_abs_diff"] = max([abs(float(e) - f) for e, f in zip(report["exact"]["coef"], cs)]
                                        + [abs(float(report["exact"]["intercept"]) - bs)])
            entry["training_errors"] = sum(1 for s, t in zip(side, z) if s != t)
            diff = [i for i, (s, t) in enumerate(zip(side, exact_side)) if s != t]
            if model is not None and hasattr(model, "support_"):
                entry["support"] = sorted(int(i) for i in model.support_)
                if "support" in report["exact"] and entry["support"] != report["exact"]["support"]:
                    entry["support_differs"] = True
                    report["differences"].append(f"{label}: support vectors {_samples(entry['support'])} vs exact "
                                                 f"{_samples(report['exact']['support'])} (1-based)")
        entry["decisions_differ"] = diff
        entry["stopped_early"] = bool(spec.iterative and run.converged and report["exact"]["training_errors"] == 0
                                      and entry["training_errors"] > 0)
        if diff:
            report["differences"].append(f"{label}: {len(diff)} training point(s) decided differently: "
                                         f"{[i + 1 for i in diff][:20]} (1-based)")
        if entry["stopped_early"]:
            it = f" after {entry['n_iter']} epoch(s)" if "n_iter" in entry else ""
            report["differences"].append(f"{label}: stopped{it} with {entry['training_errors']} training error(s), "
                                         f"although the exact run converged (the data are separable)")
        if not multiclass and entry["max_abs_diff"] > 0:
            size = max([abs(float(v)) for v in report["exact"]["coef"]] + [abs(float(report["exact"]["intercept"]))])
            text = f"{label}: final w differs from the exact one by up to {entry['max_abs_diff']:.3g}"
            if entry["max_abs_diff"] > RELATIVE_TOLERANCE * max(size, 1.0):
                report["differences"].append(text)
            else:
                report["rounding"].append(text + " (rounding level)")
        report["anchors"].append(entry)
    return report


def _samples(indices) -> str:
    """0-based sample indices as a person reads them: numbered from 1, ``(1, 2, 4)``."""
    return "(" + ", ".join(str(i + 1) for i in indices) + ")"


def _f(v) -> str:
    from exactlin.render.report import fmt_value

    if isinstance(v, float):
        return f"{v:.6g}"
    if isinstance(v, list) and v and isinstance(v[0], float):
        return "(" + ", ".join(f"{x:.6g}" for x in v) + ")"
    if isinstance(v, list) and v and isinstance(v[0], list):
        return "; ".join(_f(r) for r in v)
    return fmt_value(v)


def compare_text(report: dict) -> str:
    """The report side by side: one column for the exact run, one per float anchor."""
    from exactlin.render.report import text_table

    ex = report["exact"]
    cols = [("exact (exactlin)", ex)] + [(a["name"], a) for a in report["anchors"]]
    rows_spec = [("coef", "coef"), ("intercept", "intercept"), ("coef (scaled to exact)", "coef_scaled"),
                 ("intercept (scaled)", "intercept_scaled"), ("training errors", "training_errors"),
                 ("converged / reason", None), ("iterations", "n_iter"), ("support vectors (samples)", "support"),
                 ("decisions differ (1-based)", "decisions_differ"), ("error", "error")]
    rows = []
    for title, key in rows_spec:
        cells = []
        for _, c in cols:
            if key is None:
                cells.append(f"{ex['converged']} ({ex['reason']})" if c is ex else "")
            elif key == "support":  # sample numbers from 1, as `fit` prints them (the report keeps 0-based)
                cells.append(_samples(c[key]) if c.get(key) is not None else "")
            elif key == "decisions_differ":
                cells.append("" if c is ex else (", ".join(str(i + 1) for i in c.get(key, [])) or "none"))
            else:
                cells.append(_f(c[key]) if key in c and c[key] is not None else "")
        if any(cells):
            rows.append([title, *cells])
    header = ["", *(name for name, _ in cols)]
    lines = [f"{report['algorithm']} on {report['n']} samples, {report['d']} features (bias: {report['bias']}); "
             "float results are comparison anchors only", "", text_table(header, rows), ""]
    if report["differences"]:
        lines.append("differences:")
        lines += [f"  - {d}" for d in report["differences"]]
    else:
        lines.append("no differences: the float anchors agree with the exact run on every training point")
    if report.get("rounding"):
        lines.append("rounding only:")
        lines += [f"  - {d}" for d in report["rounding"]]
    return "\n".join(lines)


def report_jsonable(obj: Any) -> Any:
    """The report as JSON values: exact numbers as rational strings (``"-4/3"``), the float anchors'
    numbers as JSON numbers (they are floats, and are shown as such)."""
    from exactlin.model.serialize import to_jsonable

    if isinstance(obj, float):
        return obj
    if isinstance(obj, dict):
        return {str(k): report_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple, ExactRows)):
        return [report_jsonable(v) for v in obj]
    return to_jsonable(obj)
