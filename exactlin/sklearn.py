"""scikit-learn estimators over exactlin's algorithms (the ``sklearn`` extra: ``pip install 'exactlin[sklearn]'``).

Each estimator is a thin layer over one registered algorithm function
(:data:`exactlin.algorithms.REGISTRY`): ``fit`` converts the data by exactlin's one
conversion rule (floats by ``floats="repr"``: the float ``0.1`` is the rational 1/10),
calls the algorithm, and keeps its :class:`~exactlin.model.run.Run` in ``run_``.  Nothing
is re-implemented here.

============================  ==========================================================
estimator                     algorithms (``algorithm=``)
============================  ==========================================================
:class:`ExactClassifier`      any registered algorithm, by name
:class:`ExactPerceptron`      the perceptron family: perceptron, fixed-increment,
                              batch-perceptron, variable-increment, pocket, voted and
                              averaged perceptron, balanced-winnow, relaxation, ...
:class:`ExactMSE`             mse (pseudoinverse), widrow-hoff, lms
:class:`ExactHoKashyap`       ho-kashyap, ho-kashyap-mod1, ho-kashyap-mod2
:class:`ExactFisher`          fisher
:class:`ExactLinearMachine`   linear-machine, one-vs-rest (multi-class)
:class:`ExactSVC`             svm-hard (``C=None``), svm-soft (``C``), svm-soft-l2
                              (``C`` and ``loss="squared"``)
============================  ==========================================================

An estimator whose algorithm is not registered in this installation raises
:class:`~exactlin.errors.ParameterError` naming the missing algorithm when it is fitted.

Exact attributes after ``fit``: ``coef_`` (shape ``(1, d)`` for a binary algorithm,
``(c, d)`` for a multi-class one with ``c`` classes) and ``intercept_`` are numpy *object*
arrays of ``fractions.Fraction``;
``run_`` is the Run; ``classes_`` the sorted labels (``np.unique``); ``converged_`` and
``reason_`` the run's.  Binary algorithms map ``classes_[1]`` to +1 and ``classes_[0]`` to
-1; more than two classes raise :class:`~exactlin.errors.LabelError` naming the multi-class
alternatives (``ExactLinearMachine``: linear-machine or one-vs-rest).

``predict`` decides exactly by the run's prediction model ``run_.model``
(:mod:`exactlin.model.models`: Fisher's threshold y0, the vote, the kernel expansion, a feature map
applied to the raw samples...), never by the algorithm's name.  Where the notes leave a point
undefined (the model predicts None) scikit-learn still needs one of ``classes_``: a binary
model's undefined point (g(x) = 0, a tied vote) goes to ``classes_[0]``, as in scikit-learn;
multi-class (a tie for the largest g_c, or no or several one-vs-rest claims): the class with the
largest g_c(x), the first in ``classes_`` order on a tie.  ``run_.predict`` gives the notes' own
answer (None there).  ``decision_function`` returns float64 because
scikit-learn's scorers and checks need numbers they can compare with tolerances; the exact
values are :meth:`ExactClassifier.decision_function_exact` (object array of Fractions),
and the predictions never depend on the float rounding.  The floats always agree with
``predict`` (scikit-learn's rule: ``classes_[1]`` where the value is > 0, the argmax for several
classes): a nonzero g(x) that rounds to 0.0 becomes +-5e-324, the smallest float of its sign.

The parameters of each algorithm's table are constructor arguments (generated from the
tables, with explicit signatures), so ``GridSearchCV(ExactPerceptron(), {"eta": [1, "1/2"]})``,
``clone`` and ``set_params`` reach them; ``max_iter`` is scikit-learn's name for the bound on
passes and ``n_iter_`` the passes made.  Float input that turns into fractions of more than
:data:`LONG_RATIONAL_DIGITS` digits gets a :class:`~exactlin.errors.LongRationalWarning`.

scikit-learn's estimator checks (``parametrize_with_checks``) all pass for these estimators
except those listed by :func:`expected_failed_checks` (each with its reason).

>>> clf = ExactPerceptron().fit([[4, 0], [1, 1], [0, 1], [-2, -2]], [1, -1, -1, 1])
>>> clf.coef_, clf.intercept_   # seed 000's Example 1 with an intercept: w~ = (1, 1, -3) after 3 mistakes
(array([[Fraction(1, 1), Fraction(-3, 1)]], dtype=object), array([Fraction(1, 1)], dtype=object))
>>> clf.predict([[3, 0], [0, 2]]).tolist()
[1, -1]
"""

from __future__ import annotations

import inspect
import logging
import math
import pickle
import warnings
from fractions import Fraction
from typing import Any

import numpy as np

try:
    from sklearn.base import BaseEstimator, ClassifierMixin, TransformerMixin
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.utils.multiclass import check_classification_targets
    from sklearn.utils.validation import check_is_fitted, validate_data
except ImportError as _e:  # pragma: no cover - the extra is missing
    raise ImportError("exactlin.sklearn needs scikit-learn >= 1.6: pip install 'exactlin[sklearn]'") from _e

from exactlin.data.dataset import split_bias
from exactlin.errors import InputTypeError, LabelError, LongRationalWarning, NotSeparableError, ParameterError
from exactlin.exact.numbers import to_matrix
from exactlin.model.models import linear_form

