"""Every algorithm page is a derivation: the sections in the textbook's order, the implementation last, no internal
name before it, and no plain-text mathematics on any algorithm or worked-example page (the build fails on it).

The pages are generated once (``site.generate()``, without mkdocs); tests/docs builds and opens the real site."""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest

import exactlin
from exactlin.algorithms import all_specs
from exactlin.docsgen import site
from exactlin.docsgen.algopages import IMPLEMENTATION, SECTIONS
from exactlin.docsgen.mathtext import plain_math
from exactlin.errors import VerificationError
from exactlin.lectures.examples import all_examples


@pytest.fixture(scope="module")
def pages():
    site.generate()
    return dict(site.GENERATED)


def _headings(md: str) -> list[str]:
    return re.findall(r"^## (.+?)\s*$", md, re.M)


def test_every_algorithm_page_has_the_sections_in_order(pages):
    specs = all_specs()
    assert len(specs) >= 26
    for spec in specs:
        heads = _headings(pages[site.algo_path(spec)])
        assert len(heads) == len(SECTIONS), (spec.name, heads)
        for got, want in zip(heads, SECTIONS):
            assert got in want if isinstance(want, tuple) else got == want, (spec.name, heads)
        assert heads[-1] == IMPLEMENTATION


def _internal_names(pages) -> tuple[set[str], set[str]]:
    """Module constants (UPPER_SNAKE names bound at module level anywhere in exactlin) and the extras keys of
    every run the pages show."""
    consts = set()
    for m in pkgutil.walk_packages(exactlin.__path__, "exactlin."):
        if m.name.endswith("__main__"):
            continue
        try:
            mod = importlib.import_module(m.name)
        except ImportError:  # optional extras (e.g. scikit-learn glue) are not the pages' concern
            continue
        consts |= {k for k in vars(mod) if re.fullmatch(r"[A-Z][A-Z0-9]*_[A-Z0-9_]+", k)}
    keys = set()
    for ex in all_examples():
        for run in ex.func().runs:
            keys |= set(run.extras)
    return consts, keys


def test_no_internal_name_before_the_implementation_section(pages):
    consts, keys = _internal_names(pages)
    assert "LEMKE_SUBSET_MAX" in consts or any(c.startswith("DEFAULT_") for c in consts)
    math = re.compile(r"\$\$.+?\$\$|\$[^$\n]+?\$", re.S)
    for spec in all_specs():
        md = pages[site.algo_path(spec)]
        head = md[:md.index(f"## {IMPLEMENTATION}")]
        text = math.sub(" ", head)  # symbols such as J_s or S_W are mathematics there, not names
        code = " ".join(a or b for a, b in re.findall(r"`([^`\n]+)`|<code>(.*?)</code>", text, re.S))
        found = [c for c in consts if re.search(rf"(?<![A-Za-z0-9_]){c}(?![A-Za-z0-9_])", text)]
        found += [k for k in keys if ("_" in k and re.search(rf"(?<![A-Za-z0-9_\\]){re.escape(k)}(?![A-Za-z0-9_])",
                                                              text)) or (len(k) >= 3 and k in code.split())]
        found += re.findall(r"extras\[|(?<![A-Za-z0-9_])_[a-z]\w+\(|exactlin\.[a-z_]+\.", text)
        assert not found, (spec.name, sorted(set(found)))


def test_no_plain_text_mathematics_on_student_pages(pages):
    student = [p for p in pages if p.endswith(".md") and p.startswith(("algorithms/", "examples/"))]
    assert len(student) >= len(all_specs()) + len(all_examples())
    bad = {p: plain_math(pages[p]) for p in student if plain_math(pages[p])}
    assert not bad


def test_the_build_fails_on_plain_text_mathematics(pages):
    site.GENERATED["algorithms/perceptron/bad.md"] = "The rule: w <- w + eta x when y<w,x> <= 0."
    try:
        with pytest.raises(VerificationError, match="(?s)plain-text mathematics.*bad.md"):
            site.check_plain_math()
    finally:
        del site.GENERATED["algorithms/perceptron/bad.md"]


def test_the_perceptron_page_derives_seed000s_rule_with_the_examples_numbers(pages):
    md = pages["algorithms/perceptron/perceptron.md"]
    # seed 000, The Perceptron Algorithm: y_t <w_t, x_t> <= 0 => w_{t+1} = w_t + eta y_t x_t
    rule = md[md.index("## The rule"):md.index("## When it stops")]
    assert r"y_t \langle w_t, x_t \rangle \le 0" in rule and r"w_{t+1} = w_t + \eta\, y_t x_t" in rule
    # the proof on Example 1 with w* = (1, -3) (hand derivation): gamma = 2, R^2 = 16, ||w*||^2 = 10, so
    # K = 3 <= 16 * 10 / 2^2 = 40
    guarantee = md[md.index("## What it guarantees"):md.index("## The notes' statement")]
    assert r"\gamma = \min_i y_i \langle w^*, x_i \rangle = 2" in guarantee
    assert "K = 3" in guarantee and "= 40$$" in guarantee
    assert "000_478cb53c624e7eb5.txt" in md[md.index("## The notes' statement"):]


def test_fisher_and_mse_pages_instantiate_their_theorems(pages):
    fisher = pages["algorithms/fisher/fisher.md"]
    # seed003-fisher's set (hand derivation): m1 = (2, 1/3), m2 = (-2, -1/3), S_W = diag(4, 4/3), w = (1, 1/2),
    # J(w) = (m1 - m2)^t w = 4 + 1/3 = 13/3
    assert r"w = S_W^{-1}(m_1 - m_2) = (1, \frac{1}{2})" in fisher and r"J(w) = \frac{13}{3}" in fisher
    assert "equal, as the theorem says" in fisher
    mse = pages["algorithms/mse/mse.md"]
    # seed 003's pseudoinverse example: a = Y^+ b = (11/3, -4/3, -2/3), e = 0
    assert r"\frac{11}{3}" in mse and "Here $e = 0$" in mse


def test_svm_page_checks_the_kkt_conditions_on_its_example(pages):
    md = pages["algorithms/margin/svm-hard.md"]
    # seed004-svm-diagonal: (0,0) labelled -1 and (1,1) labelled +1: w = (1, 1), b = -1, alpha = (1, 1), margin
    # 1/||w|| = sqrt(2)/2 (hand derivation)
    g = md[md.index("## What it guarantees"):md.index("## The notes' statement")]
    assert r"w = (1, 1)" in g and "b = -1" in g and r"\frac{\sqrt{2}}{2}" in g
    assert "NOT" not in g
