"""Float guesses of an SVM's active set: hints for the exact solvers, never a result.

Every guess here only names samples (which multipliers are free, which sit at C); the exact code
(:mod:`exactlin.linalg.qp`, :mod:`exactlin.linalg.qp_linear`) decides and the SVMs certify.  A guess must never
hurt a run, so:

* the linear guesses are numpy code written here (bounded loops, ``np.errstate`` silenced, no other package's
  solver): :func:`hinge_guess` (Newton's method on the Huber-smoothed primal, the smoothing shrunk stage by stage,
  each step followed by an exact line search on the piecewise quadratic) and
  :func:`squared_guess` (Newton's method on the squared-slack primal, with the same line search);
* scikit-learn's ``SVC`` (kernels) runs in a child process (:func:`svc_guess`) with a time limit and its output
  captured and dropped: a crash, a hang, a print or a missing scikit-learn costs only that guess (None), and the
  run goes on by the exact route.
"""

from __future__ import annotations

import pickle
import subprocess
import sys

from exactlin.exact.products import one_blas_thread

__all__ = ["float_rows", "hinge_guess", "squared_guess", "svc_guess", "closest_pair", "SVC_TIMEOUT"]

#: seconds a child process running scikit-learn's SVC may take before its guess is dropped
SVC_TIMEOUT = 60.0


def float_rows(X):
    """The rows as a float64 array, or None when numpy is missing or a value is too large for a useful guess.
    (A float64 array is taken as it is: the feature rows of a kernel, made by the caller.)"""
    try:
        import numpy as np

        A = X if isinstance(X, np.ndarray) else np.array([[v.numerator / v.denominator for v in x] for x in X],
                                                        dtype=float)
    except (ImportError, OverflowError):
        return None
    if not A.size or not np.isfinite(A).all() or np.abs(A).max() > 1e150:
        return None
    return A


def _scaled(X, intercept: bool):
    """(Xa, E): the columns scaled to unit spread (w = v / s), with the intercept's column of ones; E is the
    diagonal of the objective's quadratic form in the scaled coordinates (1 / s_k^2; 0 for the intercept)."""
    import numpy as np

    n, d = X.shape
    s = X.std(0)
    s[~(s > 0)] = 1.0
    Xa = X / s
    E = 1.0 / s ** 2
    if intercept:
        Xa = np.hstack([Xa, np.ones((n, 1))])
        E = np.append(E, 0.0)
    return Xa, E


def _problem(X, y, intercept: bool):
    """The float problem both Newton guesses start from: (Xa, E, yX) -- the scaled rows (with the intercept
    column), the scaling, and the rows times their labels -- or None when the rows leave float64's range."""
    import numpy as np

    Xf = float_rows(X)
    if Xf is None:
        return None
    Xa, E = _scaled(Xf, intercept)
    return Xa, E, np.asarray(y, dtype=float)[:, None] * Xa


def hinge_guess(X, y, C, intercept: bool, *, h_min: float = 1e-5):
    """Float guess for the hinge loss: (free, upper, order, who) or None.

    Newton's method on ||w||^2/2 + C sum H_h(1 - y_i f(x_i)), the hinge smoothed quadratically on (0, h]
    (Huber), for h = 1, 1/10, ... down to ``h_min``, each stage warm-started from the last and ended when a full
    step keeps every sample's piece or the exact line search makes no progress (at most 100 steps a stage; a stage
    that leaves float64's range ends the continuation with the previous stage's point).  At the end the samples
    in the quadratic zone (0 < t_i <= h) are the free ones (0 < alpha < C), those beyond it the ones at C;
    ``order`` lists every sample by its distance |t_i| from the margin (nearest first)."""
    import numpy as np

    prepared = _problem(X, y, intercept)
    if prepared is None:
        return None
    Xa, E, yX = prepared
    n, k = Xa.shape
    Cf = float(C)

    def objective(u, t, h):
        return 0.5 * float((E * u * u).sum()) + Cf * float(np.where(t > h, t - h / 2, np.where(t > 0, t * t / (2 * h),
                                                                                                0.0)).sum())

    u = np.zeros(k)
    h, kept = 1.0, None
    with np.errstate(all="ignore"), one_blas_thread():
        while True:
            for _ in range(100):
                t = 1 - yX @ u
                q = (t > 0) & (t <= h)
                coef = np.where(t > h, 1.0, np.where(q, t / h, 0.0))
                g = E * u - Cf * (coef @ yX)
                Yq = yX[q]
                H = np.diag(E) + (Cf / h) * (Yq.T @ Yq)
                mu = 1e-12 * float(np.trace(H)) / k + 1e-300
                f0 = objective(u, t, h)
                # Newton's direction, damped (H + mu I) while the exact line search finds it nearly useless: with
                # few samples in the quadratic zone the intercept has no curvature and the pure step overshoots
                for _ in range(8):
                    try:
                        step = np.linalg.solve(H + mu * np.eye(k), -g)
                    except np.linalg.LinAlgError:
                        step = None
                        break
                    slope = float(g @ step)
                    if not np.isfinite(slope) or -slope <= 1e-14 * max(1.0, abs(f0)):
                        step = None
                        break
                    dt = yX @ step
                    a = _line_minimum(E, u, step, t, dt, h, Cf)
                    if a > 1e-4:
                        break
                    mu = max(mu * 1e3, 1e-9 * float(np.trace(H)) / k)
                if step is None or a <= 1e-12:  # no progress: the stage's minimum, as far as float64 sees
                    break
                u = u + a * step
                t1 = t - a * dt
                if a == 1.0 and (((t1 > 0) & (t1 <= h)) == q).all() and ((t1 > h) == (t > h)).all():
                    break  # a full step that kept every sample's piece: the stage's minimum (a quadratic there)
            if not np.isfinite(u).all():
                if kept is None:
                    return None
                u, h = kept
                break
            kept = (u.copy(), h)
            if h <= h_min:
                break
            h /= 10
    t = 1 - yX @ u
    free = [int(i) for i in np.flatnonzero((t > 0) & (t <= h))]
    upper = [int(i) for i in np.flatnonzero(t > h)]
    order = [int(i) for i in np.argsort(np.abs(t), kind="stable")]
    return free, upper, order, "Newton's method on the Huber-smoothed primal (float64, numpy)"


