"""Exact ground truth for float code: compare a float implementation with an exact exactlin Run.

A float library (scikit-learn, numpy, your own code) returns coefficients that are *close* to the answer;
exactlin returns the answer.  :func:`assert_matches_exact` compares the two and, when they differ beyond a
tolerance, raises :class:`ExactMismatch` (an ``AssertionError``) whose structured ``report`` says WHERE and BY
HOW MUCH:

* per coefficient (and the intercept): the exact value as a fraction and as a correctly rounded decimal, the
  float value, the absolute and the relative error (both exact rationals: the float is read as the exact
  binary rational it is);
* per sample of ``X`` whose predicted class differs: the exact decision value g(x), the float decision value,
  and samples whose exact decision is exactly 0 are listed apart as *on the boundary* (the exact class is
  undecided there, so the float's side is not an error);
* support vectors missing from or extra in the float result, by index.

Scale.  Some algorithms define w only up to a positive factor; compare those with ``scale_invariant=True``
(directions are compared after dividing both vectors by one coordinate, by default the exact vector's
largest feature weight, or ``normalize_by=``) or ``scale_invariant="angle"`` (the squared sine of the angle between the
two vectors, an exact rational, against ``rtol**2``):

======================================  ===================================================================
needs ``scale_invariant``                why
======================================  ===================================================================
the perceptron family (perceptron,       the final w scales with eta, the start vector and the float
fixed-increment, batch, pocket,          library's learning rate; only its direction (and its decisions)
relaxation, averaged, winnow, ...)       are comparable
fisher                                   w = S_W^-1 (m_1 - m_2) is a direction; LDA uses the pooled
                                         covariance S_W / (n - 2) and its own intercept (from the priors)
ho-kashyap (all three)                   a and b are determined together only up to the margin vector
======================================  ===================================================================

The exact scale is defined (compare with ``scale_invariant=False``, the default) for ``mse`` (a = Y^+ b for
the given b), the SVMs (the canonical w, b with min y_i (w.x_i + b) = 1) and the limit of widrow-hoff/lms.

Decisions are computed here from the Run's public fields (``w``, ``bias``, and ``extras["y0"]`` for Fisher:
g(x) = w.x - y0); see :func:`exact_decisions`.  Decimals are correctly rounded by integer arithmetic
(:func:`decimal_str`), never by formatting a float.

The pytest plugin :mod:`exactlin.testing.pytest_plugin` (``pytest -p exactlin.testing.pytest_plugin``) adds
the ``exact_reference`` fixture (a cached exact run) and the ``assert_exact`` fixture.

>>> from exactlin.algorithms.svm import svm_hard
>>> run = svm_hard([[1.5, 2.5], [2.5, 1.5], [2.5, 2.5]], [1, 1, -1])    # exact: w = (-2, -2), b = 9
>>> rep = assert_matches_exact({"coef": [-2.0, -2.0], "intercept": 9.0}, run)
>>> rep.ok
True
>>> try:
...     assert_matches_exact({"coef": [-1.99902, -1.99902], "intercept": 8.99577}, run, rtol=1e-6)
... except ExactMismatch as e:
...     print(e.report.coef[0].exact_decimal(), e.report.coef[0].abs_error_decimal(3))
-2 0.000980
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from exactlin.errors import ExactlinError, ParameterError
from exactlin.exact.format import as_fraction, decimal_str
from exactlin.exact.numbers import fmt

__all__ = ["assert_matches_exact", "compare_with_exact", "exact_decisions", "ExactMismatch", "MatchReport",
           "ValueDiff", "DecisionDiff", "decimal_str", "CHECKS"]

#: what :func:`assert_matches_exact` can compare
CHECKS = ("coef", "intercept", "decisions", "support_vectors")


# ---------------------------------------------------------------------------
# correctly rounded decimals: the one implementation lives in exactlin.exact.format (every renderer uses it)


def _show_float(v: Any) -> str:
    """How the float side is shown: Python's shortest repr of the float (exact values as fractions)."""
    if isinstance(v, float):
        return repr(v)
    try:
        import numpy as np

        if isinstance(v, np.floating):
            return repr(float(v))
    except ImportError:  # pragma: no cover
        pass
    return fmt(as_fraction(v, "value"))


