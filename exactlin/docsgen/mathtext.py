"""Mathematics in the site's prose: the code's ASCII formulas typeset, and the check that none is left plain.

The algorithms and worked examples describe themselves in ASCII (``a^t y_k <= b``, ``||w||^2``, ``x~_i``): that
is right for a terminal and wrong for a page a student reads.  :func:`ascii_md` finds the formulas in such a
sentence and writes each as LaTeX between dollar signs (the site turns it into MathML at build time); the words
around them stay text.  A formula it cannot translate safely is shown as code, never as plain text.

:func:`plain_math` is the build-time check: it lists the plain-text mathematics (``sum_{``, ``^t``, ``<-``,
``<=``, ``>=``, ``x~``, ``w_t``) left in a page's prose, i.e. outside code, outside math and outside the HTML
tags themselves.  :func:`nav_title` writes a title for the navigation, where no markup renders, with Unicode
symbols instead of ASCII ones.
"""

from __future__ import annotations

import html
import re


def esc(s) -> str:
    """HTML-escaped text (quotes too)."""
    return html.escape(str(s), quote=True)


def md_text(s: str) -> str:
    """Plain text from the code, made safe for Markdown (no emphasis, no raw HTML, no links)."""
    s = html.escape(str(s), quote=False)
    return re.sub(r"([\\`*_\[\]])", r"\\\1", s)

# ---------------------------------------------------------------------------
# the check

#: plain-text mathematics that must not appear in prose (issue 21): each with what it stands for
PLAIN_MATH = {
    r"sum_\{": "a sum written sum_{...}",
    r"\^t(?![a-z])": "a transpose written ^t",
    r"<-": "an assignment arrow written <-",
    r"<=": "an inequality written <=",
    r">=": "an inequality written >=",
    r"[A-Za-z]~": "a tilde written x~",
    r"(?<![A-Za-z])w_t(?![A-Za-z])": "a subscript written w_t",
}
_PLAIN = re.compile("|".join(f"(?:{p})" for p in PLAIN_MATH))

_FENCE = re.compile(r"^(?P<f>```|~~~)[^\n]*\n.*?^(?P=f)[ \t]*$", re.M | re.S)
_CODE_SPAN = re.compile(r"`[^`\n]+`|<code>.*?</code>|<pre>.*?</pre>", re.S)
_MATH_SPAN = re.compile(r"\$\$.+?\$\$|(?<![\\$])\$(?!\$)[^$\n]+?(?<!\\)\$(?!\$)", re.S)
_TAG = re.compile(r"<!--.*?-->|</?[A-Za-z][^<>]*>", re.S)


def prose(markdown: str) -> str:
    """The prose of a Markdown page: code blocks and spans, math and HTML tags removed, escapes undone."""
    text = _FENCE.sub(" ", markdown)
    text = _CODE_SPAN.sub(" ", text)
    text = _MATH_SPAN.sub(" ", text)
    text = _TAG.sub(" ", text)
    text = re.sub(r"\\([\\`*_\[\]{}()#+\-.!<>|~])", r"\1", text)  # Markdown backslash escapes
    return html.unescape(text)


def plain_math(markdown: str) -> list[str]:
    """The plain-text mathematics in ``markdown``'s prose, each as a short excerpt around it (empty: clean)."""
    text = prose(markdown)
    out = []
    for m in _PLAIN.finditer(text):
        out.append(" ".join(text[max(0, m.start() - 40):m.end() + 30].split()))
    return out


# ---------------------------------------------------------------------------
# ASCII formulas -> LaTeX

_GREEK = ("alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "eta", "theta", "lambda", "mu", "xi", "pi",
          "rho", "sigma", "tau", "phi", "varphi", "omega", "Gamma", "Delta", "Lambda", "Omega", "Phi", "Sigma")
_FUNCS = {"sign": r"\operatorname{sign}", "rank": r"\operatorname{rank}", "sum": r"\sum", "lim": r"\lim",
          "min": r"\min", "max": r"\max", "argmin": r"\operatorname{arg\,min}", "argmax": r"\operatorname{arg\,max}",
          "mod": r"\bmod", "exp": r"\exp", "ln": r"\ln", "log": r"\log", "diag": r"\operatorname{diag}",
          "grad": r"\nabla"}
