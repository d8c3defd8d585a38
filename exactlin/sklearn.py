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
and the predictions never depend on the float rounding.

scikit-learn's estimator checks (``parametrize_with_checks``) all pass for these estimators
except those listed by :func:`expected_failed_checks` (each with its reason).

>>> clf = ExactPerceptron().fit([[4, 0], [1, 1], [0, 1], [-2, -2]], [1, -1, -1, 1])
>>> clf.coef_, clf.intercept_   # seed 000's Example 1 with an intercept: w~ = (1, 1, -3) after 3 mistakes
(array([[Fraction(1, 1), Fraction(-3, 1)]], dtype=object), array([Fraction(1, 1)], dtype=object))
>>> clf.predict([[3, 0], [0, 2]]).tolist()
[1, -1]
"""

from __future__ import annotations

import logging
import pickle
from fractions import Fraction
from typing import Any

import numpy as np

try:
    from sklearn.base import BaseEstimator, ClassifierMixin
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.utils.multiclass import check_classification_targets
    from sklearn.utils.validation import check_is_fitted, validate_data
except ImportError as _e:  # pragma: no cover - the extra is missing
    raise ImportError("exactlin.sklearn needs scikit-learn >= 1.6: pip install 'exactlin[sklearn]'") from _e

from exactlin.data.dataset import split_bias
from exactlin.errors import InputTypeError, LabelError, ParameterError
from exactlin.exact.numbers import to_matrix
from exactlin.model.models import linear_form

__all__ = ["ExactClassifier", "ExactPerceptron", "ExactMSE", "ExactHoKashyap", "ExactFisher", "ExactLinearMachine",
           "ExactSVC", "ESTIMATORS", "expected_failed_checks"]

log = logging.getLogger("exactlin")

#: stop reasons that mean "a bound was hit before the algorithm finished" (a ConvergenceWarning, as scikit-learn)
_BOUND_REASONS = ("max_epochs", "max_updates", "max_steps", "bit_limit", "time_limit")


def _registry() -> dict:
    from exactlin.algorithms import REGISTRY, load_all

    load_all()
    return REGISTRY


class ExactClassifier(ClassifierMixin, BaseEstimator):
    """Any registered exactlin algorithm as a scikit-learn classifier.

    Parameters
    ----------
    algorithm : str, default="perceptron"
        A registered algorithm's name (``exactlin algorithms`` lists them).
    bias : {"none", "first", "last"} or None, default=None
        Augmentation with a constant 1 (the intercept); None: the algorithm's own default,
        as its lecture has it.
    params : dict or None, default=None
        The algorithm's parameters (its ``PARAMS`` table), e.g. ``{"eta": "1/2"}``; values
        go through the table's exact validation.  In a grid search: ``{"params": [{...}, ...]}``.
    floats : {"repr", "exact", "reject"}, default="repr"
        exactlin's rule for float inputs: ``"repr"`` takes the shortest decimal that
        round-trips (0.1 is 1/10), ``"exact"`` the binary value, ``"reject"`` raises.
    max_epochs : int, default=1000
        The bound on passes (iterative algorithms).
    trace : bool or None, default=None
        The run's trace: None keeps a bounded trace, True every step, False none.
    verbose : bool, default=False
        Print the run's progress to stderr (never stdout): step, updates, the largest bit length and the
        budget, about every 0.2 s of a long run and once at the end (a progress line redrawn in place on a
        terminal; one line per report otherwise).

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
    run_ : exactlin.model.run.Run
    converged_ : bool
    reason_ : str
    n_features_in_ : int

    Notes
    -----
    scikit-learn's checks that cannot hold for an exact estimator are returned by
    :func:`expected_failed_checks`, with the reason for each: none, except for the hard-margin
    ``ExactSVC()`` on the checks' non-separable data.  The exact estimator is not a float estimator: ``float32``
    input is converted exactly like ``float64`` input (by the shortest decimal of the
    float32 value), and ``decision_function`` is float64 only as the scoring interface.
    """

    #: registry names this estimator accepts (None: any)
    _family: tuple[str, ...] | None = None
    _family_title = "any registered algorithm"

    def __init__(self, algorithm: str = "perceptron", *, bias: str | None = None, params: dict | None = None,
                 floats: str = "repr", max_epochs: int = 1000, trace: bool | None = None,
                 verbose: bool = False):
        self.algorithm = algorithm
        self.bias = bias
        self.params = params
        self.floats = floats
        self.max_epochs = max_epochs
        self.trace = trace
        self.verbose = verbose

    # ------------------------------------------------------------------ configuration
    def _algorithm_name(self) -> str:
        return self.algorithm

    def _algorithm_params(self) -> dict:
        return dict(self.params or {})

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
        kwargs: dict[str, Any] = {"floats": self.floats, "max_epochs": self.max_epochs, "trace": self.trace,
                                  "bias": spec.bias_default if self.bias is None else self.bias}
        if not spec.multiclass:
            kwargs["positive"] = classes[1].item() if isinstance(classes[1], np.generic) else classes[1]
        if getattr(self, "verbose", False):
            import sys

            from exactlin.render.progress import ProgressLine

            kwargs["progress"] = ProgressLine(sys.stderr, keep=True)
        log.info("fitting %s on %d samples with %d features", spec.name, len(Xe), len(Xe[0]) if Xe else 0)
        run = spec.func(Xe, labels, **kwargs, **self._algorithm_params())
        self.classes_ = classes
        self.run_ = run
        self.converged_ = bool(run.converged)
        self.reason_ = run.reason
        if run.reason in _BOUND_REASONS:
            import warnings

            warnings.warn(f"{spec.name} stopped before converging: {run.reason_text} "
                          f"(reason {run.reason!r}); raise max_epochs or the algorithm's bound", ConvergenceWarning,
                          stacklevel=2)
        log.info("%s: %s", spec.name, run.summary())
        self._set_linear_attributes(run)
        return self

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
        """g(x) as float64 for scikit-learn's scorers (the exact values: :meth:`decision_function_exact`)."""
        s = self._exact_scores(X)
        return np.array([[float(q) for q in v] if isinstance(v, list) else float(v) for v in s], dtype=np.float64)

    def predict(self, X) -> np.ndarray:
        """The class of each sample by the run's model (``run_.model``), decided exactly.

        Where the notes leave a point undefined (the model predicts None) scikit-learn still needs one of
        ``classes_``: a binary model's undefined point (g(x) = 0, a tied vote) goes to ``classes_[0]``
        (the -1 class); a multi-class one (a tie for the largest g_c, or no or several one-vs-rest
        claims) goes to the class with the largest g_c(x), the first in ``classes_`` order on a tie.
        """
        model, Xe = self._model_and_rows(X)
        if not Xe:
            return self.classes_[np.asarray([], dtype=int)]
        if self._multiclass(model):
            idx = []
            for x, j in zip(Xe, model.index(Xe)):
                if j is None:
                    g = model.decision(x)
                    j = max(range(len(g)), key=lambda k, g=g: (g[k], -k))
                idx.append(j)
        else:
            idx = [1 if v > 0 else 0 for v in model.side(Xe)]
        return self.classes_[np.asarray(idx, dtype=int)]

    def plot(self, ax=None, **kw):
        """Draw the last fit's run (``run_.plot``: the data, the boundary, the boundary after each update;
        needs the ``plot`` extra)."""
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

    def __init__(self, algorithm: str = "perceptron", *, bias: str | None = "first", params: dict | None = None,
                 floats: str = "repr", max_epochs: int = 1000, trace: bool | None = None,
                 verbose: bool = False):
        super().__init__(algorithm, bias=bias, params=params, floats=floats, max_epochs=max_epochs, trace=trace,
                         verbose=verbose)


