"""The documentation site's pages, generated from the code at build time (``docs/hooks.py`` wires it to mkdocs).

Nothing here is pasted: every algorithm page, worked example, erratum, CLI transcript, trace table and picture
is computed while the site builds, from ``exactlin`` itself, so the site shows what the code computes.  This
module sits at the top of the layer order (it documents the CLI, so it imports :mod:`exactlin.cli`).

* :func:`generate` (mkdocs ``on_config``): walk the registries (``all_specs()``, ``all_examples()``,
  ``all_errata()``, :mod:`exactlin.lectures.derivations`), run everything, keep the generated pages and
  pictures in :data:`GENERATED`, and return the navigation.
* :func:`add_files` (``on_files``): add the generated files to the build.
* :func:`page_markdown` / :func:`page_content` (``on_page_markdown`` / ``on_page_content``): LaTeX between
  single and double dollar signs is converted to MathML (latex2mathml) at build time, so the site needs no
  JavaScript or network to show typeset math.

Every number on the site is printed by the one rule of :mod:`exactlin.exact.format`, and a run's summary lists
the fields :func:`exactlin.render.report.summary_items` lists (the same as ``exactlin fit``'s text).
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import io
import logging
import os
import pkgutil
import posixpath
import re
import sys
import tempfile
import time
from fractions import Fraction

from exactlin.docsgen.mathtext import ascii_md, esc, md_text, nav_title, plain_math
from exactlin.exact.format import latex as format_latex
from exactlin.exact.format import markdown as format_markdown
from exactlin.exact.format import text as format_text
from exactlin.lectures.notes import NOTE_TITLES, SEED000, SEED004, cite_note, note_title
from exactlin.render.report import TRACE_ROWS as _REPORT_TRACE_ROWS

log = logging.getLogger("mkdocs.plugins.exactlin")
#: the source checkout (transcripts show it as <checkout>, so the site does not depend on where it is built);
#: :func:`generate` sets it from the mkdocs configuration (the folder that holds ``docs/``)
CHECKOUT = __import__("pathlib").Path(__file__).resolve().parents[2]

#: generated files: path (relative to docs/) -> str or bytes
GENERATED: dict[str, str | bytes] = {}
#: per-page MathML fragments for the placeholders
_MATH: dict[str, list[str]] = {}
_MARKERS: dict[str, str] = {}
#: id(run) -> (run, generated SVG path, note): a run shown on two pages is drawn once
_PICS: dict[int, tuple] = {}

#: the small default datasets for algorithms without a registered worked example
BINARY_X = [(4, 0), (1, 1), (0, 1), (-2, -2)]  # seed 000, Example 1
BINARY_Y = [1, -1, -1, 1]
MULTI_X = [(2, 0), (3, 1), (0, 2), (1, 3), (-2, -1), (-1, -2)]  # three separable classes, two samples each
MULTI_Y = ["a", "a", "b", "b", "c", "c"]
#: bound on passes for the default runs (the page says so)
DEFAULT_EPOCHS = 50
#: trace rows shown in full up to this many; longer traces show the head and tail (the JSON has every row):
#: the rule of :func:`exactlin.render.report.head_tail`, with the same limit as ``exactlin examples show ID``
TRACE_ROWS = _REPORT_TRACE_ROWS


# ---------------------------------------------------------------------------
# small renderers


def md_inline_rst(s: str) -> str:
    """A docstring paragraph: ``code`` and :role:`target` become <code>, **bold** is bold, the rest is text with its
    ASCII formulas typeset (:func:`exactlin.docsgen.mathtext.ascii_md`)."""
    out = []
    pos = 0

    def text(t: str) -> str:
        return "".join(f"**{ascii_md(b)}**" if k % 2 else ascii_md(b) for k, b in enumerate(re.split(r"\*\*", t))
                       if b) if t.count("**") % 2 == 0 else ascii_md(t)

    for m in re.finditer(r"``(.+?)``|:[a-z]+:`~?([^`]+)`|`([^`]+)`", s):
        out.append(text(s[pos:m.start()]))
        if m.group(1) is not None:
            code = m.group(1)
        elif m.group(2) is not None:
            code = m.group(2)
            if m.group(0).count("~"):
                code = code.rsplit(".", 1)[-1]
        else:
            code = m.group(3)
        out.append(f"<code>{esc(code)}</code>")
        pos = m.end()
    out.append(text(s[pos:]))
    return "".join(out)


def doc_to_md(doc: str) -> str:
    """A reST-flavoured docstring as Markdown: paragraphs, bullet lists, literal blocks, doctests."""
    doc = inspect.cleandoc(doc or "")
    if not doc:
        return ""
    blocks = re.split(r"\n\s*\n", doc)
    out: list[str] = []
    for block in blocks:
        lines = block.split("\n")
        first = lines[0].lstrip()
        if first.startswith(">>>"):
            out.append("```pycon\n" + inspect.cleandoc(block) + "\n```")
        elif all(ln.startswith("    ") or not ln.strip() for ln in lines) or re.match(r"^=+(\s+=+)*\s*$", first):
            out.append("```text\n" + inspect.cleandoc(block) + "\n```")
        elif re.match(r"^\d+[.)] ", first):  # a numbered list (the items may run over several lines)
            items = []
            for ln in lines:
                if re.match(r"^\s*\d+[.)] ", ln):
                    items.append(re.sub(r"^\s*\d+[.)] ", "", ln))
                elif items:
                    items[-1] += " " + ln.strip()
            out.append("\n".join(f"{k}. " + md_inline_rst(it) for k, it in enumerate(items, 1)))
        elif re.match(r"^[*-] ", first):
            items: list[str] = []
            for ln in lines:
                if re.match(r"^\s*[*-] ", ln):
                    items.append(re.sub(r"^\s*[*-] ", "", ln))
                elif items:
                    items[-1] += " " + ln.strip()
            out.append("\n".join("* " + md_inline_rst(it) for it in items))
        else:
            text = " ".join(ln.strip() for ln in lines)
            if text.endswith("::"):
                text = text[:-1]
            out.append(md_inline_rst(text))
    return "\n\n".join(out)


def table_html(header: list[str], rows: list[list[str]], cls: str = "exactlin-table", raw: bool = False) -> str:
    """An HTML table in a scroll box; cells are escaped unless ``raw`` (cells already HTML)."""
    cell = (lambda c: c) if raw else esc
    th = "".join(f"<th>{cell(h)}</th>" for h in header)
    body = "\n".join("<tr>" + "".join(f"<td>{cell(c)}</td>" for c in r) + "</tr>" for r in rows)
    return (f'<div class="exactlin-scroll"><table class="{cls}">\n<thead><tr>{th}</tr></thead>\n<tbody>\n{body}\n'
            "</tbody></table></div>")


#: the one number rule (exactlin.exact.format): LaTeX, inline math (markdown) and plain text
latex, math, fmt = format_latex, format_markdown, format_text


def is_number(v) -> bool:
    if isinstance(v, bool):
        return False
    if isinstance(v, (int, Fraction)):
        return True
    return type(v).__module__.startswith("sympy")


def value_md(v) -> str:
    """A result value: numbers and vectors of numbers as math, anything else as escaped text."""
    if is_number(v) or (isinstance(v, (tuple, list)) and v and all(is_number(x) for x in v) and len(v) <= 12):
        return math(v)
    return ascii_md(fmt(v))


def admonition(kind: str, title: str, body: str) -> str:
    ind = "\n".join("    " + ln if ln else "" for ln in body.split("\n"))
    return f'!!! {kind} "{title}"\n\n{ind}\n'


# ---------------------------------------------------------------------------
# runs: summary, trace, picture, JSON


def run_summary(run) -> str:
    from exactlin.model.run import REASONS
    from exactlin.render.report import shown_param, summary_extras
    from exactlin.render.report import spec_of as _report_spec

    lines = []
    if run.w is not None:
        lines.append(f"* final weight vector (bias `{run.bias}`): $w = {latex(run.w)}$")
    W, classes = run.extras.get("W"), run.extras.get("classes")
    if W is not None and classes is not None:
        for c, wc in zip(classes, W):
            lines.append(f"* class {md_text(c)}: $w = {latex(wc)}$")
    lines.append(f"* converged: **{'yes' if run.converged else 'no'}**; stop reason `{run.reason}`: "
                 f"{ascii_md(REASONS.get(run.reason, ''))}")
    spec = _report_spec(run)
    if spec is None or spec.iterative:  # a closed form has no counts (the same rule as exactlin fit's text)
        lines.append(f"* updates K = {run.updates}, epochs (passes or iterations) = {run.epochs}, steps = {run.steps}")
    params = {k: v for k, v in run.params.items() if shown_param(run, k, v)}
    if params:
        lines.append("* parameters used: " + ", ".join(f"`{k}={fmt(v)}`" for k, v in params.items()))
    voted = run.extras.get("voted")
    if run.w is None and isinstance(voted, (list, tuple)) and voted and isinstance(voted[0], dict):
        lines.append("* the vote $(w_m, c_m)$: " + ", ".join(f"$({latex(tuple(v['w']))}, {latex(v['c'])})$"
                                                            for v in voted[:40]) + (" ..." if len(voted) > 40 else ""))
    for key, value in summary_extras(run):  # the same fields, in the same order, as exactlin fit's text
        lines.append(f"* `{key}`: {value_md(value)}")
    cert = run.extras.get("certificate")
    if cert is not None and (isinstance(cert, dict) or hasattr(cert, "kind")):  # a typed certificate or an old dict
        bits = [f"kind `{cert.get('kind')}`", f"verified: **{cert.get('verified')}**"]
        if cert.get("lambda") is not None:
            bits.append(f"$\\lambda = {latex(tuple(cert['lambda']))}$")
        lines.append("* certificate: " + ", ".join(bits) + (f"; {ascii_md(cert['meaning'])}" if cert.get("meaning")
                                                             else ""))
    mon = run.extras.get("monitor")
    if mon is not None and hasattr(mon, "gamma_min"):
        lines.append(f"* convergence monitor: $w^* = {latex(mon.w_star)}$ ({ascii_md(mon.w_star_source)}), "
                     f"$\\gamma_{{\\min}} = {latex(mon.gamma_min)}$, $R^2 = {latex(mon.R2)}$, "
                     f"$\\|w^*\\|^2 = {latex(mon.norm2_w_star)}$; $K = {mon.K} \\le {latex(mon.bound)}$; "
                     + ("Facts 1 and 2 checked at the one mistake" if mon.checked == 1 else
                        f"Facts 1 and 2 checked at all {mon.checked} mistakes"))
    elif run.extras.get("monitor_note"):
        lines.append(f"* convergence monitor: {ascii_md(run.extras['monitor_note'])}")
    return "\n".join(lines)


def trace_md(run) -> str:
    from exactlin.render.report import head_tail, trace_table

    if not run.trace:
        return "*This run records no trace steps (it is solved in closed form).*"
    header, rows = trace_table(run)
    rows = head_tail(rows, TRACE_ROWS, len(header))  # the same head/tail rule as `exactlin examples show ID`
    note = ""
    if not run.trace_complete:
        note = f"\n\nThe trace shows the first {len(run.trace)} of {run.steps} steps."
    return table_html(header, rows, cls="exactlin-trace") + note


def data_md(ds) -> str:
    header = ["i"] + [f"x{j + 1}" for j in range(ds.d)] + ["label"]
    rows = [[str(i + 1)] + [fmt(v) for v in x] + [fmt(lab)] for i, (x, lab) in enumerate(zip(ds.X, ds.y))]
    return table_html(header, rows, cls="exactlin-data")


def picture(run, base: str, stem: str, caption: str) -> str:
    """Write the run's SVG next to the page; return the Markdown that shows it (or a note why not)."""
    from exactlin.errors import ExactlinError
    from exactlin.render.plot import run_svg

    if id(run) in _PICS and _PICS[id(run)][0] is run:
        _, path, note = _PICS[id(run)]
        return f"![{md_text(caption)}]({posixpath.relpath(path, base)})\n\n*{md_text(caption)}{md_text(note)}.*"
    prob = run.problem
    data = getattr(prob, "data", prob)
    if data is None or not hasattr(data, "X"):
        return "*No picture: this run carries no dataset.*"
    d = data.d
    kw = {}
    note = ""
    if d == 1 or d == 0:
        return "*No picture: the data have one feature.*"
    if d > 2:
        kw["projection"] = (0, 1)
        note = f" (features 1 and 2 of {d}; the boundary shown is its trace on the plane where the others are 0)"
    try:
        svg = run_svg(run, **kw)
    except ExactlinError as e:
        return f"*No picture: {md_text(e)}*"
    GENERATED[f"{base}/{stem}.svg"] = svg
    _PICS[id(run)] = (run, f"{base}/{stem}.svg", note)  # the run is kept, so its id is not reused
    return f"![{md_text(caption)}]({stem}.svg)\n\n*{md_text(caption)}{md_text(note)}.*"


