"""A result that carries its data and its claims: what ``exactlin check`` (and the stand-alone
``exactlin/exactlin_check.py``, which imports nothing from exactlin) re-checks from the raw rows alone.

A saved result (``fit --json``, ``fit --save-result FILE``, ``separable --json``, ``Run.to_json()``) holds,
next to the run's own fields:

* ``result_format``: :data:`FORMAT` (the version of this layout; the JSON Schema is ``exactlin/claims.schema.json``);
* ``data``: the exact ``rows`` (each entry a reduced rational "p/q" or an integer), the ``labels`` (each as its
  canonical text: a label that reads as a number is written reduced, "1", "-1", "1/2"; any other label as its
  text), the parse ``options`` (``delimiter``, ``header``, ``label_column`` (1-based; null: the last),
  ``positive`` and ``negative``: the labels that became +1 and -1), the ``bias`` mode, and ``sha256``: the
  SHA-256 of the canonical text :func:`canonical_text` (one line per sample: the entries joined by ",", a tab,
  the label as a JSON string; lines end with "\\n");
* ``claims``: a list, each with its ``kind`` and its witness (see ``docs``: "Results and the checker").  The
  claims are built here ONCE from a Run's typed certificates and extras (never from the algorithm's name):

  ``separator`` (w, b, min functional margin) from a :class:`SeparatorCertificate`; ``gordan`` (lambda) and
  ``cycle`` (the corrected samples of one period, summing to zero) from a :class:`GordanCertificate`;
  ``kesler-gordan`` (lambda over (sample, other class) pairs) from a :class:`KeslerGordanCertificate`; ``kkt``
  (loss, kernel, alpha, b, C, the objectives, margin_squared) from a :class:`KKTCertificate`; ``penrose`` (Y,
  Y^+) from a :class:`PenroseCertificate`; ``fisher`` (m1, m2, S_W, w, the threshold rule and y0 when rational)
  from the Fisher extras; ``convergence-bound`` (w*, gamma, R^2, ||w*||^2, the bound; K reported) from a
  :class:`~exactlin.model.monitor.MonitorReport` whose bound is rational; ``training-errors`` (the samples the
  returned model gets wrong) from the prediction model, one claim per class for one-vs-rest.

Samples.  x~_i is row i augmented by ``bias`` (none | first: (1, x) | last: (x, 1)), after the claim's
``features`` map when it names one (``{"map": "circle"}``: (x1, x2, x1^2 + x2^2); ``{"map": "poly", "degree": p}``:
the monomials of degree 1..p (of degree ``min_degree``..p when given: 0 for a polynomial kernel with coef0 > 0, p
with coef0 = 0), degree by degree, each degree's index tuples in ``itertools.combinations_with_replacement``
order).  y_i = +1 when label_i is the claim's ``positive`` (else the
data's), -1 otherwise.
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from typing import Any

from exactlin.exact.format import fmt

__all__ = ["FORMAT", "label_text", "canonical_text", "rows_sha256", "data_block", "build_claims", "carried"]

#: the result format's version (bump on any change of meaning)
FORMAT = "exactlin-result/1"


def label_text(lab: Any) -> str:
    """A label's canonical text: a number reduced ("1", "-1", "1/2"), any other label its ``str``."""
    if isinstance(lab, bool):
        return str(lab)
    if isinstance(lab, (int, Fraction)):
        return fmt(Fraction(lab))
    return str(lab)


def canonical_text(rows, labels) -> str:
    """The text the data's SHA-256 is taken of: per sample, its entries (reduced "p/q") joined by ",", a tab,
    its label text as a JSON string, "\\n"."""
    return "".join(",".join(fmt(Fraction(v)) for v in r) + "\t" + json.dumps(t) + "\n" for r, t in zip(rows, labels))


def rows_sha256(rows, labels) -> str:
    return hashlib.sha256(canonical_text(rows, labels).encode("utf-8")).hexdigest()


def _raw(run):
    """(raw rows, raw labels, the problem's +1/-1 labels or None) of the run's data, or None."""
    p = run.problem
    if p is None:
        return None
    ds = getattr(p, "data", p)
    X = getattr(ds, "X", None)
    y = getattr(ds, "y", None)
    if X is None or y is None:
        return None
    z = getattr(p, "z", None)
    # a feature-map run whose model names its map: the raw rows before phi (the claims name the map); with an
    # unnamed map the data are the mapped rows the algorithm saw
    orig = run.extras.get("original_X") if _features(run) is not None else None
    return (orig if orig is not None else X), y, z


def _features(run) -> dict | None:
    m = run.model
    kind = getattr(m, "kind", None)
    if kind in ("circle", "poly") and hasattr(m, "inner"):
        return {"map": "circle"} if kind == "circle" else {"map": "poly", "degree": int(m.degree)}
    return None


