"""Griffe extension for the API pages: exactlin's docstrings are reST-flavoured plain text.

Doctest blocks (``>>>``), indented literal blocks and ``====`` tables become fenced code, and reST roles
(:class:`~exactlin.model.run.Run`) become inline code, so mkdocstrings renders them as written and never mistakes
``[...]`` in a doctest's output for a cross-reference.
"""

from __future__ import annotations

import re

import griffe

_ROLE = re.compile(r":[a-z]+:`~?([^`]+)`")


def convert(text: str) -> str:
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        ln = lines[i]
        s = ln.strip()
        indent = len(ln) - len(ln.lstrip())
        if s.startswith(">>>"):
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i].strip())
                i += 1
            out += ["```pycon", *block, "```"]
            continue
        if re.match(r"^=+(\s+=+)+\s*$", s):
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i][indent:])
                i += 1
            out += ["```text", *block, "```"]
            continue
        if s.endswith("::") and not s.startswith(".."):
            out.append(ln.rstrip()[:-1])
            i += 1
            while i < len(lines) and not lines[i].strip():
                i += 1
            block = []
            while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent):
                block.append(lines[i])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            if block:
                cut = min(len(b) - len(b.lstrip()) for b in block if b.strip())
                out += ["", "```text", *(b[cut:] for b in block), "```", ""]
            continue
        out.append(_ROLE.sub(lambda m: "`" + (m.group(1).rsplit(".", 1)[-1] if "~" in m.group(0)
                                              else m.group(1)) + "`", ln))
        i += 1
    return "\n".join(out)


def public_parameters(path: str) -> griffe.Parameters | None:
    """The parameters of a registered algorithm's public entry point (generated from its parameter table by
    exactlin.algorithms.register), for the function at ``path``; None when it is not a registered algorithm.
    The source defines the rule ``name(X, y, P)``; the page shows what users call."""
    import importlib
    import inspect

    module, _, name = path.rpartition(".")
    try:
        entry = getattr(importlib.import_module(module), name, None)
    except ImportError:
        return None
    if getattr(entry, "spec", None) is None or not hasattr(entry, "rule"):
        return None
    out = []
    for p in inspect.signature(entry).parameters.values():
        default = None if p.default is inspect.Parameter.empty else repr(p.default)
        out.append(griffe.Parameter(p.name, kind=griffe.ParameterKind[p.kind.name.lower()], default=default))
    return griffe.Parameters(*out)


class ExactlinDocstrings(griffe.Extension):
    def on_instance(self, *, node, obj, agent, **kwargs) -> None:
        if obj.docstring is not None:
            obj.docstring.value = convert(obj.docstring.value)

    def on_function_instance(self, *, node, func, agent, **kwargs) -> None:
        if any("register" in str(d.value) for d in func.decorators):
            params = public_parameters(func.path)
            if params is not None:
                func.parameters = params
