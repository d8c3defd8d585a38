"""Typed certificates (exactlin.model.certificates): each kind is made by its verifier in exactlin.theory,
rejected with VerificationError when the claim is wrong, round-trips through JSON as the same record, and cannot
be constructed as "verified" without a verifier.  Expected values are hand derivations (comments say how)."""

from __future__ import annotations

import dataclasses
import json
import pathlib
import re
from fractions import Fraction as F

import pytest

from exactlin.errors import VerificationError
from exactlin.model.certificates import (
    CERTIFICATES,
    GordanCertificate,
    HoKashyapVerdict,
    KeslerGordanCertificate,
    KKTCertificate,
    PenroseCertificate,
    SeparatorCertificate,
)
from exactlin.model.serialize import from_jsonable, to_jsonable
from exactlin.theory.certificates import (
    certify_separator,
    verify_gordan,
    verify_ho_kashyap,
    verify_kesler_gordan,
)
from exactlin.theory.kkt import verify_kkt
from exactlin.theory.penrose import verify_penrose

# seed 000, Example 2 (bias none): z_i = y_i x_i = (1,1), (-1,1), (1,-1), (-1,-1) sum to 0
XOR_Z = [(1, 1), (-1, 1), (1, -1), (-1, -1)]
# seed 000, Example 1: z_i = (4,0), (-1,-1), (0,-1), (-2,-2); w = (1,-3) gives 4, 2, 3, 4
EX1_Z = [(4, 0), (-1, -1), (0, -1), (-2, -2)]


def round_trip(cert):
    text = json.dumps(to_jsonable(cert))
    back = from_jsonable(json.loads(text))
    assert back == cert and type(back) is type(cert)
    return json.loads(text)


def test_gordan_made_by_its_verifier_and_round_trips():
    cert = verify_gordan(XOR_Z, (F(1, 4),) * 4, source="cycle", cycle=(0, 1, 2, 3), through_origin=True)
    assert isinstance(cert, GordanCertificate) and cert.verified and cert.period == 4
    d = round_trip(cert)
    # the CLI JSON keeps today's keys, and adds the record tag
    assert d["record"] == "gordan-certificate" and d["kind"] == "gordan" and d["verified"] is True
    assert d["lambda"] == ["1/4"] * 4 and d["cycle"] == [0, 1, 2, 3] and "through the origin" in d["meaning"]
    assert cert["lambda"] == (F(1, 4),) * 4 and cert.get("e") is None  # the read-only mapping view


@pytest.mark.parametrize("lam, fragment", [
    ((F(1, 2), F(1, 2), 0, 0), "component 1"),  # (1,1) + (-1,1) = (0, 2) != 0
    ((F(1, 2), 0, F(1, 2), -0), "component"),   # (1,1) + (1,-1) = (2, 0)
    ((F(1, 3), F(1, 3), F(1, 3), F(1, 3)), "sum to 4/3"),
    ((F(1, 2), F(1, 2), F(1, 2), F(-1, 2)), "negative"),
])
def test_gordan_rejected_when_wrong(lam, fragment):
    with pytest.raises(VerificationError, match=fragment):
        verify_gordan(XOR_Z, lam)


def test_gordan_from_an_lp_lists_its_support():
    # (-1,1) + (1,-1) = 0: lambda = (0, 1/2, 1/2, 0) (hand derivation)
    cert = verify_gordan(XOR_Z, (0, F(1, 2), F(1, 2), 0), source="lp", support=True)
    assert cert.support == (1, 2) and cert.source == "lp"
    round_trip(cert)


def test_kesler_gordan():
    # two Kesler vectors that cancel: lambda = (1/2, 1/2)
    K = [(1, 0, -1, 0), (-1, 0, 1, 0)]
    cert = verify_kesler_gordan(K, (F(1, 2), F(1, 2)), [(0, 1), (1, 0)])
    assert isinstance(cert, KeslerGordanCertificate) and cert.kesler_pairs == ((0, 1), (1, 0))
    assert round_trip(cert)["kesler_pairs"] == [[0, 1], [1, 0]]
    with pytest.raises(VerificationError):
        verify_kesler_gordan(K, (1, 0), [(0, 1)])


def test_separator():
    cert = certify_separator(EX1_Z, (1, -3))
    assert isinstance(cert, SeparatorCertificate) and cert.min_Ya == 2  # min(4, 2, 3, 4), hand derivation
    d = round_trip(cert)
    assert d["kind"] == "separator" and d["a"] == ["1", "-3"] and d["min_Ya"] == "2"
    with pytest.raises(VerificationError, match="sample 2"):  # index 1, numbered from 1 in messages
        certify_separator(EX1_Z, (1, 0))  # <(1,0), (-1,-1)> = -1
    with pytest.raises(VerificationError):
        certify_separator(EX1_Z, (1, -3), margin=3, strict=False)  # sample 1 has 2 < 3


