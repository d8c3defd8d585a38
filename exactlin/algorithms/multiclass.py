"""The multi-category case: seed 003's linear machine trained by the multi-class (Kesler) perceptron, and
seed 001's one-vs-rest chain of binary classifiers.

Class labels may be any hashable values; their order is :func:`exactlin.data.dataset.class_labels`'s (sorted when
the labels are mutually comparable, otherwise in order of first appearance), and ``extras["classes"]`` and
``extras["W"]`` (one augmented weight vector per class) follow that order.  ``Run.w`` is None: no single
vector predicts.

Linear machine (seed 003, "The multi-category case"): g_i(x) = w_i^t x + w_i0; assign x to omega_i if
g_i(x) > g_j(x) for every j != i; "in case of ties, the classification is undefined" -- exactlin returns
None for a tie and never breaks it.
"""

from __future__ import annotations

from bisect import bisect_right
from fractions import Fraction

from exactlin.algorithms import register
from exactlin.algorithms._contract import Checked, make_run
from exactlin.algorithms.perceptron import STOP_ON_CYCLE
from exactlin.algorithms.perceptron_family import BOUND_PARAMS
from exactlin.data.dataset import as_dataset, augment, check_bias, class_labels
from exactlin.engine.arith import make_arith
from exactlin.engine.cyclic import cyclic
from exactlin.engine.machine import machine_arith
from exactlin.engine.trace import max_steps_param
from exactlin.errors import LabelError, ParameterError
from exactlin.exact.format import quote
from exactlin.exact.numbers import fdot as _dot
from exactlin.model.models import ArgmaxModel, OneVsRestModel
from exactlin.model.params import Param, at_least, positive
from exactlin.model.run import Run
from exactlin.theory.certificates import verify_kesler_gordan
from exactlin.theory.monitor import ConvergenceMonitor
from exactlin.theory.replay import NOT_SEPARATING, replay_monitor

__all__ = ["linear_machine", "one_vs_rest", "linear_machine_decide", "one_vs_rest_decide", "kesler_vectors"]

SEED003 = "003_ffe0ec08819b37d8.txt"
SEED001 = "001_5ccb68c426482a98.txt"

#: the monitor replays the run on Kesler vectors only while n (c-1) c d stays below this
KESLER_LIMIT = 2_000_000


def _problem(X, y, bias, floats):
    check_bias(bias)
    ds = as_dataset(X, y, floats=floats)
    classes = class_labels(ds.y)
    if len(classes) < 2:
        raise LabelError(f"a multi-class algorithm needs at least two classes; the labels are all {quote(classes[0])}")
    Y = augment(ds.X, bias)
    index = {c: j for j, c in enumerate(classes)}
    labels = tuple(index[lab] for lab in ds.y)
    return ds, classes, Y, labels


def kesler_vectors(Y, labels, c: int):
    """Kesler's construction: for sample y of class i and each j != i, the c*d vector with y in block i and
    -y in block j.  A stacked W = (w_1; ...; w_c) classifies every sample iff it has a positive inner product
    with every Kesler vector.  Returns (vectors, index) where index[(sample, j)] is the vector's position."""
    d = len(Y[0])
    out, index = [], {}
    zero = Fraction(0)
    for s, (y, i) in enumerate(zip(Y, labels)):
        for j in range(c):
            if j == i:
                continue
            v = [zero] * (c * d)
            v[i * d:(i + 1) * d] = y
            v[j * d:(j + 1) * d] = [-t for t in y]
            index[(s, j)] = len(out)
            out.append(tuple(v))
    return out, index


def linear_machine_decide(run: Run, x):
    """The linear machine's decision for a raw sample x: the class with the largest g_i(x), or None when
    the largest value is tied (the notes: "the classification is undefined").  The run's model decides
    (:class:`~exactlin.model.models.ArgmaxModel`)."""
    return run.predict(x)


