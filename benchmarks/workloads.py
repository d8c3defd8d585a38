"""The workloads of the benchmark, each a function ``(n, d) -> Workload``.

A workload holds the exactlin callables (the first is the headline), the anchors (plain-Python
``Fraction`` loops, numpy float64, scikit-learn, scipy HiGHS, sympy), and an *independent* exact
check of exactlin's answer (never exactlin's own verifier: plain Fractions, Python integers, or the
exact anchor's own answer).  Data are generated from a seed, so every run uses the same problems.
"""

from __future__ import annotations

import functools
import importlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

__all__ = ["Impl", "Ratio", "Workload", "WORKLOADS", "available"]


@dataclass
class Impl:
    name: str
    fn: Callable[[], object]
    once: bool = False  # too slow to repeat: timed once (said so in the table)
    note: str = ""


@dataclass
class Ratio:
    """A ratio the workload reports by name: median time of ``num`` over ``den`` (implementation names);
    ``per_step``: each time divided by its Run's ``steps`` first (the two calls may run different budgets);
    ``per_update``: by its Run's ``updates``."""
    label: str
    num: str
    den: str
    target: str = ""
    per_step: bool = False
    per_update: bool = False


@dataclass
class Workload:
    key: str
    title: str
    target: str
    exactlin: list[Impl]
    anchors: list[Impl]
    #: check(results: dict name -> output) -> (ok, detail); exact, independent of exactlin's own verifiers
    check: Callable[[dict], tuple[bool, str]]
    info: Callable[[dict], str] | None = None
    size: str = ""
    extra: dict = field(default_factory=dict)
    ratios: list[Ratio] = field(default_factory=list)


def available(module: str) -> bool:
    try:
        importlib.import_module(module)
        return True
    except ImportError:
        return False


# ---------------------------------------------------------------------------------------------------
# data


def separable_ints(n, d, lo=-9, hi=9, margin=20, seed=0):
    """n integer points in [lo, hi]^d labelled by sign(<w*, x>) with |<w*, x>| >= margin (w* random
    integer): linearly separable through the origin, with a small margin."""
    rng = np.random.default_rng(seed)
    ws = rng.integers(-9, 10, size=d)
    X = np.empty((0, d), dtype=np.int64)
    while len(X) < n:
        C = rng.integers(lo, hi + 1, size=(4 * n, d))
        C = C[np.abs(C @ ws) >= margin]
        X = np.vstack([X, C])
    X = X[:n]
    return X, np.where(X @ ws > 0, 1, -1)


# ---------------------------------------------------------------------------------------------------
# anchors written here, independent of exactlin


def fraction_perceptron(Z, max_epochs):
    """The plain-Python perceptron of seed 000 on Fraction tuples: cyclic, mistake iff <w, z> <= 0."""
    n, d = len(Z), len(Z[0])
    w = [Fraction(0)] * d
    k = clean = updates = 0
    while clean < n and k < max_epochs * n:
        z = Z[k % n]
        k += 1
        if sum(a * b for a, b in zip(w, z)) <= 0:
            w = [a + b for a, b in zip(w, z)]
            updates += 1
            clean = 0
        else:
            clean += 1
    return tuple(w), updates, k


def float_chunked_perceptron(Zf, max_epochs):
    """numpy float64 perceptron scanning for the next mistake in vectorized blocks (same cyclic order;
    blocks double while clean and shrink to twice the last gap after a mistake)."""
    n, d = Zf.shape
    w = np.zeros(d)
    k = clean = updates = 0
    block = 64
    while clean < n and k < max_epochs * n:
        i = k % n
        length = min(n - i, n - clean, block)
        s = Zf[i:i + length] @ w
        j = int((s <= 0).argmax())
        if s[j] > 0:
            k += length
            clean += length
            block = min(2 * block, 8192)
            continue
        k += j + 1
        clean = 0
        w += Zf[i + j]
        updates += 1
        block = max(16, min(8192, 2 * (j + 1)))
    return w, updates, k


def _same_float(wf, wq) -> bool:
    return all(float(a) == float(b) for a, b in zip(wf, wq)) and all(Fraction(float(a)) == b for a, b in
                                                                      zip(wf, wq))


def engine_loop(Z, d: int, state: dict | None = None):
    """The engine's cyclic loop alone on the perceptron's rows ``Z`` (an ExactRows: the problem after its input
    conversion): integers over one denominator from w = 0, no trace, the default bounds; what ``perceptron()``
    runs after converting its input.  ``state["tiers"]``: the work of each tier."""
    from exactlin.engine.arith import IntegerArith
    from exactlin.engine.cyclic import cyclic
    from exactlin.engine.trace import Bounds, Tracer

    rep = IntegerArith(Z, (Fraction(0),) * d, step=1)
    r = cyclic(rep, Bounds(), Tracer(False, d))
    if state is not None:
        state["tiers"] = dict(rep.tiers)
    return r


def _perceptron_workload(key, title, target, X_in, y, Z, Zf, d, size, note_data, Zint, L, scaled_input=None):
    import sklearn.linear_model  # noqa: F401  (imported here: import time is not the anchor's time)

    from exactlin.algorithms._loop import binary_problem
    from exactlin.algorithms.perceptron import perceptron
    from exactlin.exact.rows import ExactRows

    prob = binary_problem(X_in, y, bias="none")
    state = {}

    def e2e():
        return perceptron(X_in, y)

    def core():
        return engine_loop(prob.Z, d, state)

    def convert():
        return binary_problem(X_in, y, bias="none")

    def kernel():
        return engine_loop(ExactRows(Zint, L), d)

    epochs_box = {"epochs": core().epochs}  # scikit-learn runs exactly this many epochs

    def frac():
        return fraction_perceptron(Z, 1000)

    def flt():
        return float_chunked_perceptron(Zf, 1000)

    def skl():
        from sklearn.linear_model import Perceptron

        ep = epochs_box.get("epochs", 1000)
        m = Perceptron(max_iter=ep, tol=None, shuffle=False, fit_intercept=False, eta0=1.0, alpha=0.0)
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            m.fit(X_in if not isinstance(X_in, list) else np.array([[float(a) for a in r] for r in X_in]), y)
        return m.coef_[0]

    def e2e_scaled():
        return perceptron(scaled_input, y)

    def check(res):
        r = res["exactlin perceptron()"]
        c = res.get("exactlin fast loop")
        ref = res.get("Fraction loop")
        if ref is None:
            return False, "the Fraction loop did not run"
        w, updates, steps = ref
        ok = r.w == w and r.updates == updates and r.steps == steps and r.converged
        for other in (c, res.get("exactlin integer kernel"), res.get("exactlin perceptron(scaled(K, 250))")):
            ok = ok and (other is None or (other.w == w and other.updates == updates and other.steps == steps))
        return ok, (f"w, updates ({updates}) and steps ({steps}) equal to the Fraction loop's; "
                    f"epochs {r.epochs}" if ok else f"MISMATCH: exactlin {r.summary()} vs Fraction loop "
                                                     f"updates={updates} steps={steps}")

    def info(res):
        r = res["exactlin perceptron()"]
        parts = [f"tiers of the fast loop: {state.get('tiers')}"]
        f = res.get("float64 chunked scan")
        if f is not None:
            parts.append("float64 scan reached the same weights" if _same_float(f[0], r.w)
                         else f"float64 scan weights differ (its updates: {f[1]})")
        s = res.get("scikit-learn Perceptron")
        if s is not None:
            parts.append("sklearn reached the same weights" if _same_float(s, r.w) else "sklearn weights differ")
        from exactlin.model.run import LazySteps

        lazy = isinstance(r.trace, LazySteps)  # recorded compactly during the run, Steps built when first read
        kept = sum(1 for st in r.trace if st.w_before is not None)
        parts.append(f"trace: {len(r.trace)} of {r.steps} steps kept, {kept} with vectors "
                     f"(complete={r.trace_complete}" + ("; held as integer scores and update vectors, Step "
                                                        "records built on first read)" if lazy else ")"))
        return "; ".join(parts)

    scaled_impl = [Impl("exactlin perceptron(scaled(K, 250))", e2e_scaled,
                        note="end to end on the same data given as integers over one denominator")] \
        if scaled_input is not None else []
    return Workload(
        key, title, target,
        exactlin=[Impl("exactlin perceptron()", e2e, note="end to end: exact conversion of the input, the fast loop, "
                                                           "trace (default limits), convergence monitor"),
                  *scaled_impl,
                  Impl("exactlin fast loop", core, note="the fast exact loop on the exact problem (Fractions in, "
                                                        "Fractions out), no trace, no monitor"),
                  Impl("exactlin input conversion only", convert, note="binary_problem: the data layer's exact "
                                                                           "conversion, included in perceptron()"),
                  Impl("exactlin integer kernel", kernel, note="the same loop from the integer matrix L z (int64 "
                                                               "array, as a numpy-backed data layer would hold it)")],
        anchors=[Impl("Fraction loop", frac, once=True, note="plain-Python Fractions on the prepared samples"),
                 Impl("float64 chunked scan", flt, note="numpy float64, 1 BLAS thread"),
                 Impl("scikit-learn Perceptron", skl, note="max_iter = exactlin's epochs, tol=None, shuffle=False")],
        check=check, info=info, size=size, extra={"data": note_data})