__all__ = ["ExactClassifier", "ExactPerceptron", "ExactMSE", "ExactHoKashyap", "ExactFisher", "ExactLinearMachine",
           "ExactSVC", "ESTIMATORS", "expected_failed_checks", "NotSeparableError", "LongRationalWarning",
           "LONG_RATIONAL_DIGITS", "LONG_RATIONALS_HOWTO"]

log = logging.getLogger("exactlin")

#: stop reasons that mean "a bound was hit before the algorithm finished" (a ConvergenceWarning, as scikit-learn)
_BOUND_REASONS = ("max_epochs", "max_updates", "max_steps", "bit_limit", "time_limit")

#: a coefficient of float input whose numerator or denominator has more digits than this gets a LongRationalWarning
LONG_RATIONAL_DIGITS = 30
#: the how-to page the LongRationalWarning points to
LONG_RATIONALS_HOWTO = "docs/howto/long-rationals.md"

#: the default bound on passes (scikit-learn's ``max_iter``)
DEFAULT_MAX_ITER = 1000

#: constructor arguments every table-driven estimator has besides its algorithms' tables
_COMMON = ("algorithm", "bias", "floats", "max_iter", "trace", "params", "max_epochs")
#: a table parameter whose name is a common argument gets this constructor name (feature-map's inner algorithm)
_RENAMED = {"algorithm": "inner_algorithm"}


def _registry() -> dict:
    from exactlin.algorithms import REGISTRY, load_all

    load_all()
    return REGISTRY


# ---------------------------------------------------------------------------------------------------------------
# constructor arguments generated from the parameter tables

_UNSET = object()


def _plain(v):
    """A table default as a value scikit-learn accepts as a constructor default (str, int, bool, tuple, None):
    an integral Fraction as int, another Fraction as its string "p/q"; _UNSET when it has no plain form."""
    if v is None or isinstance(v, (bool, str, int)):
        return v
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else str(v)
    if isinstance(v, tuple):
        items = tuple(_plain(x) for x in v)
        return _UNSET if any(x is _UNSET for x in items) else items
    return _UNSET


def _table_arguments(names) -> dict[str, tuple[Any, Any, str]]:
    """constructor name -> (constructor default, kind, table name) over the tables of the registered algorithms
    ``names`` (all if None).

    The default is the tables' common default when every algorithm with that parameter has the same plain
    default; otherwise None, which means "each algorithm's own default" (nothing is passed).  A table name that
    is a common argument is renamed by :data:`_RENAMED` (``algorithm`` -> ``inner_algorithm``)."""
    reg = _registry()
    seen: dict[str, list] = {}
    for n in (names if names is not None else sorted(reg)):
        if n not in reg:
            continue
        for p in reg[n].params:
            if p.name in _COMMON and p.name not in _RENAMED:
                raise ParameterError(f"algorithm {n!r}: its parameter {p.name!r} clashes with a common estimator "
                                     "argument", parameter=p.name)
            seen.setdefault(p.name, []).append(p)
    out = {}
    for name, ps in seen.items():
        defaults = {repr(_plain(p.default)) for p in ps}
        common = _plain(ps[0].default)
        out[_RENAMED.get(name, name)] = (common if len(defaults) == 1 and common is not _UNSET else None,
                                         ps[0].kind, name)
    return out


def _make_init(cls, default_algorithm: str, default_bias, names) -> None:
    """Give ``cls`` an ``__init__`` with an explicit signature: ``algorithm`` (positional), then keyword-only
    ``bias``, ``max_iter``, ``floats``, ``trace``, one argument per parameter of the family's tables, and the
    deprecated ``params`` and ``max_epochs``.  Every argument is stored unchanged (scikit-learn's convention)."""
    P = inspect.Parameter
    table = _table_arguments(names)
    params = [P("self", P.POSITIONAL_OR_KEYWORD),
              P("algorithm", P.POSITIONAL_OR_KEYWORD, default=default_algorithm, annotation=str),
              P("bias", P.KEYWORD_ONLY, default=default_bias, annotation="str | None"),
              P("max_iter", P.KEYWORD_ONLY, default=DEFAULT_MAX_ITER, annotation=int),
              P("floats", P.KEYWORD_ONLY, default="repr", annotation=str),
              P("trace", P.KEYWORD_ONLY, default=None, annotation="bool | None"),
              P("verbose", P.KEYWORD_ONLY, default=False, annotation=bool)]
    params += [P(name, P.KEYWORD_ONLY, default=default) for name, (default, _, _) in table.items()]
    params += [P("params", P.KEYWORD_ONLY, default=None, annotation="dict | None"),
               P("max_epochs", P.KEYWORD_ONLY, default=None, annotation="int | None")]
    sig = inspect.Signature(params)

    def __init__(self, *args, **kwargs):
        bound = sig.bind(self, *args, **kwargs)
        bound.apply_defaults()
        for name, value in bound.arguments.items():
            if name != "self":
                setattr(self, name, value)

    __init__.__signature__ = sig
    __init__.__qualname__ = f"{cls.__name__}.__init__"
    __init__.__doc__ = (f"{cls.__name__}({', '.join(str(p) for p in params[1:])})\n\n"
                        "Arguments as in the class docstring; each algorithm parameter defaults to its table's "
                        "(None: each algorithm's own default).")
    cls.__init__ = __init__
    cls._table_args = table
    docs = {}
    for n in (names if names is not None else sorted(_registry())):
        for p in getattr(_registry().get(n), "params", ()):
            docs.setdefault(p.name, f"{p.doc} ({n})" if p.doc else "")
    lines = [f"    {name} : {kind}, default={default!r}" + (f" (the table's {tname!r})" if tname != name else "")
             + (f"\n        {docs[tname]}" if docs.get(tname) else "")
             for name, (default, kind, tname) in table.items()]
    if cls.__doc__ is not None:
        cls.__doc__ += ("\n\n    Algorithm parameters (generated from the parameter tables; each goes to the algorithm "
                        "only if its table has it; default=None: each algorithm's own default):\n\n"
                        + "\n".join(lines) + "\n")


