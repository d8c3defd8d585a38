"""The CSV reader and the CLI fuzzed with hostile bytes and arguments.

A file either reads into an exact Dataset or raises ``CSVError`` naming the line; through the CLI the same
file exits 0 (a result) or 2 with exactly one line on stderr, never a traceback.  Budget fixed and
derandomized, cases counted (tests/conftest.py).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactlin.algorithms import all_specs
from exactlin.cli.app import main
from exactlin.data.dataset import read_csv
from exactlin.errors import CSVError
from tests.fuzz.test_fuzz_api import FUZZ, check_message, no_hang

FUZZ_CSV = FUZZ

EOLS = [b"\n", b"\r\n", b"\r"]
GOOD_CELLS = [b"0", b"1", b"-3", b"1/2", b"-3/4", b"0.01", b"1e-3", b" 7 ", b'"2"', b"+5",
              b"1" + b"0" * 250, b"123456789012345678901234567890/987654321098765432109876543210"]
BAD_CELLS = [b"abc", b"nan", b"inf", b"1/0", b"", b'"1,2"', b"\x00", b"\xff\xfe", b"\xc3\x28", b"0x1F",
             b"1e999999999", b'"unterminated', b"\xe2\x82", b"1 2"]
LABELS = [b"1", b"-1", b"+1", b"cat", b"dog", b'"1"', b"-1 "]


@st.composite
def csv_bytes(draw):
    """A CSV as bytes, with the 1-based line number of the first planted defect (None if none planted)."""
    d = draw(st.integers(1, 3))
    n = draw(st.integers(0, 6))
    lines: list[tuple[bytes, str]] = []  # (content, kind)
    if draw(st.booleans()):
        lines.append((b",".join([b"x%d" % (j + 1) for j in range(d)] + [b"y"]), "header"))
    for _ in range(n):
        kind = draw(st.sampled_from(["row"] * 14 + ["comment", "blank", "bad_cell", "width", "mid_header",
                                                    "trailing_comment"]))
        cells = [draw(st.sampled_from(GOOD_CELLS)) for _ in range(d)]
        lab = draw(st.sampled_from(LABELS[:3]))
        if kind == "comment":
            lines.append((b"# a comment, with commas", "comment"))
        elif kind == "blank":
            lines.append((draw(st.sampled_from([b"", b"   ", b",,"])), "blank"))
        elif kind == "bad_cell":
            cells[draw(st.integers(0, d - 1))] = draw(st.sampled_from(BAD_CELLS))
            lines.append((b",".join(cells + [lab]), "bad"))
        elif kind == "width":
            extra = draw(st.sampled_from([[b"1"], []]))
            cells = cells + extra if extra else cells[:-1] if d > 1 else []
            lines.append((b",".join(cells + [lab]), "bad"))
        elif kind == "mid_header":
            lines.append((b",".join([b"x%d" % (j + 1) for j in range(d)] + [b"y"]), "bad"))
        elif kind == "trailing_comment":
            lines.append((b",".join(cells + [lab]) + b"  # note", "row"))
        else:
            lines.append((b",".join(cells + [lab]), "row"))
    bom = draw(st.sampled_from([b"", b"", b"", b"\xef\xbb\xbf", b"\xff\xfe"]))
    out = bytearray(bom)
    for content, _ in lines:
        out += content + draw(st.sampled_from(EOLS))
    if draw(st.integers(0, 7)) == 7 and out:
        out = out[: draw(st.integers(0, len(out)))]  # truncated anywhere, even inside a UTF-8 sequence
    return bytes(out), lines


def run_main(argv):
    """exactlin.cli.app.main with stdout/stderr captured (hypothesis tests cannot use pytest's capsys)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def check_csv_error(e: CSVError) -> None:
    check_message(e)
    msg = str(e)
    if e.line is None:
        assert ("no data rows" in msg or "only a header" in msg or "no such file" in msg
                or "directory" in msg), f"CSVError without a line number: {msg!r}"
    else:
        assert f"line {e.line}" in msg and e.line >= 1


@FUZZ_CSV
@given(blob=csv_bytes())
def test_fuzz_read_csv(fuzz_count, tmp_path_factory, blob):
    raw, lines = blob
    p = tmp_path_factory.mktemp("csv") / "data.csv"
    p.write_bytes(raw)
    try:
        with no_hang():
            ds = read_csv(p)
    except CSVError as e:
        fuzz_count("read_csv", "error")
        check_csv_error(e)
        # the line named exists in the file (lines counted as \n, \r\n or \r end them)
        if e.line is not None:
            nlines = len(raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n"))
            assert e.line <= nlines, f"line {e.line} named, the file has {nlines}"
        return
    fuzz_count("read_csv", "ok")
    assert ds.n >= 1 and all(type(v) is Fraction for r in ds.X for v in r)
    assert all(len(r) == ds.d for r in ds.X)
    assert not any(kind == "bad" for _, kind in lines) or b"\x00" not in raw


@FUZZ_CSV
@given(blob=csv_bytes(), algo=st.sampled_from(sorted(s.name for s in all_specs())),
       command=st.sampled_from(["fit", "fit", "fit", "separable", "compare"]))
def test_fuzz_cli_csv(fuzz_count, tmp_path_factory, blob, algo, command):
    """fit / separable / compare on hostile CSV bytes."""
    raw, _ = blob
    p = tmp_path_factory.mktemp("cli") / "data.csv"
    p.write_bytes(raw)
    spec = next(s for s in all_specs() if s.name == algo)
    if command == "separable":
        argv = ["separable", str(p), "--json"]
    else:
        argv = [command, algo, str(p), "--json"] + (["--max-epochs", "3"] if spec.iterative else [])
    with no_hang():
        code, out, err = run_main(argv)
    fuzz_count(f"cli {command} (csv)", f"exit {code}")
    assert code in (0, 2), f"exit {code}: {err}"
    assert "Traceback" not in err
    if code == 2:
        assert err.count("\n") == 1 and err.startswith("exactlin: error: "), f"stderr: {err!r}"
        assert out == ""
    else:
        d = json.loads(out)
        if command == "fit":
            assert d["algorithm"] == algo and isinstance(d["w"], (list, type(None)))


@FUZZ
@given(argv=st.one_of(
    st.tuples(st.just("fit"), st.sampled_from(sorted(s.name for s in all_specs()) + ["nope", ""]),
              st.sampled_from(["--param", "--bias", "--max-epochs", "--positive", "--json", "--trace"]),
              st.sampled_from(["eta=1/2", "eta=0", "eta=-1", "eta=nan", "eta", "=", "zzz=1", "w0=1,2,3",
                               "max_bits=1", "max_seconds=1/1000", "max_updates=0", "none", "first", "middle",
                               "0", "-1", "2", "abc", "cat", "1", "9**9**9", "eta=9**9**9", "T=3", "theta=1/2"])),
    st.tuples(st.just("examples"), st.sampled_from(["show", "list"]),
              st.sampled_from(["nope", "", "../etc/passwd"]), st.sampled_from(["--format", "--json"]),
              st.sampled_from(["json", "xml", "table"])),
    st.tuples(st.just("algorithms"), st.sampled_from(["show", "list"]),
              st.sampled_from(["nope", "perceptron", ""]))))
def test_fuzz_cli_argv(fuzz_count, tmp_path_factory, argv):
    p = tmp_path_factory.mktemp("argv") / "ex1.csv"
    p.write_text("x1,x2,y\n4,0,1\n1,1,-1\n0,1,-1\n-2,-2,1\n")
    argv = list(argv)
    if argv[0] == "fit":
        argv.insert(2, str(p))
        if argv[3] in ("--json", "--trace"):
            argv.append("--json")
        if argv[3] == "--max-epochs" or "--max-epochs" not in argv:
            argv += ["--max-epochs", "5"] if argv[3] != "--max-epochs" else []
    with no_hang():
        code, out, err = run_main(argv)
    fuzz_count("cli argv", f"exit {code}")
    assert code in (0, 1, 2), f"exit {code}"
    assert "Traceback" not in err
    if code == 2:
        assert err.strip().splitlines()[-1].startswith(("exactlin: error:", "usage:")) or "error:" in err


def test_csv_ten_megabyte_line(tmp_path):
    """A 10 MB line: one 10 MB number (a clean error naming line 1), and 1000 cells of 10,000 digits each
    (read exactly and fitted); a 1 MB line of 500,000 small cells reads in seconds."""
    p = tmp_path / "huge.csv"
    p.write_bytes(b"1" * 10_000_000 + b",1\n")
    with pytest.raises(CSVError) as ei:
        with no_hang(60):
            read_csv(p)
    assert ei.value.line == 1 and "line 1" in str(ei.value)
    with no_hang(60):
        code, out, err = run_main(["fit", "perceptron", str(p)])
    assert code == 2 and err.count("\n") == 1 and "line 1" in err and out == ""
    q = tmp_path / "long_cells.csv"
    q.write_bytes(b",".join([b"7" * 9_999] * 1000) + b",1\n")
    assert q.stat().st_size > 10_000_000
    with no_hang(60):  # beyond the default input-size limit: refused at once, naming the limit (issue 20)
        code, out, err = run_main(["fit", "perceptron", str(q), "--json"])
    assert code == 2 and "input-size limit" in err and out == ""
    with no_hang(120):  # 1000 numbers of 9,979 digits beyond 20: within 20 x 500,000
        code, out, err = run_main(["fit", "perceptron", str(q), "--json", "--input-digits", "500000"])
    assert code == 0, err
    d = json.loads(out)
    assert d["w"] == ["7" * 9_999] * 1000 and d["converged"] is True  # one update: w = x (hand derivation)
    r = tmp_path / "wide.csv"
    r.write_bytes(b"1," * 500_000 + b"1\n")
    with no_hang(120):
        ds = read_csv(r)
    assert ds.n == 1 and ds.d == 500_000


@pytest.mark.parametrize("raw, line, fragment", [
    (b"\xef\xbb\xbfx1,y\r\n1,1\r\n2,-1\r\n", None, None),  # BOM and CRLF: fine
    (b"x1,y\r1,1\r2,-1\rabc,1\r", 4, "line 4"),  # CR-only line endings still count lines
    (b"x1,y\n1,1\r\n2,-1\r\xff,1\n", 4, "UTF-8"),  # invalid UTF-8 on line 4 of mixed endings
    (b"x1,y\r1,1\r2\x00,-1\n", 3, "NUL"),
    (b"1,1\n2,-1\nx1,y\n", 3, "line 3"),  # a header in the middle
    (b'1,1\n"2,-1\n', 2, "line 2"),  # an unterminated quote
    (b'"1",1\n"2","-1"\n', None, None),  # quoted cells
    (b"", None, "no data rows"),
    (b"\xef\xbb\xbf", None, "no data rows"),
    (b"# only a comment\n\n", None, "no data rows"),
])
def test_csv_specific_bytes(tmp_path, capsys, raw, line, fragment):
    p = tmp_path / "f.csv"
    p.write_bytes(raw)
    if fragment is None:
        ds = read_csv(p)
        assert ds.n == 2 and ds.X == ((Fraction(1),), (Fraction(2),))
        return
    with pytest.raises(CSVError) as ei:
        read_csv(p)
    assert ei.value.line == line and fragment in str(ei.value)
    capsys.readouterr()
    assert main(["fit", "perceptron", str(p)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("exactlin: error: ") and fragment in err


def test_cli_bad_csv_real_subprocess(tmp_path):
    """A real process: exit status 2, one line on stderr, no traceback."""
    p = tmp_path / "bad.csv"
    p.write_bytes(b"x1,x2,y\r\n4,0,1\r\n1,\xff,-1\r\n")
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    r = subprocess.run([sys.executable, "-m", "exactlin.cli", "fit", "perceptron", str(p), "--json"],
                       capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 2, r.stderr
    assert r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("exactlin: error: ") and "line 3" in r.stderr
    assert "Traceback" not in r.stderr