def perceptron_int(n=10000, d=50):
    X, y = separable_ints(n, d)
    Zi = X * y[:, None]
    Z = tuple(tuple(Fraction(int(a)) for a in row) for row in Zi)
    return _perceptron_workload(
        "perceptron-int", "perceptron to convergence, integer features in [-9, 9]",
        "w identical to the Fraction loop; <= 2x float64 scan; >= 1000x faster than the Fraction loop",
        X, y, Z, Zi.astype(np.float64), d, f"{n} x {d}", "separable through the origin, |<w*, x>| >= 20",
        Zi.astype(np.int64), 1)


def perceptron_rational(n=400, d=1000):
    from exactlin.exact.rows import scaled

    X, y = separable_ints(n, d, lo=-250, hi=250, margin=1, seed=1)
    Xq = [[Fraction(int(a), 250) for a in row] for row in X]
    Zq = tuple(tuple(a * int(lab) for a in row) for row, lab in zip(Xq, y))
    Zf = (X * y[:, None]) / 250.0
    return _perceptron_workload(
        "perceptron-rational", "perceptron, features integers in [-250, 250] / 250 (Murphy, Gray, Stewart 2017)",
        "as above; rational input does not fall back to Fraction arithmetic",
        Xq, y, Zq, Zf, d, f"{n} x {d}", "entries k/250 given as Fractions", (X * y[:, None]).astype(np.int64), 250,
        scaled_input=scaled(X, 250))


# ---------------------------------------------------------------------------------------------------
# MSE


def _normal_equations(Yi, b, a) -> bool:
    """Y^t Y a == Y^t b exactly, with Y an integer matrix (Python-integer arithmetic, no exactlin code)."""
    D = math.lcm(*(q.denominator for q in a))
    A = [int(q * D) for q in a]
    Yo = Yi.astype(object)
    G = Yo.T.dot(Yo)  # Y^t Y, exact Python ints
    lhs = G.dot(np.array(A, dtype=object))
    rhs = Yo.T.dot(np.array([int(v) for v in b], dtype=object)) * D
    return all(int(u) == int(v) for u, v in zip(lhs, rhs))


def mse_workload(n=2000, d=50, sympy_max=None):
    from exactlin.algorithms.mse import mse

    rng = np.random.default_rng(2)
    X = rng.integers(-9, 10, size=(n, d - 1))
    y = np.where(rng.integers(0, 2, size=n) == 1, 1, -1)
    Yi = np.hstack([np.ones((n, 1), dtype=np.int64), X]) * y[:, None]  # normalized, bias first
    b = np.ones(n, dtype=np.int64)
    Yf = Yi.astype(np.float64)

    def ex():
        return mse(X, y)

    def sym():
        import sympy

        return sympy.Matrix(Yi.tolist()).pinv() * sympy.Matrix(b.tolist())

    def lst():
        return np.linalg.lstsq(Yf, b.astype(np.float64), rcond=None)[0]

    def check(res):
        a = res["exactlin mse()"].w
        ok = _normal_equations(Yi, b, a)
        detail = "Y^tY a = Y^t b holds exactly (Python integers)" if ok else "normal equations FAIL"
        s = res.get("sympy pinv()*b")
        if s is not None:
            same = tuple(Fraction(int(v.p), int(v.q)) for v in s) == tuple(a)
            ok = ok and same
            detail += "; equal to sympy's pinv()*b" if same else "; DIFFERS from sympy"
        return ok, detail

    anchors = [Impl("numpy lstsq", lst, note="float64, 1 BLAS thread")]
    if sympy_max is None or n <= sympy_max:
        anchors.insert(0, Impl("sympy pinv()*b", sym, once=True))
    return Workload("mse", "MSE a = Y^+ b (Y integers, normalized, bias first)",
                    ">= 2000x faster than sympy; <= 5x numpy lstsq",
                    [Impl("exactlin mse()", ex)], anchors, check, size=f"{n} x {d}")


# ---------------------------------------------------------------------------------------------------
# Fisher


def fisher_workload(n=10000, d=20, sympy_max=None):
    from exactlin.algorithms.fisher import fisher

    rng = np.random.default_rng(3)
    y = np.where(rng.integers(0, 2, size=n) == 1, 1, -1)
    X = rng.integers(-9, 10, size=(n, d)) + np.where(y[:, None] > 0, 1, 0) * rng.integers(0, 3, size=d)
    Xf = X.astype(np.float64)

    def ex():
        return fisher(X, y)

    def npf():
        X1, X2 = Xf[y > 0], Xf[y < 0]
        m1, m2 = X1.mean(0), X2.mean(0)
        Sw = (X1 - m1).T @ (X1 - m1) + (X2 - m2).T @ (X2 - m2)
        return np.linalg.solve(Sw, m1 - m2)

    def sym():
        import sympy

        out = []
        for cls in (1, -1):
            M = sympy.Matrix(X[y == cls].tolist())
            m = sympy.Matrix([[sum(M[:, j]) / M.rows for j in range(M.cols)]])
            C = M - sympy.ones(M.rows, 1) * m
            out.append((m, C.T * C))
        (m1, S1), (m2, S2) = out
        return (S1 + S2).LUsolve((m1 - m2).T)

    def check(res):
        w = res["exactlin fisher()"].w
        # independent: n_i S_i = n_i sum x x^t - s_i s_i^t in Python integers; check S_W w = m1 - m2
        S = [[Fraction(0)] * d for _ in range(d)]
        diff = [Fraction(0)] * d
        for cls, sign in ((1, 1), (-1, -1)):
            Xc = X[y == cls].astype(object)
            nc = len(Xc)
            s = Xc.sum(axis=0)
            G = Xc.T.dot(Xc)
            for i in range(d):
                diff[i] += sign * Fraction(int(s[i]), nc)
                for j in range(d):
                    S[i][j] += Fraction(nc * int(G[i][j]) - int(s[i]) * int(s[j]), nc)
        ok = all(sum(S[i][j] * w[j] for j in range(d)) == diff[i] for i in range(d))
        detail = "S_W w = m1 - m2 holds exactly (Python integers)" if ok else "S_W w = m1 - m2 FAILS"
        sres = res.get("sympy textbook")
        if sres is not None:
            same = tuple(Fraction(int(v.p), int(v.q)) for v in sres) == tuple(w)
            ok = ok and same
            detail += "; equal to sympy's" if same else "; DIFFERS from sympy"
        return ok, detail

    anchors = [Impl("numpy float64", npf, note="1 BLAS thread")]
    if sympy_max is None or n <= sympy_max:
        anchors.insert(0, Impl("sympy textbook", sym, once=True, note="centre, scatter, LUsolve"))
    return Workload("fisher", "Fisher w = S_W^-1 (m1 - m2)", "<= 10x numpy float64",
                    [Impl("exactlin fisher()", ex)], anchors, check, size=f"{n} x {d}")


# ---------------------------------------------------------------------------------------------------
# separability


