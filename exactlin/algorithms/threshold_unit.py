"""The threshold unit with 0/1 targets: another course's convention of seed 000's perceptron.

Mitchell, *Machine Learning* (McGraw-Hill, 1997), section 4.4.2, "the perceptron training rule": a unit with
output o = 1 if w . x~ > 0 (or >= 0: courses differ on the tie), else 0, trained on targets t in {0, 1} by

    w_i <- w_i + eta (t - o) x_i

where x~ carries a constant bias input x_0 (Mitchell: x_0 = 1, so that -w_0 is the threshold; other courses
use x_0 = -1 and call w_0 the threshold itself).  Everything is exact.

In the +1/-1 form of seeds 000 and 003 (z = 2t - 1, samples z x~) the update is the perceptron's, eta z x~,
and a mistake always has z (w . x~) <= 0.  The two tie rules differ only on a zero net w . x~ = 0:

* ``tie=">="`` (o = 1 iff net >= 0): a zero net is correct for t = 1 and a mistake for t = 0;
* ``tie=">"``  (o = 1 iff net > 0):  a zero net is a mistake for t = 1 and correct for t = 0.

So, unlike seed 000's test y<w, x> <= 0, a zero net is a mistake for one class only, and a run may end with
samples of the other class on the boundary (the final w is then no strict separator in the +1/-1 form).

The convergence theorem applies unchanged through that mapping (Fact 1 needs only a strict separator w*,
Fact 2 only z (w . x~) <= 0 at a mistake, which both tie rules give): the monitor of
:mod:`exactlin.theory.monitor` is run on the samples z_i x~_i.  It does not apply when no strict separator
is known (a run that did not converge, or one that ends with a sample at net = 0, unless ``w_star`` is given).
"""

from __future__ import annotations

from fractions import Fraction

from exactlin.algorithms import register
from exactlin.algorithms._contract import Checked, make_run
from exactlin.algorithms._loop import representation, start_vector
from exactlin.algorithms.perceptron import (
    ARITHMETICS,
    MONITOR_CONFLICTS,
    MONITOR_PARAMS,
    STOP_ON_CYCLE,
    cycle_certificate,
    monitor_run,
)
from exactlin.algorithms.perceptron_family import BOUND_PARAMS
from exactlin.engine.cyclic import cyclic
from exactlin.engine.trace import STOP
from exactlin.model.models import ThresholdUnitModel
from exactlin.model.params import Param, positive
from exactlin.model.run import Run
from exactlin.theory.certificates import gordan_from_counts

__all__ = ["threshold_unit", "MITCHELL"]

SEED000 = "000_478cb53c624e7eb5.txt"
MITCHELL = "Mitchell, Machine Learning (1997), section 4.4.2, the perceptron training rule"

PARAMS = (
    Param("eta", "rational", Fraction(1), "learning rate eta > 0 in w <- w + eta (t - o) x", positive),
    Param("tie", "choice", ">=", "the output on a zero net: '>=' (o = 1 iff w.x >= 0) or '>' (o = 1 iff w.x > 0)",
          choices=(">=", ">")),
    Param("bias_input", "choice", 1, "the constant bias input x_0: 1 (Mitchell) or -1 (w_0 is then the threshold)",
          choices=(1, -1)),
    Param("w0", "vector", None, "start vector (augmented; default 0)"),
    *MONITOR_PARAMS,
    *BOUND_PARAMS,
    STOP_ON_CYCLE,
    STOP,
)


def _on_boundary(rep) -> list[int]:
    """The samples with net w . x~_i = 0 for the representation's final w (exactly: <= 0 and not < 0)."""
    out = []
    le, lt = rep.threshold(0), rep.threshold(0, strict=True)
    for i in range(0, rep.n, 8192):
        s = rep.scores(i, min(8192, rep.n - i))
        out += [i + j for j in sorted(set(rep.all(s, le)) - set(rep.all(s, lt)))]
    return out


def _bias_column(bias: str, d: int) -> int | None:
    return None if bias == "none" else (0 if bias == "first" else d - 1)


@register("threshold-unit", family="perceptron", seed=SEED000,
          number="Mitchell (1997) section 4.4.2: the perceptron training rule with 0/1 targets",
          title="Threshold unit with 0/1 targets (Rosenblatt/Mitchell)", params=PARAMS,
          conflicts=MONITOR_CONFLICTS, bias_default="first", arithmetics=ARITHMETICS,
          monitor="the perceptron theorem on the samples (2t - 1) x~ (both tie rules make every mistake have "
                  "z w.x <= 0); not checked when no strict separator is known")