def _same(a, b) -> bool:
    """Equal values (an array or a list compares as a whole, never elementwise)."""
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def _digits(q) -> int:
    """Decimal digits of the longer of numerator and denominator of a rational (0 for anything else)."""
    if isinstance(q, int):
        return len(str(abs(q)))
    if isinstance(q, Fraction):
        return max(len(str(abs(q.numerator))), len(str(q.denominator)))
    return 0


def _has_floats(X) -> bool:
    X = np.asarray(X)
    if X.dtype.kind == "f":
        return True
    if X.dtype == object:
        return any(isinstance(v, (float, np.floating)) for v in X.ravel().tolist())
    return False


def _consistent_float(q, sign: int) -> float:
    """float(q) with the sign ``sign`` (+1, -1 or 0) of the exact value: a nonzero value that rounds to 0 becomes
    the smallest float of its sign (5e-324), one too large for float64 becomes +-inf."""
    if sign == 0:
        return 0.0
    try:
        f = float(q)
    except OverflowError:
        f = math.inf
    if sign > 0:
        return f if f > 0 else math.ulp(0.0)
    f = -abs(f) if f > 0 else f
    return f if f < 0 else -math.ulp(0.0)


class ExactClassifier(ClassifierMixin, BaseEstimator):
    """Any registered exactlin algorithm as a scikit-learn classifier.

    Parameters
    ----------
    algorithm : str, default="perceptron"
        A registered algorithm's name (``exactlin algorithms`` lists them).
    bias : {"none", "first", "last"} or None, default=None
        Augmentation with a constant 1 (the intercept); None: the algorithm's own default,
        as its lecture has it.
    max_iter : int, default=1000
        The bound on passes (epochs) of an iterative algorithm, scikit-learn's name for exactlin's
        ``max_epochs``.
    floats : {"repr", "exact", "reject"}, default="repr"
        exactlin's rule for float inputs: ``"repr"`` takes the shortest decimal that
        round-trips (0.1 is 1/10), ``"exact"`` the binary value, ``"reject"`` raises.
    trace : bool or None, default=None
        The run's trace: None keeps a bounded trace, True every step, False none.
    eta, w0, ... : one keyword argument per parameter of the algorithms' tables (listed below), so that
        ``GridSearchCV(ExactPerceptron(), {"eta": [1, "1/2"]})`` searches them; values go through the table's
        exact validation.  A parameter goes to the algorithm only if that algorithm's table has it; a value
        other than the default for an algorithm without it is a :class:`~exactlin.errors.ParameterError`.
    verbose : bool, default=False
        Print the run's progress to stderr (never stdout): step, updates, the largest bit length and the
        budget, about every 0.2 s of a long run and once at the end (a progress line redrawn in place on a
        terminal; one line per report otherwise).
    params : dict or None, default=None
        Deprecated (a FutureWarning): the same parameters as a dict; use the keyword arguments.
    max_epochs : int or None, default=None
        Deprecated spelling of ``max_iter``, kept working.

    Attributes
    ----------
    classes_ : ndarray
    coef_ : ndarray of Fraction, shape (1, n_features) or (n_classes, n_features)
        For ``feature-map`` the weights in the LIFTED space phi(x) (e.g. 3 columns for the circle
        map of 2-D samples), while ``predict`` takes raw samples (``n_features_in_`` raw features)
        and applies phi itself.  Absent for the voted perceptron and kernel SVMs (no single
        linear function decides).
    intercept_ : ndarray of Fraction, shape (1,) or (n_classes,)
        For Fisher: -y0 (an exact sympy number when y0 is irrational).
    n_iter_ : int
        The passes (epochs) the run made (1 for a closed-form solution, as scikit-learn wants n_iter_ >= 1).
    run_ : exactlin.model.run.Run
    converged_ : bool
    reason_ : str
    n_features_in_ : int

    Warnings: float input whose coefficients come out with numerators or denominators of more than
    :data:`LONG_RATIONAL_DIGITS` digits gets a :class:`~exactlin.errors.LongRationalWarning` pointing to
    ``docs/howto/long-rationals.md`` (e.g. after a ``StandardScaler``).

    Notes
    -----
    scikit-learn's checks that cannot hold for an exact estimator are returned by
    :func:`expected_failed_checks`, with the reason for each: none, except for the hard-margin
    ``ExactSVC(C=None)`` on the checks' non-separable data.  The exact estimator is not a float estimator:
    ``float32`` input is converted exactly like ``float64`` input (by the shortest decimal of the
    float32 value), and ``decision_function`` is float64 only as the scoring interface.
    """

    #: registry names this estimator accepts (None: any)
    _family: tuple[str, ...] | None = None
    _family_title = "any registered algorithm"
    #: name -> (constructor default, kind) of the generated table arguments (set by _make_init)
    _table_args: dict = {}

    # ------------------------------------------------------------------ configuration
    def _algorithm_name(self) -> str:
        return self.algorithm

    def _max_epochs(self) -> int:
        max_iter = getattr(self, "max_iter", DEFAULT_MAX_ITER)
        legacy = getattr(self, "max_epochs", None)
        if legacy is None:
            return max_iter
        if max_iter != DEFAULT_MAX_ITER and max_iter != legacy:
            raise ParameterError(f"max_iter={max_iter!r} and max_epochs={legacy!r} disagree; max_epochs is the "
                                 "old name of max_iter: give only max_iter", parameter="max_iter")
        return legacy

    def _algorithm_params(self, spec) -> dict:
        """The keyword arguments for ``spec``'s table: the generated arguments it has, and the deprecated
        ``params`` dict."""
        own = {p.name: p for p in spec.params}
        out: dict[str, Any] = {}
        for name, (default, _, tname) in type(self)._table_args.items():
            if name not in self.__dict__:
                continue
            value = self.__dict__[name]
            if tname not in own:
                if value is not None and not (value is default or _same(value, default)):
                    raise ParameterError(f"{name}={value!r} does not apply to the algorithm {spec.name!r} (its "
                                         f"parameters: {', '.join(own) or 'none'})", parameter=name)
                continue
            if value is None and (default is None or not own[tname].none_is_value):
                continue  # None: the algorithm's own default
            if value is not None and (value is default or _same(value, default)):
                continue  # the tables' common default: nothing to pass (a default never triggers a conflict)
            out[tname] = value
        legacy = getattr(self, "params", None)
        if legacy:
            warnings.warn(f"{type(self).__name__}(params=...) is deprecated and will be removed: pass the "
                          f"parameters as keyword arguments, e.g. {type(self).__name__}("
                          + ", ".join(f"{k}={v!r}" for k, v in legacy.items()) + ")", FutureWarning, stacklevel=3)
            for k, v in legacy.items():
                if k in out and not _same(type(self)._table_args.get(_RENAMED.get(k, k), (None,))[0], out[k]):
                    raise ParameterError(f"{k} is given twice, as {k}={out[k]!r} and in params; give it once "
                                         "(as a keyword argument)", parameter=k)
                out[k] = v
        return out

    def _spec(self):
        name = self._algorithm_name()
        reg = _registry()
        if name not in reg:
            kind = type(self).__name__
            raise ParameterError(
                f"{kind} needs the algorithm {name!r}, which is not registered in this exactlin installation "
                f"(its module under exactlin/algorithms/ is missing); registered: {', '.join(sorted(reg))}",
                parameter="algorithm")
        spec = reg[name]
        allowed = self._allowed(reg)
        if allowed is not None and name not in allowed:
            raise ParameterError(f"{type(self).__name__} takes {self._family_title} ({', '.join(allowed)}); "
                                 f"got {name!r} (use ExactClassifier(algorithm={name!r}))", parameter="algorithm")
        return spec

    def _allowed(self, reg) -> list[str] | None:
        if self._family is None:
            return None
        return [n for n in self._family if n in reg]

    def _is_multiclass(self) -> bool:
        try:
            return self._spec().multiclass
        except ParameterError:
            return False

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = self._is_multiclass()
        return tags

    # ------------------------------------------------------------------ fit
    def _convert(self, X) -> tuple:
        try:
            return to_matrix(X, floats=self.floats)
        except InputTypeError as e:
            # the wording scikit-learn's checks expect of a TypeError for a non-numeric entry
            raise InputTypeError(f"X: argument must be a string (such as '1/3') or a real number: {e}", row=e.row,
                                 column=e.column) from None

    def fit(self, X, y):
        """Convert X exactly, run the algorithm, keep its Run in ``run_``."""
        spec = self._spec()
        X, y = validate_data(self, X, y, dtype=None, accept_sparse=False, ensure_all_finite=True)
        check_classification_targets(y)
        classes = np.unique(y)
        if len(classes) < 2:
            raise LabelError(f"{spec.name} needs two classes to train, but y has only one class: {classes[0]!r}")
        if not spec.multiclass and len(classes) > 2:
            shown = ", ".join(repr(c) for c in classes[:5].tolist()) + (", ..." if len(classes) > 5 else "")
            raise LabelError(
                f"Only binary classification is supported by {spec.name}, but y has {len(classes)} classes ({shown}); "
                "for more than two "
                "classes use ExactLinearMachine (algorithm 'linear-machine' or 'one-vs-rest'), or wrap this "
                "estimator in sklearn.multiclass.OneVsRestClassifier")
        Xe = self._convert(X)
        labels = y.tolist()
        kwargs: dict[str, Any] = {"floats": self.floats, "max_epochs": self._max_epochs(), "trace": self.trace,
                                  "bias": spec.bias_default if self.bias is None else self.bias}
        if not spec.multiclass:
            kwargs["positive"] = classes[1].item() if isinstance(classes[1], np.generic) else classes[1]
        if getattr(self, "verbose", False):
            import sys

            from exactlin.render.progress import ProgressLine

            kwargs["progress"] = ProgressLine(sys.stderr, keep=True)
        log.info("fitting %s on %d samples with %d features", spec.name, len(Xe), len(Xe[0]) if Xe else 0)
        run = spec.func(Xe, labels, **kwargs, **self._algorithm_params(spec))
        self.classes_ = classes
        self.run_ = run
        self.converged_ = bool(run.converged)
        self.reason_ = run.reason
        self.n_iter_ = max(1, int(run.epochs))  # a closed-form solution counts as one iteration
        if run.reason in _BOUND_REASONS:
            warnings.warn(f"{spec.name} stopped before converging: {run.reason_text} "
                          f"(reason {run.reason!r}); raise max_iter or the algorithm's bound", ConvergenceWarning,
                          stacklevel=2)
        log.info("%s: %s", spec.name, run.summary())
        self._set_linear_attributes(run)
        self._after_fit(run, Xe)
        if _has_floats(X) and self.floats != "reject":
            self._warn_long_rationals()
        return self

    def _after_fit(self, run, Xe) -> None:
        """Estimator-specific attributes (ExactSVC, ExactFisher)."""

    def _warn_long_rationals(self) -> None:
        values = []
        for name in ("coef_", "intercept_"):
            if name in self.__dict__:
                values += self.__dict__[name].ravel().tolist()
        longest = max((_digits(v) for v in values), default=0)
        if longest > LONG_RATIONAL_DIGITS:
            warnings.warn(
                f"the float input became rationals with up to {longest} digits in coef_/intercept_ (more than "
                f"{LONG_RATIONAL_DIGITS}): the result is exact, but slow to compute and hard to read.  Each float "
                "is read by its shortest repr (0.1 is 1/10), so a float with a long decimal expansion, such as a "
                "StandardScaler output (x - mean) / std, is a rational with a long numerator and denominator.  "
                "Scale by hand with small rationals, round the data to a few decimals, or pass integers or "
                f"Fractions: see {LONG_RATIONALS_HOWTO}", LongRationalWarning, stacklevel=3)

    def _set_linear_attributes(self, run) -> None:
        rows = linear_form(run.model) if run.model is not None else None
        if rows is None:  # a kernel SVM or the voted perceptron: no single linear function
            for name in ("coef_", "intercept_"):
                if name in self.__dict__:
                    del self.__dict__[name]
            return
        W, offsets, bias = rows
        coefs, intercepts = [], []
        for w, off in zip(W, offsets):
            c, b = split_bias(tuple(w), bias)
            coefs.append(list(c))
            intercepts.append(Fraction(b) + off if isinstance(off, (int, Fraction)) else b + off)
        coef = np.empty((len(coefs), len(coefs[0])), dtype=object)
        for i, row in enumerate(coefs):
            for j, v in enumerate(row):
                coef[i, j] = Fraction(v)
        self.coef_ = coef
        intercept = np.empty(len(intercepts), dtype=object)
        for i, v in enumerate(intercepts):
            intercept[i] = v
        self.intercept_ = intercept

    # ------------------------------------------------------------------ predict
    def _model_and_rows(self, X):
        check_is_fitted(self, "run_")
        X = validate_data(self, X, dtype=None, accept_sparse=False, ensure_all_finite=True, reset=False)
        Xe = [tuple(r) for r in self._convert(X)]
        model = self.run_.model
        if model is None:
            raise ParameterError(f"{self.run_.algorithm} ({self.run_.reason}): this run has no prediction model",
                                 parameter="algorithm")
        return model, Xe

    @staticmethod
    def _multiclass(model) -> bool:
        return hasattr(model, "classes")

    def _exact_scores(self, X) -> list:
        model, Xe = self._model_and_rows(X)
        if not Xe:
            return []
        s = list(model.decision(Xe))
        if self._multiclass(model):
            s = [list(v) for v in s]
            if len(s[0]) == 2:  # two classes: scikit-learn's binary convention, g(x) = g_1(x) - g_0(x)
                return [v[1] - v[0] for v in s]
        return s

    def decision_function_exact(self, X) -> np.ndarray:
        """The exact g(x) (object array of Fractions): shape (n,) for two classes, (n, c) for c classes."""
        s = self._exact_scores(X)
        out = np.empty((len(s), len(s[0])) if s and isinstance(s[0], list) else len(s), dtype=object)
        for i, v in enumerate(s):
            if isinstance(v, list):
                for j, q in enumerate(v):
                    out[i, j] = q
            else:
                out[i] = v
        return out

    def decision_function(self, X) -> np.ndarray:
        """g(x) as float64 for scikit-learn's scorers; the exact values are :meth:`decision_function_exact`.

        The floats always agree with :meth:`predict` (scikit-learn's rule: ``classes_[1]`` where the value is
        > 0; for c classes the argmax): a binary value is float(g(x)) with the sign of ``predict``'s decision,
        so a nonzero g(x) that rounds to 0.0 becomes +-5e-324 (the smallest float of its sign), one beyond
        float64 +-inf, and an undefined point (g(x) = 0, a tied vote) 0.0 (``classes_[0]``); for c classes
        the predicted class's float is raised to the next float above the others' where rounding (or an
        exact tie) would let ``argmax`` pick another class.
        """
        exact = self._exact_scores(X)
        if not exact:
            return np.array([], dtype=np.float64)
        model, Xe = self._model_and_rows(X)
        pred = self._predicted_indices(X)
        if not isinstance(exact[0], list):
            if self._multiclass(model):  # two classes of a multi-class model: g_1 - g_0, predict's index
                signs = [1 if j == 1 else (0 if q == 0 else -1) for q, j in zip(exact, pred)]
            else:
                signs = list(model.side(Xe))
            return np.array([_consistent_float(q, sg) for q, sg in zip(exact, signs)], dtype=np.float64)
        out = np.empty((len(exact), len(exact[0])), dtype=np.float64)
        for i, (row, j) in enumerate(zip(exact, pred)):
            f = []
            for q in row:
                try:
                    f.append(float(q))
                except OverflowError:
                    f.append(math.inf if q > 0 else -math.inf)
            below = max(f[:j], default=-math.inf)  # argmax takes the first maximum: beat the earlier columns
            above = max(f[j + 1:], default=-math.inf)  # and tie or beat the later ones
            if not f[j] > below:
                f[j] = math.nextafter(below, math.inf)
            if f[j] < above:
                f[j] = above
            out[i] = f
        return out

    def _predicted_indices(self, X) -> list[int]:
        model, Xe = self._model_and_rows(X)
        if not Xe:
            return []
        if self._multiclass(model):
            idx = []
            for x, j in zip(Xe, model.index(Xe)):
                if j is None:
                    g = model.decision(x)
                    j = max(range(len(g)), key=lambda k, g=g: (g[k], -k))
                idx.append(j)
            return idx
        return [1 if v > 0 else 0 for v in model.side(Xe)]

    def predict(self, X) -> np.ndarray:
        """The class of each sample by the run's model (``run_.model``), decided exactly.

        Where the notes leave a point undefined (the model predicts None) scikit-learn still needs one of
        ``classes_``: a binary model's undefined point (g(x) = 0, a tied vote) goes to ``classes_[0]``
        (the -1 class); a multi-class one (a tie for the largest g_c, or no or several one-vs-rest
        claims) goes to the class with the largest g_c(x), the first in ``classes_`` order on a tie.
        """
        idx = self._predicted_indices(X)  # checks that the estimator is fitted first
        return self.classes_[np.asarray(idx, dtype=int)]

    def plot(self, ax=None, **kw):
        """Draw the last fit's run (``run_.plot``: the data, the boundary, the boundary after each update;
        SVMs: the margin lines and the circled support vectors; needs the ``plot`` extra)."""
        check_is_fitted(self, "run_")
        return self.run_.plot(ax=ax, **kw)

    # ------------------------------------------------------------------ pickling
    def __getstate__(self):
        state = super().__getstate__()
        run = state.get("run_")
        if run is not None:
            try:
                pickle.dumps(run)
            except Exception:  # e.g. a Schedule built from an expression holds a closure
                state = {**state, "run_": None, "_run_json": run.to_json()}
        return state

    def __setstate__(self, state):
        text = state.pop("_run_json", None)
        super().__setstate__(state)
        if text is not None:
            from exactlin.model.run import Run

            self.run_ = Run.from_json(text)


