"""Layer 3: a saved model file (``exactlin fit ... --save model.json``, read by ``exactlin predict``).

One typed record, :class:`SavedModel`: the prediction model (:mod:`exactlin.model.models`) and what a reader
needs to use it on new data: the algorithm, the bias mode, the labels, the number of features, the
exactlin version that wrote it and :data:`FORMAT`, the version of this file layout.  :func:`load_model_text`
accepts the layouts of :data:`READS`; an older or newer layout is a ParameterError that names both versions.
It also accepts the JSON of ``exactlin fit --json`` (a Run's JSON carries its ``model``).

Format 2 writes every label with its type (:func:`exactlin.model.serialize.label_to_json`: a text that reads as
a number, a Fraction and a float tagged); format 1 wrote ints, texts and bools as they are and other labels as
their text, and reads back as it always did (a JSON string is a text label).

>>> from exactlin.model.models import LinearModel
>>> s = SavedModel(LinearModel((1, -3)), "perceptron", "none", (1, -1), 2, "0")
>>> load_model_text(saved_model_json(s)) == s
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from exactlin.errors import ParameterError
from exactlin.model.models import MODELS, canonical_label
from exactlin.model.serialize import from_jsonable, label_from_json, label_to_json, record, to_jsonable

__all__ = ["SavedModel", "FORMAT", "READS", "saved_model_json", "load_model_text"]

#: the version of the saved-model layout this exactlin writes
FORMAT = 2
#: the versions it reads (1: labels untyped, see the module docstring)
READS = (1, 2)


@record("saved-model")
@dataclass(frozen=True)
class SavedModel:
    """A prediction model with its metadata (see the module docstring); frozen, compared by value."""

    model: Any
    algorithm: str
    bias: str | None
    labels: tuple
    n_features: int | None
    exactlin_version: str
    format: int = FORMAT
    label_name: str | None = None
    feature_names: tuple | None = None

    def __post_init__(self):
        object.__setattr__(self, "labels", tuple(canonical_label(lab) for lab in self.labels))
        if self.feature_names is not None:
            object.__setattr__(self, "feature_names", tuple(self.feature_names))

    def to_dict(self) -> dict:
        return {"format": self.format, "exactlin_version": self.exactlin_version, "algorithm": self.algorithm,
                "bias": self.bias, "labels": [label_to_json(lab) for lab in self.labels],
                "n_features": self.n_features, "label_name": self.label_name,
                "feature_names": None if self.feature_names is None else list(self.feature_names),
                "model": to_jsonable(self.model)}

    @classmethod
    def from_dict(cls, d: dict) -> SavedModel:
        version = d.get("format")
        if version not in READS or isinstance(version, bool):
            _format_error(version)
        model = from_jsonable(d.get("model"))
        if not isinstance(model, MODELS):
            raise ParameterError("the saved model file has no prediction model (its \"model\" is not one of "
                                 f"{', '.join(m.record_tag for m in MODELS)})", parameter="model")
        labels = tuple(label_from_json(lab) for lab in d.get("labels") or ())
        return cls(model, d.get("algorithm", "?"), d.get("bias"), labels,
                   d.get("n_features"), str(d.get("exactlin_version", "?")), version, d.get("label_name"),
                   d.get("feature_names"))


def _format_error(version) -> None:
    if isinstance(version, int) and not isinstance(version, bool) and version > FORMAT:
        raise ParameterError(f"saved model format version {version} is newer than this exactlin reads (format "
                             f"{FORMAT}); upgrade exactlin", parameter="format")
    if isinstance(version, int) and not isinstance(version, bool):
        raise ParameterError(f"saved model format version {version} is older than this exactlin reads (formats "
                             f"{', '.join(map(str, READS))}); save the model again with `exactlin fit ... --save`",
                             parameter="format")
    raise ParameterError(f"saved model format version {version!r} is not a version number (this exactlin reads "
                         f"format {FORMAT})", parameter="format")


def saved_model_json(saved: SavedModel) -> str:
    """The JSON text of a saved model (exact rationals as strings)."""
    return json.dumps(to_jsonable(saved), indent=2) + "\n"


def load_model_text(text: str, *, source: str = "the model file") -> SavedModel:
    """A :class:`SavedModel` from JSON text: a saved-model file (its format version checked), or the JSON of
    ``exactlin fit --json`` (its ``model`` with the run's algorithm and bias; format and labels as known)."""
    try:
        raw = json.loads(text)
    except ValueError as e:
        raise ParameterError(f"{source}: not JSON ({e})", parameter="model") from None
    if not isinstance(raw, dict):
        raise ParameterError(f"{source}: expected a JSON object (a saved model), got {type(raw).__name__}",
                             parameter="model")
    if raw.get("record") == SavedModel.record_tag:
        return SavedModel.from_dict({k: v for k, v in raw.items() if k != "record"})
    if "format" in raw and "model" in raw:  # a saved model whose record tag is missing
        return SavedModel.from_dict(raw)
    if isinstance(raw.get("model"), dict) and "algorithm" in raw:  # the JSON of `exactlin fit --json`
        model = from_jsonable(raw["model"])
        if isinstance(model, MODELS):
            labels = tuple(getattr(model, "classes", ()) or (getattr(model, "positive", 1),
                                                             getattr(model, "negative", -1)))
            return SavedModel(model, raw["algorithm"], raw.get("bias"), labels, model.n_features(),
                              str(raw.get("exactlin_version", "?")))
    raise ParameterError(f"{source}: not a saved model (write one with `exactlin fit ALGORITHM DATA.csv --save "
                         "model.json`)", parameter="model")
