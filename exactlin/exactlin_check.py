#!/usr/bin/env python3
"""exactlin_check: re-check a saved exactlin result from its own data, with nothing but the standard library.

    python exactlin_check.py RESULT.json [DATA.csv]

RESULT.json is a result exactlin saved (``fit --json``, ``fit --save-result``, ``separable --json``,
``Run.to_json()``; format "exactlin-result/1").  This file imports nothing from exactlin, replays no run, ignores
every ``verified`` flag and every sentence of prose, and reads every number from its exact text ("-4/3", "7",
"0.25") into a ``fractions.Fraction``.  From the embedded rows it recomputes each claimed condition exactly:

separator          min_i y_i (w.x_i + b) equals the claimed minimum, which is above (or at) the claimed bound
gordan             lambda >= 0, sum lambda = 1, sum_i lambda_i y_i x~_i = 0: no separator exists
cycle              the samples corrected in one period: sum y_i x~_i = 0 (the weights came back)
kesler-gordan      lambda >= 0 on (sample s, other class j) pairs, sum 1, sum lambda (x~_s in block class(s),
                   -x~_s in block j) = 0: no linear machine classifies every sample
kkt                an SVM optimum: dual and primal feasibility, stationarity, complementary slackness, the
                   claimed primal and dual objectives equal to the recomputed ones and to each other
penrose            Y is the data's matrix of y_i x~_i and Y^+ satisfies the four Penrose conditions (a = Y^+ b)
fisher             m1, m2, S_W recomputed from the rows, S_W w = m1 - m2, and the rational threshold y0
convergence-bound  gamma = min y_i w*.x~_i > 0, R^2 = max ||x~_i||^2, ||w*||^2, bound = R^2 ||w*||^2 / gamma^2
                   (the count K is printed as reported, not certified)
training-errors    exactly the listed samples are misclassified by the returned weights

x~_i is row i after the claim's feature map (circle: (x1, x2, x1^2 + x2^2); poly of degree p: the monomials of
degree 1..p (min_degree..p when given: a polynomial kernel's Gordan certificate), degree by degree, in
itertools.combinations_with_replacement order), augmented by the bias mode
(none; first: (1, x); last: (x, 1)).  y_i = +1 when label_i is the positive label, else -1.  With DATA.csv the
file is parsed with the recorded options and must give the same rows and labels.

Prints one line per claim.  Exit status: 0 every claim holds; 1 a claim fails (named); 2 a malformed file.
"""

import csv
import hashlib
import json
import sys
from fractions import Fraction
from itertools import combinations_with_replacement

FORMAT = "exactlin-result/1"


class Malformed(Exception):
    """The file is not a result this checker reads (exit 2)."""


class Fails(Exception):
    """A claimed condition does not hold (exit 1)."""


def need(ok, msg):
    if not ok:
        raise Fails(msg)


def num(v, where):
    """An exact number from its JSON text: a string such as "-4/3" or "0.25", or a JSON integer."""
    if isinstance(v, int) and not isinstance(v, bool):
        return Fraction(v)
    if isinstance(v, str):
        try:
            return Fraction(v.strip())
        except (ValueError, ZeroDivisionError):
            pass
    raise Malformed(f"{where}: {v!r} is not an exact number")


def vec(v, where):
    if not isinstance(v, list):
        raise Malformed(f"{where}: expected a list of numbers")
    return [num(x, f"{where}[{i}]") for i, x in enumerate(v)]


def mat(v, where):
    if not isinstance(v, list):
        raise Malformed(f"{where}: expected a list of rows")
    return [vec(r, f"{where}[{i}]") for i, r in enumerate(v)]


def get(d, key, where, kind=None):
    if not isinstance(d, dict) or key not in d:
        raise Malformed(f"{where}: missing {key!r}")
    v = d[key]
    if kind is not None and not isinstance(v, kind):
        raise Malformed(f"{where}: {key!r} has the wrong type")
    return v


def index(v, n, where):
    if isinstance(v, bool) or not isinstance(v, int):
        raise Malformed(f"{where}: {v!r} is not an index")
    need(0 <= v < n, f"{where}: index {v} outside 0..{n - 1}")
    return v


def dot(u, v):
    return sum((a * b for a, b in zip(u, v)), Fraction(0))


def dims(v, n, what):
    need(len(v) == n, f"{what} has {len(v)} entries, expected {n}")