class ExactPerceptron(ExactClassifier):
    """The perceptron family (seeds 000-004) as a scikit-learn classifier.

    ``algorithm`` picks the member: ``perceptron`` (seed 000, default), ``fixed-increment``,
    ``variable-increment``, ``batch-perceptron``, ``batch-pla``, ``perceptron-gd``, ``pocket``,
    ``voted-perceptron``, ``averaged-perceptron``, ``balanced-winnow``, ``batch-relaxation``,
    ``single-sample-relaxation`` (whichever are registered).  Unlike seed 000, which runs
    through the origin, the default ``bias="first"`` learns an intercept, as a scikit-learn
    user expects; pass ``bias="none"`` for the lecture's variant or ``bias=None`` for each
    algorithm's own default.  The voted perceptron has no ``coef_`` (no single vector decides).

    See :class:`ExactClassifier` for the parameters and attributes.
    """

    _family = ("perceptron", "fixed-increment", "variable-increment", "batch-perceptron", "batch-pla",
               "perceptron-gd", "pocket", "voted-perceptron", "averaged-perceptron", "balanced-winnow",
               "batch-relaxation", "single-sample-relaxation")
    _family_title = "a perceptron-family algorithm"


class ExactMSE(ExactClassifier):
    """Minimum squared error (seed 003): ``mse`` (the pseudoinverse a = Y^+ b, default), ``widrow-hoff``, ``lms``.

    See :class:`ExactClassifier` for the parameters and attributes.
    """

    _family = ("mse", "widrow-hoff", "lms")
    _family_title = "a minimum-squared-error algorithm"


