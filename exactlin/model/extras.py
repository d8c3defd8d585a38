"""The schema of ``Run.extras``: every key an algorithm may record, declared once, per family, with its kind and
its meaning.

``Run.extras`` holds an algorithm's results beyond the common fields (an intercept ``b``, a threshold ``y0``, one
vector per class, a certificate...).  Each key is declared here for the family that records it (the families of
:data:`exactlin.algorithms.FAMILIES`), or in :data:`COMMON` when any iterative rule or composition may record it.
A key's :class:`Key` says what kind of value it holds (one of :data:`KINDS`; ``None`` always means "not computed
for this run") and what it means, in the notes' words.

Who reads it:

* a registry-walking test (``tests/model/test_extras.py``) runs every algorithm with several options and on every
  worked example, and fails on an undeclared key or a value of another kind (:func:`problems`);
* :meth:`exactlin.model.run.Run.from_dict` reads each key back by its kind (:func:`decode`: a monitor report from
  its dict, ...);
* the renderers name a key by :func:`meaning` and take the sentence a kind of run's convergence means from
  :func:`converged_text` (never from the algorithm's name).  This layer does not import the registry: a caller
  passes the family (``AlgorithmSpec.family``); ``exactlin.render.report.extras_problems`` does it for a Run;
* the docs page of the extras (``exactlin docs`` / the site) is generated from it (:func:`markdown`).

A run made by :func:`~exactlin.algorithms.features.with_features` or the ``feature-map`` algorithm carries the
inner algorithm's keys too: its family's keys are declared for it (``extras["inner_algorithm"]``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

__all__ = ["Key", "KINDS", "COMMON", "FAMILY_KEYS", "declared", "meaning", "problems", "decode", "kinds_of",
           "markdown", "converged_text", "CONVERGED", "Notation"]


@dataclass(frozen=True)
class Key:
    """One declared key: the ``kind`` of its value (a key of :data:`KINDS`, or several joined by ``|``), its
    ``meaning``, and a ``role`` a renderer acts on (``"intercept"``: the bias entry of the augmented w, which a
    summary names once, on the w line)."""

    kind: str
    meaning: str
    role: str = ""


def _rational(v) -> bool:
    return type(v) is int or isinstance(v, Fraction)


def _exact(v) -> bool:
    if _rational(v):
        return True
    mod = type(v).__module__ or ""
    return mod.startswith("sympy")  # an exact sympy number (a margin 1/sqrt(2))


def _tuple_of(pred):
    return lambda v: isinstance(v, tuple) and all(pred(x) for x in v)


def _index_list(v) -> bool:
    from exactlin.model.serialize import IndexList

    return isinstance(v, IndexList)


def _vector(v) -> bool:
    from exactlin.exact.rows import ExactVector

    return isinstance(v, ExactVector) or _tuple_of(_rational)(v)


def _rows(v) -> bool:
    from exactlin.exact.rows import ExactRows

    return isinstance(v, ExactRows) or _tuple_of(_vector)(v)


def _certificate(v) -> bool:
    from exactlin.model.certificates import Certificate

    return isinstance(v, Certificate)


def _monitor(v) -> bool:
    from exactlin.model.monitor import BatchMonitorReport, MonitorReport

    return isinstance(v, (MonitorReport, BatchMonitorReport))


def _records(v) -> bool:
    if isinstance(v, Sequence) and not isinstance(v, (tuple, list, str)):
        return True  # a sequence built when first read (a voted perceptron's vectors: run.LazySteps), not built here
    return _tuple_of(lambda x: isinstance(x, Mapping))(v)


#: kind -> (what it is, the test a value passes)
KINDS: dict[str, tuple[str, Any]] = {
    "int": ("a whole number", lambda v: type(v) is int),
    "bool": ("True or False", lambda v: type(v) is bool),
    "text": ("a sentence or a word", lambda v: isinstance(v, str)),
    "rational": ("an exact rational (int or Fraction)", _rational),
    "exact": ("an exact number: a rational, or an exact sympy number such as 1/sqrt(2)", _exact),
    "vector": ("a vector of exact rationals", _vector),
    "matrix": ("rows of exact rationals", _rows),
    "vectors": ("one vector of exact rationals per class or per step", _tuple_of(_vector)),
    "indices": ("sample indices (0-based) or counts, one whole number each",
                lambda v: _index_list(v) or _tuple_of(lambda x: type(x) is int)(v)),
    "pairs": ("(sample, class) index pairs", _tuple_of(_tuple_of(lambda x: type(x) is int))),
    "labels": ("the data's labels (numbers or words)", lambda v: isinstance(v, tuple)),
    "rows": ("samples (the data's rows, exact)", _rows),
    "certificate": ("a verified certificate (exactlin.model.certificates)", _certificate),
    "monitor": ("a convergence monitor's report (exactlin.model.monitor)", _monitor),
    "record": ("a mapping of named values", lambda v: isinstance(v, Mapping)),
    "records": ("a sequence of mappings, one per class or per vector", _records),
}


def _check_kind(kind: str, v) -> bool:
    return v is None or any(KINDS[k][1](v) for k in kind.split("|"))


#: keys any iterative rule (its loop, its monitor, its printed variant) or composition may record
COMMON: dict[str, Key] = {
    "last_update_step": Key("int|indices", "the step of the last update (0: none); one per binary run for a "
                                           "composition of runs"),
    "max_bits": Key("int", "the largest bit length of a numerator or denominator the weights reached"),
    "cycle_step": Key("int", "the step at which the weights returned exactly to an earlier state (a proof the "
                             "run never converges)"),
    "certificate": Key("certificate", "the verified certificate of the verdict: a Gordan certificate (no w "
                                      "separates the samples) or a separator with its margin"),
    "monitor": Key("monitor", "the convergence monitor's report: the theorem's quantities checked at every "
                              "update"),
    "monitor_note": Key("text", "why the convergence monitor does not apply, or what it needs"),
    "erratum": Key("text", "the erratum (exactlin.lectures.errata) this run reproduces or corrects"),
    "printed_note": Key("text", "what the notes print for this rule and how the run follows it"),
    "notes": Key("labels", "remarks on how the result was computed (one sentence each)"),
    "note": Key("text", "a remark on the result"),
    "feature_map": Key("text", "the feature map phi the samples went through (circle, poly2, ...)"),
    "original_X": Key("rows", "the samples before the feature map"),
}

#: family (exactlin.algorithms.FAMILIES) -> its keys
FAMILY_KEYS: dict[str, dict[str, Key]] = {
    "perceptron": {
        "mistakes": Key("indices", "the sample of each update, in order (0-based)"),
        "mistake_bound": Key("rational", "Novikoff's bound (R/gamma)^2 on the number of updates, from w_star"),
        "separates": Key("bool", "the final w classifies every sample correctly (checked exactly)"),
        "tightest_bound": Key("exact", "the tightest Novikoff bound (R/gamma*)^2, gamma* the maximum margin"),
        "tightest_bound_note": Key("text", "why the tightest bound does not exist (the data are not separable)"),
        "margin_met": Key("bool", "the final a meets the margin b on every sample (variable increment)"),
        "etas": Key("vector", "the step sizes eta(k) used, in order (the first 10,000)"),
        "averaged_w": Key("vector", "the averaged perceptron's vector: the sum of c_k w_k"),
        "final_w": Key("vector", "the last weight vector of the voted/averaged run"),
        "voted": Key("records", "the voted perceptron's vectors w_k with their survival counts c_k"),
        "E_in": Key("rational", "the in-sample error of the pocket's w (the fraction of samples it misclassifies)"),
        "E_in_pla": Key("rational", "the in-sample error of PLA's own last w"),
        "E_in_history": Key("vector", "E_in of the pocket after each step (the start's included)"),
        "pocket_from_step": Key("int", "the step at which the pocket took its final w"),
        "w_pla": Key("vector", "PLA's own last w (the pocket keeps the best one)"),
        "J_r": Key("rational", "the relaxation criterion J_r(a) at the final a"),
        "identity_checked": Key("int", "the number of updates at which the update identity was checked exactly"),
        "at_b": Key("indices", "the samples sitting exactly at the margin b when the rule stalled"),
        "stalled_note": Key("text", "why the relaxation rule stalled"),
        "undefined_sample": Key("int", "the sample (0-based) where the rule is undefined (a zero-norm sample)"),
        "R": Key("rational", "the perceptron criterion R(w) at the final w (gradient descent)"),
        "first_step": Key("text", "how the gradient-descent run made its first step"),
        "Delta": Key("vector", "batch PLA's accumulated correction Delta at the stop"),
        "a_plus": Key("vector", "balanced Winnow's positive weights a+"),
        "a_minus": Key("vector", "balanced Winnow's negative weights a-"),
        "targets": Key("indices", "the threshold unit's targets t in {0, 1}, per sample"),
        "on_boundary": Key("indices", "the samples (0-based) on the boundary (net input exactly 0)"),
        "reference": Key("text", "the reference the rule follows"),
    },
    "mse": {
        "b": Key("vector", "the margin vector b (Y a = b in the least-squares sense)"),
        "e": Key("vector", "the error vector e = Y a - b"),
        "Y_pinv": Key("matrix", "the pseudoinverse Y^+ of the sample matrix"),
        "J_s": Key("rational", "the sum-of-squared-error criterion J_s(a) = ||Y a - b||^2"),
        "penrose": Key("certificate", "the verified Penrose conditions of Y^+"),
        "penrose_verified": Key("bool", "the four Penrose conditions of Y^+ hold, checked exactly"),
        "separates": Key("bool", "the solution a classifies every sample correctly (checked exactly)"),
        "verdict": Key("text", "Ho-Kashyap's verdict: separable, not_separable or undecided"),
        "separator_at": Key("int", "the first iteration k whose a(k) has Y a(k) > 0"),
        "R": Key("matrix", "the matrix R of Ho-Kashyap's second modification"),
        "eta_condition": Key("text", "the step-size condition of the second modification, checked exactly"),
        "a_star": Key("vector", "the MSE solution a* = Y^+ b the iteration approaches"),
        "dist2": Key("vector", "||a(k) - a*||^2 per step"),
        "dist2_final": Key("rational", "||a - a*||^2 at the final a"),
        "eta": Key("text", "the step-size schedule eta(k), as written"),
        "bits": Key("indices", "the bit size of a(k) per step"),
    },
    "fisher": {
        "y0": Key("rational", "the threshold y0: x goes to omega_1 when w^t x > y0"),
        "threshold": Key("text", "which threshold formula y0 was chosen (1, 2, 3)"),
        "thresholds": Key("record", "every threshold formula's y0"),
        "m1": Key("vector", "the mean of class omega_1"),
        "m2": Key("vector", "the mean of class omega_2"),
        "mt1": Key("rational", "the projected mean of omega_1, w^t m1"),
        "mt2": Key("rational", "the projected mean of omega_2, w^t m2"),
        "n1": Key("int", "the number of samples of omega_1"),
        "n2": Key("int", "the number of samples of omega_2"),
        "S1": Key("matrix", "the scatter matrix of omega_1"),
        "S2": Key("matrix", "the scatter matrix of omega_2"),
        "S_W": Key("matrix", "the within-class scatter matrix"),
        "S_B": Key("matrix", "the between-class scatter matrix"),
        "J": Key("rational", "Fisher's criterion J(w) = w^t S_B w / w^t S_W w"),
        "method": Key("text", "how w was computed: inverse, or pinv when S_W is singular"),
        "scatter": Key("text", "the within-class matrix used: sum (S_1 + S_2) or n"),
        "predictions": Key("indices", "the class of each sample: +1 omega_1, -1 omega_2"),
        "on_threshold": Key("indices", "the samples (0-based) with y = y0 exactly"),
        "training_errors": Key("int", "the number of training samples misclassified"),
        "penrose": Key("certificate", "the verified Penrose conditions of S_W^+"),
        "note_J": Key("text", "why J(w) is unbounded"),
    },
    "multiclass": {
        "classes": Key("labels", "the classes, in order"),
        "W": Key("vectors", "one weight vector per class, in class order"),
        "undefined": Key("indices", "the samples (0-based) whose class is undefined (a tie)"),
        "mistakes": Key("pairs", "each update's (sample, predicted class)"),
        "mistake_bound": Key("rational", "the Kesler construction's Novikoff bound on updates"),
        "binary": Key("text", "the binary algorithm one-vs-rest runs per class"),
        "runs": Key("records", "per class: the binary run's reason, convergence and counts"),
    },
    "margin": {
        "w": Key("vector", "the feature weights w (without the intercept)"),
        "b": Key("rational", "the intercept b", role="intercept"),
        "separable": Key("bool", "the verdict: some (w, b) has y_i (w . x_i + b) >= 1 for every sample"),
        "verified": Key("bool", "the verdict was verified exactly"),
        "min_functional_margin": Key("rational", "min_i y_i <w~, x~_i> of the separator found"),
        "method": Key("text", "the exact method that found the result"),
        "alpha": Key("vector", "the dual variables alpha_i"),
        "support_vectors": Key("indices", "the support vectors (0-based samples with alpha_i > 0)"),
        "norm2_w": Key("rational", "||w||^2"),
        "margin": Key("exact", "the geometric margin 1/||w||"),
        "slab_width": Key("exact", "the width 2/||w|| of the slab between the margin hyperplanes"),
        "margin_squared": Key("rational", "the squared margin 1/||w||^2"),
        "kkt": Key("certificate", "the verified KKT conditions of the optimum"),
        "xi": Key("vector", "the slacks xi_i"),
        "objective": Key("rational", "the primal objective at the optimum"),
        "w_features": Key("vector", "the weights of the feature space (polynomial kernel, monomials in order)"),
        "kernel": Key("record", "the kernel used (kind, degree, coef0, the formula K)"),
    },
    "features": {
        "inner_algorithm": Key("text", "the registered algorithm run on phi(X)"),
        "inner_params": Key("record", "the inner algorithm's own params (every row of its table)"),
    },
}

#: what "converged" means, by a key that marks the kind of run (the first the run has, in this order), else
#: by whether its steps are batch steps (no sample index)
CONVERGED: tuple[tuple[str, str], ...] = (
    ("verdict", "Y a > 0 on every sample"),
    ("runs", "every binary run converged"),
    ("w_pla", "PLA found no misclassified sample"),
)
_CONVERGED_BATCH = "no sample left to correct"
_CONVERGED_CYCLIC = "a full pass with no mistake"


def declared(family: str | None, inner_family: str | None = None) -> dict[str, Key]:
    """The keys a run of an algorithm of ``family`` (``AlgorithmSpec.family``) may record: :data:`COMMON` and the
    family's; for a composition (``extras["inner_algorithm"]``), the inner algorithm's family's too."""
    out = dict(COMMON)
    out.update(FAMILY_KEYS.get(family or "", {}))
    if inner_family is not None and inner_family != family:
        out.update({k: v for k, v in FAMILY_KEYS.get(inner_family, {}).items() if k not in out})
    return out