# ---------------------------------------------------------------------------
# the report


@dataclass(frozen=True)
class ValueDiff:
    """One compared number: ``exact`` (a Fraction), ``actual`` (the float side, as given), ``abs_error`` =
    |actual - exact| and ``rel_error`` = abs_error / |exact| (None when exact is 0), both exact rationals of the
    float's binary value; ``ok`` when abs_error <= atol + rtol |exact|."""

    name: str
    exact: Fraction
    actual: Any
    abs_error: Fraction
    rel_error: Fraction | None
    ok: bool

    def exact_decimal(self, digits: int = 17) -> str:
        return decimal_str(self.exact, digits)

    def abs_error_decimal(self, digits: int = 6) -> str:
        return decimal_str(self.abs_error, digits)

    def rel_error_decimal(self, digits: int = 6) -> str:
        return "-" if self.rel_error is None else decimal_str(self.rel_error, digits)

    def line(self) -> str:
        return (f"{self.name}: exact {fmt(self.exact)} (= {self.exact_decimal()}), float {_show_float(self.actual)}, "
                f"abs error {self.abs_error_decimal()}, rel error {self.rel_error_decimal()}"
                f"{'' if self.ok else '  <-- MISMATCH'}")


@dataclass(frozen=True)
class DecisionDiff:
    """One sample of X: ``exact`` g(x) (a Fraction), the float decision ``actual``, the classes (+1, -1; 0 for
    the exact class when g(x) = 0 exactly: ``on_boundary``)."""

    index: int
    exact: Fraction
    actual: Any
    exact_class: int
    float_class: int

    @property
    def on_boundary(self) -> bool:
        return self.exact == 0

    def line(self) -> str:
        if self.on_boundary:
            return (f"sample {self.index}: ON THE BOUNDARY (exact decision exactly 0, class undecided); "
                    f"float decision {_show_float(self.actual)} (class {self.float_class:+d})")
        return (f"sample {self.index}: exact class {self.exact_class:+d} (g = {fmt(self.exact)} = "
                f"{decimal_str(self.exact, 12)}), float class {self.float_class:+d} "
                f"(g = {_show_float(self.actual)})")


