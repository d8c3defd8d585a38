"""exactlin: the classical linear-classification algorithms, computed exactly.

Exact rational arithmetic throughout, convergence theorems checked while the
algorithms run, every claimed result verified before it is returned.
"""

from exactlin import errors as _errors
from exactlin import render as _render  # noqa: F401  (registers the Run views: HTML, LaTeX, plot)
from exactlin._version import __version__
from exactlin.data.dataset import Dataset, as_dataset, augment, binary_labels, normalize, read_csv
from exactlin.errors import *  # noqa: F403  (the whole exception hierarchy: errors.__all__)
from exactlin.exact.numbers import to_rational, to_vector
from exactlin.exact.rows import ExactRows, scaled
from exactlin.model.run import Run, Step

#: the registered algorithms' functions, so that ``from exactlin import *`` gives them too
ALGORITHMS = (
    "averaged_perceptron", "balanced_winnow", "batch_perceptron", "batch_pla", "batch_relaxation", "feature_map_run",
    "fisher", "fixed_increment", "ho_kashyap", "ho_kashyap_mod1", "ho_kashyap_mod2", "linear_machine", "lms", "mse",
    "one_vs_rest", "perceptron", "perceptron_gd", "pocket", "separable", "single_sample_relaxation", "svm_hard",
    "svm_soft", "svm_soft_l2", "threshold_unit", "variable_increment", "voted_perceptron", "widrow_hoff",
)

# the exception hierarchy is listed once, in exactlin/errors.py
__all__ = [
    "__version__",
    *_errors.__all__,
    "Dataset",
    "as_dataset",
    "augment",
    "binary_labels",
    "normalize",
    "read_csv",
    "to_rational",
    "to_vector",
    "ExactRows",
    "scaled",
    "Run",
    "Step",
    # the algorithms (looked up lazily by __getattr__ below; tests/test_init.py checks this list is the registry's)
    *ALGORITHMS,
]


def __getattr__(name):
    # algorithms are looked up lazily so that `import exactlin` stays light
    import importlib

    if name.startswith("__"):
        raise AttributeError(name)
    algorithms = importlib.import_module("exactlin.algorithms")
    try:
        return algorithms.get_function(name)
    except KeyError:
        raise AttributeError(f"module 'exactlin' has no attribute {name!r}") from None


def __dir__():
    # the module's own names and the lazily looked-up algorithms (exactlin.perceptron, exactlin.svm_hard, ...)
    from exactlin.algorithms import all_specs

    return sorted(set(globals()) | {spec.func.__name__ for spec in all_specs()})