class ExactMSE(ExactClassifier):
    """Minimum squared error (seed 003): ``mse`` (the pseudoinverse a = Y^+ b, default), ``widrow-hoff``, ``lms``.

    See :class:`ExactClassifier` for the parameters and attributes.
    """

    _family = ("mse", "widrow-hoff", "lms")
    _family_title = "a minimum-squared-error algorithm"

    def __init__(self, algorithm: str = "mse", *, bias: str | None = None, params: dict | None = None,
                 floats: str = "repr", max_epochs: int = 1000, trace: bool | None = None,
                 verbose: bool = False):
        super().__init__(algorithm, bias=bias, params=params, floats=floats, max_epochs=max_epochs, trace=trace,
                         verbose=verbose)


class ExactHoKashyap(ExactClassifier):
    """Ho-Kashyap (seed 003, Algorithm 11) and its modifications: ``ho-kashyap``, ``ho-kashyap-mod1``,
    ``ho-kashyap-mod2``.  ``run_.extras["verdict"]`` says whether the data were found separable.

    See :class:`ExactClassifier` for the parameters and attributes.
    """

    _family = ("ho-kashyap", "ho-kashyap-mod1", "ho-kashyap-mod2")
    _family_title = "a Ho-Kashyap algorithm"

    def __init__(self, algorithm: str = "ho-kashyap", *, bias: str | None = None, params: dict | None = None,
                 floats: str = "repr", max_epochs: int = 1000, trace: bool | None = None,
                 verbose: bool = False):
        super().__init__(algorithm, bias=bias, params=params, floats=floats, max_epochs=max_epochs, trace=trace,
                         verbose=verbose)