@dataclass(frozen=True)
class MatchReport:
    """Everything :func:`assert_matches_exact` compared.  ``ok`` is False iff some coefficient is outside the
    tolerance, some sample's class differs (boundary samples excepted) or the support sets differ."""

    algorithm: str
    rtol: float
    atol: float
    scale_invariant: bool | str
    checked: tuple[str, ...]
    skipped: tuple[tuple[str, str], ...] = ()  # (check, why)
    coef: tuple[ValueDiff, ...] = ()
    intercept: ValueDiff | None = None
    normalized_by: str | None = None  # the coordinate both vectors were divided by (scale_invariant=True)
    sin2_angle: Fraction | None = None  # scale_invariant="angle": the exact squared sine of the angle
    direction_ok: bool = True  # False when the float direction is opposite (or zero where the exact is not)
    decisions: tuple[DecisionDiff, ...] = ()  # samples whose class differs (exact g != 0)
    boundary: tuple[DecisionDiff, ...] = ()  # samples with exact g = 0 (reported, not counted as errors)
    n_samples: int = 0
    support_missing: tuple[int, ...] = ()  # in the exact support set, not in the float one
    support_extra: tuple[int, ...] = ()  # in the float support set, not in the exact one
    notes: tuple[str, ...] = field(default=())

    @property
    def coef_mismatches(self) -> tuple[ValueDiff, ...]:
        return tuple(v for v in (*self.coef, *((self.intercept,) if self.intercept else ())) if not v.ok)

    @property
    def ok(self) -> bool:
        return (self.direction_ok and not self.coef_mismatches and not self.decisions and not self.support_missing
                and not self.support_extra)

    def max_abs_error(self) -> Fraction | None:
        vals = [v.abs_error for v in (*self.coef, *((self.intercept,) if self.intercept else ()))]
        return max(vals) if vals else None

    def text(self) -> str:
        head = (f"{'float result matches' if self.ok else 'float result DIFFERS from'} the exact {self.algorithm} "
                f"run (rtol={self.rtol!r}, atol={self.atol!r}"
                + (f", scale_invariant={self.scale_invariant!r}" if self.scale_invariant else "") + ")")
        lines = [head]
        if self.coef or self.intercept or not self.direction_ok:
            if self.normalized_by:
                lines.append(f"directions compared: both vectors divided by their {self.normalized_by}")
            if self.sin2_angle is not None:
                lines.append(f"angle: sin^2 = {fmt(self.sin2_angle)} = {decimal_str(self.sin2_angle, 6)} "
                             f"(tolerance rtol^2)")
            if not self.direction_ok:
                lines.append("direction: the float vector points the OTHER way (or is 0 where the exact one is not)")
            lines.append("coefficients:")
            lines += ["  " + v.line() for v in self.coef]
            if self.intercept is not None:
                lines.append("  " + self.intercept.line())
        if "decisions" in self.checked:
            if self.decisions:
                lines.append(f"decisions: {len(self.decisions)} of {self.n_samples} samples classified differently:")
                lines += ["  " + d.line() for d in self.decisions]
            else:
                lines.append(f"decisions: the same class on all {self.n_samples - len(self.boundary)} samples off "
                             "the boundary")
            if self.boundary:
                lines.append(f"on the boundary: {len(self.boundary)} sample(s) with exact decision exactly 0 "
                             "(not float errors):")
                lines += ["  " + d.line() for d in self.boundary]
        if "support_vectors" in self.checked:
            if self.support_missing or self.support_extra:
                lines.append(f"support vectors: missing {list(self.support_missing)} (exact, not float), "
                             f"extra {list(self.support_extra)} (float, not exact)")
            else:
                lines.append("support vectors: the same set")
        for check, why in self.skipped:
            lines.append(f"not checked: {check} ({why})")
        lines += list(self.notes)
        return "\n".join(lines)

    def to_dict(self) -> dict:
        """Plain JSON values: exact numbers as rational strings, the float side as JSON numbers."""

        def vd(v: ValueDiff) -> dict:
            return {"name": v.name, "exact": fmt(v.exact), "exact_decimal": v.exact_decimal(),
                    "actual": float(v.actual) if not isinstance(v.actual, Fraction) else fmt(v.actual),
                    "abs_error": fmt(v.abs_error), "rel_error": None if v.rel_error is None else fmt(v.rel_error),
                    "ok": v.ok}

        def dd(d: DecisionDiff) -> dict:
            return {"index": d.index, "exact": fmt(d.exact),
                    "actual": float(d.actual) if not isinstance(d.actual, Fraction) else fmt(d.actual),
                    "exact_class": d.exact_class, "float_class": d.float_class, "on_boundary": d.on_boundary}

        return {"algorithm": self.algorithm, "ok": self.ok, "rtol": self.rtol, "atol": self.atol,
                "scale_invariant": self.scale_invariant, "checked": list(self.checked),
                "skipped": [list(s) for s in self.skipped], "coef": [vd(v) for v in self.coef],
                "intercept": vd(self.intercept) if self.intercept else None, "normalized_by": self.normalized_by,
                "sin2_angle": None if self.sin2_angle is None else fmt(self.sin2_angle),
                "direction_ok": self.direction_ok, "decisions": [dd(d) for d in self.decisions],
                "boundary": [dd(d) for d in self.boundary], "n_samples": self.n_samples,
                "support_missing": list(self.support_missing), "support_extra": list(self.support_extra)}


class ExactMismatch(ExactlinError, AssertionError):
    """A float result differs from the exact run: an ``AssertionError`` (so pytest reports it as a failed
    assertion) carrying the structured :class:`MatchReport` in ``report``; its message is ``report.text()``."""

    def __init__(self, report: MatchReport):
        super().__init__(report.text())
        self.report = report


# ---------------------------------------------------------------------------
# the exact side