def test_kkt():
    # two points (0,0) label -1, (2,0) label +1: w = (1,0), b = -1, alpha = (1/2, 1/2), objective ||w||^2/2 = 1/2
    cert = verify_kkt([(0, 0), (2, 0)], [-1, 1], ["1/2", "1/2"], -1, w=(1, 0))
    assert isinstance(cert, KKTCertificate) and cert.objective == F(1, 2) and cert.norm2_w == 1
    d = round_trip(cert)
    assert d["kind"] == "kkt" and d["verified"] is True and d["alpha"] == ["1/2", "1/2"] and d["b"] == "-1"
    with pytest.raises(VerificationError, match="stationarity"):
        verify_kkt([(0, 0), (2, 0)], [-1, 1], [1, 1], -1, w=(1, 0))


def test_penrose():
    # Y = (1 2)^t (a column): Y^+ = (1/5, 2/5) (hand derivation: Y^+ = Y^t / (Y^t Y))
    cert = verify_penrose([(1,), (2,)], [(F(1, 5), F(2, 5))])
    assert isinstance(cert, PenroseCertificate) and (cert.rows, cert.cols) == (2, 1) and len(cert.conditions) == 4
    round_trip(cert)
    with pytest.raises(VerificationError, match="Penrose condition 1"):
        verify_penrose([(1,), (2,)], [(F(1, 2), F(1, 2))])


def test_ho_kashyap_verdicts():
    sep = verify_ho_kashyap(EX1_Z, (1, -3), (1, 1, 1, 1))
    assert sep.verdict == "separable" and isinstance(sep.certificate, SeparatorCertificate)
    # e = -(1,1,1,1) on XOR: lambda = -e/sum(-e) = 1/4 each, and sum lambda_i z_i = 0 (hand derivation)
    ns = verify_ho_kashyap(XOR_Z, (0, 0), (-1, -1, -1, -1))
    assert ns.verdict == "not_separable" and ns.certificate.lam == (F(1, 4),) * 4 and ns.certificate.e == (-1,) * 4
    und = verify_ho_kashyap(XOR_Z, (0, 0), (-1, 0, 0, 0))  # lambda = (1,0,0,0) does not give 0
    assert und.verdict == "undecided" and und.certificate is None
    for v in (sep, ns, und):
        assert isinstance(v, HoKashyapVerdict)
        round_trip(v)


@pytest.mark.parametrize("cls", list(CERTIFICATES.values()))
def test_cannot_be_constructed_as_verified_without_a_verifier(cls):
    fields = {f.name: None for f in dataclasses.fields(cls) if f.name != "_token"}
    with pytest.raises(VerificationError, match="made only by its verifier"):
        cls(**fields)
    with pytest.raises(VerificationError, match="made only by its verifier"):
        cls(**fields, _token=object())  # a token of one's own does not pass


def test_certificates_are_frozen():
    cert = verify_gordan(XOR_Z, (F(1, 4),) * 4)
    with pytest.raises(AttributeError):
        cert.lam = (1, 0, 0, 0)


def test_only_the_verifiers_hold_the_token():
    root = pathlib.Path(__file__).resolve().parents[2] / "exactlin"
    users = sorted(str(p.relative_to(root)) for p in root.rglob("*.py")
                   if re.search(r"\bMINT\b|\b_mint\b", p.read_text()))
    assert all(u.startswith("theory/") or u == "model/certificates.py" for u in users), users
    # no algorithm module builds a certificate class or reads one back itself
    for p in (root / "algorithms").glob("*.py"):
        text = p.read_text()
        for cls in CERTIFICATES.values():
            assert not re.search(rf"\b{cls.__name__}\s*[.(]", text), f"{p.name} builds a {cls.__name__}"


def test_every_algorithm_certificate_is_typed():
    from exactlin import perceptron
    from exactlin.algorithms.ho_kashyap import ho_kashyap
    from exactlin.algorithms.multiclass import linear_machine
    from exactlin.algorithms.separability import separable
    from exactlin.algorithms.svm import svm_hard

    X2, y2 = [(1, 1), (-1, 1), (1, -1), (-1, -1)], [1, -1, 1, -1]  # seed 000 Example 2 as labelled points
    assert isinstance(perceptron([(1, 1), (1, -1), (-1, 1), (-1, -1)], [1, -1, -1, 1]).extras["certificate"],
                      GordanCertificate)
    assert isinstance(separable([(0, 0), (1, 1), (0, 1), (1, 0)], [1, 1, -1, -1]).extras["certificate"],
                      GordanCertificate)
    assert isinstance(separable(X2, [1, 1, -1, -1]).extras["certificate"], SeparatorCertificate)
    assert isinstance(svm_hard([(0, 0), (1, 1), (0, 1), (1, 0)], [1, 1, -1, -1]).extras["certificate"],
                      GordanCertificate)
    assert isinstance(svm_hard([(0, 0), (2, 0)], [-1, 1]).extras["kkt"], KKTCertificate)
    assert isinstance(ho_kashyap([(4, 0), (1, 1), (0, 1), (-2, -2)], [1, -1, -1, 1]).extras["certificate"],
                      SeparatorCertificate)
    lm = linear_machine([(0, 0), (1, 1), (0, 1), (1, 0)], [1, 1, 2, 2], max_epochs=50)
    assert isinstance(lm.extras["certificate"], KeslerGordanCertificate)
    del y2