def separability_workload(n=2000, d=10, sympy_max=200):
    from exactlin.algorithms.separability import separable

    rng = np.random.default_rng(4)
    ws = rng.integers(-5, 6, size=d)
    b0 = 3
    X = rng.integers(-20, 21, size=(8 * n, d))
    g = X @ ws + b0
    X = X[np.abs(g) >= 2][:n]
    y = np.where(X @ ws + b0 > 0, 1, -1)

    import scipy.optimize  # noqa: F401
    import sympy.solvers.simplex  # noqa: F401

    def ex():
        return separable(X, y)

    def highs():
        from scipy.optimize import linprog

        A = -(y[:, None] * np.hstack([X, np.ones((len(X), 1))]))
        return linprog(np.zeros(d + 1), A_ub=A, b_ub=-np.ones(len(X)), bounds=[(None, None)] * (d + 1),
                       method="highs")

    def sym():
        import sympy
        from sympy.solvers.simplex import lpmin

        v = sympy.symbols(f"v0:{d + 1}")
        cons = [int(yi) * (sum(int(a) * vj for a, vj in zip(x, v[:d])) + v[d]) >= 1 for x, yi in zip(X, y)]
        return lpmin(0, cons)

    def check(res):
        r = res["exactlin separable()"]
        if not r.extras.get("separable"):
            return False, "exactlin says not separable, but the data were built separable"
        w, b = r.extras["w"], r.extras["b"]
        ok = all(int(yi) * (sum(Fraction(int(a)) * wj for a, wj in zip(x, w)) + b) >= 1 for x, yi in zip(X, y))
        return ok, ("y_i (w . x_i + b) >= 1 checked with Fractions for every sample" if ok
                    else "certificate FAILS")

    anchors = [Impl("scipy linprog (HiGHS)", highs, note="float")]
    if n <= sympy_max:
        anchors.insert(0, Impl("sympy lpmin", sym, once=True))
    return Workload("separability", "separability with a verified certificate", "< 2 s; <= 20x HiGHS",
                    [Impl("exactlin separable()", ex)], anchors, check, size=f"{len(X)} x {d}",
                    extra={"sympy": f"sympy's LP only up to n = {sympy_max} (it is too slow beyond)"})


# ---------------------------------------------------------------------------------------------------
# hard-margin SVM


def svm_workload(n=500, d=5):
    from exactlin.algorithms.svm import svm_hard

    rng = np.random.default_rng(5)
    ws = rng.integers(-5, 6, size=d)
    X = rng.integers(-20, 21, size=(8 * n, d))
    X = X[np.abs(X @ ws + 2) >= 3][:n]
    y = np.where(X @ ws + 2 > 0, 1, -1)

    import sklearn.svm  # noqa: F401

    def ex():
        return svm_hard(X, y)

    def svc():
        from sklearn.svm import SVC

        return SVC(kernel="linear", C=1e6).fit(X.astype(np.float64), y)

    def check(res):
        r = res["exactlin svm_hard()"]
        alpha, b = [Fraction(a) for a in r.extras["alpha"]], Fraction(r.extras["b"])
        Xq = [[Fraction(int(a)) for a in x] for x in X]
        w = [sum(alpha[i] * int(y[i]) * Xq[i][j] for i in range(len(Xq))) for j in range(d)]
        f = [int(y[i]) * (sum(a * c for a, c in zip(w, Xq[i])) + b) for i in range(len(Xq))]
        ok = (all(a >= 0 for a in alpha) and sum(a * int(yi) for a, yi in zip(alpha, y)) == 0
              and all(fi >= 1 for fi in f) and all(fi == 1 for a, fi in zip(alpha, f) if a > 0)
              and tuple(w) == tuple(r.extras["w"]))
        return ok, ("KKT checked with Fractions: alpha >= 0, sum alpha y = 0, w = sum alpha y x, "
                    "y f(x) >= 1 with equality on the support vectors" if ok else "KKT FAILS")

    def info(res):
        r = res["exactlin svm_hard()"]
        s = res.get("scikit-learn SVC")
        txt = f"{len(r.extras.get('support_vectors', []))} support vectors"
        if s is not None:
            txt += f"; SVC has {len(s.support_)}; max |w_svc - w| = " + \
                   f"{max(abs(float(a) - float(c)) for a, c in zip(s.coef_[0], r.extras['w'])):.2e}"
        return txt

    return Workload("svm", "hard-margin SVM, KKT-certified", "<= 20x SVC",
                    [Impl("exactlin svm_hard()", ex)], [Impl("scikit-learn SVC", svc, note="linear, C=1e6")],
                    check, info, size=f"{len(X)} x {d}")


# ---------------------------------------------------------------------------------------------------
# LMS


def lms_workload(steps=3000, d=3, n=50):
    from exactlin.algorithms.mse import lms

    rng = np.random.default_rng(6)
    X = rng.integers(-9, 10, size=(n, d))
    y = np.where(rng.integers(0, 2, size=n) == 1, 1, -1)
    Yq = [tuple(Fraction(int(yi)) * v for v in (Fraction(1), *(Fraction(int(a)) for a in x))) for x, yi in zip(X, y)]

    def ex():
        return lms(X, y, k_max=steps, max_bits=None)

    def guard():
        return lms(X, y, k_max=steps, max_bits=256)

    def frac():
        a = [Fraction(0)] * (d + 1)
        for k in range(1, steps + 1):
            yk = Yq[(k - 1) % n]
            r = Fraction(1, k) * (1 - sum(p * q for p, q in zip(a, yk)))
            a = [p + r * q for p, q in zip(a, yk)]
        return tuple(a)

    def check(res):
        r, g = res["exactlin lms()"], res["exactlin lms(max_bits=256)"]
        ref = res.get("Fraction loop")
        ok = ref is not None and tuple(r.w) == ref and r.steps == steps and g.reason == "bit_limit"
        return ok, (f"a({steps}) equal to the Fraction loop's; the guard max_bits=256 stopped cleanly "
                    f"(reason {g.reason}) at step {g.steps}" if ok else
                    f"MISMATCH (steps {r.steps}, guard reason {g.reason})")

    def info(res):
        r = res["exactlin lms()"]
        return f"max bits {r.extras.get('max_bits')} after {r.steps} steps = " \
               f"{r.extras.get('max_bits', 0) / max(r.steps, 1):.1f} bits per step"

    return Workload("lms", "LMS with eta(k) = 1/k", "exact; the bit-length guard stops it cleanly; bits per step",
                    [Impl("exactlin lms()", ex, once=True), Impl("exactlin lms(max_bits=256)", guard)],
                    [Impl("Fraction loop", frac, once=True)], check, info,
                    size=f"{steps} steps, n = {n}, d = {d} (+ bias)")


# ---------------------------------------------------------------------------------------------------
# seed 003's Algorithm 4 on the perceptron's integer kernel (issue 14)