def _exact_parts(run) -> tuple[tuple[Fraction, ...], Any]:
    """(feature weights, intercept) of a binary Run, so that g(x) = coef . x + intercept."""
    from exactlin.data.dataset import split_bias

    w = getattr(run, "w", None)
    if w is None:
        why = (f"it stopped with reason {run.reason!r}" if getattr(run, "reason", None) in ("not_separable",)
               else "a multi-class, kernel or voted run has no single weight vector")
        raise ParameterError(f"the exact {getattr(run, 'algorithm', 'run')} run has no weight vector to compare "
                             f"({why})", parameter="exact_run")
    coef, b = split_bias(w, run.bias)
    if run.extras.get("y0") is not None:  # Fisher's threshold (exactlin.model.extras): g(x) = w^t x - y0
        y0 = run.extras["y0"]
        b = -y0 if isinstance(y0, Fraction) else -_sympy_rational(y0)
    return tuple(coef), b


def _sympy_rational(v):
    if getattr(v, "is_Rational", False):
        return Fraction(int(v.p), int(v.q))
    return v  # irrational: kept as the sympy number (refused where a rational is needed)


def exact_decisions(run, X, *, floats: str = "repr") -> tuple[Fraction, ...]:
    """The exact decision values g(x) of a binary Run on the rows of ``X``, from its public fields:
    g(x) = <w, x~> with x augmented as ``run.bias`` says, minus ``extras["y0"]`` for Fisher.  X is converted
    by exactlin's number rule (``floats="repr"``: the float 0.1 is 1/10, as the algorithms read it).

    >>> from exactlin.algorithms.perceptron import perceptron
    >>> run = perceptron([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1])     # w = (1, -3)
    >>> exact_decisions(run, [(4, 0), (3, 1), (0.5, 0)])
    (Fraction(4, 1), Fraction(0, 1), Fraction(1, 2))
    """
    from exactlin.exact.numbers import to_matrix

    coef, b = _exact_parts(run)
    if not isinstance(b, Fraction):
        raise ParameterError(f"the exact run's threshold {b} is irrational: its decisions are not rationals "
                             "(choose Fisher's threshold 1 or 2, or compare the classes with the run's own "
                             "predictions)", parameter="exact_run")
    rows = to_matrix(X, floats=floats)
    if len(rows) and len(rows[0]) != len(coef):
        raise ParameterError(f"X has {len(rows[0])} features but the exact run has {len(coef)}", parameter="X")
    return tuple(sum((c * v for c, v in zip(coef, x)), Fraction(0)) + b for x in rows)


# ---------------------------------------------------------------------------
# the float side


def _flat(v, what: str) -> list:
    if hasattr(v, "tolist"):
        v = v.tolist()
    if isinstance(v, (int, float, Fraction)) and not isinstance(v, bool):
        return [v]
    out: list = []
    for x in v:
        if isinstance(x, (list, tuple)) or hasattr(x, "tolist") and not isinstance(x, (int, float)):
            out.extend(_flat(x, what))
        else:
            out.append(x)
    return out


def _float_side(actual) -> dict:
    """{"coef", "intercept", "decision_function", "support", "decisions"} from an estimator, a dict or an array."""
    if isinstance(actual, dict):
        unknown = set(actual) - {"coef", "intercept", "decisions", "support", "support_vectors"}
        if unknown:
            raise ParameterError(f"unknown key(s) {sorted(unknown)} in the float result; keys: coef, intercept, "
                                 "decisions, support", parameter="actual")
        out = {k: actual[k] for k in ("coef", "intercept", "decisions") if k in actual}
        sup = actual.get("support", actual.get("support_vectors"))
        if sup is not None:
            out["support"] = sup
        if "coef" in out:
            out["coef"] = _flat(out["coef"], "coef")
        if "intercept" in out:
            ic = _flat(out["intercept"], "intercept")
            if len(ic) != 1:
                raise ParameterError(f"intercept must be one number, got {len(ic)}", parameter="intercept")
            out["intercept"] = ic[0]
        return out
    if hasattr(actual, "coef_") or hasattr(actual, "decision_function") or hasattr(actual, "support_"):
        out = {}
        coef = getattr(actual, "coef_", None)
        if coef is not None:
            rows = coef.tolist() if hasattr(coef, "tolist") else coef
            if rows and isinstance(rows[0], (list, tuple)) and len(rows) != 1:
                raise ParameterError(f"the estimator has {len(rows)} coefficient rows: only binary models compare "
                                     "with one exact run", parameter="actual")
            out["coef"] = _flat(coef, "coef")
        ic = getattr(actual, "intercept_", None)
        if ic is not None:
            ic = _flat(ic, "intercept")
            out["intercept"] = ic[0] if len(ic) == 1 else None
        if hasattr(actual, "decision_function"):
            out["decision_function"] = actual.decision_function
        if getattr(actual, "support_", None) is not None:
            out["support"] = actual.support_
        return out
    return {"coef": _flat(actual, "coef")}  # an array: the coefficients