def data_block(run, options: dict | None = None) -> dict | None:
    """The ``data`` object of a saved result (None when the run holds no data, e.g. a run read from JSON)."""
    raw = _raw(run)
    if raw is None:
        return None
    X, y, z = raw
    rows = [tuple(Fraction(v) for v in r) for r in X]
    labels = [label_text(v) for v in y]
    o = dict(options or {})
    pos = neg = None
    if z is not None:
        pos = next((t for t, s in zip(labels, z) if s == 1), None)
        neg = next((t for t, s in zip(labels, z) if s != 1), None)
    if pos is None and o.get("positive") is not None:
        pos = label_text(o["positive"])
    opts = {"delimiter": o.get("delimiter"), "header": o.get("header"), "label_column": o.get("label_column"),
            "positive": pos, "negative": neg}
    return {"rows": [[fmt(v) for v in r] for r in rows], "labels": labels, "options": opts, "bias": run.bias,
            "canonical": "per sample: entries joined by ',', a tab, the label as a JSON string, '\\n'",
            "sha256": rows_sha256(rows, labels)}


# ---------------------------------------------------------------------------------------------------------
def _q(v) -> str:
    return fmt(Fraction(v))


def _vec(v) -> list[str]:
    return [_q(x) for x in v]


def _split(a, bias: str) -> tuple[list, Any]:
    a = list(a)
    if bias == "first":
        return a[1:], a[0]
    if bias == "last":
        return a[:-1], a[-1]
    return a, None


def _is_rational(v) -> bool:
    return isinstance(v, (int, Fraction)) and not isinstance(v, bool)


def _certificate_claims(cert, run, base: dict, labels: list[str] | None) -> list[dict]:
    from exactlin.model.certificates import (
        GordanCertificate,
        HoKashyapVerdict,
        KeslerGordanCertificate,
        KKTCertificate,
        PenroseCertificate,
        SeparatorCertificate,
    )

    out: list[dict] = []
    if isinstance(cert, HoKashyapVerdict):
        return _certificate_claims(cert.certificate, run, base, labels) if cert.certificate is not None else []
    if isinstance(cert, SeparatorCertificate):
        w, b = _split(cert.a, base["bias"])
        c = {"kind": "separator", **base, "w": _vec(w)}
        if b is not None:
            c["b"] = _q(b)
        c.update({"min_functional_margin": _q(cert.min_Ya), "above": _q(cert.margin), "strict": cert.strict})
        out.append(c)
    elif isinstance(cert, GordanCertificate):
        if cert.features is not None and "features" not in base:
            base = _kernel_features(run)
            if base is None:
                return out
        out.append({"kind": "gordan", **base, "lambda": _vec(cert.lam)})
        if cert.cycle and all(0 <= i < len(cert.lam) for i in cert.cycle):  # sample indices (not batch steps)
            p = len(cert.cycle)
            counts = [0] * len(cert.lam)
            for i in cert.cycle:
                counts[i] += 1
            if all(Fraction(k, p) == v for k, v in zip(counts, cert.lam)):
                out.append({"kind": "cycle", **base, "samples": [int(i) for i in cert.cycle]})
    elif isinstance(cert, KeslerGordanCertificate):
        classes = run.extras.get("classes")
        if classes is None or labels is None:
            return out
        ct = [label_text(c) for c in classes]
        pairs = [(s, j) for s, lab in enumerate(labels) for j in range(len(ct)) if j != ct.index(lab)]
        if len(pairs) != len(cert.lam):
            return out
        nz = [(p, v) for p, v in zip(pairs, cert.lam) if v]
        out.append({"kind": "kesler-gordan", **base, "classes": ct, "pairs": [[s, j] for (s, j), _ in nz],
                    "lambda": [_q(v) for _, v in nz]})
    elif isinstance(cert, KKTCertificate):
        kern = run.extras.get("kernel")
        kernel = {"kind": "linear"} if not isinstance(kern, dict) else \
            {"kind": "poly", "degree": int(kern["degree"]), "coef0": _q(kern["coef0"])}
        c = {"kind": "kkt", **base, "loss": cert.loss, "kernel": kernel, "intercept": base["bias"] != "none",
             "alpha": _vec(cert.alpha), "b": _q(cert.b)}
        if cert.C is not None:
            c["C"] = _q(cert.C)
        if cert.w is not None:
            c["w"] = _vec(cert.w)
        c.update({"primal_objective": _q(cert.primal_objective), "dual_objective": _q(cert.dual_objective)})
        ms = run.extras.get("margin_squared")
        if _is_rational(ms):
            c["margin_squared"] = _q(ms)
        out.append(c)
    elif isinstance(cert, PenroseCertificate):
        P = run.extras.get("Y_pinv")
        Y = getattr(run.problem, "Z", None)
        if P is None or Y is None:
            return out
        c = {"kind": "penrose", **base, "Y": [_vec(r) for r in Y], "Y_pinv": [_vec(r) for r in P]}
        b = run.extras.get("b")
        if run.w is not None and isinstance(b, tuple) and len(b) == len(Y):
            c.update({"a": _vec(run.w), "margins": _vec(b)})
        out.append(c)
    return out