def run_json(run, base: str, stem: str) -> str:
    from exactlin import exactlin_check

    try:
        text = GENERATED[f"{base}/{stem}.json"] = run.to_json()
    except (TypeError, ValueError) as e:
        return f"*(JSON export failed: {md_text(e)})*"
    report: list[str] = []
    status = exactlin_check.check(text, out=report.append)  # the stand-alone checker, on the file offered
    verdict = {0: "every claim holds", 1: "a claim FAILS", 2: "malformed"}[status]
    return (f"[Download this run as JSON (exact rationals as strings, with its rows and claims)]({stem}.json); "
            f"`exactlin check {stem}.json` ({verdict}):\n\n```text\n" + "\n".join(report) + "\n```")


def run_block(run, base: str, stem: str, *, heading: str = "###") -> str:
    parts = [run_summary(run), "",
             picture(run, base, stem, "Data, the final boundary and, dashed, the boundary after each update"
                     if run.trace and any(s.update for s in run.trace) else "Data and the decision boundary"),
             "", f"{heading} Trace", "", trace_md(run), "", run_json(run, base, stem)]
    return "\n".join(parts)


# ---------------------------------------------------------------------------
# derivations (exactlin.lectures.derivations, written by another part of the project: rendered when present)


def load_derivations() -> list[dict] | None:
    try:
        mod = importlib.import_module("exactlin.lectures.derivations")
    except ModuleNotFoundError as e:
        if e.name == "exactlin.lectures.derivations":
            return None
        raise
    items = None
    reg = getattr(mod, "ALL_DERIVATIONS", None)
    if isinstance(reg, dict):  # id -> function returning [DerivationStep(text, expr)], raising if the check fails
        out = []
        for ident, func in reg.items():
            doc = inspect.cleandoc(func.__doc__ or "")
            title = doc.split("\n\n")[0].replace("\n", " ") if doc else ident
            entry = {"id": ident, "title": title, "steps": [], "verified": None, "error": None, "doc": "",
                     "algorithms": _DERIVATION_ALGOS.get(ident, ()), "family": None, "seed": None,
                     "python": f"{func.__module__}.{func.__name__}"}
            try:
                entry["steps"] = list(func())
                entry["verified"] = True  # each function asserts its identity with sympy, raising otherwise
            except Exception as e:  # noqa: BLE001 - shown on the page as a failure
                entry["error"] = f"{type(e).__name__}: {e}"
            out.append(entry)
        return out
    for name in ("all_derivations", "derivations"):
        f = getattr(mod, name, None)
        if callable(f):
            items = list(f())
            break
    if items is None:
        reg = getattr(mod, "DERIVATIONS", None)
        if isinstance(reg, dict):
            items = list(reg.values())
        elif reg is not None:
            items = list(reg)
    if items is None:
        names = getattr(mod, "__all__", [n for n in dir(mod) if n.startswith("derive")])
        items = [getattr(mod, n) for n in names if callable(getattr(mod, n)) and n.startswith("derive")]
    out = []
    for it in items:
        try:
            out.append(normalize_derivation(it))
        except Exception as e:  # noqa: BLE001 - a derivation that fails is shown as failed, not hidden
            out.append({"id": getattr(it, "__name__", str(it)), "title": getattr(it, "__name__", str(it)),
                        "steps": [], "verified": False, "error": f"{type(e).__name__}: {e}", "algorithms": (),
                        "family": None, "seed": None, "doc": ""})
    return out