def _class(g) -> int:
    """The class a float decision gives, as scikit-learn predicts: classes_[1] (+1) iff g > 0."""
    return 1 if g > 0 else -1


# ---------------------------------------------------------------------------
# comparison


def _compare_values(names, exact, actual, rtol: Fraction, atol: Fraction) -> tuple[ValueDiff, ...]:
    out = []
    for name, q, f in zip(names, exact, actual):
        fq = as_fraction(f, name)
        err = abs(fq - q)
        rel = err / abs(q) if q != 0 else None
        out.append(ValueDiff(name, q, f, err, rel, err <= atol + rtol * abs(q)))
    return tuple(out)


def compare_with_exact(actual, exact_run, *, X=None, rtol: float = 1e-7, atol: float = 1e-12,
                       check: Sequence[str] | None = None, scale_invariant: bool | str = False,
                       normalize_by: int | None = None, floats: str = "repr") -> MatchReport:
    """The comparison of :func:`assert_matches_exact`, returned as a :class:`MatchReport` (never raises on a
    mismatch; raises :class:`~exactlin.errors.ParameterError` on unusable arguments)."""
    if check is None:
        wanted, explicit = CHECKS, False
    else:
        wanted = (check,) if isinstance(check, str) else tuple(check)
        bad = [c for c in wanted if c not in CHECKS]
        if bad:
            raise ParameterError(f"unknown check(s) {bad}; choose from {', '.join(CHECKS)}", parameter="check")
        explicit = True
    if scale_invariant not in (False, True, "angle"):
        raise ParameterError(f"scale_invariant must be False, True or 'angle', got {scale_invariant!r}",
                             parameter="scale_invariant")
    for name, t in (("rtol", rtol), ("atol", atol)):
        if isinstance(t, bool) or not isinstance(t, (int, float, Fraction)) or t < 0:
            raise ParameterError(f"{name} must be a number >= 0, got {t!r}", parameter=name)
    rt, at = as_fraction(rtol, "rtol"), as_fraction(atol, "atol")
    fs = _float_side(actual)
    algorithm = getattr(exact_run, "algorithm", "?")
    skipped: list[tuple[str, str]] = []
    checked: list[str] = []
    notes: list[str] = []

    def skip(c: str, why: str):
        if explicit:
            raise ParameterError(f"check {c!r} cannot run: {why}", parameter="check")
        skipped.append((c, why))

    kw: dict[str, Any] = {}
    # --- coefficients and intercept
    do_coef = "coef" in wanted
    do_int = "intercept" in wanted
    if do_coef or do_int:
        ecoef, eb = _exact_parts(exact_run)
        if do_coef and "coef" not in fs:
            skip("coef", "the float result has no coefficients")
            do_coef = False
        if do_int and fs.get("intercept") is None:
            skip("intercept", "the float result has no intercept")
            do_int = False
        if do_int and not isinstance(eb, Fraction):
            skip("intercept", f"the exact intercept {eb} is irrational")
            do_int = False
        if do_coef and len(fs["coef"]) != len(ecoef):
            raise ParameterError(f"the float result has {len(fs['coef'])} coefficients, the exact run "
                                 f"{len(ecoef)}", parameter="actual")
    if do_coef or do_int:
        names = [f"coef[{j}]" for j in range(len(ecoef))] if do_coef else []
        ex = list(ecoef) if do_coef else []
        fl = list(fs["coef"]) if do_coef else []
        if do_int:
            names.append("intercept")
            ex.append(eb)
            fl.append(fs["intercept"])
        flq = [as_fraction(f, n) for f, n in zip(fl, names)]
        checked += (["coef"] if do_coef else []) + (["intercept"] if do_int else [])
        if not scale_invariant:
            diffs = _compare_values(names, ex, fl, rt, at)
        elif scale_invariant == "angle":
            ee = sum(q * q for q in ex)
            ff = sum(q * q for q in flq)
            ef = sum(p * q for p, q in zip(ex, flq))
            if ee == 0:
                raise ParameterError("the exact vector is 0: it has no direction", parameter="scale_invariant")
            if ff == 0 or ef <= 0:
                kw["direction_ok"] = False
                sin2 = Fraction(1) if ff == 0 or ef == 0 else 1 - ef * ef / (ee * ff)
            else:
                sin2 = 1 - ef * ef / (ee * ff)  # exact: 1 - cos^2 of the angle
                kw["direction_ok"] = sin2 <= rt * rt
            kw["sin2_angle"] = sin2
            # per coordinate, for the reader: the float vector scaled onto the exact one (least squares factor)
            t = ef / ff if ff else Fraction(0)
            diffs = tuple(ValueDiff(n, q, f, abs(t * fq - q), abs(t * fq - q) / abs(q) if q else None, True)
                          for n, q, f, fq in zip(names, ex, fl, flq))
            kw["normalized_by"] = f"least-squares factor onto the exact vector ({decimal_str(t, 12)})"
        else:
            k = normalize_by
            if k is None:
                # the largest exact feature weight (the intercept only when every weight is 0)
                nc = len(ex) - (1 if do_int else 0)
                k = max(range(nc), key=lambda j: (abs(ex[j]), -j)) if nc and any(ex[:nc]) else len(ex) - 1
            elif not (isinstance(k, int) and 0 <= k < len(ex)):
                raise ParameterError(f"normalize_by must be an index 0..{len(ex) - 1} of ({', '.join(names)}), "
                                     f"got {k!r}", parameter="normalize_by")
            if ex[k] == 0:
                raise ParameterError(f"normalize_by: the exact {names[k]} is 0; choose a nonzero coordinate",
                                     parameter="normalize_by")
            kw["normalized_by"] = names[k]
            if flq[k] == 0 or (flq[k] > 0) != (ex[k] > 0):
                kw["direction_ok"] = False
                diffs = _compare_values(names, ex, fl, rt, at)
                notes.append(f"the float {names[k]} is {_show_float(fl[k])}, the exact one {fmt(ex[k])}: the "
                             "vectors cannot be the same direction; raw values shown")
            else:
                exn = [q / ex[k] for q in ex]
                fln = [q / flq[k] for q in flq]  # exact quotients of the float's binary values
                diffs = _compare_values([f"{n}/{names[k]}" for n in names], exn, fln, rt, at)
                # shown as the float the quotient rounds to; the errors are those of the exact quotient
                diffs = tuple(ValueDiff(d.name, d.exact, float(f), d.abs_error, d.rel_error, d.ok)
                              for d, f in zip(diffs, fln))
        if do_int:
            kw["intercept"] = diffs[-1]
            diffs = diffs[:-1]
        kw["coef"] = tuple(diffs)
    # --- decisions
    if "decisions" in wanted:
        if X is None:
            skip("decisions", "no X given")
        else:
            g = exact_decisions(exact_run, X, floats=floats)
            if "decisions" in fs:
                gf = _flat(fs["decisions"], "decisions")
            elif "decision_function" in fs:
                import numpy as np

                gf = _flat(fs["decision_function"](np.asarray(_float_rows(X))), "decisions")
            elif "coef" in fs:
                c, b0 = fs["coef"], fs.get("intercept") or 0.0
                gf = [sum(float(a) * v for a, v in zip(c, x)) + float(b0) for x in _float_rows(X)]
            else:
                gf = None
                skip("decisions", "the float result has no decisions, decision_function or coefficients")
            if gf is not None:
                if len(gf) != len(g):
                    raise ParameterError(f"{len(gf)} float decisions for {len(g)} samples of X", parameter="actual")
                checked.append("decisions")
                diff, bd = [], []
                for i, (q, f) in enumerate(zip(g, gf)):
                    fc = _class(as_fraction(f, f"decision[{i}]"))
                    ec = (q > 0) - (q < 0)
                    if q == 0:
                        bd.append(DecisionDiff(i, q, f, 0, fc))
                    elif ec != fc:
                        diff.append(DecisionDiff(i, q, f, ec, fc))
                kw.update(decisions=tuple(diff), boundary=tuple(bd), n_samples=len(g))
    # --- support vectors
    if "support_vectors" in wanted:
        es = getattr(exact_run, "extras", {}).get("support_vectors")
        if es is None:
            skip("support_vectors", f"the exact {algorithm} run has no support vectors")
        elif "support" not in fs:
            skip("support_vectors", "the float result has no support vectors")
        else:
            checked.append("support_vectors")
            e_set = {int(i) for i in es}
            f_set = {int(i) for i in _flat(fs["support"], "support")}
            kw["support_missing"] = tuple(sorted(e_set - f_set))
            kw["support_extra"] = tuple(sorted(f_set - e_set))
    return MatchReport(algorithm=algorithm, rtol=rtol, atol=atol, scale_invariant=scale_invariant,
                       checked=tuple(checked), skipped=tuple(skipped), notes=tuple(notes), **kw)