def sign(v):
    return 1 if v > 0 else -1 if v < 0 else 0


def fmt(q):
    return str(q)


# ------------------------------------------------------------------------------------------------ the data
def canonical_text(rows, labels):
    return "".join(",".join(fmt(v) for v in r) + "\t" + json.dumps(t) + "\n" for r, t in zip(rows, labels))


def read_data(d):
    data = get(d, "data", "result", dict)
    rows = mat(get(data, "rows", "data", list), "data.rows")
    labels = get(data, "labels", "data", list)
    if not all(isinstance(t, str) for t in labels) or len(labels) != len(rows):
        raise Malformed("data.labels: one label text per row")
    if rows and any(len(r) != len(rows[0]) for r in rows):
        raise Malformed("data.rows: rows of different lengths")
    options = get(data, "options", "data", dict)
    sha = get(data, "sha256", "data", str)
    return rows, labels, options, sha


def label_text(cell):
    s = cell.strip()
    try:
        return fmt(Fraction(s))
    except (ValueError, ZeroDivisionError):
        return s


def is_number(cell):
    try:
        Fraction(cell.strip())
        return True
    except (ValueError, ZeroDivisionError):
        return False


def detect(text):
    """The delimiter exactlin detects: a candidate occurring the same nonzero number of times on every row (tab,
    then ;, then ,); else the most frequent on the first row; else ','."""
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")][:50]
    for cand in ("\t", ";", ","):
        counts = {ln.count(cand) for ln in lines}
        if len(counts) == 1 and counts.pop() > 0:
            return cand
    first = lines[0] if lines else ""
    best = max(("\t", ";", ","), key=lambda c: (first.count(c), c == ","))
    return best if first.count(best) else ","


def parse_csv(text, options):
    """Rows and label texts of a CSV file, parsed with the result's recorded options."""
    delim = options.get("delimiter") or detect(text)
    table = []
    for line in text.splitlines():
        if not line.strip() or line.strip().startswith("#"):
            continue
        if "#" in line and '"' not in line:
            line = line.split("#", 1)[0]
        try:
            cells = next(csv.reader([line], delimiter=delim))
        except csv.Error as e:
            raise Fails(f"the data file: {e}") from None
        if any(c.strip() for c in cells):
            table.append(cells)
    need(table, "the data file has no rows")
    header = options.get("header")
    if header is None:  # not recorded (a result made in Python): a first row none of whose cells is a number
        header = not any(is_number(cell) for cell in table[0][:-1])
    header = table[0] if header else None
    body = table[1:] if header else table
    lc = options.get("label_column")
    width = len(table[0])
    if lc is None:
        k = width - 1
    elif header is not None and str(lc).strip() in [c.strip() for c in header]:
        k = [c.strip() for c in header].index(str(lc).strip())
    else:
        try:
            k = int(str(lc).strip())
        except ValueError:
            raise Fails(f"label column {lc!r} not in the data file's header") from None
        k = k + width if k < 0 else k - 1
    rows, labels = [], []
    for cells in body:
        need(len(cells) == width and 0 <= k < width, "the data file's rows have different widths")
        try:
            rows.append([Fraction(c.strip()) for j, c in enumerate(cells) if j != k])
        except (ValueError, ZeroDivisionError):
            raise Fails(f"a cell of the data file is not a number: {cells}") from None
        labels.append(label_text(cells[k]))
    return rows, labels