def meaning(family: str | None, key: str) -> str | None:
    """What ``key`` means in a run of an algorithm of ``family`` (None: not declared)."""
    k = declared(family).get(key)
    return k.meaning if k is not None else None


def problems(extras: Mapping, family: str | None, inner_family: str | None = None) -> list[str]:
    """What is wrong with a run's ``extras`` against the schema: undeclared keys and values of another kind."""
    keys = declared(family, inner_family)
    out = []
    for name, v in extras.items():
        k = keys.get(name)
        if k is None:
            out.append(f"extras[{name!r}] is not declared for the {family} family in exactlin.model.extras")
        elif not _check_kind(k.kind, v):
            out.append(f"extras[{name!r}] = {type(v).__name__} is not of kind {k.kind}")
    return out


def kinds_of(key: str) -> set[str]:
    """Every kind ``key`` is declared with, in any family."""
    out = set()
    for keys in (COMMON, *FAMILY_KEYS.values()):
        if key in keys:
            out.update(keys[key].kind.split("|"))
    return out


def decode(key: str, value):
    """A key's value as JSON read it back (:func:`exactlin.model.serialize.from_jsonable` done), in its kind's
    type: a monitor report from its untagged dict (JSON written before the tags)."""
    if isinstance(value, dict) and "monitor" in kinds_of(key):
        from exactlin.model.monitor import monitor_from_dict

        return monitor_from_dict(value)
    return value