def _float_rows(X) -> list[list[float]]:
    """X as float rows for the float library (exact entries rounded to the nearest float)."""
    rows = X.tolist() if hasattr(X, "tolist") else X
    return [[float(v) if not isinstance(v, str) else float(Fraction(v)) for v in r] for r in rows]


def assert_matches_exact(actual, exact_run, *, X=None, rtol: float = 1e-7, atol: float = 1e-12,
                         check: Sequence[str] | None = None, scale_invariant: bool | str = False,
                         normalize_by: int | None = None, floats: str = "repr") -> MatchReport:
    """Assert that a float result matches an exact exactlin Run; raise :class:`ExactMismatch` otherwise.

    ``actual``: a fitted scikit-learn-style estimator (``coef_``, ``intercept_``, ``decision_function``,
    ``support_``; binary), a dict with any of ``coef``, ``intercept``, ``decisions`` (float decision values on
    X), ``support`` (indices), or an array (the coefficients).  ``exact_run``: a binary Run (its ``+1`` class
    must be the float model's ``classes_[1]``).

    ``check``: which comparisons to make, from ``("coef", "intercept", "decisions", "support_vectors")``;
    by default every one that the inputs allow (the others are listed in ``report.skipped``); an explicit
    check that cannot run is a :class:`~exactlin.errors.ParameterError`.

    * coefficients: ``|float - exact| <= atol + rtol |exact|`` per coordinate, decided in exact rationals (the
      float's binary value; the tolerances' binary values);
    * ``scale_invariant=True``: both vectors (coef, intercept) are divided by one coordinate -- ``normalize_by``
      (an index into coef + [intercept]), by default the exact vector's largest feature weight -- and then
      compared (the float quotients exactly, shown rounded to floats); a float
      coordinate of the other sign (or 0) there is a mismatch (``direction_ok`` False).  ``"angle"``: the exact
      squared sine of the angle must be <= rtol^2 (and the vectors must not point apart).  Which algorithms
      need it: see the module docstring (perceptron family, Fisher, Ho-Kashyap);
    * decisions on ``X``: the float class is +1 iff its decision value is > 0 (as scikit-learn predicts); a
      sample differs when the exact decision has the other sign; an exact decision of exactly 0 is *on the
      boundary* and reported in ``report.boundary``, not as an error;
    * support vectors: the exact run's ``extras["support_vectors"]`` against the float's ``support_`` (by
      index).  A degenerate SVM may have several optimal alpha; the exact set is the one exactlin certified.

    Returns the :class:`MatchReport` when everything matches.
    """
    report = compare_with_exact(actual, exact_run, X=X, rtol=rtol, atol=atol, check=check,
                                scale_invariant=scale_invariant, normalize_by=normalize_by, floats=floats)
    if not report.ok:
        raise ExactMismatch(report)
    return report