def _get(obj, *names, default=None):
    for n in names:
        if isinstance(obj, dict) and n in obj:
            return obj[n]
        if not isinstance(obj, dict) and hasattr(obj, n):
            return getattr(obj, n)
    return default


def normalize_derivation(it) -> dict:
    doc = ""
    ident = _get(it, "id", "name", "__name__", default=None)
    if callable(it) and not hasattr(it, "steps"):
        doc = it.__doc__ or ""
        it = it()
    steps = _get(it, "steps", default=None)
    if steps is None and isinstance(it, (list, tuple)):
        steps = it
    algos = _get(it, "algorithms", "algorithm", "applies_to", default=()) or ()
    if isinstance(algos, str):
        algos = (algos,)
    verified = _get(it, "verified", "holds", "ok", default=None)
    if callable(verified):
        verified = verified()
    ident = _get(it, "id", "name", default=None) or ident
    return {"id": str(ident), "title": str(_get(it, "title", default=None) or ident),
            "steps": list(steps or []), "verified": verified, "algorithms": tuple(algos),
            "family": _get(it, "family", default=None), "seed": _get(it, "seed", default=None),
            "doc": _get(it, "doc", "description", "statement", default=None) or doc, "error": None}


def sym_latex(e) -> str:
    if isinstance(e, str):
        return e
    if isinstance(e, (Fraction, int, tuple, list)) and not isinstance(e, bool):
        return latex(e)
    import sympy

    return sympy.latex(e)


def step_md(step) -> str:
    if isinstance(step, str):
        return md_text(step)
    if isinstance(step, (tuple, list)):
        texts = [s for s in step if isinstance(s, str)]
        exprs = [s for s in step if not isinstance(s, str)]
        lead = ascii_md(texts[0]) if texts else ""
        if len(exprs) == 2:
            body = f"$${sym_latex(exprs[0])} = {sym_latex(exprs[1])}$$"
        else:
            body = "\n\n".join(f"$${sym_latex(e)}$$" for e in exprs)
        return (lead + "\n\n" + body).strip()
    text = _get(step, "text", "description", "explanation", "why", default=None)
    lhs, rhs = _get(step, "lhs", default=None), _get(step, "rhs", default=None)
    expr = _get(step, "expr", "expression", "value", "result", default=None)
    if lhs is not None and rhs is not None:
        body = f"$${sym_latex(lhs)} = {sym_latex(rhs)}$$"
    elif expr is not None:
        body = f"$${sym_latex(expr)}$$"
    elif isinstance(step, dict) or text is not None:
        body = ""
    else:
        body = f"$${sym_latex(step)}$$"
    return ((ascii_md(text) if text else "") + "\n\n" + body).strip()


def cite_note_html(seed) -> str:
    """HTML (for a table cell) citing a note: its readable title beside its file name."""
    if not seed:
        return ""
    title = NOTE_TITLES.get(seed)
    return f"{esc(title)} (<code>{esc(seed)}</code>)" if title else f"<code>{esc(seed)}</code>"


def derivation_md(dv: dict, level: str = "###") -> str:
    if dv.get("python"):
        parts = [f"{level} {md_text(dv['id'])}", "", ascii_md(dv["title"]), "",
                 f"`{dv['python']}()`, computed while this page was built:", ""]
    else:
        parts = [f"{level} {md_text(dv['title'])}", ""]
    if dv.get("seed"):
        parts.append(f"From {cite_note(dv['seed'])}.")
    if dv.get("doc"):
        parts += [doc_to_md(dv["doc"]), ""]
    if dv.get("error"):
        parts.append(admonition("failure", "The derivation could not be computed", md_text(dv["error"])))
        return "\n".join(parts)
    for k, st in enumerate(dv["steps"], 1):
        try:
            parts += [f"**Step {k}.** " + step_md(st), ""]
        except Exception as e:  # noqa: BLE001
            parts += [f"**Step {k}.** {md_text(st)} (not renderable: {md_text(e)})", ""]
    if dv.get("verified") is not None:
        parts.append(f"Identity checked symbolically by sympy: **{'yes' if dv['verified'] else 'NO'}**.")
    return "\n".join(parts)


#: which algorithm pages show which derivation of exactlin.lectures.derivations (ids of ALL_DERIVATIONS)
_DERIVATION_ALGOS = {
    "gradient-Js": ("mse", "widrow-hoff", "lms", "ho-kashyap", "ho-kashyap-mod1", "ho-kashyap-mod2"),
    "gradient-Jp": ("perceptron", "fixed-increment", "variable-increment", "batch-perceptron", "batch-pla",
                    "perceptron-gd"),
    "fisher-maximizer": ("fisher",),
    "distance-to-hyperplane": ("family:margin", "fisher"),
    "distance-origin": ("family:margin", "fisher"),
    "ho-kashyap-b-rule": ("ho-kashyap", "ho-kashyap-mod1", "ho-kashyap-mod2"),
}

_DERIVATION_KEYWORDS = {
    "mse": ("mse", "j_s", "js", "gradient_js", "squared", "widrow", "lms", "pseudo"),
    "fisher": ("fisher",),
    "perceptron": ("j_p", "jp", "perceptron_criterion", "perceptron"),
}


def derivations_for(spec, derivs: list[dict]) -> list[dict]:
    out = []
    for dv in derivs:
        if dv["algorithms"]:  # algorithm names, or "family:KEY" for a whole family
            if spec.name in dv["algorithms"] or f"family:{spec.family}" in dv["algorithms"]:
                out.append(dv)
            continue
        if dv.get("family"):
            if dv["family"] == spec.family:
                out.append(dv)
            continue
        key = (dv["id"] + " " + dv["title"]).lower()
        if any(k in key for k in _DERIVATION_KEYWORDS.get(spec.family, ())):
            out.append(dv)
    return out


# ---------------------------------------------------------------------------
# pages


def algo_path(spec) -> str:
    return f"algorithms/{spec.family}/{spec.name}.md"


def example_path(ex) -> str:
    return f"examples/{ex.id}.md"


def default_run(spec):
    """Run an algorithm on the family's small default dataset; return (run, description, call)."""
    kwargs = {"bias": spec.bias_default, "trace": True}
    if spec.iterative:
        kwargs["max_epochs"] = DEFAULT_EPOCHS
    X, y = (MULTI_X, MULTI_Y) if spec.multiclass else (BINARY_X, BINARY_Y)
    data = spec.extra.get("docs_data")
    if data:
        X, y = data["X"], data["y"]
        kwargs.update(data.get("kwargs", {}))
    run = spec.func(X, y, **kwargs)
    call = f"{spec.func.__name__}(X, y, " + ", ".join(f"{k}={v!r}" for k, v in kwargs.items()) + ")"
    return run, call, X, y