def fixed_increment_workload(n=2000, d=20, fraction_loop=False):
    """fixed-increment (Algorithm 4, bias first) against perceptron(bias="first") on the same planted integer
    data (benchmarks/budget_data.py's ``separable`` set: features in [-100, 100], a planted integer w* with
    bias): the same iteration, so the same weights, updates and steps.  Both run to max_epochs = 1000 (the
    set's margin is small: about 24,000 updates in 2,000,000 rounds at 2,000 x 20).  ``fraction_loop``: also
    time the readable Fraction representation (arithmetic="fraction"; minutes at 2,000 x 20)."""
    from exactlin.algorithms.perceptron import perceptron
    from exactlin.algorithms.perceptron_family import fixed_increment

    from .budget_data import make

    X, y = make("separable", n, d)

    def fixed():
        return fixed_increment(X, y, max_steps=None)

    def perc():
        return perceptron(X, y, bias="first")

    def fixed_fraction():
        return fixed_increment(X, y, max_steps=None, arithmetic="fraction")

    def check(res):
        r, p = res["exactlin fixed_increment()"], res["exactlin perceptron(bias=first)"]
        # independent: the normalized augmented samples z_i = y_i (1, x_i) in Python ints; the sum of the z_i
        # over the run's mistakes must be its w (a_1 = 0, eta = 1), and that w must give <w, z_i> > 0 for all i
        Z = [[int(lab)] + [int(lab) * int(a) for a in row] for row, lab in zip(X, y)]
        w = [0] * (d + 1)
        for i in r.extras["mistakes"]:
            w = [a + b for a, b in zip(w, Z[i])]
        ok = (tuple(r.w) == tuple(p.w) == tuple(Fraction(a) for a in w) and r.updates == p.updates
              and r.steps == p.steps and r.reason == p.reason
              and (r.reason != "converged" or all(sum(a * b for a, b in zip(w, z)) > 0 for z in Z)))
        ref = res.get("Fraction loop (kernel off)")
        if ref is not None:
            ok = ok and tuple(ref.w) == tuple(r.w) and ref.updates == r.updates and ref.steps == r.steps
        return ok, (f"w, updates ({r.updates}) and steps ({r.steps}) identical to perceptron(bias=first)'s"
                    + (" and the Fraction loop's" if ref is not None else "")
                    + "; w = the sum of the mistakes' z_i (Python ints)"
                    + (", and it separates every sample" if r.reason == "converged" else "")
                    if ok else "MISMATCH")

    def info(res):
        r, p = res["exactlin fixed_increment()"], res["exactlin perceptron(bias=first)"]
        return f"{r.updates} updates, {r.steps} steps, reason {r.reason}; w identical: {tuple(r.w) == tuple(p.w)}"

    # perceptron(bias="first") is the anchor, so that the table's ratio column is fixed-increment / perceptron
    anchors = [Impl("exactlin perceptron(bias=first)", perc, note="the same iteration, the reference time")]
    if fraction_loop:
        anchors.append(Impl("Fraction loop (kernel off)", fixed_fraction, once=True,
                            note="fixed_increment with arithmetic='fraction'"))
    return Workload("fixed-increment", "fixed-increment (Algorithm 4) vs perceptron(bias=first), same data",
                    "<= 3x perceptron(bias=first), identical weights and update count",
                    [Impl("exactlin fixed_increment()", fixed, note="max_steps=None")],
                    anchors, check, info, size=f"{n} x {d}", extra={"data": "budget_data.make('separable', n, d)"})


# ---------------------------------------------------------------------------------------------------
# seed 001's pocket algorithm on the integer kernel (issue 14)


def pocket_workload(n=2000, d=10, T=2000, fraction_loop=False):
    """pocket (seed 001, bias first, T PLA steps) against perceptron(bias="first", max_updates=T) on the same
    planted integer data with 5% of the labels flipped (benchmarks/budget_data.py's ``noisy`` set): the pocket's
    PLA is the perceptron's iteration, so after T updates its last iterate w_pla is the perceptron's w; the pocket
    also evaluates E_in exactly after every step (one n x d integer product each).  ``fraction_loop``: also time
    the readable Fraction reference (``arithmetic="fraction"``), once."""
    from exactlin.algorithms.perceptron import perceptron
    from exactlin.algorithms.perceptron_family import pocket

    from .budget_data import make

    X, y = make("noisy", n, d)
    state = {}

    def pock():
        r = pocket(X, y, T=T, max_epochs=T)
        state["tiers"] = r.arithmetic["tiers"]
        return r

    def perc():
        return perceptron(X, y, bias="first", max_updates=T)

    def pock_fraction():
        return pocket(X, y, T=T, max_epochs=T, arithmetic="fraction")

    def check(res):
        r, p = res["exactlin pocket()"], res["exactlin perceptron(bias=first, max_updates=T)"]
        # independent, in Python ints: z_i = y_i (1, x_i); w_pla must be the sum of the z_i over the perceptron's
        # mistakes (a_1 = 0, eta = 1), and E_in of the pocket and of w_pla recounted here
        Z = [[int(lab)] + [int(lab) * int(a) for a in row] for row, lab in zip(X, y)]
        w = [0] * (d + 1)
        for i in p.extras["mistakes"]:
            w = [a + b for a, b in zip(w, Z[i])]

        def err(v):
            return Fraction(sum(1 for z in Z if sum(a * b for a, b in zip(v, z)) <= 0), n)

        ok = (tuple(r.extras["w_pla"]) == tuple(p.w) == tuple(Fraction(a) for a in w) and r.updates == p.updates == T
              and err(r.w) == r.extras["E_in"] == min(r.extras["E_in_history"]) and err(w) == r.extras["E_in_pla"])
        ref = res.get("Fraction loop (kernel off)")
        if ref is not None:
            ok = ok and ref.w == r.w and ref.extras == r.extras and ref.trace == r.trace
        return ok, (f"w_pla identical to perceptron()'s w after {T} updates (= the sum of its mistakes' z_i, Python "
                    f"ints); E_in of the pocket ({r.extras['E_in']}) and of w_pla recounted in Python ints"
                    + ("; w, extras and trace identical to the Fraction loop's" if ref is not None else "")
                    if ok else "MISMATCH")

    def info(res):
        r, p = res["exactlin pocket()"], res["exactlin perceptron(bias=first, max_updates=T)"]
        return (f"{r.updates} PLA updates (perceptron: {p.updates} in {p.steps} rounds), reason {r.reason}; "
                f"w_pla identical to perceptron's w: {tuple(r.extras['w_pla']) == tuple(p.w)}; pocket E_in "
                f"{r.extras['E_in']} from step {r.extras['pocket_from_step']}; tiers {state.get('tiers')}")

    anchors = [Impl("exactlin perceptron(bias=first, max_updates=T)", perc,
                    note="the same PLA iteration, the same number of updates, the reference time")]
    if fraction_loop:
        anchors.append(Impl("Fraction loop (kernel off)", pock_fraction, once=True,
                            note='pocket with arithmetic="fraction"'))
    return Workload("pocket", f"pocket (seed 001, T = {T}) vs perceptron(bias=first, max_updates={T}), same data",
                    "<= 3x perceptron(bias=first) with the same updates, identical weights",
                    [Impl("exactlin pocket()", pock,
                          note=f"T={T}, max_epochs={T} (it bounds the PLA steps too), default trace")],
                    anchors, check, info, size=f"{n} x {d}", extra={"data": "budget_data.make('noisy', n, d)"})


# ---------------------------------------------------------------------------------------------------
# seed 000's voted and averaged perceptrons on the perceptron's integer kernel (issue 14)