LM_PARAMS = (
    Param("eta", "rational", Fraction(1), "fixed increment eta > 0: w_i += eta y, w_j -= eta y", positive),
    Param("monitor", "bool", True, "check the convergence theorem on the Kesler vectors when the run converges"),
    *(max_steps_param(25_000, "a round updates c weight vectors, so half the single-sample rules' default")
      if p.name == "max_steps" else p for p in BOUND_PARAMS),
    STOP_ON_CYCLE,
)


@register("linear-machine", family="multiclass", seed=SEED003, number="The multi-category case",
          title="Linear machine trained by the multi-class (Kesler) perceptron", params=LM_PARAMS,
          multiclass=True, bias_default="first", arithmetics=("fraction", "integer", "flint"),
          monitor="Facts 1 and 2 and the mistake bound on Kesler's expanded vectors, with the final W as w*")
def linear_machine(X, y, P: Checked) -> Run:
    """Linear machine, seed 003 (``003_ffe0ec08819b37d8.txt``, "The multi-category case"), trained by the
    multi-class fixed-increment perceptron (Duda-Hart-Stork's Kesler construction).

    W = (w_1, ..., w_c) = 0; cyclically over the augmented samples y of class i: if g_j(y) >= g_i(y) for
    some j != i (a tie counts: it leaves the classification undefined), take the j != i with the largest
    g_j (the first in class order on a tie) and update **w_i <- w_i + eta y, w_j <- w_j - eta y**.  Until
    a pass with no mistake.  This is exactly the perceptron on the Kesler vector with y in block i and -y
    in block j, so the convergence monitor (Facts 1 and 2, K <= R^2 ||W*||^2 / gamma^2) is replayed on
    those vectors with the final W as W* when the run converges, and a cycle of the stacked W gives a
    Gordan certificate on the Kesler vectors (no W classifies every sample).

    Prediction (:func:`linear_machine_decide`): the class with the largest g_i(x); None on a tie.
    ``extras``: ``classes``, ``W`` (one vector per class, in ``classes`` order), ``mistakes`` as
    (sample, j) pairs.  The trace's vectors are the stacked W, its scores the margins g_i - g_j.
    ``stop_on_cycle=False`` runs on through a proved cycle until a bound (certificate of the proving period,
    ``extras["cycle_step"]``).

    The loop is the engine's cyclic loop over the c weight vectors (:class:`exactlin.engine.machine.MachineArith`),
    each in the ``arithmetic`` chosen ("auto": "integer", the float64/int64/Python-integer tiers; "fraction";
    "flint"): the same Run.

    >>> r = linear_machine([(1, 0), (0, 1), (-1, -1)], ["A", "B", "C"], bias="none")
    >>> [tuple(map(int, w)) for w in r.extras["W"]], r.updates
    ([(2, 0), (-1, 1), (-1, -1)], 3)
    """
    ds, classes, Y, labels = _problem(X, y, P.bias, P.floats)
    c, d, n = len(classes), len(Y[0]), len(Y)
    eta = P["eta"]
    tracer = P.tracer(c * d)
    used = "integer" if P.arithmetic == "auto" else P.arithmetic
    rep = machine_arith(lambda Z, w1, step: make_arith(used, Z, w1, step=step), Y, labels, c, step=eta,
                        kesler_entries=P.limits.machine_entries)
    ks: list[int] = []  # the step of each update (stop_on_cycle=False: where the proved period sits)
    res = cyclic(rep, P.bounds(), tracer, coef=eta, stationary=True, stop_on_cycle=P["stop_on_cycle"],
                 after_update=None if P["stop_on_cycle"] else (lambda k, i: ks.append(k)))
    P.record_arithmetic(rep.name, rep.tiers)
    pairs = rep.pairs
    W = tuple(tuple(res.w[j * d:(j + 1) * d]) for j in range(c))
    run = make_run(P, ds, w=None, converged=res.converged, reason=res.reason, updates=res.updates,
                   epochs=res.epochs, steps=res.steps, tracer=tracer, seed=SEED003,
                   model=ArgmaxModel(classes, W, P.bias),
                   extras={"classes": classes, "W": W, "mistakes": pairs,
                           "max_bits": res.max_bits, "last_update_step": res.last_update,
                           "undefined": rep.undefined()})
    if res.cycle_step is not None:
        run.extras["cycle_step"] = res.cycle_step
    if res.cycle is not None or (P["monitor"] and res.converged):
        if n * (c - 1) * c * d > KESLER_LIMIT:
            run.extras["monitor"] = None
            run.extras["monitor_note"] = f"not checked: the Kesler expansion has more than {KESLER_LIMIT} entries"
            return run
        K, index = kesler_vectors(Y, labels, c)
        zero = tuple(Fraction(0) for _ in range(c * d))
        if res.cycle is not None:
            lam = [Fraction(0)] * len(K)
            # the period that proved the cycle (with stop_on_cycle=False the run went on repeating it)
            u = len(pairs) if res.cycle_step is None or not ks else bisect_right(ks, res.cycle_step)
            period = pairs[u - len(res.cycle):u]
            for p in period:
                lam[index[p]] += Fraction(1, len(period))
            run.extras["certificate"] = verify_kesler_gordan(K, lam, period)
        else:
            # the replay in integers (theory.replay, an independent verifier); None: the Fraction replay
            report = replay_monitor(K, res.w, eta=eta, w1=zero, indices=[index[p] for p in pairs],
                                          final_w=res.w, source="final W of this run (stacked)")
            if report is None or report is NOT_SEPARATING:  # (the Fraction replay raises its own error then)
                mon = ConvergenceMonitor(K, res.w, eta=eta, w1=zero, source="final W of this run (stacked)")
                w_t = zero
                for t, (s, j) in enumerate(pairs, start=1):
                    w_next = tuple(a + eta * b for a, b in zip(w_t, K[index[(s, j)]]))
                    mon.observe(t, w_t, w_next)
                    w_t = w_next
                report = mon.report()
            run.extras["monitor"] = report
            run.extras["mistake_bound"] = report.bound
    elif P["monitor"]:
        run.extras["monitor"] = None
        run.extras["monitor_note"] = "not checked: the run did not converge, so no separating W is known"
    return run


