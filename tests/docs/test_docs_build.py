"""The documentation site builds with ``mkdocs build --strict`` and has a generated page for everything the
registries hold (algorithms, worked examples, errata), with the trace tables and pictures computed at build time."""

from __future__ import annotations

import html
import re

import pytest
from tests.docs.docs_site import build_site

from exactlin.algorithms import all_specs
from exactlin.docsgen.mathtext import nav_title
from exactlin.lectures.errata import all_errata
from exactlin.lectures.examples import all_examples


@pytest.fixture(scope="module")
def site():
    return build_site()[0]


def page(site, rel: str) -> str:
    path = site / rel
    assert path.is_file(), f"missing generated page {rel}"
    return path.read_text(encoding="utf-8")


def test_build_is_strict_clean():
    _, log = build_site()
    assert "WARNING" not in log, log


def test_one_page_per_algorithm_with_trace_picture_and_json(site):
    specs = all_specs()
    assert specs
    for spec in specs:
        rel = f"algorithms/{spec.family}/{spec.name}"
        text = page(site, rel + ".html")
        assert html.escape(nav_title(spec.title), quote=False) in text, spec.name
        assert spec.seed in text, f"{spec.name}: the page must cite the seed file"
        assert "exactlin-trace" in text or "records no trace steps" in text, f"{spec.name}: no trace table"
        assert (site / (rel + ".json")).is_file(), f"{spec.name}: no JSON of the run"
        # the picture is written once per run: next to the page or on the worked example's page
        imgs = re.findall(r'<img[^>]+src="([^"]+\.svg)"', text)
        assert imgs, f"{spec.name}: no picture"
        for src in imgs:
            assert (site / rel).parent.joinpath(src).resolve().is_file(), f"{spec.name}: picture {src} missing"


def test_one_page_per_worked_example(site):
    index = page(site, "examples/index.html")
    for ex in all_examples():
        text = page(site, f"examples/{ex.id}.html")
        assert html.escape(nav_title(ex.title), quote=False) in text  # its heading and its entry in the nav
        assert f'href="{ex.id}.html"' in index


def test_errata_page_lists_every_erratum_with_its_demonstration(site):
    text = page(site, "errata.html")
    for e in all_errata():
        assert f'id="{e.id}"' in text, e.id
        assert e.seed in text
    assert "Demonstration" in text


def test_proof_page_walks_the_theorem_with_the_runs_numbers(site):
    text = page(site, "proof.html")
    # seed 000 Example 1 with w* = (1, -3) (hand derivation): mistakes at rounds 1, 2, 4 give
    # <w_t+1, w*> = 4, 6, 10 >= 2K = 2, 4, 6 and ||w_t+1||^2 = 16, 10, 10 <= 16K = 16, 32, 48; bound 16*10/2^2 = 40
    cells = [html.unescape(c) for c in re.findall(r"<td>([^<]*)</td>", text)]
    joined = " ".join(cells)
    assert "1 1 4 2 ✓ 16 16 ✓" in joined
    assert "2 2 6 4 ✓ 10 32 ✓" in joined
    assert "4 3 10 6 ✓ 10 48 ✓" in joined
    assert "<math" in text and "<mfrac>" in text


def test_cli_reference_is_captured_output(site):
    text = html.unescape(page(site, "reference/cli.html"))
    assert "usage: exactlin" in text
    assert "exactlin fit perceptron example1.csv --trace" in text
    assert "(1, -3)" in text


def test_no_generated_page_reports_a_failure(site):
    failed = [str(p.relative_to(site)) for p in site.rglob("*.html")
              if "admonition failure" in p.read_text(encoding="utf-8")]
    assert not failed, f"pages that show a failed computation (an example, a demonstration or a command): {failed}"


def test_math_is_mathml_and_nothing_comes_from_the_network(site):
    for p in site.rglob("*.html"):
        text = p.read_text(encoding="utf-8")
        assert "EXLMATH" not in text, p
        for tag in re.findall(r"<(?:script|link|img|iframe)\b[^>]*>", text):
            assert not re.search(r'(?:src|href)="(?:https?:)?//', tag), f"{p}: external resource {tag}"
    assert "<math" in page(site, "algorithms/perceptron/perceptron.html")


def test_derivations_are_rendered(site):
    import exactlin.lectures.derivations as derivations

    text = page(site, "derivations.html")
    for ident in getattr(derivations, "ALL_DERIVATIONS", {}):
        assert f'id="{ident.lower()}"' in text, ident
    assert "Identity checked symbolically by sympy: <strong>yes</strong>" in text
    # the gradient of J_s belongs on the MSE page, the Fisher maximizer on Fisher's
    specs = {s.name: s for s in all_specs()}
    if "mse" in specs:
        assert "gradient-Js" in page(site, "algorithms/mse/mse.html")
    if "fisher" in specs:
        assert "fisher-maximizer" in page(site, "algorithms/fisher/fisher.html")


def test_api_pages_show_the_generated_signatures(site):
    # a registered algorithm's source is its rule, name(X, y, P); the API page shows the public entry point's
    # signature, generated from the parameter table (docs/griffe_exactlin.py)
    text = html.unescape(re.sub(r"<[^>]+>", "", page(site, "reference/api/exactlin.algorithms.ho_kashyap.html")))
    sig = re.search(r"ho_kashyap_mod2\s*\((.*?)\)", text, re.S)
    assert sig is not None
    names = re.findall(r"(\w+)\s*=", sig.group(1))
    assert names[:6] == ["y", "bias", "positive", "floats", "max_epochs", "trace"]
    assert {"eta", "R", "a0", "b0", "b_min", "k_max"} <= set(names)
    assert "Checked" not in sig.group(1)