def voted_workload(n=2000, d=10, kind="separable", max_epochs=1000, fraction_loop=False):
    """voted_perceptron and averaged_perceptron (bias first) against perceptron(bias="first") on the same
    planted integer data (benchmarks/budget_data.py: features in [-100, 100], a planted integer w* with bias;
    ``noisy``: 5% of the labels flipped).  All three run the same iteration w_{m+1} = w_m + z_i to the same
    bound (max_epochs; the default budgets switched off: max_steps=None, max_updates=None), so they make the
    same mistakes and end at the same w.  ``fraction_loop``: also time the readable Fraction loop once (the
    Fraction representation, arithmetic="fraction"; minutes at 2,000 x 10)."""
    from exactlin.algorithms.perceptron import perceptron
    from exactlin.algorithms.voted import averaged_perceptron, voted_perceptron

    from .budget_data import make

    X, y = make(kind, n, d)
    kw = {"bias": "first", "max_epochs": max_epochs}

    def voted():
        return voted_perceptron(X, y, max_steps=None, **kw)

    def voted_read():  # the list of (w_m, c_m) is built when first read: here it is read in full
        r = voted_perceptron(X, y, max_steps=None, **kw)
        len(list(r.extras["voted"]))
        return r

    def averaged():
        return averaged_perceptron(X, y, max_steps=None, **kw)

    def perc():
        return perceptron(X, y, max_updates=None, **kw)

    def voted_fraction():
        return voted_perceptron(X, y, max_steps=None, arithmetic="fraction", **kw)

    def check(res):
        v, a, p = res["exactlin voted_perceptron()"], res["exactlin averaged_perceptron()"], \
            res["exactlin perceptron(bias=first)"]
        # independent, in Python ints: z_i = y_i (1, x_i); w_m = the sum of z over the first m - 1 mistakes;
        # the counts c_m put the m-th mistake at round k_m = c_1 + ... + c_m, which must visit that mistake's
        # sample ((k_m - 1) mod n); they sum to steps + 1; the averaged vector is sum_m c_m w_m
        Z = [[int(lab)] + [int(lab) * int(t) for t in row] for row, lab in zip(X, y)]
        mistakes = list(v.extras["mistakes"])
        ok = (tuple(v.extras["final_w"]) == tuple(p.w) == tuple(a.extras["final_w"]) and mistakes
              == list(p.extras["mistakes"]) == list(a.extras["mistakes"]) and v.updates == p.updates == a.updates
              and v.steps == p.steps == a.steps and v.reason == p.reason == a.reason)
        entries = list(v.extras["voted"])
        ok = ok and len(entries) == len(mistakes) + 1 and entries == list(a.extras["voted"])
        w = [0] * (d + 1)
        avg = [0] * (d + 1)
        k = 0
        for m, e in enumerate(entries):
            c = e["c"]
            ok = ok and type(c) is int and c >= 1 and tuple(e["w"]) == tuple(Fraction(t) for t in w)
            avg = [s + c * t for s, t in zip(avg, w)]
            k += c
            if m < len(mistakes):
                ok = ok and (k - 1) % n == mistakes[m]
                w = [s + t for s, t in zip(w, Z[mistakes[m]])]
        ok = ok and k == v.steps + 1 and tuple(a.w) == tuple(Fraction(t) for t in avg)
        ref = res.get("Fraction loop (kernel off)")
        if ref is not None:
            ok = ok and ref.extras["voted"] == v.extras["voted"] and ref.steps == v.steps
        return ok, (f"final w, mistakes ({v.updates} updates) and steps ({v.steps}) identical to "
                    "perceptron(bias=first)'s; the (w_m, c_m) list and the averaged vector rebuilt in Python ints"
                    + (" and equal to the Fraction loop's" if ref is not None else "") if ok else "MISMATCH")

    def info(res):
        v, p = res["exactlin voted_perceptron()"], res["exactlin perceptron(bias=first)"]
        return (f"{v.updates} updates ({p.updates} for perceptron), {v.steps} steps, reason {v.reason}; "
                f"final w identical: {tuple(v.extras['final_w']) == tuple(p.w)}")

    anchors = [Impl("exactlin perceptron(bias=first)", perc, note="max_updates=None: the same iteration, the "
                                                                  "reference time")]
    if fraction_loop:
        anchors.append(Impl("Fraction loop (kernel off)", voted_fraction, once=True,
                            note="voted_perceptron with arithmetic='fraction'"))
    return Workload(f"voted-{kind}", f"voted / averaged perceptron vs perceptron(bias=first), {kind} data",
                    "<= 3x perceptron(bias=first), identical weights and update count",
                    [Impl("exactlin voted_perceptron()", voted, note="max_steps=None; the voted list built on "
                                                                   "first read"),
                     Impl("exactlin voted_perceptron() + reading the list", voted_read,
                          note="the same call, then every (w_m, c_m) read"),
                     Impl("exactlin averaged_perceptron()", averaged, note="max_steps=None")],
                    anchors, check, info, size=f"{n} x {d}, max_epochs {max_epochs}",
                    extra={"data": f"budget_data.make({kind!r}, n, d)"})


# ---------------------------------------------------------------------------------------------------
# relaxation (Algorithms 8, 9) and balanced Winnow on fast exact arithmetic (issue 14, item 2)


def _plain_relaxation_replay(Z, mistakes, eta, b):
    """Algorithm 9's corrections replayed with plain Fractions from the run's list of corrected samples."""
    a = [Fraction(0)] * len(Z[0])
    for i in mistakes:
        z = Z[i]
        c = eta * (b - sum(p * q for p, q in zip(a, z))) / sum(q * q for q in z)
        a = [p + c * q for p, q in zip(a, z)]
    return tuple(a)


def flint_relax_workload(algorithm, n=100, d=10, iterations=50):
    """``algorithm`` (batch-relaxation, single-sample-relaxation or balanced-winnow) on the fast path against the same
    call on the readable Fraction loop (``arithmetic="fraction"``), on the planted integer data of
    benchmarks/budget_data.py (``separable``, features in [-100, 100]), over the same ``iterations`` iterations:
    batch relaxation max_steps=iterations (each iteration visits the n samples); the single-sample rules
    max_epochs=iterations (as many sample visits), with max_steps=None and max_bits=None so that only the
    iteration count stops them."""
    from exactlin.algorithms.relaxation import batch_relaxation, single_sample_relaxation
    from exactlin.algorithms.winnow import balanced_winnow

    from .budget_data import make

    X, y = make("separable", n, d)
    fn, kw = {
        "batch-relaxation": (batch_relaxation, {"max_steps": iterations, "max_bits": None}),
        "single-sample-relaxation": (single_sample_relaxation,
                                     {"max_epochs": iterations, "max_steps": None, "max_bits": None}),
        "balanced-winnow": (balanced_winnow, {"max_epochs": iterations, "max_steps": None, "max_bits": None}),
    }[algorithm]

    def fast():
        return fn(X, y, **kw)

    def fraction():  # the readable reference, by name
        return fn(X, y, arithmetic="fraction", **kw)

    def check(res):
        r, ref = res["exactlin fast path"], res.get("Fraction loop (arithmetic='fraction')")
        ok = ref is not None and all(getattr(r, f) == getattr(ref, f) for f in
                                     ("w", "reason", "updates", "epochs", "steps", "converged"))
        ok = ok and r.extras["max_bits"] == ref.extras["max_bits"] and r.extras.get("mistakes") == \
            ref.extras.get("mistakes")
        # independent of both paths: the weights replayed in plain Python from the run's corrections
        Z = [[Fraction(lab)] + [Fraction(lab * a) for a in row] for row, lab in zip(X, y)]
        if algorithm == "single-sample-relaxation":
            ok = ok and _plain_relaxation_replay(Z, r.extras["mistakes"], Fraction(1), Fraction(1)) == tuple(r.w)
            how = "w replayed with plain Fractions from the corrections"
        elif algorithm == "balanced-winnow":
            # a+ = 2^{sum of z_k y_k over the mistakes}, a- = 2^{-(the same)} entrywise (Python ints as exponents)
            e = [0] * (d + 1)
            for i in r.extras["mistakes"]:
                e = [p + int(q) for p, q in zip(e, Z[i])]
            ok = ok and tuple(r.w) == tuple(Fraction(2) ** x - Fraction(2) ** -x for x in e)
            how = "w = 2^e - 2^-e with e the sum of the mistakes' z_k y_k (plain Python)"
        else:
            # Algorithm 8 for r.steps iterations, written here with plain Fractions
            a = [Fraction(0)] * (d + 1)
            for _ in range(r.steps):
                sc = [sum(p * q for p, q in zip(a, z)) for z in Z]
                Yk = [i for i, s in enumerate(sc) if s < 1]
                if not Yk:
                    break
                inc = [Fraction(0)] * (d + 1)
                for i in Yk:
                    c = (1 - sc[i]) / sum(q * q for q in Z[i])
                    inc = [p + c * q for p, q in zip(inc, Z[i])]
                a = [p + q for p, q in zip(a, inc)]
            ok = ok and tuple(a) == tuple(r.w)
            how = "w equal to Algorithm 8 iterated with plain Fractions in the check"
        return ok, (f"w, reason ({r.reason}), updates ({r.updates}), steps ({r.steps}), max_bits "
                    f"({r.extras['max_bits']}) identical to the Fraction loop's; {how}" if ok else "MISMATCH")

    def info(res):
        r = res["exactlin fast path"]
        return f"{r.steps} steps, {r.updates} updates, reason {r.reason}, max_bits {r.extras['max_bits']}"

    args = ", ".join(f"{k}={v}" for k, v in kw.items())
    return Workload(algorithm, f"{algorithm} on the fast exact path vs the Fraction loop, same iterations",
                    ">= 5x faster than the Fraction loop over the same 50 iterations on 100 x 10",
                    [Impl("exactlin fast path", fast, note=args)],
                    [Impl("Fraction loop (arithmetic='fraction')", fraction, once=True,
                          note="the same call with arithmetic='fraction'")],
                    check, info, size=f"{n} x {d}, {iterations} iterations",
                    extra={"data": "budget_data.make('separable', n, d)"})



