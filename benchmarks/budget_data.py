"""The two data sets of the default-budget benchmark (issue 14), generated from a seed.

Integer features uniform in [-100, 100]^d (d = 10 by default); labels from a planted integer
w* (entries in [-9, 9], not all zero) with an integer bias b* in [-50, 50]: ``separable`` labels every point
by sign(<w*, x> + b*) (points with score 0 are drawn again, so the set is strictly separable);
``noisy`` then flips the labels of 5% of the points (chosen by the same seed).  Pure Python
(``random.Random``), so the data are the same on every machine and every numpy version.

>>> X, y = make("separable", 20, seed=1); len(X), len(X[0]), sorted(set(y))
(20, 10, [-1, 1])
"""

from __future__ import annotations

import random

__all__ = ["SETS", "make"]

SETS = ("separable", "noisy")


def make(kind: str, n: int, d: int = 10, *, seed: int = 14, flip: float = 0.05) -> tuple[list, list]:
    """``(X, y)``: n rows of d ints and n labels +1/-1 (``kind``: separable or noisy)."""
    if kind not in SETS:
        raise ValueError(f"kind must be one of {', '.join(SETS)}, got {kind!r}")
    rng = random.Random(f"exactlin-budgets-{seed}-{d}")
    w = [0] * d
    while not any(w):
        w = [rng.randint(-9, 9) for _ in range(d)]
    b = rng.randint(-50, 50)
    X, y = [], []
    while len(X) < n:
        x = [rng.randint(-100, 100) for _ in range(d)]
        s = sum(wi * xi for wi, xi in zip(w, x)) + b
        if s == 0:
            continue
        X.append(x)
        y.append(1 if s > 0 else -1)
    if kind == "noisy":
        for i in rng.sample(range(n), round(flip * n)):
            y[i] = -y[i]
    return X, y