class ExactHoKashyap(ExactClassifier):
    """Ho-Kashyap (seed 003, Algorithm 11) and its modifications: ``ho-kashyap``, ``ho-kashyap-mod1``,
    ``ho-kashyap-mod2``.  ``run_.extras["verdict"]`` says whether the data were found separable.

    See :class:`ExactClassifier` for the parameters and attributes.
    """

    _family = ("ho-kashyap", "ho-kashyap-mod1", "ho-kashyap-mod2")
    _family_title = "a Ho-Kashyap algorithm"


class ExactFisher(TransformerMixin, ExactClassifier):
    """Fisher's linear discriminant (``fisher``, seed 003): w = S_W^{-1} (m_1 - m_2) with its threshold,
    exactly; g(x) = w^t x - y0, so ``intercept_`` is -y0 (an exact sympy number when the threshold
    y0^(3) with unequal priors is irrational; ``ExactFisher(priors=..., threshold=...)``).
    ``classes_[1]`` is omega_1 (the +1 class).

    Besides :class:`ExactClassifier`'s attributes: ``means_`` (shape (2, n_features), the class means in
    ``classes_`` order: m_2 then m_1, exact Fractions) and ``scalings_`` (shape (n_features, 1): w as a column);
    :meth:`transform` projects, y = w^t x, exactly.

    See :class:`ExactClassifier` for the parameters and attributes.
    """

    _family = ("fisher",)
    _family_title = "Fisher's linear discriminant"

    def _after_fit(self, run, Xe) -> None:
        m1, m2 = run.extras["m1"], run.extras["m2"]
        self.means_ = np.array([[Fraction(v) for v in m2], [Fraction(v) for v in m1]], dtype=object)
        w = [Fraction(v) for v in run.w]
        scal = np.empty((len(w), 1), dtype=object)
        for i, v in enumerate(w):
            scal[i, 0] = v
        self.scalings_ = scal

    def transform(self, X) -> np.ndarray:
        """The projection y = w^t x of each sample as float64, shape (n, 1): each the correctly rounded value of
        the exact projection (:meth:`transform_exact`), as scikit-learn's transformers return floats."""
        exact = self.transform_exact(X)
        return np.array([[float(v) for v in row] for row in exact.tolist()], dtype=np.float64).reshape(-1, 1)

    def transform_exact(self, X) -> np.ndarray:
        """The projection y = w^t x of each sample (object array of Fractions, shape (n, 1)), exactly; predict
        compares it with the threshold y0 (``-intercept_``)."""
        check_is_fitted(self, "scalings_")
        X = validate_data(self, X, dtype=None, accept_sparse=False, ensure_all_finite=True, reset=False)
        w = self.scalings_[:, 0].tolist()
        out = np.empty((len(X), 1), dtype=object)
        for i, x in enumerate(self._convert(X)):
            out[i, 0] = sum((wi * Fraction(xi) for wi, xi in zip(w, x)), Fraction(0))
        return out

    def fit_transform(self, X, y):
        return self.fit(X, y).transform(X)