# ---------------------------------------------------------------------------------------------------
# rational iterates on python-flint (issue 14, item 2): Ho-Kashyap (+ Modifications I, II), Widrow-Hoff, LMS


def flint_iterates_workload(algorithm="ho-kashyap", n=100, d=10, iters=50):
    """One rational-iterate rule on ``budget_data.make("noisy", n, d)`` (integer features in [-100, 100], 5% of
    the labels flipped: no verdict stops the run early), ``iters`` iterations (LMS: ``iters`` passes of
    single-sample steps would take minutes in Fractions, so 10 x ``iters`` steps), ``max_bits=None``: the
    default python-flint representation against the readable Fraction one (``arithmetic="fraction"``) on the
    same call.  The check: both Runs identical (w, b, e, verdict, reason, steps, max_bits, trace, extras) and,
    for Ho-Kashyap and Modification I, a = Y^+ b checked independently by the normal equations
    Y^t (Y a - b) = 0 in plain Python Fractions (Y has full column rank)."""
    from exactlin.algorithms.ho_kashyap import ho_kashyap, ho_kashyap_mod1, ho_kashyap_mod2
    from exactlin.algorithms.mse import lms, widrow_hoff

    from .budget_data import make

    fn = {"ho-kashyap": ho_kashyap, "ho-kashyap-mod1": ho_kashyap_mod1, "ho-kashyap-mod2": ho_kashyap_mod2,
          "widrow-hoff": widrow_hoff, "lms": lms}[algorithm]
    steps = 10 * iters if algorithm == "lms" else iters
    X, y = make("noisy", n, d)

    def fast():
        return fn(X, y, k_max=steps, max_bits=None)

    def fraction():
        return fn(X, y, k_max=steps, max_bits=None, arithmetic="fraction")

    def check(res):
        r, ref = res.get("exactlin flint loop"), res.get("Fraction loop (flint off)")
        if r is None or ref is None:
            return False, "a run is missing"
        same = (tuple(r.w) == tuple(ref.w) and (r.converged, r.reason, r.steps) == (ref.converged, ref.reason,
                ref.steps) and r.trace == ref.trace and r.trace_complete == ref.trace_complete
                and r.extras == ref.extras and r.steps == steps)
        normal = ""
        if same and algorithm in ("ho-kashyap", "ho-kashyap-mod1"):
            Y = [[Fraction(lab)] + [Fraction(lab * v) for v in row] for row, lab in zip(X, y)]
            e = [sum((p * q for p, q in zip(row, r.w)), Fraction(0)) - bi for row, bi in zip(Y, r.extras["b"])]
            same = all(sum((row[j] * ei for row, ei in zip(Y, e)), Fraction(0)) == 0 for j in range(d + 1))
            normal = "; Y^t (Y a - b) = 0 in plain Fractions"
        unit = "steps" if algorithm == "lms" else "iterations"
        return same, (f"Run identical to the Fraction loop's ({r.steps} {unit}, reason {r.reason}, "
                      f"max_bits {r.extras['max_bits']}){normal}" if same else "MISMATCH")

    def info(res):
        r = res["exactlin flint loop"]
        return f"{r.steps} {'steps' if algorithm == 'lms' else 'iterations'}, max_bits {r.extras['max_bits']}"

    return Workload(f"flint-{algorithm}", f"{algorithm}: python-flint loop vs the Fraction loop, same iterations",
                    ">= 5x faster than the Fraction loop over the same 50 iterations on 100 x 10 (issue 14)",
                    [Impl("exactlin flint loop", fast, note="default")],
                    [Impl("Fraction loop (flint off)", fraction, note='arithmetic="fraction"')],
                    check, info, size=f"{n} x {d}, {steps} {'steps' if algorithm == 'lms' else 'iterations'}",
                    extra={"data": "budget_data.make('noisy', n, d)"})


# ---------------------------------------------------------------------------------------------------
# seed 003's Algorithm 3 and seed 001's batch PLA on the integer batch kernel (issue 14)


def int_batch_perceptron(Z, iterations):
    """Plain-Python-integer batch perceptron (eta = 1, a(1) = 0) on integer normalized samples: each iteration
    sums the z_j with <a, z_j> <= 0 and adds the sum; stops on an empty set.  (a, updates, iterations)."""
    d = len(Z[0])
    a = [0] * d
    updates = 0
    for k in range(1, iterations + 1):
        S = [0] * d
        wrong = False
        for z in Z:
            if sum(p * q for p, q in zip(a, z)) <= 0:
                wrong = True
                S = [p + q for p, q in zip(S, z)]
        if not wrong:
            return a, updates, k
        if any(S):
            updates += 1
        a = [p + q for p, q in zip(a, S)]
    return a, updates, iterations


def batch_workload(n=2000, d=10, iterations=1000):
    """batch-perceptron (Algorithm 3, eta = 1) and batch-pla (alpha = 1) against perceptron(bias="first") on the
    same planted integer data (budget_data.make("separable", n, d): features in [-100, 100], bias first).  The
    perceptron runs its default 1000 epochs there (the margin is small) and the batch rules 1000 iterations
    (``max_steps``): the same n x 1000 sample visits.  Checked against a plain-Python-integer batch loop written
    above: batch_perceptron's w is its a, batch_pla's w is a / n (c = alpha / N scales every iterate)."""
    from exactlin.algorithms.perceptron import perceptron
    from exactlin.algorithms.perceptron_family import batch_perceptron, batch_pla

    from .budget_data import make

    X, y = make("separable", n, d)
    Z = [[int(lab)] + [int(lab) * int(a) for a in row] for row, lab in zip(X, y)]

    def bp():
        return batch_perceptron(X, y, max_steps=iterations)

    def pla():
        return batch_pla(X, y, max_steps=iterations)

    def perc():
        return perceptron(X, y, bias="first")

    def ints():
        return int_batch_perceptron(Z, iterations)

    def check(res):
        r, q = res["exactlin batch_perceptron()"], res["exactlin batch_pla()"]
        ref = res.get("Python-int batch loop")
        if ref is None:
            return False, "the Python-int batch loop did not run"
        a, updates, its = ref
        ok = (tuple(r.w) == tuple(Fraction(v) for v in a) and tuple(q.w) == tuple(Fraction(v, n) for v in a)
              and r.updates == q.updates == updates and r.epochs == q.epochs == its)
        return ok, (f"w identical to the Python-int batch loop's a (batch_pla: a / {n}); updates ({updates}) and "
                    f"iterations ({its}) equal" if ok else f"MISMATCH: {r.summary()} / {q.summary()} vs "
                    f"updates={updates} iterations={its}")

    def info(res):
        r, q = res["exactlin batch_perceptron()"], res["exactlin batch_pla()"]
        p = res["exactlin perceptron(bias=first)"]
        return (f"batch_perceptron: {r.updates} updates in {r.epochs} iterations ({r.reason}); batch_pla: "
                f"{q.updates} updates in {q.epochs} iterations ({q.reason}); perceptron: {p.updates} updates in "
                f"{p.epochs} epochs ({p.reason}); batch_pla w = batch_perceptron w / n: "
                f"{tuple(q.w) == tuple(v / n for v in r.w)}")

    anchors = [Impl("exactlin perceptron(bias=first)", perc, note="the reference time: the same sample visits"),
               Impl("Python-int batch loop", ints, once=True, note="plain Python integers, written in workloads.py")]
    return Workload("batch", "batch perceptron / batch PLA vs perceptron(bias=first), same data",
                    "<= 3x perceptron(bias=first) for the same sample visits; w identical to the reference",
                    [Impl("exactlin batch_perceptron()", bp, note=f"eta = 1, max_steps={iterations}"),
                     Impl("exactlin batch_pla()", pla, note=f"alpha = 1, max_steps={iterations}")],
                    anchors, check, info, size=f"{n} x {d}, {iterations} iterations",
                    extra={"data": "budget_data.make('separable', n, d)"})


# ---------------------------------------------------------------------------------------------------
# the three SVMs on noisy data (issue 14, item 4)


