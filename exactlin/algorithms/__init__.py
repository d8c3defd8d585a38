"""Layer 5: the algorithms, one module per family as the notes group them.

Every algorithm is one function registered here with :func:`register`: its CLI
name, its family, the seed file and algorithm number it implements, and its
parameter table.  The CLI, the docs generator and the tests walk
:data:`REGISTRY`; no algorithm knows about them.

The contract every algorithm keeps is enforced once, by :func:`register` (see
:mod:`exactlin.algorithms._contract`): the registered name is a generated entry point that checks the
keyword parameters against the table, fills the defaults and calls the algorithm's rule with one
checked parameter object.  Every module listed in :data:`FAMILIES` must import: an import error
propagates (a misspelled module never silently drops an algorithm).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field

from exactlin.model.extras import Notation
from exactlin.model.params import Conflict, Param

__all__ = ["AlgorithmSpec", "REGISTRY", "register", "get", "get_function", "all_specs", "FAMILIES", "ARITHMETICS"]

#: family key -> (title as the notes group them, modules in that family)
FAMILIES: dict[str, tuple[str, tuple[str, ...]]] = {
    "perceptron": ("Perceptron family", ("perceptron", "perceptron_family", "perceptron_batch", "voted", "winnow",
                                          "relaxation", "threshold_unit")),
    "mse": ("Minimum squared error and Ho-Kashyap", ("mse", "ho_kashyap")),
    "fisher": ("Fisher's linear discriminant", ("fisher",)),
    "multiclass": ("Multi-category", ("multiclass",)),
    "margin": ("Maximum margin", ("separability", "svm")),
    "features": ("Generalized linear discriminants", ("features",)),
}

#: algorithm name -> the family module (of :data:`FAMILIES`) that registers it, so that :func:`get` imports
#: that one module (``exactlin fit NAME`` then imports neither python-flint nor the other families).  Only an
#: index: a name missing here (or registered elsewhere) is still found, by :func:`load_all`; a test checks
#: the index against the full registry.
MODULE_OF: dict[str, str] = {
    "perceptron": "perceptron",
    **dict.fromkeys(("fixed-increment", "variable-increment", "pocket"), "perceptron_family"),
    **dict.fromkeys(("batch-perceptron", "batch-pla", "perceptron-gd"), "perceptron_batch"),
    **dict.fromkeys(("voted-perceptron", "averaged-perceptron"), "voted"),
    "balanced-winnow": "winnow",
    "single-sample-relaxation": "relaxation",
    "batch-relaxation": "relaxation",
    "threshold-unit": "threshold_unit",
    **dict.fromkeys(("ho-kashyap", "ho-kashyap-mod1", "ho-kashyap-mod2"), "ho_kashyap"),
    **dict.fromkeys(("mse", "lms", "widrow-hoff"), "mse"),
    "fisher": "fisher",
    "linear-machine": "multiclass",
    "one-vs-rest": "multiclass",
    "separable": "separability",
    **dict.fromkeys(("svm-hard", "svm-soft", "svm-soft-l2"), "svm"),
    "feature-map": "features",
}

#: common keyword arguments every registered function accepts besides its table (a multi-class algorithm
#: has no ``positive``), and the exact arithmetics ``arithmetic=`` names (the CLI's ``--arithmetic``)
from exactlin.algorithms._contract import ARITHMETICS as ARITHMETICS  # noqa: E402  (defined once there)
from exactlin.algorithms._contract import COMMON_KWARGS as COMMON_KWARGS  # noqa: E402


@dataclass
class AlgorithmSpec:
    name: str  # CLI name, e.g. "fixed-increment"
    func: Callable  # the public entry point (checks the call, then runs the rule)
    family: str
    seed: str  # seed file name, e.g. "003_ffe0ec08819b37d8.txt"
    number: str | None  # "Algorithm 4" or None
    title: str
    params: tuple[Param, ...] = ()
    multiclass: bool = False
    iterative: bool = True
    bias_default: str = "none"
    monitor: str = ""  # where the convergence theorem applies: a sentence for the docs
    extra: dict = field(default_factory=dict)
    conflicts: tuple[Conflict, ...] = ()  # the contradicting settings the table declares
    #: the exact arithmetics ``arithmetic=`` may name besides "auto" (exactlin.algorithms._contract.ARITHMETICS)
    arithmetics: tuple[str, ...] = ()
    #: how the notes write the rule's test and update (:class:`exactlin.model.extras.Notation`; None: the renderers'
    #: generic step listing)
    notation: Notation | None = None

    @property
    def rule(self) -> Callable:
        """The algorithm's own function, ``rule(X, y, P)`` with P the checked parameters."""
        return self.func.rule

    @property
    def doc(self) -> str:
        """The rule's docstring as written (the entry point's ``__doc__`` adds the generated parameter table)."""
        return self.rule.__doc__ or ""


