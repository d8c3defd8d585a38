"""Layer 5, exact linear algebra (:mod:`~exactlin.linalg.matrices`: python-flint matrices, the
pseudoinverse, solves) and exact linear programming (:mod:`~exactlin.linalg.lp`)."""

from exactlin.linalg.matrices import *  # noqa: F401,F403
from exactlin.linalg.matrices import __all__  # noqa: F401
