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
from exactlin.algorithms._contract import Checked
from exactlin.algorithms._loop import STOP, cyclic_single_sample, start_vector
from exactlin.algorithms.perceptron import MONITOR_CONFLICTS, STOP_ON_CYCLE, monitor_run
from exactlin.algorithms.perceptron_family import _MONITOR_PARAMS, BOUND_PARAMS, _certificate
from exactlin.exact.numbers import fdot as _dot
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
    *_MONITOR_PARAMS,
    *BOUND_PARAMS,
    STOP_ON_CYCLE,
    STOP,
)


def _bias_column(bias: str, d: int) -> int | None:
    return None if bias == "none" else (0 if bias == "first" else d - 1)


@register("threshold-unit", family="perceptron", seed=SEED000,
          number="Mitchell (1997) section 4.4.2: the perceptron training rule with 0/1 targets",
          title="Threshold unit with 0/1 targets (Rosenblatt/Mitchell)", params=PARAMS,
          conflicts=MONITOR_CONFLICTS, bias_default="first",
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

    def test(w, i, k):
        net = _dot(w, Y[i])
        o = 1 if (net >= 0 if ge else net > 0) else 0
        return net, o != t[i]

    def update(w, i, u, net):
        o = 1 - t[i]  # a mistake: o != t
        c = eta * (t[i] - o)
        return tuple(a + c * v for a, v in zip(w, Y[i]))

    res = cyclic_single_sample(prob.n, w1, test, update, P.bounds(), tracer, stationary=True,
                               stop_on_cycle=P["stop_on_cycle"], stop=P["stop"])
    from exactlin.model.models import label_pair

    pos, neg = label_pair(prob)
    model = ThresholdUnitModel(res.w, P.bias, int(x0), P["tie"], pos, neg)
    on_boundary = [i for i in range(prob.n) if _dot(res.w, Y[i]) == 0]
    run = Run("threshold-unit", res.w, P.bias, res.converged, res.reason, res.updates, res.epochs, res.steps,
              params={**P, "max_epochs": P.max_epochs}, trace=tracer.steps, trace_complete=tracer.complete,
              extras={"mistakes": res.update_indices, "max_bits": res.max_bits, "last_update_step": res.last_update,
                      "targets": t, "on_boundary": on_boundary, "reference": MITCHELL},
              seed=SEED000, problem=prob, model=model)
    if res.cycle is not None:
        run.extras["certificate"] = _certificate(Zs, gordan_from_counts(prob.n, res.cycle), res.cycle, P.bias)
        run.extras["cycle_step"] = res.cycle_step
    if P["monitor"]:
        monitor_run(run, Zs, eta=eta, w1=w1, w_star=P["w_star"])
        if run.extras.get("monitor") is None and run.converged and on_boundary:
            run.extras["monitor_note"] = (
                f"not checked: the final w leaves samples {on_boundary} at net = 0, which the tie rule "
                f"'{P['tie']}' classifies correctly, so it is no strict separator of the +1/-1 form; give w_star")
    return run