# ------------------------------------------------------------------------------------------------ samples
class Samples:
    def __init__(self, rows, labels, options):
        self.rows, self.labels, self.options, self.n = rows, labels, options, len(rows)

    def x(self, claim):
        """The claim's samples after its feature map (not augmented)."""
        f = claim.get("features")
        if f is None:
            return self.rows
        m = get(f, "map", "features")
        if m == "circle":
            need(all(len(r) == 2 for r in self.rows), "the circle map needs 2 features")
            return [[a, b, a * a + b * b] for a, b in self.rows]
        if m == "poly":
            p, lo = get(f, "degree", "features", int), f.get("min_degree", 1)
            if p < 1 or isinstance(lo, bool) or not isinstance(lo, int) or not 0 <= lo <= p:
                raise Malformed("features: degree must be >= 1 and 0 <= min_degree <= degree")
            d = len(self.rows[0]) if self.rows else 0
            mons = [c for k in range(lo, p + 1) for c in combinations_with_replacement(range(d), k)]
            out = []
            for r in self.rows:
                row = []
                for c in mons:
                    v = Fraction(1)
                    for j in c:
                        v *= r[j]
                    row.append(v)
                out.append(row)
            return out
        raise Malformed(f"features: unknown map {m!r}")

    def xt(self, claim):
        bias = get(claim, "bias", "claim")
        if bias not in ("none", "first", "last"):
            raise Malformed(f"claim: bias {bias!r}")
        x0 = c_bias_input(claim)
        one = [Fraction(x0)]
        return [one + r if bias == "first" else r + one if bias == "last" else list(r) for r in self.x(claim)]

    def y(self, claim):
        pos = claim.get("positive", self.options.get("positive"))
        return [1 if t == pos else -1 for t in self.labels]

    def z(self, claim):
        return [[s * v for v in x] for s, x in zip(self.y(claim), self.xt(claim))]


def c_bias_input(claim):
    """The constant of the augmentation: 1, or -1 for a threshold unit whose w_0 is the threshold."""
    v = claim.get("bias_input", 1)
    if v not in (1, -1) or isinstance(v, bool):
        raise Malformed(f"claim: bias_input {v!r} (1 or -1)")
    return v


def zero_combination(lam, vectors, what):
    """lambda >= 0, sum lambda = 1, sum lambda_i v_i = 0."""
    for i, v in enumerate(lam):
        need(v >= 0, f"{what}: lambda_{i + 1} = {v} < 0")
    need(sum(lam) == 1, f"{what}: the multipliers sum to {sum(lam)}, not 1")
    d = len(vectors[0]) if vectors else 0
    for j in range(d):
        s = sum((a * v[j] for a, v in zip(lam, vectors) if a), Fraction(0))
        need(s == 0, f"{what}: component {j + 1} of the combination is {s}, not 0")


# ------------------------------------------------------------------------------------------------ the claims
def check_separator(c, S):
    X, y = S.x(c), S.y(c)
    w = vec(get(c, "w", "separator"), "w")
    b = num(c["b"], "b") if c.get("bias") != "none" else Fraction(0)
    m = num(get(c, "min_functional_margin", "separator"), "min_functional_margin")
    above = num(c.get("above", "0"), "above")
    need(S.n > 0, "no samples")
    dims(w, len(X[0]), "w")
    worst = min(yi * (dot(w, x) + b) for x, yi in zip(X, y))
    need(worst == m, f"min_i y_i (w.x_i + b) is {worst}, not the claimed {m}")
    need(m > above if c.get("strict", True) is not False else m >= above, f"the minimum {m} is not above {above}")
    return f"min_i y_i (w.x_i + b) = {m} > {above}" if c.get("strict", True) is not False else \
        f"min_i y_i (w.x_i + b) = {m} >= {above}"


def check_gordan(c, S):
    lam = vec(get(c, "lambda", "gordan"), "lambda")
    dims(lam, S.n, "lambda")
    zero_combination(lam, S.z(c), "gordan")
    return f"lambda >= 0, sum 1, sum_i lambda_i y_i x~_i = 0 on {S.n} samples: not linearly separable"


def check_cycle(c, S):
    idx = [index(i, S.n, "cycle.samples") for i in get(c, "samples", "cycle", list)]
    need(idx, "a cycle needs at least one correction")
    Z = S.z(c)
    total = [sum((Z[i][j] for i in idx), Fraction(0)) for j in range(len(Z[0]))]
    need(not any(total), f"the corrections of the period sum to {[fmt(v) for v in total]}, not 0")
    return f"the {len(idx)} corrections of one period sum to 0: the weights return, the run never converges"


def kesler(c, S, W=None):
    """(class index per sample, the Kesler vectors of the given (s, j) pairs or of all)."""
    classes = get(c, "classes", c["kind"], list)
    cls = []
    for t in S.labels:
        need(t in classes, f"label {t!r} is not among the classes {classes}")
        cls.append(classes.index(t))
    X = S.xt(c)
    d, k = (len(X[0]) if X else 0), len(classes)

    def vector(s, j):
        v = [Fraction(0)] * (k * d)
        v[cls[s] * d:(cls[s] + 1) * d] = X[s]
        v[j * d:(j + 1) * d] = [-t for t in X[s]]
        return v

    pairs = W if W is not None else [(s, j) for s in range(S.n) for j in range(k) if j != cls[s]]
    return cls, [vector(s, j) for s, j in pairs], k