class ExactFisher(ExactClassifier):
    """Fisher's linear discriminant (``fisher``, seed 003): w = S_W^{-1} (m_1 - m_2) with its threshold,
    exactly; g(x) = w^t x - y0, so ``intercept_`` is -y0 (an exact sympy number when the threshold
    y0^(3) with unequal priors is irrational; ``params={"priors": ..., "threshold": ...}``).
    ``classes_[1]`` is omega_1 (the +1 class).

    See :class:`ExactClassifier` for the parameters and attributes.
    """

    _family = ("fisher",)
    _family_title = "Fisher's linear discriminant"

    def __init__(self, algorithm: str = "fisher", *, bias: str | None = None, params: dict | None = None,
                 floats: str = "repr", max_epochs: int = 1000, trace: bool | None = None,
                 verbose: bool = False):
        super().__init__(algorithm, bias=bias, params=params, floats=floats, max_epochs=max_epochs, trace=trace,
                         verbose=verbose)


class ExactLinearMachine(ExactClassifier):
    """Multi-class: the linear machine of seed 003 (``linear-machine``, default) or seed 001's
    ``one-vs-rest``.  ``coef_`` has one row per class in ``classes_`` order; ``predict`` takes
    the class the run's model picks; where it is undefined (a tie for the largest g_c(x), or no
    or several one-vs-rest claims) the largest g_c(x), the first class in ``classes_`` order on a
    tie (the notes' own answer, None, is ``run_.predict(X)``).  With two classes
    ``decision_function`` is g_1(x) - g_0(x), scikit-learn's binary shape ``(n,)``.

    Tag ``poor_score``: on classes that overlap, the linear machine (like any last-iterate
    perceptron rule) ends wherever the cyclic pass stood when ``max_epochs`` ran out, so
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
        # happened to be when max_epochs ran out, so no accuracy can be promised there
        tags.classifier_tags.poor_score = True
        return tags

    def __init__(self, algorithm: str = "linear-machine", *, bias: str | None = None, params: dict | None = None,
                 floats: str = "repr", max_epochs: int = 1000, trace: bool | None = None,
                 verbose: bool = False):
        super().__init__(algorithm, bias=bias, params=params, floats=floats, max_epochs=max_epochs, trace=trace,
                         verbose=verbose)


class ExactSVC(ExactClassifier):
    """Support vector machine, exact and KKT-certified (seeds 002 and 004).

    Parameters
    ----------
    C : rational, str or None, default=None
        None: the hard margin (``svm-hard``); a number (``1``, ``"1/2"``): the soft margin.
    loss : {"hinge", "squared"}, default="hinge"
        Soft margin only: ``hinge`` is the usual C-SVM (``svm-soft``), ``squared`` seed 004's
        sum of squared slacks (``svm-soft-l2``).
    kernel : {"linear", "poly"}, default="linear"
    degree : int, default=2
    coef0 : rational, default=1
    bias, floats : as :class:`ExactClassifier` (``bias="none"``: no intercept)

    Attributes (besides :class:`ExactClassifier`'s): ``support_`` (indices of the support
    vectors) and ``dual_coef_`` (exact alpha_i y_i); ``coef_`` only for the linear kernel.
    On data that are not linearly separable the hard margin has no solution: ``fit`` raises
    :class:`~exactlin.errors.VerificationError` (a ValueError) naming the soft margin, and
    ``run_`` keeps the Run with its verified Gordan certificate.
    """

    _family = ("svm-hard", "svm-soft", "svm-soft-l2")
    _family_title = "a support vector machine"

    def __init__(self, C=None, *, loss: str = "hinge", kernel: str = "linear", degree: int = 2, coef0=1,
                 bias: str | None = "first", floats: str = "repr", verbose: bool = False):
        self.verbose = verbose
        self.C = C
        self.loss = loss
        self.kernel = kernel
        self.degree = degree
        self.coef0 = coef0
        self.bias = bias
        self.floats = floats

    max_epochs = 1
    trace = None

    def _algorithm_name(self) -> str:
        if self.C is None:
            return "svm-hard"
        if self.loss == "hinge":
            return "svm-soft"
        if self.loss == "squared":
            return "svm-soft-l2"
        raise ParameterError(f"loss must be 'hinge' or 'squared', got {self.loss!r}", parameter="loss")

    def _algorithm_params(self) -> dict:
        p = {"kernel": self.kernel}
        if self.kernel != "linear":
            p.update(degree=self.degree, coef0=self.coef0)
        if self.C is not None:
            p["C"] = self.C
        return p

    def fit(self, X, y):
        super().fit(X, y)
        run = self.run_
        if run.reason == "not_separable":
            from exactlin.errors import VerificationError

            raise VerificationError("the hard-margin SVM has no solution: the data are not linearly separable "
                                    "(verified certificate in run_.extras['certificate']); use ExactSVC(C=...) "
                                    "for the soft margin")
        self.support_ = np.asarray(run.extras.get("support_vectors", []), dtype=int)
        z = run.problem.z
        dual = np.empty((1, len(self.support_)), dtype=object)
        for k, i in enumerate(self.support_.tolist()):
            dual[0, k] = run.extras["alpha"][i] * z[i]
        self.dual_coef_ = dual
        return self


#: the estimators, by the registry name of their default algorithm
ESTIMATORS = {"perceptron": ExactPerceptron, "mse": ExactMSE, "ho-kashyap": ExactHoKashyap, "fisher": ExactFisher,
              "linear-machine": ExactLinearMachine, "svm-hard": ExactSVC}


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
    ExactFisher, ExactMSE, ExactHoKashyap, ExactLinearMachine, ExactSVC(C=1)), except the
    hard-margin ``ExactSVC()`` (``C=None``): those checks train on overlapping blobs, where
    no hard margin exists, and exactlin says so (``VerificationError`` with a verified
    certificate) instead of returning a float solver's approximation of a nonexistent optimum.
    """
    if isinstance(estimator, ExactSVC) and estimator.C is None:
        reason = ("the check's data are not linearly separable: the hard-margin SVM has no solution and fit raises "
                  "VerificationError (verified Gordan certificate); use ExactSVC(C=...) for a soft margin")
        return {name: reason for name in _HARD_MARGIN_CHECKS}
    return {}
