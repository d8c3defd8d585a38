"""Typed certificates: what an independent verifier in :mod:`exactlin.theory` proved about a result.

Kinds (the ``kind`` key of their JSON, unchanged from the dicts they replace):

* :class:`GordanCertificate` (``gordan``): multipliers lambda >= 0, sum 1, with sum_i lambda_i y_i x~_i = 0 --
  no w separates the samples; ``source`` says where lambda came from (a perceptron ``cycle`` with its period,
  an ``lp``, Ho-Kashyap's error vector ``e``);
* :class:`KeslerGordanCertificate` (``gordan-kesler``): the same on the Kesler vectors of a linear machine;
* :class:`SeparatorCertificate` (``separator``): a (augmented) with its minimum functional margin min_i y_i a.x~_i
  (and the intercept b where there is one);
* :class:`KKTCertificate` (``kkt``): an SVM optimum (alpha, b, w, the objective) and the KKT conditions checked;
* :class:`PenroseCertificate` (``penrose``): the four Penrose conditions of a pseudoinverse;
* :class:`HoKashyapVerdict` (``ho-kashyap``): separable (with its separator) / not separable (with its Gordan
  certificate and e) / undecided.

**Verified by construction.**  A certificate is made only by its verifier (``verify_gordan``,
``certify_separator``, ``verify_kesler_gordan``, ``verify_kkt``, ``verify_penrose``, ``verify_ho_kashyap`` in
:mod:`exactlin.theory`), which checks the claim exactly and raises :class:`~exactlin.errors.VerificationError`
otherwise.  The constructor enforces it: it requires a capability token (``MINT``, imported by this module and
the theory layer only) that only the verifiers pass; an algorithm that writes ``GordanCertificate(lam=...)`` gets
a VerificationError at once.  Why a token rather than re-verifying in ``__init__``: the check needs the data (the
samples Z), which a certificate does not carry, and the verifiers must stay in the theory layer, independent of the
code that produced the claim.  A test (``tests/model/test_certificates.py``) keeps the token out of every module but
this one and theory.

``from_dict`` is *read back*: it rebuilds a certificate that a verifier made and :func:`to_dict` wrote; it re-runs
nothing (it has no data to run on).  To re-check a certificate read from a file, pass its fields and your data to
the verifier again (``verify_gordan(Z, cert.lam)``).

Each kind's ``meaning`` is written once, on its class.  For readers of the old dicts a certificate is also a
read-only mapping over its JSON keys (``cert["lambda"]``, ``cert.get("verified")``).
"""

from __future__ import annotations

from dataclasses import InitVar, dataclass
from fractions import Fraction
from typing import Any, ClassVar

from exactlin.errors import VerificationError
from exactlin.model.serialize import from_jsonable, record, to_jsonable

__all__ = ["Certificate", "GordanCertificate", "KeslerGordanCertificate", "SeparatorCertificate", "KKTCertificate",
           "PenroseCertificate", "HoKashyapVerdict", "CERTIFICATES"]

#: the capability only the verifiers (exactlin.theory) and the read-back path hold
MINT = object()


def _q(v) -> Fraction:
    v = from_jsonable(v) if isinstance(v, str) else v
    if isinstance(v, bool) or not isinstance(v, (int, Fraction)):
        raise VerificationError(f"certificate: expected an exact rational, got {v!r}")
    return Fraction(v)


def _vec(v) -> tuple[Fraction, ...] | None:
    return None if v is None else tuple(_q(x) for x in v)


def _ints(v) -> tuple[int, ...] | None:
    return None if v is None else tuple(int(x) for x in v)


class Certificate:
    """Base of the typed certificates: the JSON frame (kind, verified, meaning) and the read-only mapping view."""

    kind: ClassVar[str]
    MEANING: ClassVar[str]
    #: (JSON key, attribute), in the order the JSON and the text report list them
    FIELDS: ClassVar[tuple[tuple[str, str], ...]]
    verified: ClassVar[bool] = True  # true by construction: only a verifier makes one

    def _check_token(self, token) -> None:
        if token is not MINT:
            raise VerificationError(f"a {type(self).__name__} is made only by its verifier in exactlin.theory "
                                    "(which checks the claim exactly); it cannot be constructed as verified")

    def __post_init__(self, _token=None):
        self._check_token(_token)

    @property
    def meaning(self) -> str:
        return self.MEANING

    def fields(self) -> dict[str, Any]:
        """The certificate's own fields by JSON key (values as held: Fractions, tuples), None left out."""
        return {k: getattr(self, a) for k, a in self.FIELDS if getattr(self, a) is not None}

    def to_dict(self) -> dict:
        return {"kind": self.kind, **{k: to_jsonable(v) for k, v in self.fields().items()}, "verified": True,
                "meaning": self.meaning}

    # read-only mapping view over the JSON keys -------------------------------------------------------
    def keys(self):
        return ["kind", *self.fields(), "verified", "meaning"]

    def __getitem__(self, key: str):
        if key == "kind":
            return self.kind
        if key == "verified":
            return True
        if key == "meaning":
            return self.meaning
        f = self.fields()
        if key in f:
            return f[key]
        raise KeyError(key)

    def get(self, key: str, default=None):
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key) -> bool:
        return key in self.keys()

    def __iter__(self):
        return iter(self.keys())

    def __len__(self) -> int:
        return len(self.keys())