def _linear_errors(m, run, base: dict, z) -> dict:
    """training-errors of a linear model (LinearModel, ThresholdUnitModel: a, bias, the tie rule)."""
    from exactlin.model.models import ThresholdUnitModel

    rule = {"tie": m.tie} if isinstance(m, ThresholdUnitModel) else {"tie": "none"}
    a = [Fraction(v) for v in m.w]
    errs = [i for i, s in enumerate(_decisions(run, a, m.bias, {**rule, **base})) if s != z[i]]
    return {"kind": "training-errors", **base, "model": "linear", "a": _vec(a), **rule, "errors": errs}


def _kernel_features(run) -> dict | None:
    """The samples of a polynomial kernel's Gordan certificate: the monomials of degree min_degree..p (0..p when
    coef0 > 0, p alone when coef0 = 0; the kernel's feature space rescales them by positive constants), with the
    intercept's constant 1 appended last (bias "last"), or none without an intercept."""
    p = run.params
    if p.get("kernel") != "poly" or p.get("degree") is None or p.get("coef0") is None:
        return None
    d = int(p["degree"])
    return {"bias": "last" if run.bias != "none" else "none",
            "features": {"map": "poly", "degree": d, "min_degree": 0 if Fraction(p["coef0"]) > 0 else d}}


def _model_claims(run, base: dict, labels: list[str] | None) -> list[dict]:
    """training-errors: the samples the returned model gets wrong (recomputed by the checker)."""
    from exactlin.model.models import (
        ArgmaxModel,
        KernelModel,
        LinearModel,
        OneVsRestModel,
        ThresholdModel,
        ThresholdUnitModel,
        VoteModel,
    )

    m = getattr(run.model, "inner", run.model)
    z = getattr(run.problem, "z", None)
    linear = (LinearModel, ThresholdUnitModel)
    if labels is None:
        return []
    if isinstance(m, linear) and z is not None:
        return [_linear_errors(m, run, base, z)]
    if isinstance(m, ThresholdModel) and _is_rational(m.y0) and z is not None:
        w, y0 = [Fraction(v) for v in m.w], Fraction(m.y0)
        X = [tuple(Fraction(v) for v in r) for r in _raw(run)[0]]
        errs = [i for i, x in enumerate(X) if (1 if sum(p * q for p, q in zip(w, x)) > y0 else -1) != z[i]]
        return [{"kind": "training-errors", **base, "model": "threshold", "w": _vec(w), "y0": _q(y0),
                 "errors": errs}]
    if isinstance(m, (VoteModel, KernelModel)) and z is not None:
        X = _augmented(run, m.bias)
        if isinstance(m, VoteModel):  # sign(sum_k c_k sign(<w_k, x~>))
            g = [sum(c * _sign(sum(p * q for p, q in zip(w, x))) for w, c in m.vectors) for x in X]
            body = {"model": "vote", "vectors": [{"w": _vec(w), "c": int(c)} for w, c in m.vectors]}
        else:  # sign(sum_i alpha_i y_i K(s_i, x~) + b)
            g = [m._decide_one(x) for x in _raw_rows(run)]
            body = {"model": "kernel", "kernel": {"kind": "linear"} if m.kernel == "linear" else
                    {"kind": "poly", "degree": int(m.degree), "coef0": _q(m.coef0)},
                    "support": [_vec(v) for v in m.support], "alpha": _vec(m.alpha), "y": [int(v) for v in m.y],
                    "b": _q(m.b)}
        errs = [i for i, v in enumerate(g) if _sign(v) != z[i]]
        return [{"kind": "training-errors", **base, "bias": m.bias, **body, "errors": errs}]
    if isinstance(m, ArgmaxModel):
        classes = [label_text(c) for c in m.classes]
        W = [[Fraction(v) for v in w] for w in m.W]
        errs = []
        for i, x in enumerate(_augmented(run, m.bias)):
            g = [sum(p * q for p, q in zip(w, x)) for w in W]
            top = max(g)
            if g.count(top) != 1 or classes[g.index(top)] != labels[i]:
                errs.append(i)
        return [{"kind": "training-errors", **base, "model": "argmax", "classes": classes,
                 "W": [_vec(w) for w in W], "errors": errs}]
    if isinstance(m, OneVsRestModel) and all(isinstance(b, linear) for b in m.models):
        out = []  # one binary claim per class: the class is +1, the rest -1
        for c, b in zip(m.classes, m.models):
            t = label_text(c)
            out.append({**_linear_errors(b, run, {**base, "positive": t}, [1 if v == t else -1 for v in labels])})
        return out
    return []