REGISTRY: dict[str, AlgorithmSpec] = {}
_loaded = False


def register(name: str, *, family: str, seed: str, number: str | None, title: str, params=(), conflicts=(),
             multiclass: bool = False, iterative: bool = True, bias_default: str = "none", monitor: str = "",
             arithmetics: tuple[str, ...] = (), notation: Notation | None = None, **extra) -> Callable:
    """Decorator: register an algorithm's rule under its CLI name and return its public entry point.

    The rule is ``rule(X, y, P)``; the entry point (:func:`exactlin.algorithms._contract.entry_point`) has
    the signature generated from ``params`` (``X, y=None, *, bias, positive, floats, max_epochs, trace`` and
    the table), checks every keyword once (unknown names, values, ``conflicts``), and passes the rule one
    :class:`~exactlin.algorithms._contract.Checked` object.  ``notation``: how the notes write the rule's test and
    update (:class:`~exactlin.model.extras.Notation`), for the renderers' step listings."""
    from exactlin.algorithms._contract import entry_point

    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r}")

    def deco(rule: Callable) -> Callable:
        if name in REGISTRY and REGISTRY[name].func.rule.__qualname__ != rule.__qualname__:
            raise ValueError(f"algorithm {name!r} registered twice")
        func = entry_point(name, rule, params, conflicts, multiclass=multiclass, bias_default=bias_default,
                           iterative=iterative, arithmetics=arithmetics)
        REGISTRY[name] = AlgorithmSpec(name, func, family, seed, number, title, tuple(params), multiclass,
                                       iterative, bias_default, monitor, dict(extra), tuple(conflicts),
                                       tuple(arithmetics), notation)
        func.spec = REGISTRY[name]
        return func

    return deco


def load_all() -> None:
    """Import every family module of :data:`FAMILIES`; an import error (a misspelled module too) propagates."""
    global _loaded
    if _loaded:
        return
    for _, (_, modules) in FAMILIES.items():
        for m in modules:
            importlib.import_module(f"{__name__}.{m}")
    _loaded = True


def load(name: str) -> None:
    """Import the module that registers ``name`` (by :data:`MODULE_OF`; every family when the index does not
    know it or the module did not register it).  Cheap when ``name`` is registered already."""
    if name in REGISTRY:
        return
    module = MODULE_OF.get(name) if isinstance(name, str) else None
    if module is not None:
        importlib.import_module(f"{__name__}.{module}")
    if name not in REGISTRY:
        load_all()


def get(name: str) -> AlgorithmSpec:
    load(name)
    if name not in REGISTRY:
        from exactlin.errors import ParameterError

        raise ParameterError(f"unknown algorithm {name!r}; known: {', '.join(sorted(REGISTRY))}",
                             parameter="algorithm")
    return REGISTRY[name]


def all_specs() -> list[AlgorithmSpec]:
    load_all()
    order = list(FAMILIES)
    return sorted(REGISTRY.values(), key=lambda s: (order.index(s.family), s.name))


def get_function(pyname: str) -> Callable:
    """Look up an algorithm's Python function by its function name (``exactlin.perceptron``)."""
    if isinstance(pyname, str):
        load(pyname.replace("_", "-"))  # the module of the algorithm so named; every family for any other name
    for spec in REGISTRY.values():
        if spec.func.__name__ == pyname:
            return spec.func
    load_all()
    for spec in REGISTRY.values():
        if spec.func.__name__ == pyname:
            return spec.func
    raise KeyError(pyname)
