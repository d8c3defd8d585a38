"""The stand-alone checker (exactlin/exactlin_check.py) against exactlin's own verifiers (exactlin.theory.claims):
every algorithm's results check; every single-number change gets the same verdict from both; multipliers, alphas,
entries of Y^+ and Fisher's w are rejected with the claim named; a dropped witness entry is rejected; an equivalent
rewrite is accepted; the file runs without exactlin and without site-packages."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactlin import exactlin_check
from exactlin.algorithms import all_specs, get
from exactlin.errors import ExactlinError
from exactlin.theory.claims import verify_result

ROOT = Path(__file__).resolve().parents[1]
CHECKER = ROOT / "exactlin" / "exactlin_check.py"

# small data sets: separable (x1 <= x2 side), XOR (not separable), three classes
SEP = ([[0, 0], [1, 1], [2, 0], [0, 2], [3, 3]], [1, -1, 1, -1, -1])
XOR = ([[0, 0], [1, 1], [1, 0], [0, 1]], [1, 1, -1, -1])
THREE = ([[0, 0], [3, 0], [0, 3], [4, 1]], ["a", "b", "c", "b"])
THREE_CYCLE = ([[0, 0], [1, 1], [1, 0], [0, 1], [2, 2]], ["a", "a", "b", "b", "c"])
FISHER = ([[0, 0], [1, 1], [2, 0], [0, 3]], [1, 1, -1, -1])


def run_check(d, csv_text=None):
    lines: list[str] = []
    rc = exactlin_check.check(d if isinstance(d, str) else json.dumps(d), csv_text, out=lines.append)
    return rc, "\n".join(lines)


def exactlin_ok(d) -> bool:
    return all(ok for _, ok in verify_result(d))


def result(name, data, **kw) -> dict:
    return json.loads(get(name).func(*data, **kw).to_json(trace=False))


#: results that together make every kind of claim
CASES = {
    "perceptron-xor": ("perceptron", XOR, {}),  # gordan, cycle, training-errors
    "fixed-increment-sep": ("fixed-increment", SEP, {}),  # convergence-bound
    "ho-kashyap-sep": ("ho-kashyap", SEP, {}),  # separator
    "separable-xor": ("separable", XOR, {}),
    "svm-hard": ("svm-hard", SEP, {}),  # kkt hard, margin_squared
    "svm-soft-xor": ("svm-soft", XOR, {}),  # kkt hinge
    "svm-soft-l2": ("svm-soft-l2", SEP, {}),  # kkt squared
    "svm-poly": ("svm-hard", XOR, {"kernel": "poly", "degree": 2, "coef0": 1}),  # kkt with a polynomial kernel
    # not separable in the kernel's feature space: a Gordan certificate on the monomials of degree 0..2
    "svm-poly-gordan": ("svm-hard", ([[0, 0], [1, 0], [2, 0], [3, 0]], [1, -1, 1, -1]),
                        {"kernel": "poly", "degree": 2, "coef0": 1}),
    "mse": ("mse", SEP, {}),  # penrose
    "fisher": ("fisher", FISHER, {}),  # fisher, threshold errors
    "linear-machine-cycle": ("linear-machine", THREE_CYCLE, {}),  # kesler-gordan
    "linear-machine": ("linear-machine", THREE, {}),  # kesler bound, argmax errors
    "one-vs-rest": ("one-vs-rest", THREE, {}),  # one binary claim per class
    "feature-map-poly": ("feature-map", XOR, {"map": "poly", "degree": 2}),
    "threshold-unit": ("threshold-unit", SEP, {}),
    "voted-perceptron": ("voted-perceptron", SEP, {"bias": "first"}),  # the vote's training errors
}


@pytest.fixture(scope="module")
def results() -> dict[str, dict]:
    return {k: result(name, data, **kw) for k, (name, data, kw) in CASES.items()}


def test_every_kind_of_claim_is_exercised(results):
    kinds = {c["kind"] for d in results.values() for c in d["claims"]}
    assert kinds == set(exactlin_check.CHECKS)


@pytest.mark.parametrize("case", list(CASES))
def test_results_check(results, case):
    d = results[case]
    rc, text = run_check(d)
    assert rc == 0, text
    assert exactlin_ok(d)
    assert text.count(": holds") == len(d["claims"]) + 1  # the data line and one line per claim


def test_the_claims_say_what_the_lecture_says(results):
    # XOR (seed 000): the perceptron cycles through all four samples, lambda = 1/4 each
    g = next(c for c in results["perceptron-xor"]["claims"] if c["kind"] == "gordan")
    assert [Fraction(v) for v in g["lambda"]] == [Fraction(1, 4)] * 4
    # hard margin: primal = ||w||^2 / 2, margin = 1 / ||w||, so margin^2 = 1 / (2 primal); strong duality: primal = dual
    k = next(c for c in results["svm-hard"]["claims"] if c["kind"] == "kkt")
    assert k["primal_objective"] == k["dual_objective"]
    assert Fraction(k["margin_squared"]) == 1 / (2 * Fraction(k["primal_objective"]))
    # one-vs-rest: one binary claim per class
    ovr = [c for c in results["one-vs-rest"]["claims"] if c["kind"] == "training-errors"]
    assert [c["positive"] for c in ovr] == ["a", "b", "c"]


# ------------------------------------------------------------------------------------------ mutations
NOT_NUMBERS = {"classes", "positive", "negative", "threshold", "kind", "bias", "loss", "map", "tie", "model",
               "space", "labels", "options", "canonical", "sha256"}


def numeric_leaves(d):
    """Paths to every number in the claims and the data rows."""
    out = []

    def walk(v, path):
        if isinstance(v, dict):
            for k, x in v.items():
                if k not in NOT_NUMBERS:
                    walk(x, (*path, k))
        elif isinstance(v, list):
            for i, x in enumerate(v):
                walk(x, (*path, i))
        elif isinstance(v, int) and not isinstance(v, bool) or isinstance(v, str):
            try:
                Fraction(v)
                out.append(path)
            except (ValueError, TypeError):
                pass

    walk({"claims": d["claims"], "data": {"rows": d["data"]["rows"]}}, ())
    return out


def at(d, path):
    for k in path[:-1]:
        d = d[k]
    return d, path[-1]


def mutated(d, path, delta=1):
    e = copy.deepcopy(d)
    parent, key = at(e, path)
    v = parent[key]
    parent[key] = v + delta if isinstance(v, int) else str(Fraction(v) + delta)
    return e


@pytest.mark.parametrize("case", list(CASES))
def test_every_single_number_change_gets_exactlins_verdict(results, case):
    d = results[case]
    paths = numeric_leaves(d)
    assert paths
    for path in paths:
        for delta in (1, Fraction(-1, 2)):
            if isinstance(at(d, path)[0][at(d, path)[1]], int) and delta != 1:
                continue
            e = mutated(d, path, delta)
            rc, text = run_check(e)
            assert rc in (0, 1), (path, text)
            assert (rc == 0) == exactlin_ok(e), (case, path, delta, text)


WITNESS = {("gordan", "lambda"), ("kesler-gordan", "lambda"), ("kkt", "alpha"), ("penrose", "Y_pinv"),
           ("fisher", "w")}


@pytest.mark.parametrize("case", [k for k, (n, _, _) in CASES.items() if n in ("perceptron", "separable", "svm-hard",
                                                                              "svm-soft", "svm-soft-l2", "mse",
                                                                              "fisher", "linear-machine")])
def test_witness_changes_are_rejected_with_the_claim_named(results, case):
    d = results[case]
    n = 0
    for k, c in enumerate(d["claims"]):
        for kind, key in WITNESS:
            if c["kind"] != kind or key not in c:
                continue
            for path in numeric_leaves({"claims": [{key: c[key]}], "data": {"rows": []}}):
                path = ("claims", k, *path[2:])
                rc, text = run_check(mutated(d, path))
                assert rc == 1 and f"claim {k + 1} {kind}" in text and "fails" in text, (path, text)
                n += 1
    assert n > 0 or case in ("linear-machine",)


@pytest.mark.parametrize("case", list(CASES))
def test_a_dropped_witness_entry_is_rejected(results, case):
    d = results[case]
    for k, c in enumerate(d["claims"]):
        for key in ("lambda", "alpha", "Y_pinv", "w", "a", "samples", "W", "m1", "w_star"):
            if isinstance(c.get(key), list) and c[key]:
                e = copy.deepcopy(d)
                e["claims"][k][key].pop()
                rc, text = run_check(e)
                assert rc == 1 and f"claim {k + 1} {c['kind']}" in text, (key, text)
                assert not exactlin_ok(e)


def rewrite(v, key=None):
    """An equivalent result: keys reversed, every number p/q as 2p/2q, prose and verified flags removed."""
    if isinstance(v, dict):
        return {k: rewrite(x, k) for k, x in reversed(v.items())
                if k not in ("meaning", "verified", "reason_text", "method", "canonical", "monitor_note")}
    if isinstance(v, list):
        return [rewrite(x, key) for x in v]
    if isinstance(v, str) and key not in NOT_NUMBERS:
        try:
            q = Fraction(v)
        except ValueError:
            return v
        return f"{2 * q.numerator}/{2 * q.denominator}"
    return v


@pytest.mark.parametrize("case", list(CASES))
def test_an_equivalent_rewrite_is_accepted(results, case):
    d = results[case]
    e = {**{k: v for k, v in d.items() if k not in ("claims", "data")}, "claims": rewrite(d["claims"]),
         "data": {**rewrite(d["data"]), "labels": d["data"]["labels"], "options": d["data"]["options"]}}
    assert json.dumps(e) != json.dumps(d)
    rc, text = run_check(e)
    assert rc == 0, text


def test_a_result_checked_against_other_data_is_rejected(tmp_path, results):
    d = result("separable", SEP)
    assert run_check(d, "0,0,1\n1,1,-1\n2,0,1\n0,2,-1\n3,3,-1\n")[0] == 0
    rc, text = run_check(d, "0,0,1\n1,1,-1\n2,0,1\n0,2,-1\n3,4,-1\n")
    assert rc == 1 and "data" in text.splitlines()[-1]
    rc, _ = run_check(d, "0,0,1\n1,1,1\n2,0,1\n0,2,-1\n3,3,-1\n")  # one label changed
    assert rc == 1
    e = copy.deepcopy(d)
    e["data"]["rows"][4] = ["3", "4"]  # the embedded rows changed: the hash no longer matches
    assert run_check(e)[0] == 1 and not exactlin_ok(e)


# ------------------------------------------------------------------------------------------ every algorithm
def _datasets(draw_multi: bool):
    pts = st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=4, max_size=6, unique=True)
    if draw_multi:
        return st.tuples(pts, st.lists(st.sampled_from(["a", "b", "c"]), min_size=6, max_size=6))
    return st.tuples(pts, st.lists(st.sampled_from([1, -1]), min_size=6, max_size=6))


@pytest.mark.parametrize("spec", all_specs(), ids=lambda s: s.name)
def test_every_algorithm_on_generated_data_checks(spec):
    @settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
    @given(_datasets(spec.multiclass))
    def prop(data):
        X, y = data[0], data[1][:len(data[0])]
        kw = {"max_epochs": 30} if spec.iterative else {}
        try:
            r = spec.func([list(x) for x in X], y, **kw)
        except ExactlinError:  # one class only, coinciding means, ...: an input error, not a result
            return
        d = json.loads(r.to_json(trace=False))
        assert d["claims"], "every result claims something (at least its training errors)"
        rc, text = run_check(d)
        assert rc == 0, text
        assert exactlin_ok(d)

    prop()


# ------------------------------------------------------------------------------------------ malformed files
@pytest.mark.parametrize("text", [
    "not json", "[1, 2]", '{"result_format": "exactlin-result/1"}', '{"result_format": "other"}',
    '{"result_format": "exactlin-result/1", "data": {"rows": [[0.5]], "labels": ["1"], "options": {}, '
    '"sha256": ""}, "claims": []}',
])
def test_malformed_files_exit_2(text):
    assert run_check(text)[0] == 2


def malformed_claim(results, case, change):
    e = copy.deepcopy(results[case])
    change(e["claims"][0])
    return run_check(e)


@pytest.mark.parametrize("case,change", [
    ("perceptron-xor", lambda c: c.update(kind="unknown")),
    ("perceptron-xor", lambda c: c.pop("lambda")),
    ("perceptron-xor", lambda c: c.update({"lambda": "1/2"})),
    ("perceptron-xor", lambda c: c.update({"lambda": ["x"] * 4})),
    ("perceptron-xor", lambda c: c.update({"lambda": [[1]] * 4})),
    ("perceptron-xor", lambda c: c.update(bias="middle")),
    ("perceptron-xor", lambda c: c.update(features={"map": "sine"})),
    ("perceptron-xor", lambda c: c.update(features={"map": "poly", "degree": 0})),
    ("perceptron-xor", lambda c: c.update(features={"map": "poly", "degree": 2, "min_degree": 3})),
    ("svm-hard", lambda c: c.update(loss="logistic")),
    ("svm-hard", lambda c: c.update(kernel={"kind": "rbf"})),
    ("linear-machine-cycle", lambda c: c.update(pairs=[[0]] + c["pairs"][1:])),
    ("linear-machine-cycle", lambda c: c.update(pairs=[[0, True]] + c["pairs"][1:])),
    ("linear-machine", lambda c: c.update(space=None, kind="training-errors", model="tree", errors=[])),
])
def test_malformed_claims_exit_2(results, case, change):
    rc, text = malformed_claim(results, case, change)
    assert rc == 2 and text.startswith("malformed") or "malformed" in text, text


@pytest.mark.parametrize("case,change,message", [
    ("perceptron-xor", lambda c: c.update(features={"map": "circle"}, bias="none", kind="gordan",
                                          **{"lambda": ["1/4"] * 4}), "holds"),  # x1^2 + x2^2 of XOR: see below
    ("perceptron-xor", lambda c: c.update(kind="cycle", samples=[]), "at least one"),
    ("perceptron-xor", lambda c: c.update(kind="cycle", samples=[9]), "outside"),
    ("svm-hard", lambda c: c.update(C="-1", loss="hinge"), "C must be"),
    ("svm-hard", lambda c: c.update(intercept=False), "b must be 0"),
    ("svm-hard", lambda c: c.update(margin_squared="7"), "margin^2"),
    ("svm-soft-xor", lambda c: c.update(alpha=[c["C"]] * 3 + [str(Fraction(c["C"]) + 1)]), "> C"),
    ("fisher", lambda c: c.update(threshold="9"), "unknown threshold"),
    ("fisher", lambda c: c.update(y0="7"), "y0^(1)"),
    ("linear-machine-cycle", lambda c: c.update(pairs=[[0, 0]] + c["pairs"][1:]), "own class"),
    ("linear-machine-cycle", lambda c: c.update(classes=["a", "b"]), "not among"),
])
def test_failing_claims_are_named(results, case, change, message):
    rc, text = malformed_claim(results, case, change)
    assert message in text, text
    assert rc == (0 if message == "holds" else 1)


def test_feature_maps_of_the_checker():
    # seed 004's circle lift of XOR's (0,0),(1,1),(1,0),(0,1): z3 = 0, 2, 1, 1; poly degree 2 of (2, 3): 2, 3, 4, 6, 9
    S = exactlin_check.Samples([[Fraction(2), Fraction(3)]], ["1"], {"positive": "1"})
    assert S.x({"features": {"map": "poly", "degree": 2}}) == [[2, 3, 4, 6, 9]]
    assert S.x({"features": {"map": "circle"}}) == [[2, 3, 13]]
    S3 = exactlin_check.Samples([[Fraction(1)] * 3], ["1"], {})
    with pytest.raises(exactlin_check.Fails):
        S3.x({"features": {"map": "circle"}})


def test_bound_claim_failures(results):
    d = results["fixed-increment-sep"]
    k = next(i for i, c in enumerate(d["claims"]) if c["kind"] == "convergence-bound")
    for key, value, message in (("w_star", ["0", "0", "0"], "not > 0"), ("w_star", ["1"], "dimension"),
                                ("R2", "1", "R^2"), ("norm2_w_star", "1", "||w*||^2"), ("bound", "1", "bound")):
        e = copy.deepcopy(d)
        e["claims"][k][key] = value
        if key == "w_star" and value == ["0", "0", "0"]:
            e["claims"][k]["gamma"] = "0"
        rc, text = run_check(e)
        assert rc == 1 and message in text, text


def test_penrose_and_fisher_failures(results):
    d = results["mse"]
    e = copy.deepcopy(d)
    e["claims"][0]["Y_pinv"] = e["claims"][0]["Y_pinv"][:-1]
    assert "must be" in run_check(e)[1]
    e = copy.deepcopy(d)
    e["claims"][0]["Y"][0][0] = "9"
    assert "not the matrix" in run_check(e)[1]
    e = copy.deepcopy(d)
    e["claims"][0]["a"][0] = "9"
    assert "a != Y^+ b" in run_check(e)[1]
    f = copy.deepcopy(results["fisher"])
    for key in ("m1", "m2", "S_W"):
        g = copy.deepcopy(f)
        g["claims"][0][key] = [["0", "0"], ["0", "0"]] if key == "S_W" else ["9", "9"]
        assert run_check(g)[0] == 1
    g = copy.deepcopy(f)
    g["data"]["options"]["positive"] = "7"  # no sample in class omega_1 (and the hash still matches)
    assert "both classes" in run_check(g)[1]


def test_kkt_failures_at_each_condition():
    # two samples (0,0) -1 and (2,0) +1 (kkt.py's doctest): alpha = (1/2, 1/2), b = -1, w = (1, 0) is optimal
    rows, labels = [["0", "0"], ["2", "0"]], ["-1", "1"]

    def res(**kw):
        c = {"kind": "kkt", "bias": "first", "loss": "hard", "kernel": {"kind": "linear"}, "intercept": True,
             "alpha": ["1/2", "1/2"], "b": "-1", "w": ["1", "0"], "primal_objective": "1/2", "dual_objective": "1/2"}
        c.update(kw)
        import hashlib
        text = exactlin_check.canonical_text([[Fraction(v) for v in r] for r in rows], labels)
        data = {"rows": rows, "labels": labels, "options": {"positive": "1"}, "bias": "first",
                "sha256": hashlib.sha256(text.encode()).hexdigest()}
        return {"result_format": "exactlin-result/1", "data": data, "claims": [c]}

    assert run_check(res())[0] == 0
    for kw, message in (({"alpha": ["-1/2", "-1/2"]}, "alpha_1"), ({"alpha": ["1/2", "1"]}, "sum alpha_i y_i"),
                        ({"w": ["2", "0"]}, "stationarity"), ({"b": "0"}, "primal feasibility"),
                        ({"alpha": ["1", "1"], "w": ["2", "0"], "b": "-3"}, "complementary"),
                        ({"primal_objective": "1"}, "primal objective"), ({"dual_objective": "1"}, "dual objective"),
                        ({"loss": "hinge", "C": "1", "b": "-1/2"}, "xi_i"),
                        ({"kernel": {"kind": "poly", "degree": 1, "coef0": "0"}, "w": None}, "holds")):
        c = res(**kw)
        if kw.get("w", 0) is None:
            del c["claims"][0]["w"]
        rc, text = run_check(c)
        assert message in text, (kw, text)
    # squared slacks: alpha = 2 C xi, a duality gap is caught
    c = res(loss="squared", C="1", primal_objective="7", dual_objective="7")
    assert "fails" in run_check(c)[1]
    c = res(primal_objective="1/2", dual_objective="1/2", alpha=["1/2", "1/2"], w=["1", "0"])
    c["claims"][0]["primal_objective"] = "1/2"
    assert run_check(c)[0] == 0


def test_csv_parsing_with_the_recorded_options():
    rows = [[Fraction(1), Fraction(2)], [Fraction(3), Fraction(4)]]
    P = exactlin_check.parse_csv
    assert P("1,2,a\n3,4,b\n", {}) == (rows, ["a", "b"])
    assert P("x,y,l\n1,2,a\n3,4,b\n", {}) == (rows, ["a", "b"])  # header not recorded: detected
    assert P("# c\n\nx,y,label\n1,2,a # x\n3,4,b\n", {"header": True}) == (rows, ["a", "b"])
    assert P("label;x;y\na;1;2\nb;3;4\n", {"header": True, "label_column": "label"}) == (rows, ["a", "b"])
    assert P("a\t1\t2\nb\t3\t4\n", {"label_column": 1}) == (rows, ["a", "b"])
    assert P("1 2 a\n3 4 b\n", {"delimiter": " "}) == (rows, ["a", "b"])
    assert P('1,2,"a"\n3,4,b\n', {"label_column": "-1"}) == (rows, ["a", "b"])
    assert P("1,2,1.0\n3,4,-2/4\n", {}) == (rows, ["1", "-1/2"])
    assert exactlin_check.detect("1;2,5;a\n1;2;b,c,d\n") == ";"  # no consistent candidate: most on the first row
    assert exactlin_check.detect("1 2\n") == ","
    huge = '"' + "1" * 200_000 + '",2,a\n'  # past the csv module's field limit
    for text, opts in (("", {}), ("1,2,a\n3,b\n", {}), (huge, {}), ("1,x,a\n", {}),
                       ("x,y,l\n1,2,a\n", {"header": True, "label_column": "z"})):
        with pytest.raises(exactlin_check.Fails):
            P(text, opts)


def test_main_and_usage(tmp_path, capsys, results):
    p = tmp_path / "r.json"
    p.write_text(json.dumps(results["perceptron-xor"]))
    c = tmp_path / "xor.csv"
    c.write_text("0,0,1\n1,1,1\n1,0,-1\n0,1,-1\n")
    assert exactlin_check.main([str(p), str(c)]) == 0
    assert exactlin_check.main([]) == 2 and "usage" in capsys.readouterr().out
    assert exactlin_check.main(["--help"]) == 2 and "RESULT.json" in capsys.readouterr().out
    assert exactlin_check.main([str(tmp_path / "missing.json")]) == 2
    e = copy.deepcopy(results["perceptron-xor"])
    e["claims"] = []
    assert run_check(e) == (0, run_check(e)[1]) and "no claims" in run_check(e)[1]


# ------------------------------------------------------------------------------------------ stand-alone runs
def test_runs_without_site_packages_and_in_a_bare_venv(tmp_path, results):
    p = tmp_path / "r.json"
    p.write_text(json.dumps(results["svm-hard"]))
    alone = tmp_path / "exactlin_check.py"  # a copy outside the package: nothing of exactlin is importable
    alone.write_text(CHECKER.read_text())
    r = subprocess.run([sys.executable, "-I", "-S", str(alone), str(p)], capture_output=True, text=True,
                       cwd=tmp_path)
    assert r.returncode == 0 and "claim 1 kkt" in r.stdout, r.stdout + r.stderr
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    py = venv / ("Scripts" if sys.platform == "win32" else "bin") / "python"
    e = copy.deepcopy(results["svm-hard"])
    e["claims"][0]["alpha"][0] = "7"
    q = tmp_path / "bad.json"
    q.write_text(json.dumps(e))
    assert subprocess.run([str(py), str(alone), str(p)], cwd=tmp_path).returncode == 0
    r = subprocess.run([str(py), str(alone), str(q)], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 1 and "claim 1 kkt" in r.stdout and "fails" in r.stdout


def test_results_validate_against_the_schema(results):
    import jsonschema  # the test extra
    schema = json.loads((ROOT / "exactlin" / "claims.schema.json").read_text())
    for d in [*results.values(), json.loads((ROOT / "examples" / "results" / "xor-perceptron.json").read_text())]:
        jsonschema.validate(d, schema)
    bad = copy.deepcopy(results["mse"])
    bad["claims"][0]["Y_pinv"][0][0] = 0.5
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


def test_more_malformed_shapes(results):
    d = results["mse"]
    for change in (lambda e: e["claims"][0].update(Y_pinv="x"), lambda e: e.update(claims={}),
                   lambda e: e["data"].update(labels=[1] * len(e["data"]["labels"])),
                   lambda e: e["data"]["rows"][0].append("1")):
        e = copy.deepcopy(d)
        change(e)
        assert run_check(e)[0] == 2
    e = copy.deepcopy(d)
    e["data"]["rows"] = [[int(v) for v in r] for r in e["data"]["rows"]]  # JSON integers are exact numbers too
    assert run_check(e)[0] == 0


def test_a_threshold_unit_with_bias_input_minus_one(results):
    # Mitchell's unit with x_0 = -1: the checker negates the bias entry, as exactlin does
    d = result("threshold-unit", SEP, bias_input=-1)
    c = next(c for c in d["claims"] if c["kind"] == "training-errors")
    assert c["bias_input"] == -1
    assert run_check(d)[0] == 0 and exactlin_ok(d)
    e = mutated(d, ("claims", d["claims"].index(c), "a", 0))
    assert (run_check(e)[0] == 0) == exactlin_ok(e)


def test_run_as_a_script(tmp_path, monkeypatch, results, capsys):
    import runpy

    p = tmp_path / "r.json"
    p.write_text(json.dumps(results["perceptron-xor"]))
    monkeypatch.setattr(sys, "argv", ["exactlin_check.py", str(p)])
    with pytest.raises(SystemExit) as e:
        runpy.run_path(str(CHECKER), run_name="__main__")
    assert e.value.code == 0 and "claim 1 gordan" in capsys.readouterr().out


def test_the_checker_has_full_line_coverage(tmp_path):
    import coverage  # noqa: F401 - the test extra
    env = {**__import__("os").environ, "COVERAGE_FILE": str(tmp_path / ".coverage")}
    r = subprocess.run([sys.executable, "-m", "coverage", "run", "--include=*/exactlin/exactlin_check.py", "-m",
                        "pytest", "-q", "-p", "no:cacheprovider", "-x", str(Path(__file__)), "-k",
                        "not full_line_coverage"], cwd=ROOT, env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-2000:]
    rep = subprocess.run([sys.executable, "-m", "coverage", "report", "-m", "--fail-under=100"], cwd=ROOT, env=env,
                         capture_output=True, text=True)
    assert rep.returncode == 0, rep.stdout


def test_a_bias_input_other_than_plus_or_minus_one_is_malformed(results):
    e = copy.deepcopy(results["threshold-unit"])
    e["claims"][0]["bias_input"] = 0
    assert run_check(e)[0] == 2


def test_every_run_of_every_worked_example_checks():
    import jsonschema  # the test extra

    from exactlin.lectures.examples import all_examples, run_example
    from exactlin.render.report import example_dict

    schema = json.loads((ROOT / "exactlin" / "claims.schema.json").read_text())

    n = 0
    for ex in all_examples():
        d = json.loads(json.dumps(example_dict(ex, run_example(ex.id))))
        for r in d["runs"]:
            assert "result_format" in r, (ex.id, r["algorithm"])
            jsonschema.validate(r, schema)
            assert exactlin_ok(r), (ex.id, r["algorithm"])
            n += 1
        if d["runs"]:  # the example's JSON as a whole: the checker checks each run
            rc, text = run_check(d)
            assert rc == 0, (ex.id, text)
    assert n > 40


def test_an_example_file_with_a_failing_run(results):
    bad = copy.deepcopy(results["mse"])
    bad["claims"][0]["Y_pinv"][0][0] = "99"
    rc, text = run_check({"id": "x", "runs": [results["perceptron-xor"], bad]})
    assert rc == 1 and "run 2: mse" in text
    assert run_check({"id": "x", "runs": [[]]})[0] == 2


def test_vote_and_kernel_models_with_wrong_shapes(results):
    v = copy.deepcopy(results["voted-perceptron"])
    k = next(i for i, c in enumerate(v["claims"]) if c.get("model") == "vote")
    v["claims"][k]["vectors"][0]["w"].pop()
    assert run_check(v)[0] == 1 and not exactlin_ok(v)
    s = copy.deepcopy(results["svm-poly"])
    k = next(i for i, c in enumerate(s["claims"]) if c.get("model") == "kernel")
    s["claims"][k]["y"].pop()
    assert run_check(s)[0] == 1 and not exactlin_ok(s)


def test_numbers_past_pythons_digit_limit_and_the_limit_restored():
    # 2^20000 has 6,021 digits, past Python's default 4,300-digit limit for int <-> str
    import hashlib

    big = 2 ** 20000
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    rows, labels, text_big = [[str(big), "0"], [str(-big), "0"]], ["1", "-1"], str(big)
    text = exactlin_check.canonical_text([[Fraction(v) for v in r] for r in rows], labels)
    sys.set_int_max_str_digits(limit)
    d = {"result_format": "exactlin-result/1", "claims": [
        {"kind": "separator", "bias": "none", "w": ["1", "0"], "min_functional_margin": text_big}],
        "data": {"rows": rows, "labels": labels, "options": {"positive": "1"},
                 "sha256": hashlib.sha256(text.encode()).hexdigest()}}
    rc, out = run_check(json.dumps(d))
    assert rc == 0, out
    assert sys.get_int_max_str_digits() == limit