def algorithm_page(spec, examples_by_algo, results, derivs) -> str:
    """The page of one algorithm: its worked example's run (or a default run) given to the one template,
    :func:`exactlin.docsgen.algopages.algorithm_page`."""
    from exactlin.data.dataset import as_dataset
    from exactlin.docsgen import algopages

    algopages.use_site(sys.modules[__name__])  # the template renders with this module's helpers (no import cycle)

    base = f"algorithms/{spec.family}"
    exs = examples_by_algo.get(spec.name, [])
    run, example, intro, data = None, None, "", ""
    for ex in exs:
        res = results.get(ex.id)
        if isinstance(res, Exception) or res is None:
            continue
        cand = [r for r in res.runs if r.algorithm == spec.name]
        if cand:
            run, example = cand[0], ex
            intro = (f"Worked example: [{ascii_md(ex.title)}](../../{example_path(ex)}), run while this page "
                     "was built.")
            break
    if run is None:
        try:
            run, call, X, y = default_run(spec)
        except Exception as e:  # noqa: BLE001 - shown on the page, and the test suite fails on it
            log.info("exactlin docs: default example of %s failed: %s", spec.name, e)
            return "\n".join([f"# {md_text(spec.title)}", "", admonition(
                "failure", "The default example could not run", f"`{md_text(type(e).__name__)}`: {md_text(e)}")])
        kind = "three classes" if spec.multiclass else "two classes: Example 1 of the perceptron lecture"
        intro = (f"No worked example of the lectures is registered for this algorithm, so the page runs it on a "
                 f"small dataset ({kind}) while it is built.")
        data = data_md(as_dataset(X, y))
    else:
        ds = getattr(run.problem, "data", run.problem)
        if ds is not None and hasattr(ds, "X"):
            data = data_md(ds)
    examples_line = []
    if exs:
        examples_line = ["### All worked examples of this algorithm", ""] + [
            f"* [{ascii_md(ex.title)}](../../{example_path(ex)})" for ex in exs] + [""]
    return algopages.algorithm_page(spec, run, example, intro, data, examples_line, base, derivs)


def examples_pages(examples, results) -> list:
    """Write every worked example's page and the index; return their navigation, grouped by lecture note and by
    algorithm, each page under its readable title (:func:`examples_nav`)."""
    from exactlin.algorithms import REGISTRY
    from exactlin.docsgen.stepthrough import stepthrough_md

    index = ["# Worked examples", "",
             "Every worked example of the lecture notes, reproduced by exactlin while this site was built and "
             "checked against the values the lecture prints (or a hand derivation, where the lecture stops; each "
             "check says which). `exactlin` with no command runs the same examples.", ""]
    rows = []
    for ex in examples:
        res = results[ex.id]
        status = "error" if isinstance(res, Exception) else ("verified" if res.ok else "FAILED")
        rows.append([f'<a href="{esc(ex.id)}.html">{ascii_md(ex.title, html_cell=True)}</a>',
                     f"<code>{esc(ex.id)}</code>", cite_note_html(ex.seed), esc(status)])
        parts = [f"# {md_text(nav_title(ex.title))}", "", f"*Worked example `{ex.id}`, from the lecture notes "
                 f"{cite_note(ex.seed)}.*", ""]
        if ex.algorithm and ex.algorithm in REGISTRY:
            spec = REGISTRY[ex.algorithm]
            parts += [f"Algorithm: [{ascii_md(spec.title)}](../{algo_path(spec)}).", ""]
        if isinstance(res, Exception):
            parts += [admonition("failure", "This example raised an error",
                                 f"`{md_text(type(res).__name__)}`: {md_text(res)}")]
            GENERATED[example_path(ex)] = "\n".join(parts)
            continue
        parts += [f"**Verified: {'yes' if res.ok else 'NO'}** ({sum(c.ok for c in res.checks)} of "
                  f"{len(res.checks)} checks agree with the lecture).", "", "## Checks", ""]
        crow = [[ascii_md(c.what, html_cell=True), esc(fmt(c.expected)), esc(fmt(c.actual)),
                 ascii_md(c.source, html_cell=True), "✓ agrees" if c.ok else "✗ DIFFERS"] for c in res.checks]
        parts += [table_html(["check", "expected", "exactlin", "expected value from", "result"], crow,
                             cls="exactlin-checks", raw=True), ""]
        if res.notes:
            parts += ["## Notes", ""] + [ascii_md(n) + "\n" for n in res.notes]
        if res.data:
            parts += ["## Exact results", ""]
            for key, val in res.data.items():
                if isinstance(val, (list, tuple)) and val and all(isinstance(r, (list, tuple)) for r in val):
                    parts += ["", f"**{ascii_md(key)}**", "",
                              table_html([f"{j + 1}" for j in range(max(len(r) for r in val))],
                                         [[fmt(c) for c in r] for r in val]), ""]
                else:
                    parts += [f"* **{ascii_md(key)}**: {value_md(val)}"]
            parts.append("")
        seen: dict = {}  # the step-throughs on this page
        for k, run in enumerate(res.runs, 1):
            spec = REGISTRY.get(run.algorithm)
            link = f" ([{md_text(nav_title(spec.title))}](../{algo_path(spec)}))" if spec else ""
            parts += [f"## Run {k}: `{run.algorithm}`{link}", ""]
            ds = getattr(run.problem, "data", None)
            if ds is not None:
                parts += [data_md(ds), ""]
            parts += [run_block(run, "examples", f"{ex.id}-{k}"), ""]
            parts += [stepthrough_md(run, seen, f"Run {k}")]  # exactlin.docsgen.stepthrough: a frame per update
        GENERATED[example_path(ex)] = "\n".join(parts)
    index += [table_html(["example", "id", "lecture notes", "status"], rows, raw=True), ""]
    GENERATED["examples/index.md"] = "\n".join(index)
    return examples_nav(examples)


def examples_nav(examples) -> list:
    """The worked examples for the navigation: one section per lecture note (by its title, in file order), in it
    one per algorithm (by its title), in it each example by its readable title (no markup renders in the
    navigation, so symbols are Unicode: :func:`exactlin.docsgen.mathtext.nav_title`)."""
    from exactlin.algorithms import REGISTRY

    by_note: dict[str, dict[str, list]] = {}
    for ex in sorted(examples, key=lambda e: e.seed or ""):
        spec = REGISTRY.get(ex.algorithm) if ex.algorithm else None
        algo = nav_title(spec.title) if spec else "Margins and separability"
        by_note.setdefault(note_title(ex.seed).split(" (")[0], {}).setdefault(algo, []).append(
            {nav_title(ex.title): example_path(ex)})
    return [{note: [{algo: items} for algo, items in algos.items()]} for note, algos in by_note.items()]