def check_kesler_gordan(c, S):
    pairs = get(c, "pairs", "kesler-gordan", list)
    lam = vec(get(c, "lambda", "kesler-gordan"), "lambda")
    dims(lam, len(pairs), "lambda")
    k = len(get(c, "classes", "kesler-gordan", list))
    pp = []
    for p in pairs:
        if not isinstance(p, list) or len(p) != 2:
            raise Malformed("kesler-gordan.pairs: [sample, class] pairs")
        pp.append((index(p[0], S.n, "pairs sample"), index(p[1], k, "pairs class")))
    cls, V, _ = kesler(c, S, pp)
    need(all(j != cls[s] for s, j in pp), "a pair names the sample's own class")
    zero_combination(lam, V, "kesler-gordan")
    return f"a convex combination of {len(pp)} Kesler vectors is 0: no linear machine classifies every sample"


def kernel_fn(c):
    k = get(c, "kernel", "kkt", dict)
    kind = get(k, "kind", "kernel")
    if kind == "linear":
        return dot
    if kind == "poly":
        p, c0 = get(k, "degree", "kernel", int), num(get(k, "coef0", "kernel"), "coef0")
        return lambda u, v: (dot(u, v) + c0) ** p
    raise Malformed(f"kernel: unknown kind {kind!r}")


def check_kkt(c, S):
    loss = get(c, "loss", "kkt")
    if loss not in ("hard", "hinge", "squared"):
        raise Malformed(f"kkt: unknown loss {loss!r}")
    K = kernel_fn(c)
    X, y, n = S.rows, S.y(c), S.n
    alpha = vec(get(c, "alpha", "kkt"), "alpha")
    b = num(get(c, "b", "kkt"), "b")
    dims(alpha, n, "alpha")
    C = num(get(c, "C", "kkt"), "C") if loss != "hard" else None
    need(C is None or C > 0, "C must be > 0")
    intercept = get(c, "intercept", "kkt", bool)
    need(intercept or b == 0, f"without an intercept b must be 0, got {b}")
    for i, a in enumerate(alpha):
        need(a >= 0, f"dual feasibility: alpha_{i + 1} = {a} < 0")
        need(loss != "hinge" or a <= C, f"dual feasibility: alpha_{i + 1} = {a} > C = {C}")
    if intercept:
        s = sum((a * t for a, t in zip(alpha, y)), Fraction(0))
        need(s == 0, f"stationarity in b: sum alpha_i y_i = {s}, not 0")
    sv = [j for j in range(n) if alpha[j]]
    if "w" in c:
        w = vec(c["w"], "w")
        dims(w, len(X[0]), "w")
        for j in range(len(w)):
            s = sum((alpha[i] * y[i] * X[i][j] for i in sv), Fraction(0))
            need(s == w[j], f"stationarity: w_{j + 1} = {w[j]} but sum_i alpha_i y_i x_ij = {s}")
        f = [dot(w, x) + b for x in X]
        norm2 = dot(w, w)
    else:
        f = [sum((alpha[j] * y[j] * K(X[j], X[i]) for j in sv), Fraction(0)) + b for i in range(n)]
        norm2 = sum((alpha[i] * alpha[j] * y[i] * y[j] * K(X[i], X[j]) for i in sv for j in sv), Fraction(0))
    if loss == "hard":
        xi = [Fraction(0)] * n
    elif loss == "hinge":
        xi = [max(Fraction(0), 1 - t * v) for t, v in zip(y, f)]
    else:
        xi = [a / (2 * C) for a in alpha]
    for i in range(n):
        m = y[i] * f[i]
        need(m >= 1 - xi[i], f"primal feasibility at sample {i + 1}: y_i f(x_i) = {m} < {1 - xi[i]}")
        need(not alpha[i] or m == 1 - xi[i], f"complementary slackness at sample {i + 1}: alpha_i > 0 but "
             f"y_i f(x_i) = {m} != {1 - xi[i]}")
        need(loss != "hinge" or not xi[i] or alpha[i] == C, f"complementary slackness at sample {i + 1}: "
             f"xi_i = {xi[i]} > 0 but alpha_i != C")
    sa = sum(alpha, Fraction(0))
    primal = norm2 / 2 + (C * sum(xi) if loss == "hinge" else C * sum(v * v for v in xi) if loss == "squared" else 0)
    dual = sa - norm2 / 2 - (sum(a * a for a in alpha) / (4 * C) if loss == "squared" else 0)
    P, D = num(get(c, "primal_objective", "kkt"), "primal_objective"), num(get(c, "dual_objective", "kkt"),
                                                                            "dual_objective")
    need(P == primal, f"the primal objective is {primal}, not the claimed {P}")
    need(D == dual, f"the dual objective is {dual}, not the claimed {D}")
    need(primal == dual, f"duality gap {primal - dual}")
    if "margin_squared" in c:
        ms = num(c["margin_squared"], "margin_squared")
        need(norm2 > 0 and ms == 1 / norm2, f"margin^2 = 1/||w||^2 = {1 / norm2 if norm2 else 'undefined'}, "
             f"not the claimed {ms}")
    return f"{loss} SVM optimal: KKT conditions hold and primal = dual = {fmt(P)}"