class ExactLinearMachine(ExactClassifier):
    """Multi-class: the linear machine of seed 003 (``linear-machine``, default) or seed 001's
    ``one-vs-rest``.  ``coef_`` has one row per class in ``classes_`` order; ``predict`` takes
    the class the run's model picks; where it is undefined (a tie for the largest g_c(x), or no
    or several one-vs-rest claims) the largest g_c(x), the first class in ``classes_`` order on a
    tie (the notes' own answer, None, is ``run_.predict(X)``).  With two classes
    ``decision_function`` is g_1(x) - g_0(x), scikit-learn's binary shape ``(n,)``.

    Tag ``poor_score``: on classes that overlap, the linear machine (like any last-iterate
    perceptron rule) ends wherever the cyclic pass stood when ``max_iter`` ran out, so
    scikit-learn's accuracy threshold in ``check_classifiers_train`` (overlapping blobs) is
    not promised; every other check passes.

    See :class:`ExactClassifier` for the parameters and attributes.
    """

    _family = ("linear-machine", "one-vs-rest")
    _family_title = "a multi-class algorithm"

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        # the linear machine stops at its last iterate W; on overlapping classes (scikit-learn's
        # check_classifiers_train uses overlapping blobs) that W is wherever the cyclic rule
        # happened to be when max_iter ran out, so no accuracy can be promised there
        tags.classifier_tags.poor_score = True
        return tags