_MATH_WORDS = set(_GREEK) | set(_FUNCS) | {"eps", "sqrt", "in", "E_in", "abs", "Abs"}
#: a chunk (a whitespace-separated piece of a sentence) that is certainly mathematics
_STRONG = re.compile(r"[=<>^_|~{}]|\+|(?<!\*)\*(?!\*)|\w\.\w|(?<=[\w)])/|^[-+]$")
#: a chunk that is mathematics next to other mathematics: a letter, a number, a bracketed one
_WEAK = re.compile(r"^['\"]?[(\[]*(?:[A-Za-z]{1,2}\d*(?:\([^()\s]*\))?|-?\d+(?:/\d+)?|in|sum|\.\.\.|-|/|\.)[)\]]*"
                   r"['\"]?[,.;:]?['\"]?$")
#: two-letter English words, never a formula's symbol
_ENGLISH = {"is", "of", "to", "at", "by", "if", "or", "on", "as", "an", "be", "it", "no", "so", "we", "do", "up", "us",
            "me", "my", "he", "a", "i", "A", "I"}
_WORD = re.compile(r"[A-Za-z]{3,}")


def _is_strong(chunk: str) -> bool:
    ident = re.sub(r"[A-Za-z]+_[A-Za-z0-9]+", "x", chunk)  # an identifier such as w_pocket or E_in is a symbol
    words = [w for w in re.findall(r"(?<![A-Za-z])[A-Za-z]{3,}(?![A-Za-z(])", ident) if w not in _MATH_WORDS]
    if words:  # a sentence word (a word before "(" is a function's name: "trace(Y^tY)")
        return False
    core = chunk.strip("()[],.;:")
    if core in _GREEK or core == "eps":  # a Greek letter's name alone ("eta") is a symbol; "rank" alone is a word
        return True
    return bool(_STRONG.search(chunk))


#: a name from the code in a sentence ('not_separable', max_updates): shown as code, never as a subscript
_IDENT = re.compile(r"^(['\"(]*)([a-z]{3,}(?:_[a-z0-9]+)+)(['\")]*[,.;:]?['\")]*)$")


def _is_ident(chunk: str) -> bool:
    m = _IDENT.match(chunk)
    if not m:
        return False
    first, *rest = m.group(2).split("_")
    return first not in _MATH_WORDS or any(len(p) >= 4 and p not in _MATH_WORDS for p in rest)


def _kind(chunk: str) -> str:
    if _is_ident(chunk):
        return "C"
    if _is_strong(chunk):
        return "S"
    core = chunk.strip("'\"()[],.;:")
    if core in ("a", "I"):
        return "B"  # a letter that reads as a word at a formula's edge, as a symbol inside one
    if (_WEAK.match(chunk) or re.fullmatch(r"[A-Za-z0-9()\[\],./'\"-]{1,16}[;:]?", chunk)) and core not in _ENGLISH \
            and not [w for w in _WORD.findall(chunk) if w not in _MATH_WORDS]:
        return "W"
    return "P"


def _spans(chunks: list[str]) -> list[tuple[int, int]]:
    """Maximal runs [i, j) of chunks that form one formula: strong chunks joined by weak ones, extended over the
    weak chunks on either side (a lone letter before "=" belongs to the formula; "a" before a word does not)."""
    kinds = [_kind(c) for c in chunks]
    spans = []
    i = 0
    n = len(chunks)
    while i < n:
        if kinds[i] != "S":
            i += 1
            continue
        j = i + 1
        while j < n:
            if kinds[j] == "S":
                j += 1
                continue
            k = j
            while k < n and kinds[k] in "WB":
                k += 1
            if k < n and kinds[k] == "S" and k > j:
                j = k
                continue
            # trailing weak chunks that end the formula (a number, a letter): "... <= 0", "= b"
            while j < n and (kinds[j] == "W" or (kinds[j] == "B" and kinds[j - 1] == "S")) and \
                    not _ends_sentence(chunks[j - 1]):
                j += 1
                if chunks[j - 1].endswith((",", ";", ":", ".")):
                    break
            break
        # a bracket opened in the formula closes in it: "(1, 1)" is one formula even across its comma
        while j < n and kinds[j] in "WS" and _depth(" ".join(chunks[i:j])) > 0:
            j += 1
        s = i
        # weak chunks before the formula belong to it ("Y a = b"); "a" or "I" only after another weak chunk
        while s > 0 and (kinds[s - 1] == "W" or (kinds[s - 1] == "B" and (s == 1 or kinds[s - 2] == "W"))) and \
                not _ends_sentence(chunks[s - 1]) and (not spans or s - 1 >= spans[-1][1]):
            s -= 1
        spans.append((s, j))
        i = j
    return spans