def proof_page(examples, results) -> str:
    parts = ["# The convergence proof, instantiated", "",
             f"{cite_note(SEED000)} proves that the perceptron makes at most $1/\\gamma^2$ mistakes "
             f"when $\\|x_i\\| \\le 1$ and $\\|w^*\\| = 1$; {cite_note(SEED004)} proves "
             "$m \\le r^2 \\|w^*\\|^2$ when $y_i \\langle w^*, x_i \\rangle \\ge 1$. Both are one bound. For a "
             "separator $w^*$ and the samples $z_i = y_i x_i$ let", "",
             "$$\\gamma_{\\min} = \\min_i \\langle w^*, z_i \\rangle > 0, \\qquad R^2 = \\max_i \\|z_i\\|^2 .$$", "",
             "The proof rests on two facts, each about one mistake at round $t$ (the update is "
             "$w_{t+1} = w_t + \\eta\\, y_t x_t$):", "",
             "* **Fact 1**: $\\langle w_{t+1}, w^* \\rangle = \\langle w_t, w^* \\rangle + \\eta\\, y_t \\langle x_t, "
             "w^* \\rangle \\ge \\langle w_t, w^* \\rangle + \\eta \\gamma_{\\min}$, so after $K$ mistakes from "
             "$w_1 = 0$: $\\langle w_{t+1}, w^* \\rangle \\ge K \\eta \\gamma_{\\min}$.",
             "* **Fact 2**: $\\|w_{t+1}\\|^2 = \\|w_t\\|^2 + 2\\eta\\, y_t \\langle w_t, x_t \\rangle + \\eta^2 "
             "\\|x_t\\|^2 \\le \\|w_t\\|^2 + \\eta^2 R^2$, because the middle term is $\\le 0$ at a mistake; so "
             "$\\|w_{t+1}\\|^2 \\le K \\eta^2 R^2$.", "",
             "By Cauchy-Schwarz, $(K\\eta\\gamma_{\\min})^2 \\le \\langle w_{t+1}, w^*\\rangle^2 \\le "
             "\\|w_{t+1}\\|^2 \\|w^*\\|^2 \\le K \\eta^2 R^2 \\|w^*\\|^2$, hence", "",
             "$$K \\le \\frac{R^2 \\|w^*\\|^2}{\\gamma_{\\min}^2} .$$", "",
             "Scaling $x$ by $1/R$ and $w^*$ by $1/\\gamma_{\\min}$ turns seed 000's statement into seed 004's. "
             "exactlin's convergence monitor (`exactlin.theory.monitor`) checks both facts exactly at every mistake, "
             "recomputing the inner products from the weight vectors, and the final bound; everything is compared "
             "in squared form, so no square root is ever taken. The tables below are the monitor's own rows for "
             "the runs of the worked examples, computed while this page was built.", ""]
    from exactlin.docsgen import algopages

    algopages.use_site(sys.modules[__name__])  # the monitor's one renderer, with this module's helpers
    found = 0
    order = sorted(examples, key=lambda e: (e.id != "seed004-theorem", e.id))
    for ex in order:
        res = results.get(ex.id)
        if res is None or isinstance(res, Exception):
            continue
        for k, run in enumerate(res.runs, 1):
            mon = run.extras.get("monitor")
            if mon is None or not hasattr(mon, "rows") or not mon.rows:
                continue
            found += 1
            parts += [f"## {md_text(ex.id)}: {md_text(ex.title)}", "",
                      f"Run {k} (`{run.algorithm}`) of the worked example [{md_text(ex.id)}]({example_path(ex)}), "
                      f"lecture notes {cite_note(ex.seed)}.", "",
                      algopages.monitor_md(run, mon, gamma_min=True, link_proof=False), ""]
    if not found:
        parts.append("*No worked example with a convergence monitor is registered in this build.*")
    return "\n".join(parts)


def errata_page() -> str:
    from exactlin.lectures.errata import all_errata

    parts = ["# Errata", "",
             "Every place where the lecture notes and the correct algorithm disagree: what the notes print, what "
             "exactlin implements instead, and a numeric demonstration computed while this page was built. "
             "`exactlin errata` prints the same list.", ""]
    errs = all_errata()
    for e in errs:
        parts += [f"## {md_text(e.id)}", "", f"**Where**: {cite_note(e.seed)}, {md_text(e.where)}", "",
                  f"**The notes say**: {md_text(e.notes_say)}", "", f"**exactlin does**: {md_text(e.correct)}", ""]
        try:
            demo = e.demonstrate()
        except Exception as ex:  # noqa: BLE001
            parts += [admonition("failure", "The demonstration raised an error",
                                 f"`{md_text(type(ex).__name__)}`: {md_text(ex)}"), ""]
            continue
        parts += [f"**Demonstration**: {md_text(demo.get('text', ''))}", ""]
        rows = [[md_text(k), value_md(v)] for k, v in demo.items() if k not in ("text", "holds")]
        if rows:
            parts += ["| quantity | exact value |", "| --- | --- |"] + [f"| {a} | {b} |" for a, b in rows] + [""]
        parts += [f"Demonstration confirms the correction: **{'yes' if demo.get('holds') else 'NO'}**.", ""]
    if not errs:
        parts.append("*No errata are registered in this build.*")
    return "\n".join(parts)


def derivations_page(derivs) -> str:
    parts = ["# Derivations", "",
             "The derivations behind the algorithms, each a function of `exactlin.lectures.derivations` that "
             "returns its steps as sympy objects and checks the identity symbolically; rendered here while the site "
             "was built.", ""]
    if derivs is None:
        parts.append("*The derivations module is not part of this build.*")
    from exactlin.algorithms import all_specs

    specs = all_specs()
    for dv in derivs or []:
        parts += [derivation_md(dv, "##"), ""]
        users = [sp for sp in specs if dv in derivations_for(sp, derivs)]
        if users:
            parts += ["Shown on the pages of: " + ", ".join(f"[{md_text(sp.name)}]({algo_path(sp)})" for sp in users)
                      + ".", ""]
    return "\n".join(parts)


def cli_page() -> str:
    from exactlin.cli import app as cli
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    tmp = tempfile.mkdtemp(prefix="exactlin-docs-")
    csv_path = os.path.join(tmp, "example1.csv")
    csv_text = "x1,x2,label\n" + "".join(f"{a},{b},{c}\n" for (a, b), c in zip(BINARY_X, BINARY_Y))
    with open(csv_path, "w") as fh:
        fh.write(csv_text)
    parts = ["# Command line", "",
             "Every transcript on this page is the real output of `exactlin.cli.main`, captured while the site was "
             "built. Exit status: 0 for every honest result (converged or not), 2 for bad input (one line on "
             "stderr), 1 when a worked example fails its check against the lecture.", ""]

    def capture(argv, shown=None):
        out, err = io.StringIO(), io.StringIO()
        old = os.environ.get("COLUMNS")
        os.environ["COLUMNS"] = "100"
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = cli.main(list(argv))
        except Exception as e:  # noqa: BLE001 - a crashing command is shown (and fails the docs test)
            log.info("exactlin docs: exactlin %s raised %s", " ".join(argv), e)
            code = f"crashed: {type(e).__name__}: {e}"
        finally:
            if old is None:
                os.environ.pop("COLUMNS", None)
            else:
                os.environ["COLUMNS"] = old
        text = out.getvalue().replace(tmp + os.sep, "").replace(str(CHECKOUT), "<checkout>")
        if err.getvalue():
            text += "\n[stderr]\n" + err.getvalue().replace(tmp + os.sep, "")
        text = _clip_transcript(text)
        cmd = "exactlin " + " ".join(shown if shown is not None else argv)
        block = f"```console\n{cmd.strip()}\n{text.rstrip()}\n[exit status {code}]\n```\n"
        if isinstance(code, str):
            block = admonition("failure", "This command crashed while the site was built", md_text(code)) + "\n" + block
        return block

    parts += ["## exactlin --help", "", capture(["--help"]), ""]
    for name in sub.choices:
        parts += [f"## exactlin {name}", "", capture([name, "--help"]), ""]
    parts += ["## Transcripts", "", "The file `example1.csv` used below holds seed 000's Example 1:", "",
              "```text\n" + csv_text + "```", ""]
    runs = [["algorithms"], ["algorithms", "show", "perceptron"], ["examples"],
            ["fit", "perceptron", csv_path, "--trace"], ["fit", "perceptron", csv_path, "--json"],
            ["fit", "perceptron", csv_path, "--param", "eta=0"], ["examples", "show", "seed000-example1"],
            ["errata"]]
    if "docs" in sub.choices:
        runs.append(["docs"])
    for argv in runs:
        shown = [a if a != csv_path else "example1.csv" for a in argv]
        parts += [f"### exactlin {' '.join(shown)}", "", capture(argv, shown), ""]
    parts += ["## exactlin (the main job)", "",
              "With no command, exactlin reproduces and verifies every worked example:", "", capture([]), ""]
    return "\n".join(parts)


#: transcripts are shown whole up to these sizes (exact iterates can have thousands of digits)
TRANSCRIPT_LINE = 400
TRANSCRIPT_LINES = 600