def _line_minimum(E, u, step, t, dt, h: float, C: float, squared: bool = False) -> float:
    """The exact minimiser a in (0, 1] of the convex piecewise quadratic a -> Huber objective at u + a step
    (t moves to t - a dt), by bisection on its derivative, which is piecewise linear and increasing.  Only the
    samples whose piece can change on [0, 1] are looked at, so a step costs O(n) once, not per trial.
    ``squared``: the objective's loss is C max(0, t)^2 instead (h unused)."""
    import numpy as np

    t1 = t - dt
    lo, hi = np.minimum(t, t1), np.maximum(t, t1)
    Eus, Ess = float((E * u * step).sum()), float((E * step * step).sum())
    if squared:  # d/da C max(0, t_i - a dt_i)^2 = -2 C max(0, t_i - a dt_i) dt_i
        var = hi > 0
        tv, dv = t[var], dt[var]

        def slope(a):
            return Eus + a * Ess - 2 * C * float(np.maximum(tv - a * dv, 0.0) @ dv)
    else:
        always = lo > h  # in the linear piece for every a in [0, 1]
        var = (hi > 0) & ~always
        const = float(dt[always].sum())
        tv, dv = t[var], dt[var]

        def slope(a):
            return Eus + a * Ess - C * (const + float(np.clip((tv - a * dv) / h, 0.0, 1.0) @ dv))

    if slope(1.0) <= 0:
        return 1.0
    a0, a1 = 0.0, 1.0
    for _ in range(60):
        m = (a0 + a1) / 2
        if slope(m) <= 0:
            a0 = m
        else:
            a1 = m
        if a1 - a0 <= 1e-15:
            break
    return (a0 + a1) / 2


def squared_guess(X, y, C, intercept: bool):
    """Float guess for seed 004's squared slacks: (free, upper=[], order, who) or None.

    Newton's method on the piecewise quadratic primal ||w||^2/2 + C sum max(0, 1 - y_i f(x_i))^2: each step solves
    the normal equations of the samples inside their margin and moves to the exact minimum along that direction
    (full steps alone can cycle between two sets); it ends when a full step keeps the set."""
    import numpy as np

    prepared = _problem(X, y, intercept)
    if prepared is None:
        return None
    Xa, E, yX = prepared
    n, k = Xa.shape
    C2 = 2 * float(C)
    u = np.zeros(k)
    with np.errstate(all="ignore"), one_blas_thread():
        for _ in range(200):
            t = 1 - yX @ u
            F = t > 0
            g = E * u - C2 * (np.where(F, t, 0.0) @ yX)
            A = yX[F]
            H = np.diag(E) + C2 * (A.T @ A)
            H += (1e-13 * float(np.trace(H)) / k + 1e-300) * np.eye(k)
            try:
                step = np.linalg.solve(H, -g)
            except np.linalg.LinAlgError:
                return None
            if not -float(g @ step) > 1e-15 * max(1.0, float((E * u * u).sum())):
                break
            dt = yX @ step
            a = _line_minimum(E, u, step, t, dt, 0.0, C2 / 2, squared=True)
            u = u + a * step
            if a == 1.0 and ((t - dt > 0) == F).all():
                break
    if not np.isfinite(u).all():
        return None
    t = 1 - yX @ u
    order = [int(i) for i in np.argsort(np.abs(t), kind="stable")]
    who = "Newton's method on the squared-slack primal (float64, numpy)"
    return [int(i) for i in np.flatnonzero(t > 0)], [], order, who


