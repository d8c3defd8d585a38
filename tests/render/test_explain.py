"""The worked solution of a run (exactlin.render.explain): content on the notes' numbers, and the three formats'
structure (standalone LaTeX, offline HTML, ASCII everywhere)."""

import re
from html.parser import HTMLParser

import pytest

from exactlin.algorithms import get
from exactlin.render.explain import explain, render

# seed 000, Example 1 ("Training Data")
EX1_X = [(4, 0), (1, 1), (0, 1), (-2, -2)]
EX1_Y = [1, -1, -1, 1]
# XOR with an intercept: not separable
XOR_X = [(0, 0), (1, 1), (1, 0), (0, 1)]
XOR_Y = [1, 1, -1, -1]


def _ex1_doc(fmt="markdown"):
    run = get("perceptron").func(EX1_X, EX1_Y, trace=True)
    return render(explain(run), fmt)


def test_example1_steps_and_theorem():
    md = _ex1_doc()
    # Hand derivation from the notes' Example 1 (w_1 = 0, no bias, cyclic order):
    # t=1: y<0,(4,0)> = 0 <= 0, mistake: w_2 = (4,0); t=2: -<(4,0),(1,1)> = -4, mistake: w_3 = (4,0)+(-1,-1) = (3,-1);
    # t=3: -<(3,-1),(0,1)> = 1 > 0; t=4: <(3,-1),(-2,-2)> = -4, mistake: w_5 = (3,-1)+(-2,-2) = (1,-3);
    # pass 2 makes no mistake, so K = 3 and w = (1,-3).
    assert "$(0, 0) + (4, 0) = (4, 0)$" in md
    assert "$(4, 0) + (-1, -1) = (3, -1)$" in md
    assert "$(3, -1) + (-2, -2) = (1, -3)$" in md
    assert "step 3 (pass 1), sample 3: $y_t \\langle w_t, x_t \\rangle = 1 > 0$, correct, no update" in md
    assert "- $w = (1, -3)$" in md
    # the stop: steps 5 to 8 (all of pass 2) make no mistake, n = 4 in a row
    assert "Steps 5 to 8, the last 4 in a row, made no mistake" in md and "3 updates in 8 steps" in md
    # the theorem with w* = (1,-3): y_i<w*,x_i> = 4, 2, 3, 4 so gamma = 2; R^2 = ||(4,0)||^2 = 16; ||w*||^2 = 10;
    # bound 16 * 10 / 2^2 = 40.  Mistake rows: <w_2,w*> = 4, <w_3,w*> = 6, <w_5,w*> = 10 (lower bounds 2, 4, 6);
    # ||w_2||^2 = 16, ||w_3||^2 = 10, ||w_5||^2 = 10 (upper bounds 16, 32, 48).
    assert "$K = 3 \\le R^2 \\lVert w^*\\rVert^2 / \\gamma^2 = 40$" in md
    assert "| 1 | $4$ | $2$ | $16$ | $16$ |" in md
    assert "| 2 | $6$ | $4$ | $10$ | $32$ |" in md
    assert "| 3 | $10$ | $6$ | $10$ | $48$ |" in md
    # the checks recompute g(x_i) = <(1,-3), x_i> = 4, -2, -3, 4
    assert "| 2 | $-2$ | $2$ | correct |" in md
    assert "4 of 4 samples on the correct side" in md


def test_non_separable_shows_certificate():
    run = get("separable").func(XOR_X, XOR_Y, exact_only=True)
    md = render(explain(run), "markdown")
    # hand derivation: z = (1,0,0), (1,1,1), (-1,-1,0), (-1,0,-1); sum lambda_i z_i = 0 forces
    # lambda_2 = lambda_3 = lambda_4 = lambda_1, so lambda = (1/4, 1/4, 1/4, 1/4) is the only certificate
    assert "$\\lambda = (\\frac{1}{4}, \\frac{1}{4}, \\frac{1}{4}, \\frac{1}{4})$" in md
    assert "$\\sum_i \\lambda_i y_i \\tilde x_i = (0, 0, 0)$" in md
    assert "not linearly separable" in md
    assert "## Stop" not in md  # a decision in closed form has no iteration to stop


def test_long_run_head_and_tail():
    # non-separable through the origin: the perceptron cycles; 1-D points 1 (+1), 2 (-1): every step errs
    run = get("perceptron").func([(1,), (2,), (1,), (-3,)], [1, -1, -1, 1], trace=True, max_epochs=30)
    md = render(explain(run, head=4, tail=2), "markdown")
    items = [ln for ln in md.splitlines() if ln.startswith("- step ")]
    assert len(items) == 6
    assert "steps left out" in md and f"... {len(run.trace) - 6} steps left out ..." in md


def _balanced_braces(s: str) -> bool:
    depth = 0
    s = s.replace("\\{", "").replace("\\}", "")
    for ch in s:
        depth += ch == "{"
        depth -= ch == "}"
        if depth < 0:
            return False
    return depth == 0


