"""Layer 2, data: datasets of exact vectors and labels, augmentation (bias first, last, none), normalized
samples and CSV reading.  Everything public lives in :mod:`exactlin.data.dataset`; the label policy itself (one
rule for every surface: identity, text, +1/-1, confusable labels) in :mod:`exactlin.data.labels`, whose
functions :mod:`exactlin.data.dataset` re-exports."""

from exactlin.data.dataset import *  # noqa: F401,F403
from exactlin.data.dataset import __all__  # noqa: F401
