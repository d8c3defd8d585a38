"""Determinism.  The same input gives the same output, byte for byte, across processes with
different hash seeds (set/dict order of strings changes with PYTHONHASHSEED).

One child process per hash seed runs the CLI (``exactlin.cli.app.main``) for every registered algorithm
(``fit ALGO DATA.csv --json --trace``) and every worked example (``examples show ID --format json``);
the transcripts must be identical.  A real ``exactlin`` command line is compared as well.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

#: binary data (labels as strings, so that label handling meets hash-randomized str hashes)
BINARY_CSV = "x1,x2,y\n4,0,1\n1,1,-1\n0,1,-1\n-2,-2,1\n1/2,3,1\n-1,2/3,-1\n"
#: three classes with string labels
MULTI_CSV = "x1,x2,label\n4,0,cat\n1,1,dog\n0,1,emu\n-2,-2,cat\n3,-1,dog\n-1,3,emu\n"

CHILD = textwrap.dedent("""
    import contextlib, io, sys
    from exactlin.algorithms import all_specs
    from exactlin.cli.app import main
    from exactlin.lectures.examples import all_examples

    binary, multi = sys.argv[1], sys.argv[2]
    for spec in all_specs():
        argv = ["fit", spec.name, multi if spec.multiclass else binary, "--json", "--trace"]
        if spec.iterative:
            argv += ["--max-epochs", "20"]
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
        print("=== fit", spec.name, "exit", code)
        print(out.getvalue() + err.getvalue())
    for ex in all_examples():
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["examples", "show", ex.id, "--format", "json"])
        print("=== example", ex.id, "exit", code)
        print(out.getvalue() + err.getvalue())
""")


def _run(args, hashseed: str, cwd) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONHASHSEED": hashseed}
    return subprocess.run([sys.executable, *args], capture_output=True, env=env, cwd=cwd, timeout=600)


@pytest.fixture(scope="module")
def data_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("det")
    (d / "binary.csv").write_text(BINARY_CSV)
    (d / "multi.csv").write_text(MULTI_CSV)
    (d / "child.py").write_text(CHILD)
    return d


def test_cli_transcripts_identical_across_hash_seeds(data_files):
    d = data_files
    args = [str(d / "child.py"), str(d / "binary.csv"), str(d / "multi.csv")]
    a = _run(args, "1", d)
    b = _run(args, "12345", d)
    assert a.returncode == 0, a.stderr.decode()[-2000:]
    assert b.returncode == 0, b.stderr.decode()[-2000:]
    assert a.stdout.count(b"=== fit") >= 1 and a.stdout.count(b"=== example") >= 1
    if a.stdout != b.stdout:
        la, lb = a.stdout.decode().splitlines(), b.stdout.decode().splitlines()
        section = ""
        for x, y in zip(la, lb):
            if x.startswith("==="):
                section = x
            if x != y:
                pytest.fail(f"output differs between PYTHONHASHSEED=1 and 12345 in [{section}]:\n{x}\n{y}")
        pytest.fail(f"outputs differ in length: {len(la)} vs {len(lb)} lines")


def test_real_command_line_identical(data_files):
    """`python -m exactlin.cli.app fit perceptron DATA --json --trace` in two processes, two hash seeds."""
    d = data_files
    args = ["-m", "exactlin.cli", "fit", "perceptron", str(d / "binary.csv"), "--json", "--trace"]
    a, b = _run(args, "0", d), _run(args, "987", d)
    assert a.returncode == b.returncode == 0, a.stderr.decode()
    assert a.stdout == b.stdout and a.stdout.startswith(b"{")