# ---------------------------------------------------------------------------
# one-vs-rest


#: binary algorithms whose Run has no single predicting vector (Run.w is None): one-vs-rest needs w_c
_NO_SINGLE_VECTOR = frozenset({"voted-perceptron"})


def _binary_names() -> tuple:
    from exactlin.algorithms import all_specs

    return tuple(s.name for s in all_specs() if not s.multiclass and s.iterative and s.family == "perceptron"
                 and s.name not in _NO_SINGLE_VECTOR)


OVR_PARAMS = (
    Param("binary", "str", "perceptron", "the binary algorithm trained for each class against the rest (any "
          "registered binary algorithm, e.g. perceptron, fixed-increment, pocket, balanced-winnow)"),
    Param("max_bits", "int", None, "passed to every binary run: stop when a number exceeds this many bits",
          at_least(1)),
    Param("max_seconds", "rational", None, "passed to every binary run: stop it after this many seconds",
          positive),
)


def one_vs_rest_decide(run: Run, x):
    """One-vs-rest decision for a raw sample x: the class whose classifier alone claims x (g_c(x) > 0);
    None when no classifier or more than one claims it (undefined, never broken silently).  The run's
    model decides (:class:`~exactlin.model.models.OneVsRestModel`)."""
    return run.predict(x)


@register("one-vs-rest", family="multiclass", seed=SEED001, number="Multiclass Classification",
          title="One-vs-rest chain of binary classifiers (seed 001)", params=OVR_PARAMS, multiclass=True,
          bias_default="first", monitor="whatever the chosen binary algorithm checks, per class",
          arithmetics=("fraction", "integer", "flint"))