def _depth(text: str) -> int:
    return text.count("(") - text.count(")") + text.count("[") - text.count("]")


def _ends_sentence(chunk: str) -> bool:
    return chunk.endswith((",", ";", ":", ".")) and not chunk.endswith("...")


def _balanced(tex: str) -> bool:
    depth = 0
    for ch in tex:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def ascii_tex(s: str) -> str:
    """One ASCII formula as LaTeX: the inner product in angle brackets becomes langle/rangle, ``<=`` becomes le,
    a Greek letter's name becomes the letter, ``^(...)`` and ``_(...)`` become braces."""
    t = s
    t = re.sub(r"([#%&$])", r"\\\1", t)
    t = t.replace("||", r" \| ")
    t = re.sub(r"<([^<>=|]*[A-Za-z][^<>=|]*?),\s*([^<>=|]*[A-Za-z][^<>=|]*?)>", r" \\langle \1, \2 \\rangle ", t)
    for a, b in (("<=", r" \le "), (">=", r" \ge "), ("!=", r" \ne "), ("<-", r" \leftarrow "),
                 ("->", r" \to "), ("=>", r" \Rightarrow "), ("+/-", r" \pm ")):
        t = t.replace(a, b)
    t = re.sub(r"([A-Za-z])([+-])\^([A-Za-z0-9])", r"\1^{\2\3}", t)  # a+^t -> a^{+t}
    t = re.sub(r"\^\(([^()]*)\)", r"^{\1}", t)
    t = re.sub(r"_\(([^()]*(?:\([^()]*\)[^()]*)*)\)", r"_{\1}", t)
    t = re.sub(r"_([A-Za-z]{2,})(?![A-Za-z{])", lambda m: "_{" + (_FUNCS.get(m.group(1)) or
                                                                   r"\mathrm{" + m.group(1) + "}") + "}", t)
    t = re.sub(r"(?<![A-Za-z\\])([A-Za-z])~", r"\\tilde{\1}", t)
    t = re.sub(r"(?<![A-Za-z\\])([A-Za-z])(\d+)(?![\d/.])", r"\1_{\2}", t)  # x1 -> x_1, m2 -> m_2
    t = re.sub(r"(?<=[A-Za-z0-9)}])\*(?=[\s,;).\]|_^]|$)", r"^{*}", t)
    t = re.sub(r"\s\*\s|(?<=\d)\*(?=\d|[A-Za-z(])", r" \\cdot ", t)
    t = re.sub(r"(?<![A-Za-z\\])([A-Za-z])\+(?=[\s,;().\]]|$)", r"\1^{+}", t)
    t = re.sub(r"(?<=[\w}*])\s?\.\s?(?=[A-Za-z])", r" \\cdot ", t)
    t = re.sub(r"(?<![A-Za-z\\])sqrt\(([^()]*)\)", r"\\sqrt{\1}", t)
    t = re.sub(r"(?<![A-Za-z\\])eps(?![A-Za-z])", r"\\varepsilon", t)
    t = re.sub(r"(?<![A-Za-z\\])(?<!mathrm\{)(" + "|".join(_GREEK) + r")(?![A-Za-z])", r"\\\1 ", t)
    t = re.sub(r"(?<![A-Za-z\\])(?<!mathrm\{)(" + "|".join(_FUNCS) + r")(?![A-Za-z])",
               lambda m: _FUNCS[m.group(1)] + " ", t)
    t = re.sub(r"(?<![A-Za-z\\])(?<!mathrm\{)in(?![A-Za-z])", r"\\in ", t)
    t = re.sub(r"(?<![A-Za-z\\{])([A-Za-z]{3,})(?=\()", r"\\operatorname{\1}", t)
    t = re.sub(r"(?<![A-Za-z\\{])([A-Za-z]{3,})(?![A-Za-z}])", r"\\text{\1}", t)
    return re.sub(r"\s+", " ", t).strip()