def _sign(v) -> int:
    return 1 if v > 0 else -1 if v < 0 else 0


def _raw_rows(run) -> list[tuple]:
    return [tuple(Fraction(v) for v in r) for r in _raw(run)[0]]


def _augmented(run, bias: str) -> list[tuple]:
    from exactlin.data.dataset import augment

    X = [tuple(Fraction(v) for v in r) for r in _raw(run)[0]]
    f = _features(run)
    if f is not None:
        from exactlin.exact.featuremaps import apply_map

        X = list(apply_map(f["map"], f.get("degree", 2), X))
    return [tuple(r) for r in augment(X, bias)] if X else []


def _decisions(run, a, bias, rule) -> list[int]:
    """+1 / -1 / 0 (undefined) per sample for the linear rule of a training-errors claim."""
    out = []
    for x in _augmented(run, bias):
        if rule.get("bias_input", 1) == -1 and bias != "none":
            j = 0 if bias == "first" else len(x) - 1
            x = tuple(-v if k == j else v for k, v in enumerate(x))
        g = sum(p * q for p, q in zip(a, x))
        tie = rule.get("tie", "none")
        if tie == "none":
            out.append(1 if g > 0 else -1 if g < 0 else 0)
        else:
            out.append(1 if (g >= 0 if tie == ">=" else g > 0) else -1)
    return out


def _fisher_claim(run, base: dict) -> list[dict]:
    ex = run.extras
    if not all(k in ex for k in ("m1", "m2", "S_W")) or run.w is None:
        return []
    if ex.get("method") != "inverse" or ex.get("scatter", "sum") != "sum":
        return []  # w is then not S_W^{-1}(m1 - m2): the training-errors claim stands alone
    c = {"kind": "fisher", **base, "m1": _vec(ex["m1"]), "m2": _vec(ex["m2"]), "S_W": [_vec(r) for r in ex["S_W"]],
         "w": _vec(run.w), "threshold": str(ex.get("threshold"))}
    if _is_rational(ex.get("y0")) and c["threshold"] in ("1", "2", "3"):
        c["y0"] = _q(ex["y0"])
    return [c]


def _bound_claim(run, base: dict, labels: list[str] | None) -> list[dict]:
    from exactlin.model.monitor import MonitorReport

    m = run.extras.get("monitor")
    if not isinstance(m, MonitorReport) or not _is_rational(m.bound) or labels is None:
        return []
    c = {"kind": "convergence-bound", **base}
    classes = run.extras.get("classes")
    if classes is not None and len(m.w_star) != len(_augmented(run, base["bias"])[0]):
        c["space"] = "kesler"
        c["classes"] = [label_text(k) for k in classes]
    c.update({"w_star": _vec(m.w_star), "gamma": _q(m.gamma_min), "R2": _q(m.R2),
              "norm2_w_star": _q(m.norm2_w_star), "bound": _q(m.bound), "K": int(m.K)})
    return [c]


def build_claims(run) -> list[dict]:
    """Every claim the run makes, from its typed certificates, its monitor report, its Fisher statistics and its
    prediction model (see the module docstring); [] for a run without data."""
    from exactlin.model.certificates import Certificate

    raw = _raw(run)
    if raw is None:
        return []
    labels = [label_text(v) for v in raw[1]]
    base: dict = {"bias": run.bias}
    f = _features(run)
    if f is not None:
        base["features"] = f
    if getattr(getattr(run.model, "inner", run.model), "bias_input", 1) == -1 and run.bias != "none":
        base["bias_input"] = -1  # a threshold unit's x_0 = -1: every claim's samples are augmented with -1
    claims: list[dict] = []
    seen: set[int] = set()
    for v in run.extras.values():  # every typed certificate the run holds, once
        if isinstance(v, Certificate) and id(v) not in seen:
            seen.add(id(v))
            claims += _certificate_claims(v, run, base, labels)
    claims += _fisher_claim(run, base)
    claims += _bound_claim(run, base, labels)
    claims += _model_claims(run, base, labels)
    return claims


def carried(run, options: dict | None = None) -> dict:
    """``{"result_format", "data", "claims"}`` for a run that holds its data; {} otherwise."""
    d = data_block(run, options)
    if d is None:
        return {}
    return {"result_format": FORMAT, "data": d, "claims": build_claims(run)}