def _clip_transcript(text: str) -> str:
    lines = text.split("\n")
    clipped = 0
    out = []
    for ln in lines:
        if len(ln) > TRANSCRIPT_LINE:
            clipped += 1
            ln = ln[:TRANSCRIPT_LINE] + f" ... [{len(ln) - TRANSCRIPT_LINE} more characters on this line]"
        out.append(ln)
    if len(out) > TRANSCRIPT_LINES:
        head, tail = TRANSCRIPT_LINES * 2 // 3, TRANSCRIPT_LINES // 3
        out = out[:head] + [f"... [{len(out) - head - tail} lines not shown on this page] ..."] + out[-tail:]
    if clipped:
        out.append(f"[this page shortened {clipped} very long lines; the command prints them in full]")
    return "\n".join(out)


def conversion_table() -> str:
    import decimal

    from exactlin.errors import ExactlinError
    from exactlin.exact.numbers import to_rational

    cases = [("3", 3, {}), ("'-3/4'", "-3/4", {}), ("'0.01'", "0.01", {}), ("'1e-3'", "1e-3", {}),
             ("Decimal('0.1')", decimal.Decimal("0.1"), {}), ("0.1 (float)", 0.1, {}),
             ("0.1 (float), floats='exact'", 0.1, {"floats": "exact"}),
             ("0.1 (float), floats='reject'", 0.1, {"floats": "reject"}),
             ("Fraction(2, 6)", Fraction(2, 6), {}), ("float('nan')", float("nan"), {}), ("True", True, {}),
             ("None", None, {}), ("1+2j", 1 + 2j, {})]
    try:
        import numpy as np

        cases.insert(1, ("numpy.int64(7)", np.int64(7), {}))
    except ImportError:  # pragma: no cover
        pass
    try:
        import sympy

        cases.insert(2, ("sympy.Rational(5, 7)", sympy.Rational(5, 7), {}))
        cases.append(("sympy.sqrt(2)", sympy.sqrt(2), {}))
    except ImportError:  # pragma: no cover
        pass
    rows = []
    for label, value, kw in cases:
        try:
            r = to_rational(value, **kw)
            res = f"{fmt(r)}"
        except ExactlinError as e:
            res = f"{type(e).__name__}: {e}"
        rows.append([label, res])
    return table_html(["input (Python)", "to_rational(input): computed while this page was built"], rows,
                      cls="exactlin-conversion")


def verification_table(examples, results) -> str:
    rows = []
    for ex in examples:
        res = results[ex.id]
        if isinstance(res, Exception):
            rows.append([ex.id, "-", "error"])
            continue
        rows.append([ex.id, f"{sum(c.ok for c in res.checks)} of {len(res.checks)}", "yes" if res.ok else "NO"])
    return table_html(["worked example", "checks that agree", "verified"], rows)


def api_modules() -> list[str]:
    import exactlin

    names = ["exactlin"]
    for m in pkgutil.walk_packages(exactlin.__path__, "exactlin."):
        if any(part.startswith("_") for part in m.name.split(".")):
            continue
        names.append(m.name)
    return sorted(names)


# ---------------------------------------------------------------------------
# the whole site


def generate(checkout=None) -> list:
    """Generate every page; return the navigation.  ``checkout``: the source tree (holds docs/, benchmarks/)."""
    global CHECKOUT
    if checkout is not None:
        CHECKOUT = __import__("pathlib").Path(checkout).resolve()
    from exactlin.algorithms import FAMILIES, all_specs
    from exactlin.lectures.examples import all_examples

    GENERATED.clear()
    _PICS.clear()
    t0, c0 = time.perf_counter(), time.process_time()
    specs = all_specs()
    examples = all_examples()
    results = {}
    for ex in examples:
        try:
            results[ex.id] = ex.func()
        except Exception as e:  # noqa: BLE001 - the page shows it, the docs test fails on it
            log.info("exactlin docs: example %s failed: %s", ex.id, e)
            results[ex.id] = e
    by_algo: dict[str, list] = {}
    for ex in examples:
        if ex.algorithm:
            by_algo.setdefault(ex.algorithm, []).append(ex)
    derivs = load_derivations()

    fam_nav = []
    index = ["# Algorithms", "",
             "Every algorithm exactlin implements, grouped as the lecture notes group them. Each page derives its "
             "rule: the problem, the criterion, its gradient or the geometric argument, the rule, when it stops and "
             "what it guarantees, with the proof instantiated on a worked example run while this site was built; "
             "then the notes' own statement and its errata; and last, how exactlin computes it.", ""]
    for fam, (ftitle, _) in FAMILIES.items():
        members = [s for s in specs if s.family == fam]
        if not members:
            continue
        index += [f"## {md_text(ftitle)}", ""]
        rows = []
        entries = []
        for spec in members:
            GENERATED[algo_path(spec)] = algorithm_page(spec, by_algo, results, derivs)
            rows.append([f'<a href="{esc(fam)}/{esc(spec.name)}.html"><code>{esc(spec.name)}</code></a>',
                         esc(spec.title), cite_note_html(spec.seed), esc(spec.number or "")])
            entries.append({nav_title(spec.title): algo_path(spec)})
        index += [table_html(["name", "title", "lecture notes", "where"], rows, raw=True), ""]
        fam_nav.append({ftitle: entries})
    GENERATED["algorithms/index.md"] = "\n".join(index)
    ex_nav = examples_pages(examples, results)
    GENERATED["proof.md"] = proof_page(examples, results)
    GENERATED["errata.md"] = errata_page()
    GENERATED["derivations.md"] = derivations_page(derivs)
    GENERATED["reference/cli.md"] = cli_page()
    GENERATED["reference/checker.md"] = claims_page()
    GENERATED["reference/extras.md"] = extras_page()
    GENERATED["benchmarks.md"], svg = benchmarks_page()
    if svg is not None:
        GENERATED["benchmarks/perceptron_scaling.svg"] = svg
    for stem in ("scaling", "svm_scaling"):
        scaling_svg = (__import__("pathlib").Path(CHECKOUT) / "benchmarks" / f"{stem}.svg")
        if scaling_svg.exists():
            GENERATED[f"benchmarks/{stem}.svg"] = scaling_svg.read_text()
    api_nav = []
    for name in api_modules():
        path = f"reference/api/{name}.md"
        GENERATED[path] = f"# `{name}`\n\n::: {name}\n"
        api_nav.append({name: path})
    _MARKERS["<!-- exactlin:conversion-table -->"] = conversion_table()
    _MARKERS["<!-- exactlin:readme-install -->"] = readme_install()
    _MARKERS["<!-- exactlin:verification-table -->"] = verification_table(examples, results)
    check_plain_math()
    log.info("exactlin docs: generated %d files in %.1f s (%.1f s of CPU)", len(GENERATED), time.perf_counter() - t0,
             time.process_time() - c0)
    return [
        {"Home": "index.md"},
        {"Getting started": "getting-started.md"},
        {"Algorithms": ["algorithms/index.md", *fam_nav]},
        {"Derivations": "derivations.md"},
        {"Convergence proof": "proof.md"},
        {"Worked examples": ["examples/index.md", *ex_nav]},
        {"Errata": "errata.md"},
        {"Benchmarks": "benchmarks.md"},
        *([{"How-to": howto_nav()}] if howto_nav() else []),
        {"Instructors": "instructors.md"},
        {"Reference": [{"Input conversion rule": "conversion.md"}, {"How 'verified' is checked": "verified.md"},
                       {"Guarantees": "guarantees.md"}, {"Command line": "reference/cli.md"},
                       {"Checking a result": "reference/checker.md"},
                       {"Run.extras keys": "reference/extras.md"},
                       {"API": api_nav}]},
    ]


def student_pages() -> list[str]:
    """The generated pages a student reads: every algorithm page and every worked example's page."""
    return sorted(p for p in GENERATED if p.endswith(".md") and p.startswith(("algorithms/", "examples/")))


