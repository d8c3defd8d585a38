"""Layer 5: exact linear algebra (:mod:`~exactlin.linalg.matrices`: exact matrices on python-flint or sympy's
DomainMatrix, chosen per call with ``backend=``, the pseudoinverse, solves), seed 003's limit of the pseudoinverse
(:mod:`~exactlin.linalg.limit`), exact linear programming and Lemke's method (:mod:`~exactlin.linalg.lp`),
separability (:mod:`~exactlin.linalg.separation`) and the SVM QPs (:mod:`~exactlin.linalg.qp`,
:mod:`~exactlin.linalg.qp_linear`, float hints in :mod:`~exactlin.linalg.guess`)."""

from exactlin.linalg import limit, matrices
from exactlin.linalg.limit import *  # noqa: F401,F403
from exactlin.linalg.matrices import *  # noqa: F401,F403

__all__ = [*matrices.__all__, *limit.__all__]
