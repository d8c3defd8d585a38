"""Layer 1, exact numbers: the one conversion rule (:mod:`~exactlin.exact.numbers`), the exact vector
operations every algorithm needs, and exact matrices held as integers over one denominator
(:mod:`~exactlin.exact.rows`)."""