def check_plain_math() -> None:
    """Fail the build when an algorithm or worked-example page has plain-text mathematics in its prose
    (:func:`exactlin.docsgen.mathtext.plain_math`: ``sum_{``, ``^t``, ``<-``, ``<=``, ``>=``, ``x~``, ``w_t``
    outside code and math)."""
    from exactlin.errors import VerificationError

    bad = {p: hits for p in student_pages() if (hits := plain_math(GENERATED[p]))}
    if bad:
        lines = [f"{p}: {h[0]!r}" + (f" (and {len(h) - 1} more)" if len(h) > 1 else "") for p, h in bad.items()]
        raise VerificationError("plain-text mathematics in the prose of " + f"{len(bad)} page(s):\n"
                                + "\n".join(lines))


#: a data set no line separates (seed 000's XOR) and three classes no linear machine separates, for the claims table
XOR_X, XOR_Y = [(0, 0), (1, 1), (0, 1), (1, 0)], [-1, -1, 1, 1]
MULTI_CYCLE_X, MULTI_CYCLE_Y = [(0, 0), (1, 1), (1, 0), (0, 1), (2, 2)], ["a", "a", "b", "b", "c"]


def extras_page() -> str:
    """The reference page of ``Run.extras``: generated from the one schema, :mod:`exactlin.model.extras`."""
    from exactlin.algorithms import FAMILIES
    from exactlin.model.extras import markdown

    return markdown({f: title for f, (title, _) in FAMILIES.items()})


def claims_page() -> str:
    """Results and the checker: the format, what each claim kind's witness is and what the stand-alone checker
    recomputes, and, generated from the registry, the claims each algorithm's results make (each run live on a
    separable and a non-separable data set while this site was built, and checked)."""
    from exactlin import exactlin_check
    from exactlin.algorithms import all_specs
    from exactlin.model.claims import FORMAT

    doc = exactlin_check.__doc__ or ""
    kinds = doc.split("recomputes each claimed condition exactly:", 1)[-1].split("x~_i is row i", 1)[0].strip("\n")
    samples = doc.split("x~_i is row i", 1)[-1].split("Prints one line", 1)[0].strip()
    parts = ["# Checking a result without exactlin", "",
             f"A saved result (format `{FORMAT}`: `exactlin fit ... --save-result FILE`, `fit --json`, "
             "`separable --json`, `Run.to_json()`, every download on this site) carries its exact rows, its labels, "
             "the parse options, the bias mode and a SHA-256 of the canonical text of the rows, and a list of "
             "**claims**, each with its witness. The one-file checker `exactlin/exactlin_check.py` (Python's "
             "standard library only; it imports nothing from exactlin, ignores every `verified` flag and every "
             "sentence of prose, and replays no run) recomputes each claim with `fractions.Fraction`:", "",
             "```text", "python exactlin_check.py RESULT.json [DATA.csv]", "exactlin check RESULT.json [DATA.csv]",
             "```", "", "Exit status 0: every claim holds; 1: a claim fails (named); 2: a malformed file. The "
             "format is described by the JSON Schema `exactlin/claims.schema.json`.", "", "## The claims", "",
             "```text", kinds, "```", "", md_text("x~_i is row i " + samples.replace("\n", " ")), "",
             "## The claims each algorithm's results make", "",
             "Each algorithm run on a separable data set (seed 000's Example 1; three separable classes for the "
             "multi-class machines) and on one no line separates (XOR; three classes no linear machine separates), "
             "with its default parameters, while this site was built; every result was checked by the stand-alone "
             "checker (the status column). An iterative run that stops without a certificate claims only its "
             "training errors.", ""]
    rows = []
    for spec in all_specs():
        cells = [f"<code>{esc(spec.name)}</code>"]
        status = "every claim holds"
        for X, y in (((MULTI_X, MULTI_Y), (MULTI_CYCLE_X, MULTI_CYCLE_Y)) if spec.multiclass else
                     ((BINARY_X, BINARY_Y), (XOR_X, XOR_Y))):
            kw = {"max_epochs": DEFAULT_EPOCHS} if spec.iterative else {}
            try:
                run = spec.func(X, y, **kw)
            except Exception as e:  # noqa: BLE001 - e.g. Fisher on XOR's coinciding means: shown as such
                cells.append(esc(f"({type(e).__name__}: {e})"))
                continue
            text = run.to_json(trace=False)
            if exactlin_check.check(text, out=lambda _line: None) != 0:
                status = "FAILS"
            kinds = [c["kind"] for c in __import__("json").loads(text).get("claims", [])]
            cells.append(esc(f"{run.reason}: " + (", ".join(kinds) or "no claim")))
        rows.append([*cells, esc(status)])
    parts += [table_html(["algorithm", "separable data: stop reason: claims", "non-separable data: stop reason: "
                          "claims", "checker"], rows, raw=True), ""]
    return "\n".join(parts)


def readme_install() -> str:
    """The README's two install commands (its Quickstart's ``python3 -m venv`` lines), as a shell block."""
    from pathlib import Path

    readme = Path(CHECKOUT) / "README.md"
    lines = readme.read_text(encoding="utf-8").splitlines() if readme.exists() else []
    start = next((k for k, ln in enumerate(lines) if ln.strip() == "## Quickstart"), None)
    cmds = []
    if start is not None:
        for ln in lines[start + 1:]:
            if ln.startswith("## "):
                break
            if ln.startswith("python3 -m venv "):
                cmds.append(ln)
    if len(cmds) != 2:
        log.warning("exactlin docs: the README's Quickstart does not hold its two install commands")
    return "```sh\n" + "\n".join(cmds) + "\n```\n"


def howto_nav() -> list[dict]:
    """Every hand-written how-to page under docs/howto/, titled by its first heading, in file-name order."""
    out = []
    for path in sorted((__import__("pathlib").Path(CHECKOUT) / "docs" / "howto").glob("*.md")):
        first = next((ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.startswith("# ")), None)
        out.append({(first[2:].strip() if first else path.stem): f"howto/{path.name}"})
    return out


def benchmarks_page() -> tuple[str, str | None]:
    """The latest committed benchmark table (benchmarks/RESULTS.md) and its time-against-n plot."""
    from pathlib import Path

    root = Path(CHECKOUT) / "benchmarks"
    results = root / "RESULTS.md"
    text = results.read_text() if results.exists() else "# Benchmarks\n\nNo committed benchmark run yet.\n"
    svg_path = root / "perceptron_scaling.svg"
    svg = svg_path.read_text() if svg_path.exists() else None
    lines = text.splitlines()
    head = ["# Benchmarks", "",
            "Measured by `python -m benchmarks.run` (see the README); every row's answer was checked against an "
            "independent exact reference in the same run. This page shows the committed file "
            "`benchmarks/RESULTS.md`.", ""]
    if svg is not None:
        head += ["![Perceptron time against n, exactlin and its anchors](benchmarks/perceptron_scaling.svg)", ""]
    body = lines[1:] if lines and lines[0].startswith("# ") else lines
    svm = scaling_section(root, "svm_scaling", "--repeat R` calls per cell, `--smoke")
    return "\n".join(head + body) + "\n" + scaling_section(root) + svm, svg


def scaling_section(root, stem: str = "scaling", options: str = "--timeout S` per cell, `--smoke") -> str:
    """A committed scaling table (``python -m benchmarks.scaling``: benchmarks/scaling.md, its plot
    benchmarks/scaling.svg; ``python -m benchmarks.svm_scaling``: svm_scaling.md and .svg), as a section of the
    Benchmarks page; empty when it was never run."""
    md = root / f"{stem}.md"
    if not md.exists():
        return ""
    text = md.read_text(encoding="utf-8").replace(f"]({stem}.svg)", f"](benchmarks/{stem}.svg)")
    if not (root / f"{stem}.svg").exists():
        text = "\n".join(ln for ln in text.splitlines() if f"](benchmarks/{stem}.svg)" not in ln) + "\n"
    return (f"\n{text}\nThe table's rows as data: `benchmarks/{stem}.json`; the command re-runs it "
            f"(`{options}` for the CI size).\n")