def one_vs_rest(X, y, P: Checked) -> Run:
    """One-vs-rest, seed 001 (``001_5ccb68c426482a98.txt``, "Multiclass Classification": "binary
    classifiers can be combined in a chain to handle multiclass problems").

    For each class c in class order, the binary algorithm ``binary`` (default ``perceptron``) is trained on
    the data with label +1 for c and -1 for every other class, with the same bias and ``max_epochs``.
    Decision (:func:`one_vs_rest_decide`): the class whose classifier alone claims x (<w_c, x~> > 0);
    when none or several claim it the result is None (undefined), never a silent tie-break.

    ``extras``: ``classes``, ``W`` (the binary runs' w, in class order), ``runs`` (per class: reason,
    converged, updates), ``binary``.  ``converged`` iff every binary run converged; ``reason`` is
    ``converged`` then, otherwise the reason of the first class (in order) whose run did not.

    >>> r = one_vs_rest([(1, 0), (0, 1), (-1, -1)], ["A", "B", "C"], bias="none")
    >>> [one_vs_rest_decide(r, x) for x in [(1, 0), (0, 1), (-1, -1)]]
    ['A', 'B', 'C']
    """
    names = _binary_names()
    if P["binary"] not in names:
        why = (" (the voted perceptron predicts by a vote of many vectors, not by one w_c; use averaged-perceptron)"
               if P["binary"] in _NO_SINGLE_VECTOR else "")
        raise ParameterError(f"binary must be one of {', '.join(names)}; got {P['binary']!r}{why}",
                             parameter="binary")
    from exactlin.algorithms import get

    bspec = get(P["binary"])
    func = bspec.func.with_limits(P.limits)  # the binary runs under this call's memory limits
    limits = {}
    for lim in ("max_bits", "max_seconds"):
        if P[lim] is not None:
            if lim not in {p.name for p in bspec.params}:
                raise ParameterError(f"{lim} cannot be passed to {bspec.name}, which has no such limit",
                                     parameter=lim)
            limits[lim] = P[lim]
    ds, classes, Y, labels = _problem(X, y, P.bias, P.floats)
    runs, W = [], []
    for j, _ in enumerate(classes):
        z = tuple(1 if lab == j else -1 for lab in labels)
        r = func(ds.X, z, bias=P.bias, floats=P.floats, max_epochs=P.max_epochs, trace=P.trace,
                 arithmetic=P.arithmetic, **limits)  # an arithmetic the binary rule lacks: its ParameterError
        runs.append(r)
        W.append(r.w)
    bad = [r for r in runs if not r.converged]
    reason = "converged" if not bad else bad[0].reason
    if runs and runs[0].arithmetic is not None:  # one binary rule, one arithmetic: the work of all its runs
        tiers: dict = {}
        for r in runs:
            for t, c in r.arithmetic["tiers"].items():
                tiers[t] = tiers.get(t, 0) + c
        P.record_arithmetic(runs[0].arithmetic["used"], tiers)
    steps = []
    truncated = False  # the default trace keeps P.limits.trace_steps steps in all, not per binary run
    keep = P.limits.trace_steps
    for j, r in enumerate(runs):
        if P.trace is None and len(steps) >= keep:  # the limit is reached: r.trace is not built
            truncated = truncated or len(r.trace) > 0
            continue
        for s in r.trace:
            if P.trace is None and len(steps) >= keep:
                truncated = True
                break
            s.info = {**s.info, "class": classes[j]}
            steps.append(s)
    return make_run(P, ds, w=None, converged=not bad, reason=reason, updates=sum(r.updates for r in runs),
                    epochs=max(r.epochs for r in runs), steps=sum(r.steps for r in runs),
                    trace=steps, trace_complete=all(r.trace_complete for r in runs) and not truncated,
                    extras={"classes": classes, "W": tuple(W), "binary": P["binary"],
                            # one per binary run (each counts its own steps)
                            "last_update_step": [r.extras.get("last_update_step") for r in runs],
                            "runs": [{"class": classes[j], "reason": r.reason, "converged": r.converged,
                                      "updates": r.updates, "epochs": r.epochs} for j, r in enumerate(runs)],
                            "undefined": [s for s in range(len(Y))
                                          if sum(1 for w in W if _dot(w, Y[s]) > 0) != 1]},
                    seed=SEED001, model=OneVsRestModel(classes, tuple(r.model for r in runs)))