_make_init(ExactClassifier, "perceptron", None, None)
_make_init(ExactPerceptron, "perceptron", "first", ExactPerceptron._family)
_make_init(ExactMSE, "mse", None, ExactMSE._family)
_make_init(ExactHoKashyap, "ho-kashyap", None, ExactHoKashyap._family)
_make_init(ExactFisher, "fisher", None, ExactFisher._family)
_make_init(ExactLinearMachine, "linear-machine", None, ExactLinearMachine._family)


class ExactSVC(ExactClassifier):
    """Support vector machine, exact and KKT-certified (seeds 002 and 004).

    Parameters
    ----------
    C : rational, str or None, default=1.0
        A number (``1.0``, ``"1/2"``; a float by the shortest-repr rule): the soft margin, as scikit-learn's
        ``SVC`` (default 1.0).  None: the hard margin (``svm-hard``).  (Before exactlin 0.3 the default was
        the hard margin: see CHANGELOG.md.)
    loss : {"hinge", "squared"}, default="hinge"
        Soft margin only: ``hinge`` is the usual C-SVM (``svm-soft``), ``squared`` seed 004's
        sum of squared slacks (``svm-soft-l2``).
    kernel : {"linear", "poly"}, default="linear"
    degree : int, default=2
    coef0 : rational, default=1
    exact_only : bool, default=False
        As the algorithms' table: no float pre-solve, exact arithmetic only.
    bias, floats : as :class:`ExactClassifier` (``bias="none"``: no intercept)

    Attributes (besides :class:`ExactClassifier`'s), in scikit-learn's order (the support vectors of
    ``classes_[0]`` first, each class by sample index): ``support_`` (indices of the support vectors),
    ``support_vectors_`` (their exact coordinates, object array of Fractions), ``n_support_`` (how many
    per class, in ``classes_`` order) and ``dual_coef_`` (exact alpha_i y_i, shape (1, n_SV)); ``coef_``
    only for the linear kernel.  On data that are not linearly separable the hard margin has no
    solution: ``fit`` raises :class:`~exactlin.errors.NotSeparableError` (a ``VerificationError`` and a
    ValueError) naming the soft margin; its ``certificate`` is the verified Gordan certificate and
    ``run_`` keeps the Run.
    """

    _family = ("svm-hard", "svm-soft", "svm-soft-l2")
    _family_title = "a support vector machine"
    _table_args: dict = {}

    def __init__(self, C=1.0, *, loss: str = "hinge", kernel: str = "linear", degree: int = 2, coef0=1,
                 exact_only: bool = False, bias: str | None = "first", floats: str = "repr", verbose: bool = False):
        self.C = C
        self.loss = loss
        self.kernel = kernel
        self.degree = degree
        self.coef0 = coef0
        self.exact_only = exact_only
        self.bias = bias
        self.floats = floats
        self.verbose = verbose

    trace = None

    def _max_epochs(self) -> int:
        return 1

    def _algorithm_name(self) -> str:
        if self.C is None:
            return "svm-hard"
        if self.loss == "hinge":
            return "svm-soft"
        if self.loss == "squared":
            return "svm-soft-l2"
        raise ParameterError(f"loss must be 'hinge' or 'squared', got {self.loss!r}", parameter="loss")

    def _algorithm_params(self, spec) -> dict:
        p = {"kernel": self.kernel, "exact_only": self.exact_only}
        if self.kernel != "linear":
            p.update(degree=self.degree, coef0=self.coef0)
        if self.C is not None:
            p["C"] = self.C
        return p

    def fit(self, X, y):
        super().fit(X, y)
        run = self.run_
        if run.reason == "not_separable":
            cert = run.extras.get("certificate")
            raise NotSeparableError("the hard-margin SVM (C=None) has no solution: the data are not linearly "
                                    "separable (the error's .certificate, also run_.extras['certificate'], is a "
                                    "verified Gordan certificate); use ExactSVC(C=...) for the soft margin",
                                    certificate=cert, run=run)
        return self

    def _after_fit(self, run, Xe) -> None:
        if run.reason == "not_separable":
            return
        z = run.problem.z
        sv = [int(i) for i in run.extras.get("support_vectors", [])]
        order = sorted(sv, key=lambda i: (0 if z[i] < 0 else 1, i))  # classes_[0] (z = -1) first
        self.support_ = np.asarray(order, dtype=np.int32)
        self.n_support_ = np.asarray([sum(1 for i in order if z[i] < 0), sum(1 for i in order if z[i] > 0)],
                                     dtype=np.int32)
        d = len(Xe[0]) if Xe else 0
        vectors = np.empty((len(order), d), dtype=object)
        for k, i in enumerate(order):
            for j in range(d):
                vectors[k, j] = Fraction(Xe[i][j])
        self.support_vectors_ = vectors
        dual = np.empty((1, len(order)), dtype=object)
        for k, i in enumerate(order):
            dual[0, k] = run.extras["alpha"][i] * z[i]
        self.dual_coef_ = dual