def add_files(files, config):
    """Put every generated file into mkdocs' file collection (replacing a file of the same path)."""
    from mkdocs.structure.files import File

    for path, content in GENERATED.items():
        old = files.get_file_from_path(path)
        if old is not None:
            files.remove(old)
        files.append(File.generated(config, path, content=content))
    return files


# ---------------------------------------------------------------------------
# live blocks in hand-written pages: a command or a Python snippet written once in the page, run while the
# site is built, shown with its real output
#
#   <!-- exactlin:run fit perceptron examples/data/xor.csv -->   the command and its transcript
#   <!-- exactlin:file examples/data/animals.csv -->              a file of the checkout, as it is
#   <!-- exactlin:python                                          the code, then what it printed
#   print(1)
#   -->

_RUN = re.compile(r"<!-- exactlin:run ?(?P<args>[^\n]*?) -->")
_FILE = re.compile(r"<!-- exactlin:file (?P<path>[^\n]*?) -->")
_PY = re.compile(r"<!-- exactlin:python\n(?P<code>.*?)\n-->", re.S)
_WORKDIR: list[str] = []
_NAMESPACES: dict[str, dict] = {}


def workdir() -> str:
    """The directory live blocks run in (created once per build): a copy of the checkout's examples/data, so
    commands use the paths the README shows and files they write (model.json) stay out of the checkout."""
    import shutil

    if not _WORKDIR:
        tmp = tempfile.mkdtemp(prefix="exactlin-live-")
        src = os.path.join(str(CHECKOUT), "examples", "data")
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(tmp, "examples", "data"))
        _WORKDIR.append(tmp)
    return _WORKDIR[0]


def run_cli(argv, cwd: str | None = None) -> tuple[object, str, str]:
    """Run ``exactlin.cli.main(argv)`` in ``cwd`` with COLUMNS=100: (exit status or "crashed: ...", stdout,
    stderr)."""
    from exactlin.cli import app as cli

    out, err = io.StringIO(), io.StringIO()
    old_cols, old_cwd = os.environ.get("COLUMNS"), os.getcwd()
    os.environ["COLUMNS"] = "100"
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(list(argv))
    except SystemExit as e:  # argparse's --help and usage errors
        code = e.code
    except Exception as e:  # noqa: BLE001 - a crashing command is shown (and fails the docs test)
        log.info("exactlin docs: exactlin %s raised %s", " ".join(argv), e)
        code = f"crashed: {type(e).__name__}: {e}"
    finally:
        os.chdir(old_cwd)
        if old_cols is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old_cols
    return code, out.getvalue(), err.getvalue()


def live_transcript(args: str) -> str:
    """The console block of ``exactlin ARGS`` run in :func:`workdir`: the command, its output, its exit status."""
    import shlex

    argv = shlex.split(args)
    code, out, err = run_cli(argv, cwd=workdir())
    text = out
    if err:
        text += ("\n" if text and not text.endswith("\n") else "") + "[stderr]\n" + err
    text = _clip_transcript(text.replace(workdir() + os.sep, ""))
    block = f"```console\n{('exactlin ' + args.strip()).strip()}\n{text.rstrip()}\n[exit status {code}]\n```\n"
    if isinstance(code, str):
        log.warning("exactlin docs: the live command exactlin %s crashed: %s", args, code)
        block = admonition("failure", "This command crashed while the site was built", md_text(code)) + "\n" + block
    return block


def live_file(path: str) -> str:
    with open(os.path.join(workdir(), path.strip()) if path.strip().startswith("examples/data/")
              else os.path.join(str(CHECKOUT), path.strip()), encoding="utf-8") as fh:
        return f"```text\n{fh.read().rstrip()}\n```\n"


def live_python(code: str, key: str) -> str:
    """The snippet as a python block and, when it printed anything, its output; every snippet of one page runs
    in one namespace (in page order), in :func:`workdir`."""
    ns = _NAMESPACES.setdefault(key, {"__name__": f"exactlin_docs_{key}"})
    out = io.StringIO()
    old_cwd = os.getcwd()
    try:
        os.chdir(workdir())
        with contextlib.redirect_stdout(out):
            exec(compile(code, f"<docs/{key}>", "exec"), ns)  # noqa: S102 - the page's own example code
        failure = None
    except Exception as e:  # noqa: BLE001 - a failing snippet is shown (and fails the strict build)
        failure = f"{type(e).__name__}: {e}"
    finally:
        os.chdir(old_cwd)
    block = f"```python\n{code.rstrip()}\n```\n"
    if out.getvalue():
        block += f"\nOutput:\n\n```text\n{out.getvalue().rstrip()}\n```\n"
    if failure:
        log.warning("exactlin docs: a Python snippet of %s failed: %s", key, failure)
        block = admonition("failure", "This snippet failed while the site was built", md_text(failure)) + "\n" + block
    return block


def expand_live(markdown: str, key: str) -> str:
    """Replace every live marker of a hand-written page by its real output (in page order)."""
    _NAMESPACES.pop(key, None)
    pat = re.compile(f"{_RUN.pattern}|{_FILE.pattern}|{_PY.pattern}", re.S)

    def sub(m):
        if m.group("args") is not None:
            return live_transcript(m.group("args"))
        if m.group("path") is not None:
            return live_file(m.group("path"))
        return live_python(m.group("code"), key)

    return pat.sub(sub, markdown)


# ---------------------------------------------------------------------------
# math: LaTeX -> MathML at build time

_CODE = re.compile(r"(^(?P<fence>```|~~~)[^\n]*\n.*?^(?P=fence)[ \t]*$|`[^`\n]+`)", re.M | re.S)
_DISPLAY = re.compile(r"\$\$(.+?)\$\$", re.S)
_INLINE = re.compile(r"(?<![\\$])\$(?!\$)([^$\n]+?)(?<!\\)\$(?!\$)")


def to_mathml(tex: str, display: bool) -> str:
    from latex2mathml.converter import convert

    try:
        return convert(tex.strip(), display="block" if display else "inline")
    except Exception as e:  # noqa: BLE001 - a formula that does not convert is a build warning (strict: error)
        log.warning("exactlin docs: cannot convert LaTeX %r to MathML: %s", tex, e)
        return f"<code>{esc(tex)}</code>"


def page_markdown(markdown: str, key: str) -> str:
    """Fill the markers (live blocks too) and replace the page's LaTeX by placeholders (its MathML is kept under
    ``key``)."""
    for marker, text in _MARKERS.items():
        markdown = markdown.replace(marker, text)
    if "<!-- exactlin:" in markdown:
        markdown = expand_live(markdown, key)
    store: list[str] = []
    _MATH[key] = store

    def sub_math(text: str) -> str:
        def disp(m):
            store.append(to_mathml(m.group(1), True))
            return f"\n\nEXLMATH{len(store) - 1}X\n\n"

        def inl(m):
            store.append(to_mathml(m.group(1), False))
            return f"EXLMATH{len(store) - 1}X"

        return _INLINE.sub(inl, _DISPLAY.sub(disp, text))

    out, pos = [], 0
    for m in _CODE.finditer(markdown):
        out.append(sub_math(markdown[pos:m.start()]))
        out.append(m.group(0))
        pos = m.end()
    out.append(sub_math(markdown[pos:]))
    return "".join(out)


def page_content(html_text: str, key: str) -> str:
    """Put the MathML of the page ``key`` where :func:`page_markdown` left its placeholders."""
    store = _MATH.pop(key, [])
    if not store:
        return html_text
    html_text = re.sub(r"<p>EXLMATH(\d+)X</p>", lambda m: store[int(m.group(1))], html_text)
    return re.sub(r"EXLMATH(\d+)X", lambda m: store[int(m.group(1))], html_text)