def _mint(cls, **kw):
    """Used by the verifiers in exactlin.theory (and by read-back): the only way to make a certificate."""
    return cls(**kw, _token=MINT)


_GORDAN_SOURCES = ("cycle", "lp", "ho-kashyap", "given")


@record("gordan-certificate")
@dataclass(frozen=True)
class GordanCertificate(Certificate):
    """Gordan's alternative: lambda >= 0, sum lambda = 1, sum_i lambda_i y_i x~_i = 0."""

    lam: tuple
    source: str = "given"
    cycle: tuple | None = None  # the samples corrected in one period of a cycle, in order
    support: tuple | None = None  # the i with lambda_i > 0 (LP certificates)
    e: tuple | None = None  # Ho-Kashyap's error vector, lambda = -e / sum(-e)
    through_origin: bool = False
    features: str | None = None  # where the samples live when they are a kernel's features
    _token: InitVar[object] = None

    kind: ClassVar[str] = "gordan"
    MEANING: ClassVar[str] = ("sum_i lambda_i y_i x_i = 0 with lambda >= 0, sum 1: no w has y_i<w,x_i> > 0 for every "
                              "i (not linearly separable{})")
    FIELDS: ClassVar = (("lambda", "lam"), ("e", "e"), ("cycle", "cycle"), ("period", "period"),
                        ("support", "support"), ("source", "source"), ("features", "features"))

    def __post_init__(self, _token=None):
        self._check_token(_token)
        if self.source not in _GORDAN_SOURCES:
            raise VerificationError(f"Gordan certificate source must be one of {', '.join(_GORDAN_SOURCES)}")

    @property
    def period(self) -> int | None:
        return None if self.cycle is None else len(self.cycle)

    @property
    def meaning(self) -> str:
        return self.MEANING.format(" through the origin)" if self.through_origin else ")")

    def to_dict(self) -> dict:
        return {**super().to_dict(), "through_origin": self.through_origin}

    @classmethod
    def from_dict(cls, d: dict) -> GordanCertificate:
        """Read back (re-runs nothing: see the module docstring)."""
        return _mint(cls, lam=_vec(d["lambda"]), source=d.get("source", "given"), cycle=_ints(d.get("cycle")),
                     support=_ints(d.get("support")), e=_vec(d.get("e")),
                     through_origin=bool(d.get("through_origin", False)), features=d.get("features"))


@record("kesler-gordan-certificate")
@dataclass(frozen=True)
class KeslerGordanCertificate(Certificate):
    """Gordan's alternative on the Kesler vectors (y in block i, -y in block j) of a linear machine."""

    lam: tuple
    kesler_pairs: tuple  # the (sample, class index) pairs corrected in one period
    _token: InitVar[object] = None

    kind: ClassVar[str] = "gordan-kesler"
    MEANING: ClassVar[str] = ("a convex combination of Kesler vectors (y in block i, -y in block j) is 0: no linear "
                              "machine has g_i(y) > g_j(y) for every sample y of class i and every j != i")
    FIELDS: ClassVar = (("lambda", "lam"), ("kesler_pairs", "kesler_pairs"))

    @classmethod
    def from_dict(cls, d: dict) -> KeslerGordanCertificate:
        """Read back (re-runs nothing)."""
        return _mint(cls, lam=_vec(d["lambda"]), kesler_pairs=tuple(_ints(p) for p in d["kesler_pairs"]))


@record("separator-certificate")
@dataclass(frozen=True)
class SeparatorCertificate(Certificate):
    """A separator a (augmented) with y_i <a, x~_i> >= min_Ya for every i, min_Ya > margin (or >= it)."""

    a: tuple
    min_Ya: Fraction
    margin: Fraction = Fraction(0)
    strict: bool = True
    b: Fraction | None = None  # the intercept, where the bias mode has one
    _token: InitVar[object] = None

    kind: ClassVar[str] = "separator"
    MEANING: ClassVar[str] = ("y_i <a, x~_i> >= min_Ya for every sample, checked exactly, and min_Ya is above the "
                              "required margin: a separates the samples")
    FIELDS: ClassVar = (("a", "a"), ("min_Ya", "min_Ya"), ("b", "b"), ("margin", "margin"), ("strict", "strict"))

    @classmethod
    def from_dict(cls, d: dict) -> SeparatorCertificate:
        """Read back (re-runs nothing)."""
        return _mint(cls, a=_vec(d["a"]), min_Ya=_q(d["min_Ya"]), margin=_q(d.get("margin", 0)),
                     strict=bool(d.get("strict", True)), b=None if d.get("b") is None else _q(d["b"]))