def _converts(tex: str) -> bool:
    if not _balanced(tex):
        return False
    try:
        from latex2mathml.converter import convert

        convert(tex)
    except Exception:  # noqa: BLE001 - a formula the converter cannot read is shown as code instead
        return False
    return True


def _split_edges(chunk_text: str) -> tuple[str, str, str]:
    """Punctuation that ends a formula's last chunk (or an unmatched bracket at either end) stays text."""
    lead = trail = ""
    m = re.search(r"['\"]?[,;:.]*['\"]?$", chunk_text)
    if m and not chunk_text.endswith("..."):
        trail, chunk_text = m.group(0), chunk_text[:m.start()]
    if chunk_text[:1] in "'\"":
        lead, chunk_text = chunk_text[0], chunk_text[1:]
    while chunk_text.startswith("(") and chunk_text.count("(") > chunk_text.count(")"):
        lead, chunk_text = lead + "(", chunk_text[1:]
    while chunk_text.endswith(")") and chunk_text.count(")") > chunk_text.count("("):
        trail, chunk_text = ")" + trail, chunk_text[:-1]
    return lead, chunk_text, trail


def ascii_md(s, *, html_cell: bool = False) -> str:
    """A sentence from the code as Markdown (or, with ``html_cell``, as the HTML of a table cell): its ASCII
    formulas as LaTeX between dollar signs, the rest as escaped text.  A formula that does not translate is
    shown as code."""
    plain = esc if html_cell else md_text

    def text_fn(chunk: str) -> str:
        m = _IDENT.match(chunk)
        if m and _is_ident(chunk):
            return plain(m.group(1)) + f"<code>{esc(m.group(2))}</code>" + plain(m.group(3))
        return plain(chunk)

    s = str(s)
    parts = re.split(r"(\s+)", s)
    chunks = parts[0::2]
    seps = parts[1::2] + [""]
    spans = _spans(chunks)
    out = []
    i = 0
    for a, b in spans:
        for k in range(i, a):
            out.append(text_fn(chunks[k]) + seps[k])
        formula = "".join(chunks[k] + (seps[k] if k < b - 1 else "") for k in range(a, b))
        lead, formula, trail = _split_edges(formula)
        tex = ascii_tex(formula) if formula.strip() else ""
        if tex and _converts(tex):
            body = f"${tex}$"
        elif formula.strip():
            body = f"<code>{esc(formula)}</code>"
        else:
            body = ""
        out.append(text_fn(lead) + body + text_fn(trail) + seps[b - 1])
        i = b
    for k in range(i, len(chunks)):
        out.append(text_fn(chunks[k]) + seps[k])
    return "".join(out)


# ---------------------------------------------------------------------------
# the navigation: no markup renders there, so symbols are Unicode

_NAV = [("<=", "≤"), (">=", "≥"), ("!=", "≠"), ("<-", "←"), ("->", "→"), ("^t", "ᵗ"), ("^T", "ᵀ"), ("^2", "²"),
        ("^+", "⁺"), ("^(-1)", "⁻¹"), ("sqrt", "√")]
_NAV_GREEK = {"alpha": "α", "eta": "η", "gamma": "γ", "lambda": "λ", "phi": "φ", "eps": "ε", "epsilon": "ε",
              "xi": "ξ", "theta": "θ", "omega": "ω", "delta": "δ", "Delta": "Δ"}


def nav_title(s: str) -> str:
    """A title for the navigation: ASCII symbols replaced by Unicode ones (``<=`` -> ``≤``, ``eta`` -> ``η``)."""
    for a, b in _NAV:
        s = s.replace(a, b)
    s = re.sub(r"([A-Za-z])~", "\\1\u0303", s)
    return re.sub(r"(?<![A-Za-z])(" + "|".join(_NAV_GREEK) + r")(?![A-Za-z])", lambda m: _NAV_GREEK[m.group(1)], s)