def svm_noisy_workload(n=2000, d=10):
    """svm-hard (deciding non-separability), svm-soft and svm-soft-l2 (C = 1) on budget_data's noisy set against
    scikit-learn's SVC (linear kernel, the same C; C = 1e6 for the hard margin)."""
    from exactlin.algorithms.svm import svm_hard, svm_soft, svm_soft_l2

    from .budget_data import make

    X, y = make("noisy", n, d)
    Xf, yf = np.array(X, dtype=np.float64), np.array(y)

    import sklearn.svm  # noqa: F401

    def svc(C, max_iter=-1):
        def fit():
            import warnings

            from sklearn.svm import SVC

            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # the capped run warns that it stopped early
                return SVC(kernel="linear", C=C, max_iter=max_iter).fit(Xf, yf)
        return fit

    def kkt(r, loss):
        alpha, b, C = [Fraction(a) for a in r.extras["alpha"]], Fraction(r.extras["b"]), Fraction(1)
        w = [sum(alpha[i] * y[i] * X[i][k] for i in range(n) if alpha[i]) for k in range(d)]
        m = [y[i] * (sum(w[k] * X[i][k] for k in range(d)) + b) for i in range(n)]
        xi = [max(Fraction(0), 1 - v) for v in m] if loss == "hinge" else [a / (2 * C) for a in alpha]
        nw = sum(v * v for v in w)
        if loss == "hinge":
            gap = nw / 2 + C * sum(xi) - (sum(alpha) - nw / 2)
        else:
            gap = nw / 2 + C * sum(v * v for v in xi) - (sum(alpha) - nw / 2 - sum(a * a for a in alpha) / (4 * C))
        return (all(a >= 0 for a in alpha) and (loss != "hinge" or all(a <= C for a in alpha))
                and sum(a * yi for a, yi in zip(alpha, y)) == 0 and tuple(w) == tuple(r.extras["w"])
                and all(m[i] >= 1 - xi[i] and (not alpha[i] or m[i] == 1 - xi[i]) for i in range(n))
                and (loss != "hinge" or all(not xi[i] or alpha[i] == C for i in range(n))) and gap == 0)

    def check(res):
        h = res["exactlin svm_hard()"]
        lam = [Fraction(v) for v in h.extras["certificate"]["lambda"]]
        gordan = (h.reason == "not_separable" and all(v >= 0 for v in lam) and sum(lam) > 0
                  and all(sum(lam[i] * y[i] * (X[i][k] if k < d else 1) for i in range(n)) == 0 for k in range(d + 1)))
        soft, l2 = kkt(res["exactlin svm_soft()"], "hinge"), kkt(res["exactlin svm_soft_l2()"], "squared")
        ok = gordan and soft and l2
        return ok, ("svm-hard: Gordan certificate sum lambda_i y_i (x_i, 1) = 0, lambda >= 0 checked with Fractions; "
                    "svm-soft, svm-soft-l2: every KKT condition and zero duality gap checked with Fractions" if ok
                    else f"FAILS (gordan {gordan}, soft {soft}, l2 {l2})")

    def info(res):
        s = res["exactlin svm_soft()"]
        a = s.extras["alpha"]
        txt = (f"svm-soft: {sum(1 for v in a if v)} support vectors, {sum(1 for v in a if v == 1)} at C; "
               f"svm-soft-l2: {len(res['exactlin svm_soft_l2()'].extras['support_vectors'])} support vectors")
        c = res.get("scikit-learn SVC, C=1")
        if c is not None:
            txt += (f"; SVC (C=1) max |w_svc - w| = "
                    f"{max(abs(float(p) - float(q)) for p, q in zip(c.coef_[0], s.extras['w'])):.2e}")
        return txt

    return Workload("svm-noisy", "svm-hard / svm-soft / svm-soft-l2 on noisy data, certified",
                    "<= 20x SVC", [Impl("exactlin svm_hard()", lambda: svm_hard(X, y)),
                                   Impl("exactlin svm_soft()", lambda: svm_soft(X, y, C=1)),
                                   Impl("exactlin svm_soft_l2()", lambda: svm_soft_l2(X, y, C=1))],
                    [Impl("scikit-learn SVC, C=1", svc(1.0), once=True, note="linear kernel; minutes here"),
                     Impl("scikit-learn SVC, C=1e6", svc(1e6, 10 ** 6), once=True,
                          note="linear kernel, as a hard margin; capped at 10^6 iterations (no optimum exists)")],
                    check, info, size=f"{n} x {d}", extra={"data": "budget_data.make('noisy', n, d)"})


#: key -> (module needed, factory, full-size kwargs, smoke kwargs)
WORKLOADS = {
    "perceptron-int": ("exactlin.engine.cyclic", perceptron_int, {}, {"n": 300, "d": 10}),
    "perceptron-rational": ("exactlin.engine.cyclic", perceptron_rational, {}, {"n": 40, "d": 60}),
    "mse": ("exactlin.algorithms.mse", mse_workload, {}, {"n": 60, "d": 6}),
    "fisher": ("exactlin.algorithms.fisher", fisher_workload, {}, {"n": 200, "d": 5}),
    "separability": ("exactlin.algorithms.separability", separability_workload, {}, {"n": 60, "d": 4}),
    "svm": ("exactlin.algorithms.svm", svm_workload, {}, {"n": 40, "d": 3}),
    "lms": ("exactlin.algorithms.mse", lms_workload, {}, {"steps": 200}),
    "fixed-increment": ("exactlin.algorithms.perceptron_family", fixed_increment_workload, {}, {"n": 200, "d": 5}),
    "pocket": ("exactlin.engine.reuse", pocket_workload, {"fraction_loop": True},
               {"n": 200, "d": 5, "T": 100, "fraction_loop": True}),
    "voted-separable": ("exactlin.algorithms.voted", voted_workload, {}, {"n": 200, "d": 5}),
    "voted-noisy": ("exactlin.algorithms.voted", voted_workload, {"kind": "noisy", "max_epochs": 100},
                    {"n": 200, "d": 5, "kind": "noisy", "max_epochs": 20}),
    **{key: (module, functools.partial(flint_relax_workload, key), {}, {"n": 20, "d": 3, "iterations": 5})
       for key, module in (("batch-relaxation", "exactlin.engine.arith_relax"),
                           ("single-sample-relaxation", "exactlin.engine.reduced"),
                           ("balanced-winnow", "exactlin.engine.powers"))},
    "flint-ho-kashyap": ("exactlin.engine.iterate", flint_iterates_workload,
                  {"algorithm": "ho-kashyap"}, {"algorithm": "ho-kashyap", "n": 20, "d": 3, "iters": 5}),
    "flint-ho-kashyap-mod1": ("exactlin.engine.iterate", flint_iterates_workload,
                  {"algorithm": "ho-kashyap-mod1"}, {"algorithm": "ho-kashyap-mod1", "n": 20, "d": 3, "iters": 5}),
    "flint-ho-kashyap-mod2": ("exactlin.engine.iterate", flint_iterates_workload,
                  {"algorithm": "ho-kashyap-mod2"}, {"algorithm": "ho-kashyap-mod2", "n": 20, "d": 3, "iters": 5}),
    "flint-widrow-hoff": ("exactlin.engine.iterate", flint_iterates_workload,
                  {"algorithm": "widrow-hoff"}, {"algorithm": "widrow-hoff", "n": 20, "d": 3, "iters": 5}),
    "flint-lms": ("exactlin.engine.iterate", flint_iterates_workload,
                  {"algorithm": "lms"}, {"algorithm": "lms", "n": 20, "d": 3, "iters": 5}),
    "batch": ("exactlin.engine.batch", batch_workload, {}, {"n": 200, "d": 5, "iterations": 50}),
    "svm-noisy": ("exactlin.algorithms.svm", svm_noisy_workload, {}, {"n": 60, "d": 3}),
}


# ---------------------------------------------------------------------------------------------------
# the linear machine (Kesler) and one-vs-rest on the integer kernels (issue 14)


