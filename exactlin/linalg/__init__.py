"""Layer 5, exact linear algebra (:mod:`~exactlin.linalg.matrices`: exact matrices on python-flint or sympy's
DomainMatrix, chosen per call with ``backend=``, the pseudoinverse, solves), exact linear programming and Lemke's
method (:mod:`~exactlin.linalg.lp`), separability (:mod:`~exactlin.linalg.separation`) and the SVM QPs
(:mod:`~exactlin.linalg.qp`, :mod:`~exactlin.linalg.qp_linear`, float hints in :mod:`~exactlin.linalg.guess`)."""

from exactlin.linalg.matrices import *  # noqa: F401,F403
from exactlin.linalg.matrices import __all__  # noqa: F401