def matmul(A, B):
    return [[dot(r, col) for col in zip(*B)] for r in A]


def transpose(A):
    return [list(r) for r in zip(*A)]


def check_penrose(c, S):
    Y = mat(get(c, "Y", "penrose"), "Y")
    need(Y == S.z(c), "Y is not the matrix of the data's rows y_i x~_i")
    P = mat(get(c, "Y_pinv", "penrose"), "Y_pinv")
    n, d = len(Y), len(Y[0]) if Y else 0
    need(len(P) == d and all(len(r) == n for r in P), f"Y^+ must be {d} x {n}")
    YP, PY = matmul(Y, P), matmul(P, Y)
    need(matmul(YP, Y) == Y, "Y Y^+ Y != Y")
    need(matmul(PY, P) == P, "Y^+ Y Y^+ != Y^+")
    need(transpose(YP) == YP, "Y Y^+ is not symmetric")
    need(transpose(PY) == PY, "Y^+ Y is not symmetric")
    if "a" in c:
        a, m = vec(c["a"], "a"), vec(get(c, "margins", "penrose"), "margins")
        dims(m, n, "margins")
        need(a == [dot(r, m) for r in P], "a != Y^+ b")
    return "the four Penrose conditions hold: Y^+ is the pseudoinverse of Y" + (", a = Y^+ b" if "a" in c else "")


def check_fisher(c, S):
    X, y = S.rows, S.y(c)
    one = [x for x, t in zip(X, y) if t == 1]
    two = [x for x, t in zip(X, y) if t == -1]
    need(one and two, "both classes need samples")
    d = len(X[0])

    def mean(A):
        return [sum((x[j] for x in A), Fraction(0)) / len(A) for j in range(d)]

    m1, m2 = mean(one), mean(two)
    SW = [[sum(((x[i] - m[i]) * (x[j] - m[j]) for A, m in ((one, m1), (two, m2)) for x in A), Fraction(0))
           for j in range(d)] for i in range(d)]
    need(vec(get(c, "m1", "fisher"), "m1") == m1, "m1 is not the mean of class omega_1")
    need(vec(get(c, "m2", "fisher"), "m2") == m2, "m2 is not the mean of class omega_2")
    need(mat(get(c, "S_W", "fisher"), "S_W") == SW, "S_W is not the within-class scatter of the rows")
    w = vec(get(c, "w", "fisher"), "w")
    dims(w, d, "w")
    need([dot(r, w) for r in SW] == [a - b for a, b in zip(m1, m2)], "S_W w != m1 - m2")
    out = "m1, m2, S_W recomputed; S_W w = m1 - m2"
    if "y0" in c:
        rule, y0 = get(c, "threshold", "fisher"), num(c["y0"], "y0")
        t1, t2 = dot(w, m1), dot(w, m2)
        want = {"1": (t1 + t2) / 2, "2": (len(one) * t1 + len(two) * t2) / (len(one) + len(two)),
                "3": (t1 + t2) / 2}.get(rule)  # y0^(3) is rational only with equal priors, where it is y0^(1)
        need(want is not None, f"unknown threshold rule {rule!r}")
        need(y0 == want, f"y0^({rule}) = {want}, not the claimed {y0}")
        out += f"; y0^({rule}) = {fmt(y0)}"
    return out