@record("kkt-certificate")
@dataclass(frozen=True)
class KKTCertificate(Certificate):
    """An SVM optimum certified by its exact KKT conditions (sufficient for these convex problems) and a zero
    duality gap."""

    loss: str
    alpha: tuple
    b: Fraction
    w: tuple | None  # None for a kernel SVM (w lives in feature space)
    C: Fraction | None
    xi: tuple
    conditions: tuple
    primal_objective: Fraction
    dual_objective: Fraction
    norm2_w: Fraction
    _token: InitVar[object] = None

    kind: ClassVar[str] = "kkt"
    MEANING: ClassVar[str] = ("primal and dual feasibility, stationarity and complementary slackness hold exactly, and "
                              "the primal and dual objectives are equal: a proof that (w, b, alpha) is optimal")
    FIELDS: ClassVar = (("loss", "loss"), ("alpha", "alpha"), ("b", "b"), ("w", "w"), ("C", "C"), ("xi", "xi"),
                        ("conditions", "conditions"), ("objective", "objective"),
                        ("primal_objective", "primal_objective"), ("dual_objective", "dual_objective"),
                        ("norm2_w", "norm2_w"))

    @property
    def objective(self) -> Fraction:
        return self.primal_objective

    @classmethod
    def from_dict(cls, d: dict) -> KKTCertificate:
        """Read back (re-runs nothing)."""
        return _mint(cls, loss=d["loss"], alpha=_vec(d["alpha"]), b=_q(d["b"]), w=_vec(d.get("w")),
                     C=None if d.get("C") is None else _q(d["C"]), xi=_vec(d["xi"]),
                     conditions=tuple(str(c) for c in d["conditions"]), primal_objective=_q(d["primal_objective"]),
                     dual_objective=_q(d["dual_objective"]), norm2_w=_q(d["norm2_w"]))


PENROSE_CONDITIONS = ("Y P Y = Y", "P Y P = P", "(Y P)^t = Y P", "(P Y)^t = P Y")


@record("penrose-certificate")
@dataclass(frozen=True)
class PenroseCertificate(Certificate):
    """P is the Moore-Penrose pseudoinverse of the rows x cols matrix Y: the four Penrose conditions hold exactly
    (they determine P uniquely)."""

    rows: int
    cols: int
    conditions: tuple = PENROSE_CONDITIONS
    _token: InitVar[object] = None

    kind: ClassVar[str] = "penrose"
    MEANING: ClassVar[str] = ("Y P Y = Y, P Y P = P, (Y P)^t = Y P and (P Y)^t = P Y hold exactly: P is the unique "
                              "Moore-Penrose pseudoinverse Y^+")
    FIELDS: ClassVar = (("rows", "rows"), ("cols", "cols"), ("conditions", "conditions"))

    @classmethod
    def from_dict(cls, d: dict) -> PenroseCertificate:
        """Read back (re-runs nothing)."""
        return _mint(cls, rows=int(d["rows"]), cols=int(d["cols"]), conditions=tuple(str(c) for c in d["conditions"]))


HO_KASHYAP_VERDICTS = ("separable", "not_separable", "undecided")


@record("ho-kashyap-verdict")
@dataclass(frozen=True)
class HoKashyapVerdict(Certificate):
    """Ho-Kashyap's verdict on the current a and e = Y a - b: separable (Y a > 0, with its separator certificate),
    not separable (e <= 0, e != 0, Y^t e = 0: lambda = -e/sum(-e), with its Gordan certificate) or undecided."""

    verdict: str
    e: tuple
    certificate: SeparatorCertificate | GordanCertificate | None = None
    _token: InitVar[object] = None

    kind: ClassVar[str] = "ho-kashyap"
    MEANING: ClassVar[str] = ("separable: Y a > 0 checked exactly; not separable: e <= 0, e != 0 and Y^t e = 0, so "
                              "lambda = -e/sum(-e) is a verified Gordan certificate; undecided: neither holds yet")
    FIELDS: ClassVar = (("verdict", "verdict"), ("e", "e"), ("certificate", "certificate"))

    def __post_init__(self, _token=None):
        self._check_token(_token)
        if self.verdict not in HO_KASHYAP_VERDICTS:
            raise VerificationError(f"Ho-Kashyap verdict must be one of {', '.join(HO_KASHYAP_VERDICTS)}")
        if (self.certificate is None) != (self.verdict == "undecided"):
            raise VerificationError("a decided Ho-Kashyap verdict carries its certificate; an undecided one none")

    @classmethod
    def from_dict(cls, d: dict) -> HoKashyapVerdict:
        """Read back (re-runs nothing)."""
        c = d.get("certificate")
        if isinstance(c, dict):
            c = from_jsonable(c)
        return _mint(cls, verdict=d["verdict"], e=_vec(d["e"]), certificate=c)


#: every certificate class, by its kind
CERTIFICATES: dict[str, type] = {c.kind: c for c in (GordanCertificate, KeslerGordanCertificate, SeparatorCertificate,
                                                     KKTCertificate, PenroseCertificate, HoKashyapVerdict)}