# scikit-learn's SVC in a child process: reads (X, y, params) pickled on stdin, writes (support, dual_coef)
_SVC_CHILD = """
import pickle, sys, warnings
warnings.simplefilter("ignore")
X, y, p = pickle.loads(sys.stdin.buffer.read())
import numpy as np
from sklearn.svm import SVC
if p["precomputed"]:
    Kf = (X @ X.T if p["kernel"] == "linear" else (X @ X.T + p["coef0"]) ** p["degree"]) + np.eye(len(y)) * p["diag"]
    clf = SVC(kernel="precomputed", C=p["C"], tol=1e-10, max_iter=10 ** 6).fit(Kf, y)
elif p["kernel"] == "linear":
    clf = SVC(kernel="linear", C=p["C"], tol=1e-10, max_iter=10 ** 6).fit(X, y)
else:
    clf = SVC(kernel="poly", degree=p["degree"], gamma=1.0, coef0=p["coef0"], C=p["C"], tol=1e-10,
              max_iter=10 ** 6).fit(X, y)
sys.stdout.buffer.write(pickle.dumps(([int(i) for i in clf.support_], [float(v) for v in clf.dual_coef_[0]])))
"""


def svc_guess(X, y, *, kernel: str, degree: int, coef0, loss: str, C, timeout: float | None = None):
    """(free, upper): the indices scikit-learn's SVC takes as support vectors, by decreasing alpha (for the hinge
    loss split into 0 < alpha < C and alpha = C), or None.  SVC runs in a child process with a time limit
    (``timeout``, default :data:`SVC_TIMEOUT`) and its output captured: a failure, a crash, a time-out or a missing
    scikit-learn only costs the guess."""
    import numpy as np

    Xf = float_rows(X)
    if Xf is None:
        return None
    p = {"kernel": kernel, "degree": int(degree), "coef0": float(coef0), "precomputed": loss == "squared",
         "C": 1e10 if loss != "hinge" else float(C), "diag": 1 / (2 * float(C)) if loss == "squared" else 0.0}
    try:
        out = subprocess.run([sys.executable, "-c", _SVC_CHILD], input=pickle.dumps((Xf, np.asarray(y), p)),
                             capture_output=True, timeout=SVC_TIMEOUT if timeout is None else timeout, check=False)
    except (OSError, subprocess.SubprocessError):  # a time-out, or no child process at all
        return None
    if out.returncode != 0:
        return None
    try:
        sup, coef = pickle.loads(out.stdout)
    except Exception:  # noqa: BLE001 - a child that wrote something else is a failed guess
        return None
    a = [abs(v) for v in coef]
    if loss == "hinge":
        Cf = float(C)
        free = sorted(((i, v) for i, v in zip(sup, a) if v < Cf * (1 - 1e-7)), key=lambda t: -t[1])
        return [i for i, _ in free], [i for i, v in zip(sup, a) if v >= Cf * (1 - 1e-7)]
    top = max(a, default=0.0)
    return [i for i, _ in sorted(((i, v) for i, v in zip(sup, a) if v > 1e-9 * top), key=lambda t: -t[1])], []


def closest_pair(X, y, linear: bool) -> list[int]:
    """A start for the exact methods (only a heuristic: any start gives the exact optimum)."""
    import numpy as np

    pos = [i for i in range(len(y)) if y[i] == 1]
    neg = [i for i in range(len(y)) if y[i] == -1]
    Xf = float_rows(X)
    if Xf is None:
        return ([pos[0]] if pos else []) + ([neg[0]] if neg else [])
    if not pos or not neg:  # one class (only without intercept): start from the shortest sample
        return [int(np.argmin((Xf ** 2).sum(1)))]
    if linear and len(pos) * len(neg) <= 250_000:
        Dm = ((Xf[pos][:, None, :] - Xf[neg][None, :, :]) ** 2).sum(-1)
        a, c = np.unravel_index(int(np.argmin(Dm)), Dm.shape)
        return [pos[a], neg[c]]
    return [pos[0], neg[0]]