def planted_multiclass(n, d=10, c=3, *, seed=14, gap=100):
    """n integer points uniform in [-100, 100]^d labelled by argmax_j (w*_j0 + <w*_j, x>) for a planted integer W*
    (entries in [-9, 9], biases in [-50, 50]); points whose best score leads the second by less than ``gap`` are
    drawn again (a margin).  Pure Python (``random.Random``): the same data on every machine."""
    import random

    rng = random.Random(f"exactlin-multiclass-{seed}-{d}-{c}")
    W = [[rng.randint(-50, 50)] + [rng.randint(-9, 9) for _ in range(d)] for _ in range(c)]
    X, y = [], []
    while len(X) < n:
        x = [rng.randint(-100, 100) for _ in range(d)]
        g = [w[0] + sum(a * b for a, b in zip(w[1:], x)) for w in W]
        top = max(g)
        if sorted(g)[-2] > top - gap:
            continue
        X.append(x)
        y.append(g.index(top))
    return X, y


def _kesler_replay(X, y, classes, pairs):
    """The stacked W from the run's (sample, rival) pairs, in Python ints (bias first): w_i += y_s, w_j -= y_s."""
    idx = {c: k for k, c in enumerate(classes)}
    W = [[0] * (len(X[0]) + 1) for _ in classes]
    for s, j in pairs:
        ys = [1] + [int(a) for a in X[s]]
        i = idx[y[s]]
        W[i] = [a + b for a, b in zip(W[i], ys)]
        W[j] = [a - b for a, b in zip(W[j], ys)]
    return W


def linear_machine_workload(n=2000, d=10, c=4, fraction_loop=False):
    """linear-machine against perceptron(bias="first") on the same planted integer data
    (budget_data.make("separable", n, d)): with two classes the linear machine IS the perceptron (u = w_1 - w_0
    follows u <- u + 2 z on the same mistakes, and w_0 = -w_1), so the same updates, the same steps and
    W = (-w, w).  Both run to max_epochs = 1000 (the set's margin is small).  Also timed: linear-machine on a
    c-class planted set (``planted_multiclass``, to convergence, monitor included), and with ``fraction_loop``
    the two-class call on the Fraction reference (``arithmetic="fraction"``, once)."""
    from exactlin.algorithms.multiclass import linear_machine
    from exactlin.algorithms.perceptron import perceptron

    from .budget_data import make

    X, y = make("separable", n, d)
    Xc, yc = planted_multiclass(n, d, c)

    def lm():
        return linear_machine(X, y, max_steps=None)

    def lm_c():
        return linear_machine(Xc, yc, max_steps=None)

    def perc():
        return perceptron(X, y, bias="first", max_updates=None)

    def lm_fraction():
        return linear_machine(X, y, max_steps=None, arithmetic="fraction")

    def check(res):
        r, p, rc = res["exactlin linear_machine()"], res["exactlin perceptron(bias=first)"], \
            res[f"exactlin linear_machine(), {c} classes"]
        W = _kesler_replay(X, y, r.extras["classes"], r.extras["mistakes"])
        Wc = _kesler_replay(Xc, yc, rc.extras["classes"], rc.extras["mistakes"])
        Zc = [[1] + [int(a) for a in x] for x in Xc]
        ok = (r.extras["W"][1] == tuple(p.w) and r.extras["W"][0] == tuple(-a for a in p.w)
              and [list(map(Fraction, w)) for w in W] == [list(w) for w in r.extras["W"]]
              and r.updates == p.updates and r.steps == p.steps and r.reason == p.reason
              and [list(map(Fraction, w)) for w in Wc] == [list(w) for w in rc.extras["W"]]
              and rc.converged and all(max(range(c), key=lambda j: sum(a * b for a, b in zip(Wc[j], z))) == lab
                                       and sorted(sum(a * b for a, b in zip(w, z)) for w in Wc)[-2]
                                       < max(sum(a * b for a, b in zip(w, z)) for w in Wc)
                                       for z, lab in zip(Zc, yc)))
        ref = res.get("Fraction loop (kernel off)")
        if ref is not None:
            ok = ok and ref.extras["W"] == r.extras["W"] and ref.updates == r.updates and ref.steps == r.steps
        return ok, (f"two classes: W = (-w, w) with w perceptron's, updates ({r.updates}) and steps ({r.steps}) "
                    f"identical" + (" and the Fraction loop's" if ref is not None else "")
                    + f"; {c} classes: converged ({rc.updates} updates), W = the replay of its (sample, rival) "
                    "pairs and every sample's own score strictly largest (Python ints)" if ok else "MISMATCH")

    def info(res):
        r, p, rc = res["exactlin linear_machine()"], res["exactlin perceptron(bias=first)"], \
            res[f"exactlin linear_machine(), {c} classes"]
        return (f"2 classes: {r.updates} updates, {r.steps} steps, reason {r.reason}; W[1] identical to "
                f"perceptron's w: {r.extras['W'][1] == tuple(p.w)}; {c} classes: {rc.updates} updates, "
                f"{rc.steps} steps, reason {rc.reason}, monitor holds: {rc.extras['monitor'].holds}")

    anchors = [Impl("exactlin perceptron(bias=first)", perc, note="the same iteration, the reference time")]
    if fraction_loop:
        anchors.append(Impl("Fraction loop (kernel off)", lm_fraction, once=True,
                            note='linear_machine with arithmetic="fraction"'))
    return Workload("linear-machine", "linear-machine vs perceptron(bias=first), same data",
                    "<= 3x perceptron(bias=first), identical weights and update count",
                    [Impl("exactlin linear_machine()", lm, note="two classes, max_steps=None"),
                     Impl(f"exactlin linear_machine(), {c} classes", lm_c,
                          note=f"planted_multiclass({n}, {d}, {c}), to convergence, monitor included")],
                    anchors, check, info, size=f"{n} x {d}",
                    extra={"data": "budget_data.make('separable', n, d); planted_multiclass(n, d, c)"})


def one_vs_rest_workload(n=2000, d=10, c=3, max_epochs=1000):
    """one-vs-rest (binary=perceptron) against its c perceptron() calls on the relabeled data, same run, on
    planted_multiclass(n, d, c): identical W (w_c = the perceptron's w on c against the rest).  A class against
    the rest is rarely separable: the binary runs end on their budgets (max_epochs, max_updates)."""
    from exactlin.algorithms.multiclass import one_vs_rest
    from exactlin.algorithms.perceptron import perceptron

    X, y = planted_multiclass(n, d, c)
    classes = sorted(set(y))

    def ovr():
        return one_vs_rest(X, y, max_epochs=max_epochs)

    def percs():
        return [perceptron(X, [1 if lab == k else -1 for lab in y], bias="first", max_epochs=max_epochs)
                for k in classes]

    def check(res):
        o, ps = res["exactlin one_vs_rest()"], res[f"exactlin {c} x perceptron(bias=first)"]
        ok = (o.extras["W"] == tuple(p.w for p in ps) and o.updates == sum(p.updates for p in ps)
              and o.steps == sum(p.steps for p in ps))
        return ok, (f"W identical to the {c} perceptron() runs', updates ({o.updates}) and steps ({o.steps}) their "
                    "sums" if ok else "MISMATCH")

    def info(res):
        o = res["exactlin one_vs_rest()"]
        return "; ".join(f"class {r['class']}: {r['updates']} updates, {r['reason']}" for r in o.extras["runs"])

    return Workload("one-vs-rest", "one-vs-rest vs its perceptron() runs, same data",
                    "<= 1.2x the perceptron() runs, identical weights",
                    [Impl("exactlin one_vs_rest()", ovr, note="binary=perceptron, default budgets")],
                    [Impl(f"exactlin {c} x perceptron(bias=first)", percs, note="the same binary runs")],
                    check, info, size=f"{n} x {d}, {c} classes", extra={"data": "planted_multiclass(n, d, c)"})


WORKLOADS["linear-machine"] = ("exactlin.engine.machine", linear_machine_workload, {},
                               {"n": 100, "d": 4, "c": 3})
WORKLOADS["one-vs-rest"] = ("exactlin.algorithms.multiclass", one_vs_rest_workload, {},
                            {"n": 200, "d": 5, "max_epochs": 20})

# issue 22's ratios (options on the fast path): benchmarks/issue22.py, through the public entry points only
from .issue22 import WORKLOADS22  # noqa: E402  (its factories import Impl, Ratio, Workload from here when called)

WORKLOADS.update(WORKLOADS22)
