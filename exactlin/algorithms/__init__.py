"""Layer 5: the algorithms, one module per family as the notes group them.

Every algorithm is one function registered here with :func:`register`: its CLI
name, its family, the seed file and algorithm number it implements, and its
parameter table.  The CLI, the docs generator and the tests walk
:data:`REGISTRY`; no algorithm knows about them.

Family modules (each optional while the project grows: a module not yet written
is simply absent from the registry):
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field

from exactlin.model.params import Param

__all__ = ["AlgorithmSpec", "REGISTRY", "register", "get", "get_function", "all_specs", "FAMILIES"]

#: family key -> (title as the notes group them, modules in that family)
FAMILIES: dict[str, tuple[str, tuple[str, ...]]] = {
    "perceptron": ("Perceptron family", ("perceptron", "perceptron_family", "winnow", "relaxation")),
    "mse": ("Minimum squared error and Ho-Kashyap", ("mse", "ho_kashyap")),
    "fisher": ("Fisher's linear discriminant", ("fisher",)),
    "multiclass": ("Multi-category", ("multiclass",)),
    "margin": ("Maximum margin", ("separability", "svm")),
    "features": ("Generalized linear discriminants", ("features",)),
}

#: common keyword arguments every registered function accepts besides its table
COMMON_KWARGS = ("bias", "positive", "floats", "max_epochs", "trace")


@dataclass
class AlgorithmSpec:
    name: str  # CLI name, e.g. "fixed-increment"
    func: Callable
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

    @property
    def doc(self) -> str:
        return self.func.__doc__ or ""


REGISTRY: dict[str, AlgorithmSpec] = {}
_loaded = False


def register(name: str, *, family: str, seed: str, number: str | None, title: str, params=(),
             multiclass: bool = False, iterative: bool = True, bias_default: str = "none", monitor: str = "",
             **extra) -> Callable:
    """Decorator: add an algorithm function to the registry under its CLI name."""
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r}")

    def deco(func: Callable) -> Callable:
        if name in REGISTRY and REGISTRY[name].func is not func:
            raise ValueError(f"algorithm {name!r} registered twice")
        REGISTRY[name] = AlgorithmSpec(name, func, family, seed, number, title, tuple(params), multiclass,
                                       iterative, bias_default, monitor, dict(extra))
        func.spec = REGISTRY[name]
        return func

    return deco


def load_all() -> None:
    """Import every family module that exists."""
    global _loaded
    if _loaded:
        return
    for _, (_, modules) in FAMILIES.items():
        for m in modules:
            try:
                importlib.import_module(f"{__name__}.{m}")
            except ModuleNotFoundError as e:
                if e.name != f"{__name__}.{m}":
                    raise
    _loaded = True


def get(name: str) -> AlgorithmSpec:
    load_all()
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
    load_all()
    for spec in REGISTRY.values():
        if spec.func.__name__ == pyname:
            return spec.func
    raise KeyError(pyname)