def threshold_unit(X, y, P: Checked) -> Run:
    """The threshold unit with 0/1 targets (Mitchell, Machine Learning, 1997, section 4.4.2).

    Targets: the ``positive`` label (default: the label that reads as 1, such as 1, 1.0 or the text +1) is
    t = 1, the other label t = 0 (so 0/1 labels work as they are, and +1/-1 labels too).  x~ is x augmented
    by ``bias`` with the constant ``bias_input`` (1 or -1).
    Cyclically: net = w . x~_i, o = 1 iff net >= 0 (``tie=">="``) or net > 0 (``tie=">"``), else 0;
    **w <- w + eta (t_i - o) x~_i**.  Stops ``converged`` after a pass with o = t on every sample, ``cycle``
    (with a verified Gordan certificate on the +1/-1 form) when (w, position) repeats, or on a bound.
    The trace's score is the net.  The model predicts the data's own labels with the tie rule (never
    undefined: a threshold unit always answers).

    >>> r = threshold_unit([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, 0, 0, 1])
    >>> r.w, r.updates, r.predict([(0, 1), (4, 0)])
    ((Fraction(0, 1), Fraction(0, 1), Fraction(-4, 1)), 4, (0, 1))
    """
    from exactlin.algorithms._loop import binary_problem
    from exactlin.data.dataset import as_dataset, distinct_labels, sign_of_label

    positive_label = P.positive
    if positive_label is None:  # the data's own label that reads as 1 (1, 1.0, "+1"), else 1
        X, y = as_dataset(X, y, floats=P.floats), None
        positive_label = next((lab for lab in distinct_labels(X.y) if sign_of_label(lab) == 1), 1)

    prob = binary_problem(X, y, bias=P.bias, positive=positive_label, floats=P.floats)
    col = _bias_column(P.bias, prob.d)
    x0 = Fraction(P["bias_input"])
    Y = tuple(tuple(x0 if j == col else v for j, v in enumerate(row)) for row in prob.Y)  # x~ with x_0
    t = tuple(1 if zi > 0 else 0 for zi in prob.z)
    Zs = tuple(tuple(zi * v for v in row) for zi, row in zip(prob.z, Y))  # the +1/-1 form z x~
    w1 = start_vector(P["w0"], prob.d)
    eta, ge = P["eta"], P["tie"] == ">="
    tracer = P.tracer(prob.d)
    # in the +1/-1 form s = <w, z_i x~_i> = z_i net: a mistake has s <= 0 (the loop's test), and a zero net is a
    # mistake for t = 0 under ">=" and for t = 1 under ">" (the module docstring); the update is w + eta z_i x~_i
    zero_wrong = tuple((ti == 0) if ge else (ti == 1) for ti in t)

    def accept(i, s):
        return s < 0 or (s == 0 and zero_wrong[i])

    def net(i, s):  # the trace's score: the net w . x~_i
        return s if prob.z[i] > 0 else -s

    rep = representation(P, Zs, w1, step=eta)
    res = cyclic(rep, P.bounds(), tracer, coef=eta, accept=accept, score=net, stop_on_cycle=P["stop_on_cycle"],
                 stop=P["stop"])
    P.record_arithmetic(rep.name, rep.tiers)
    from exactlin.model.models import label_pair

    pos, neg = label_pair(prob)
    model = ThresholdUnitModel(res.w, P.bias, int(x0), P["tie"], pos, neg)
    on_boundary = _on_boundary(rep)
    run = make_run(P, prob, w=res.w, converged=res.converged, reason=res.reason, updates=res.updates,
                   epochs=res.epochs, steps=res.steps, tracer=tracer, seed=SEED000, model=model,
                   extras={"mistakes": res.update_indices, "max_bits": res.max_bits,
                           "last_update_step": res.last_update, "targets": t, "on_boundary": on_boundary,
                           "reference": MITCHELL})
    if res.cycle is not None:
        run.extras["certificate"] = cycle_certificate(Zs, gordan_from_counts(prob.n, res.cycle), res.cycle, P.bias)
        run.extras["cycle_step"] = res.cycle_step
    if P["monitor"]:
        monitor_run(run, Zs, eta=eta, w1=w1, w_star=P["w_star"])
        if run.extras.get("monitor") is None and run.converged and on_boundary:
            run.extras["monitor_note"] = (
                f"not checked: the final w leaves samples {on_boundary} at net = 0, which the tie rule "
                f"'{P['tie']}' classifies correctly, so it is no strict separator of the +1/-1 form; give w_star")
    return run