def check_bound(c, S):
    if c.get("space") == "kesler":
        _, Z, _ = kesler(c, S)
    else:
        Z = S.z(c)
    ws = vec(get(c, "w_star", "convergence-bound"), "w_star")
    need(Z and len(ws) == len(Z[0]), "w* has the wrong dimension")
    g, R2 = num(get(c, "gamma", "bound"), "gamma"), num(get(c, "R2", "bound"), "R2")
    n2, bound = num(get(c, "norm2_w_star", "bound"), "norm2_w_star"), num(get(c, "bound", "bound"), "bound")
    gamma = min(dot(ws, z) for z in Z)
    need(gamma == g, f"gamma = min y_i w*.x~_i is {gamma}, not the claimed {g}")
    need(gamma > 0, f"gamma = {gamma} is not > 0: w* does not separate")
    need(max(dot(z, z) for z in Z) == R2, "R^2 is not max ||x~_i||^2")
    need(dot(ws, ws) == n2, "||w*||^2 is wrong")
    need(bound == R2 * n2 / (gamma * gamma), f"the bound R^2 ||w*||^2 / gamma^2 is {R2 * n2 / gamma ** 2}")
    return f"gamma = {fmt(g)} > 0, R^2 = {fmt(R2)}, ||w*||^2 = {fmt(n2)}, bound {fmt(bound)} (K = {c.get('K')} " \
           "reported, not certified)"


def check_errors(c, S):
    model = get(c, "model", "training-errors")
    errs = get(c, "errors", "training-errors", list)
    for i in errs:
        index(i, S.n, "errors")
    if model == "linear":
        a, X, y = vec(get(c, "a", "training-errors"), "a"), S.xt(c), S.y(c)
        dims(a, len(X[0]) if X else 0, "a")
        tie = c.get("tie", "none")
        wrong = []
        for i, x in enumerate(X):
            g = dot(a, x)
            side = (1 if g > 0 else -1 if g < 0 else 0) if tie == "none" else (1 if (g >= 0 if tie == ">=" else g > 0)
                                                                            else -1)
            if side != y[i]:
                wrong.append(i)
    elif model == "threshold":
        w, y0, y = vec(get(c, "w", "training-errors"), "w"), num(get(c, "y0", "training-errors"), "y0"), S.y(c)
        dims(w, len(S.rows[0]), "w")
        wrong = [i for i, x in enumerate(S.rows) if (1 if dot(w, x) > y0 else -1) != y[i]]
    elif model in ("vote", "kernel"):
        X, y = S.xt(c), S.y(c)
        if model == "vote":  # sign(sum_k c_k sign(w_k.x~))
            pairs = [(vec(get(v, "w", "vote"), "w"), get(v, "c", "vote", int)) for v in get(c, "vectors", "vote", list)]
            need(pairs and all(len(w) == len(X[0]) for w, _ in pairs), "a voting vector has the wrong length")
            g = [sum(k * sign(dot(w, x)) for w, k in pairs) for x in X]
        else:  # sign(sum_i alpha_i y_i K(s_i, x~) + b)
            K, sup = kernel_fn(c), mat(get(c, "support", "kernel"), "support")
            al, ys, b = vec(get(c, "alpha", "kernel"), "alpha"), get(c, "y", "kernel", list), num(c.get("b", "0"), "b")
            need(len(sup) == len(al) == len(ys) and all(len(v) == len(X[0]) for v in sup), "the support vectors, "
                 "alpha and y must have one entry each, in the samples' dimension")
            g = [sum((a * t * K(v, x) for v, a, t in zip(sup, al, ys)), Fraction(0)) + b for x in X]
        wrong = [i for i, v in enumerate(g) if sign(v) != y[i]]
    elif model == "argmax":
        W = mat(get(c, "W", "training-errors"), "W")
        cls, _, k = kesler(c, S, [])
        X = S.xt(c)
        need(len(W) == k and all(len(w) == len(X[0]) for w in W), "W has the wrong shape")
        wrong = []
        for i, x in enumerate(X):
            g = [dot(w, x) for w in W]
            if g.count(max(g)) != 1 or g.index(max(g)) != cls[i]:
                wrong.append(i)
    else:
        raise Malformed(f"training-errors: unknown model {model!r}")
    need(sorted(set(errs)) == wrong, f"the misclassified samples are {[i + 1 for i in wrong]} (numbered from 1), "
         f"not the claimed {[i + 1 for i in errs]}")
    return f"{len(wrong)} of {S.n} samples misclassified, as claimed"