@pytest.mark.parametrize("which", ["ex1", "xor", "svm", "fisher"])
def test_latex_is_a_standalone_document(which):
    if which == "ex1":
        run = get("perceptron").func(EX1_X, EX1_Y, trace=True)
    elif which == "xor":
        run = get("separable").func(XOR_X, XOR_Y, exact_only=True)
    elif which == "svm":
        run = get("svm-hard").func([(0, 0), (2, 2), (2, 0), (3, 0)], [-1, -1, 1, 1])
    else:
        run = get("fisher").func([(0, 0), (2, 2), (2, 0), (3, 0)], [-1, -1, 1, 1])
    tex = render(explain(run), "latex")
    assert tex.startswith("\\documentclass")
    assert tex.count("\\begin{document}") == 1 and tex.rstrip().endswith("\\end{document}")
    assert tex.isascii()
    assert _balanced_braces(tex)
    envs = re.findall(r"\\(begin|end)\{(\w+)\}", tex)
    stack = []
    for kind, name in envs:
        if kind == "begin":
            stack.append(name)
        else:
            assert stack and stack.pop() == name
    assert not stack
    # math delimiters pair up on every line
    for line in tex.splitlines():
        assert line.replace("\\$", "").count("$") % 2 == 0, line


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.urls = []
        self.tags = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        for k, v in attrs:
            if k in ("src", "href") and v:
                self.urls.append(v)


def test_html_opens_offline():
    html = _ex1_doc("html")
    assert html.isascii()
    p = _Links()
    p.feed(html)
    assert not [u for u in p.urls if u.startswith(("http:", "https:", "//"))]
    assert "http://" not in html and "https://" not in html
    assert "table" in p.tags and "h1" in p.tags
    # the mathematics is MathML (latex2mathml), like the site: w = (1, -3) typeset, no plain-text fallback
    assert "math" in p.tags and ("<mi>w</mi><mo>&#x0003D;</mo><mo stretchy=\"false\">&#x00028;</mo><mn>1</mn>"
                                 "<mo>&#x0002C;</mo><mo>&#x02212;</mo><mn>3</mn>") in html
    assert "class=\"math\"" not in html


def test_html_without_latex2mathml_falls_back_to_plain_formulas(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_latex2mathml(name, *args, **kw):
        if name.startswith("latex2mathml"):
            raise ImportError(name)
        return real_import(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_latex2mathml)
    html = _ex1_doc("html")
    assert "<math" not in html and "<span class=\"math\">w = (1, -3)</span>" in html
    assert "install latex2mathml" in html and html.isascii()


def test_unknown_format():
    from exactlin.errors import ParameterError

    run = get("perceptron").func(EX1_X, EX1_Y)
    with pytest.raises(ParameterError, match="unknown format 'pdf'"):
        render(explain(run), "pdf")


def test_labels_are_their_text_escaped_for_each_format():
    # labels with LaTeX's special characters: set as text (escaped), never as math ($a_b$ would subscript)
    run = get("perceptron").func(EX1_X, ["a_b", "c&d%", "c&d%", "a_b"], positive="a_b", trace=True)
    tex = render(explain(run), "latex")
    assert "a\\_b" in tex and "c\\&d\\%" in tex and "$a_b$" not in tex and "$c" not in tex
    md = render(explain(run), "markdown")
    assert "| 1 | $(4, 0)$ | a_b | $1$ |" in md  # sample 1, label a_b, the first-listed label is +1
    html = render(explain(run), "html")
    assert "c&amp;d%" in html


def test_the_notes_notation_is_declared_where_each_rule_is_registered():
    """Walk the registry (every algorithm the site documents): a rule's notation is its spec's (``register(...,
    notation=...)``), and the worked solution of a run writes the steps in the notes' symbols exactly when the spec
    declares them; no renderer keeps a table by algorithm name."""
    from exactlin.algorithms import all_specs
    from exactlin.errors import ExactlinError

    specs = all_specs()
    # the rules the notes print as "a mistake iff <score> <= 0, then <update>": seed 000's perceptron
    # (y_t <w_t, x_t> <= 0, then w_{t+1} = w_t + eta y_t x_t) and seed 003's fixed increment (a_k^t y_k <= 0,
    # then a_{k+1} = a_k + y_k)
    assert {s.name for s in specs if s.notation is not None} == {"perceptron", "fixed-increment"}
    assert get("perceptron").notation.update[1] == "w_{t+1} = w_t + eta y_t x_t"
    assert get("fixed-increment").notation.test == ("a_k^t y_k \\le 0", "a_k^t y_k <= 0")
    walked = 0
    for spec in specs:
        if spec.multiclass:
            continue
        try:
            run = spec.func(EX1_X, EX1_Y, trace=True)
        except ExactlinError:
            continue
        if not run.trace:
            continue
        walked += 1
        md = render(explain(run))
        if spec.notation is not None:
            assert f"${spec.notation.test[0]}$ (a mistake) and then updates ${spec.notation.update[0]}$" in md
        else:
            assert "Each step lists the quantity the rule tests" in md, spec.name
    assert walked >= 10