#: the estimators, by the registry name of their default algorithm
ESTIMATORS = {"perceptron": ExactPerceptron, "mse": ExactMSE, "ho-kashyap": ExactHoKashyap, "fisher": ExactFisher,
              "linear-machine": ExactLinearMachine, "svm-soft": ExactSVC, "svm-hard": ExactSVC}


#: scikit-learn checks that fit on overlapping blobs (not linearly separable), measured with scikit-learn 1.9
_HARD_MARGIN_CHECKS = (
    "check_classifier_data_not_an_array",
    "check_classifiers_train",
    "check_dtype_object",
    "check_estimators_dtypes",
    "check_estimators_nan_inf",
    "check_fit_check_is_fitted",
    "check_fit_idempotent",
    "check_fit_score_takes_y",
    "check_n_features_in",
    "check_n_features_in_after_fitting",
    "check_supervised_y_2d",
)


def expected_failed_checks(estimator) -> dict[str, str]:
    """scikit-learn checks that cannot hold for ``estimator``, each with the reason.

    For ``parametrize_with_checks(..., expected_failed_checks=expected_failed_checks)``.
    Every estimator passes every check (measured with scikit-learn 1.9: ExactPerceptron,
    ExactMSE, ExactHoKashyap, ExactLinearMachine, ExactSVC()), except the
    hard-margin ``ExactSVC(C=None)``: those checks train on overlapping blobs, where
    no hard margin exists, and exactlin says so (``NotSeparableError`` with a verified
    certificate) instead of returning a float solver's approximation of a nonexistent optimum.
    (``ExactFisher.transform`` returns correctly rounded floats, as a transformer must; ``transform_exact`` the
    Fractions.)
    """
    if isinstance(estimator, ExactSVC) and estimator.C is None:
        reason = ("the check's data are not linearly separable: the hard-margin SVM has no solution and fit raises "
                  "NotSeparableError (verified Gordan certificate); use ExactSVC(C=...) for a soft margin")
        return {name: reason for name in _HARD_MARGIN_CHECKS}
    return {}