CHECKS = {"separator": check_separator, "gordan": check_gordan, "cycle": check_cycle,
          "kesler-gordan": check_kesler_gordan, "kkt": check_kkt, "penrose": check_penrose, "fisher": check_fisher,
          "convergence-bound": check_bound, "training-errors": check_errors}


def check(result_text, csv_text=None, out=print):
    """Check a result (or each run of a worked example's JSON, ``exactlin examples show ID --json``); print one
    line per claim; return the exit status (0, 1 or 2).  Numbers of any length: Python's limit on the digits of
    int <-> str conversions is lifted while checking, and restored after."""
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return check_text(result_text, csv_text, out)
    finally:
        sys.set_int_max_str_digits(limit)


def check_text(result_text, csv_text, out):
    try:
        d = json.loads(result_text, parse_float=lambda s: _no_float(s), parse_constant=_no_float)
    except (Malformed, ValueError, RecursionError) as e:
        out(f"malformed: {e}")
        return 2
    if isinstance(d, dict) and "result_format" not in d and isinstance(d.get("runs"), list) and d["runs"]:
        status = 0
        for k, run in enumerate(d["runs"], 1):
            out(f"run {k}: {run.get('algorithm') if isinstance(run, dict) else '?'}")
            status = max(status, check_one(run, csv_text, out))
        return status
    return check_one(d, csv_text, out)


def check_one(d, csv_text, out):
    try:
        if not isinstance(d, dict) or d.get("result_format") != FORMAT:
            raise Malformed(f"not an {FORMAT} result (no or another result_format)")
        rows, labels, options, sha = read_data(d)
        claims = get(d, "claims", "result", list)
        if not all(isinstance(c, dict) and c.get("kind") in CHECKS for c in claims):
            raise Malformed(f"every claim needs a kind among {', '.join(CHECKS)}")
    except Malformed as e:
        out(f"malformed: {e}")
        return 2
    failed = []
    digest = hashlib.sha256(canonical_text(rows, labels).encode("utf-8")).hexdigest()
    line = f"data: {len(rows)} rows, sha256 of the canonical text"
    if digest != sha:
        failed.append("data")
        out(f"{line}: fails (recorded {sha}, computed {digest})")
    elif csv_text is not None:
        try:
            r2, l2 = parse_csv(csv_text, options)
            need(r2 == rows and l2 == labels, "the data file's rows or labels differ from the result's")
            out(f"{line} and the data file: holds")
        except Fails as e:
            failed.append("data")
            out(f"{line} and the data file: fails ({e})")
    else:
        out(f"{line}: holds")
    S = Samples(rows, labels, options)
    for k, c in enumerate(claims, 1):
        name = f"claim {k} {c['kind']}" + (f" (positive {c['positive']})" if "positive" in c else "")
        try:
            what = CHECKS[c["kind"]](c, S)
            out(f"{name}: {what}: holds")
        except Fails as e:
            failed.append(name)
            out(f"{name}: fails ({e})")
        except (Malformed, IndexError, TypeError, ValueError, ZeroDivisionError) as e:
            out(f"malformed: {name}: {e or type(e).__name__}")
            return 2
    if not claims:
        out("no claims")
    out(f"{len(claims) + 1 - len(failed)} of {len(claims) + 1} hold" + (f"; fails: {', '.join(failed)}"
                                                                        if failed else ""))
    return 1 if failed else 0


def _no_float(s):
    raise Malformed(f"{s} is a float: an exact result writes numbers as strings such as \"1/3\"")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) not in (1, 2) or argv[0] in ("-h", "--help"):
        print(__doc__.split("\n\n")[1].strip() if argv else "usage: exactlin_check.py RESULT.json [DATA.csv]")
        return 2
    try:
        with open(argv[0], encoding="utf-8") as f:
            text = f.read()
        csv_text = None
        if len(argv) == 2:
            with open(argv[1], encoding="utf-8", newline="") as f:
                csv_text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        print(f"malformed: cannot read: {e}")
        return 2
    return check(text, csv_text)


if __name__ == "__main__":
    sys.exit(main())