def converged_text(run) -> str:
    """The sentence "converged" means for this kind of run: by a key that marks the kind (:data:`CONVERGED`), else
    a batch rule's (its steps have no sample index; without a trace: one step per epoch) or a single-sample
    rule's."""
    for key, text in CONVERGED:
        if key in run.extras:
            return text
    trace = run.trace
    batch = trace[0].i is None if len(trace) else (run.steps == run.epochs and run.steps > 0)
    return _CONVERGED_BATCH if batch else _CONVERGED_CYCLIC


def _cell(text: str) -> str:
    """Text in a markdown table cell (a norm's bars escaped)."""
    return text.replace("|", "\\|")


def markdown(titles: Mapping[str, str] | None = None) -> str:
    """The docs page of the extras: every family's keys with their kinds and meanings (generated); ``titles``:
    family -> its title (``exactlin.algorithms.FAMILIES``), else the family's key."""
    titles = titles or {}
    lines = ["# Run.extras: what each key means", "",
             "Generated from `exactlin.model.extras` (the one declaration of the keys; a test runs every algorithm "
             "and fails on an undeclared key).  `None` means \"not computed for this run\".", "",
             "## Kinds", "", "| kind | value |", "| --- | --- |"]
    lines += [f"| `{k}` | {what} |" for k, (what, _) in KINDS.items()]
    sections = [("Every iterative rule", COMMON)] + [(titles.get(f, f), keys) for f, keys in FAMILY_KEYS.items()]
    for title, keys in sections:
        lines += ["", f"## {title}", "", "| key | kind | meaning |", "| --- | --- | --- |"]
        lines += [f"| `{name}` | {k.kind.replace('|', ' or ')} | {_cell(k.meaning)} |" for name, k in keys.items()]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Notation:
    """How the notes write a mistake-driven rule, as (LaTeX, text) pairs: the ``score`` a step tests (a mistake
    when it is <= 0) and the ``update`` a mistake makes.  A renderer shows a step as the notes would.  A rule
    declares its notation where it is registered (``register(..., notation=Notation(...))``, read as
    ``AlgorithmSpec.notation``), as it declares its parameter table."""

    score: tuple[str, str]
    update: tuple[str, str]

    @property
    def test(self) -> tuple[str, str]:
        return f"{self.score[0]} \\le 0", f"{self.score[1]} <= 0"
