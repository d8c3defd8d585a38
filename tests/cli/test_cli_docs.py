"""``exactlin docs``: says where the built site is and how to build it."""

from __future__ import annotations

from pathlib import Path

from exactlin.cli.app import main
from exactlin.cli.docs import BUILD_COMMAND, INSTALLED_FROM, find_project


def test_docs_command_works_from_any_directory(capsys, tmp_path, monkeypatch):
    # issue 20: outside the checkout an editable install said the checkout was not found (it looked in
    # exactlin/, not in the directory holding the package) and exited 0.  These tests run from a checkout.
    import exactlin

    checkout = Path(exactlin.__file__).resolve().parents[1]
    assert (checkout / "mkdocs.yml").is_file()
    monkeypatch.chdir(tmp_path)  # not inside a checkout: the one the package is imported from
    assert find_project() == checkout == INSTALLED_FROM
    assert main(["docs"]) == 0
    out = capsys.readouterr().out
    assert str(checkout / "site" / "index.html") in out and f"cd {checkout} && {BUILD_COMMAND}" in out


def test_docs_command_without_a_checkout_exits_2_saying_how_to_build(capsys, tmp_path, monkeypatch):
    from exactlin.cli import docs

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(docs, "INSTALLED_FROM", tmp_path / "site-packages")  # a regular (not editable) install
    assert find_project() is None
    assert main(["docs"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and err.startswith("exactlin: error: ")
    assert "source checkout" in err and f"pip install -e '.[docs]' && {BUILD_COMMAND}" in err


def test_docs_command_finds_a_checkout_from_its_directory(capsys, tmp_path, monkeypatch):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "hooks.py").write_text("")
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n")
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text("<html></html>")
    sub = tmp_path / "docs"
    monkeypatch.chdir(sub)
    assert find_project() == tmp_path
    assert main(["docs"]) == 0
    out = capsys.readouterr().out
    assert "The documentation site is built: " + str(tmp_path / "site" / "index.html") in out


def test_docs_build_without_the_docs_extra_is_one_clear_line(capsys, monkeypatch):
    import importlib.util

    if find_project() is None:  # pragma: no cover - an installed package without its checkout
        return
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "mkdocs" else real(name, *a))

    def no_build(*a, **k):  # pragma: no cover - the check must stop before mkdocs runs
        raise AssertionError("mkdocs was run")

    import subprocess  # cli.docs imports it where it builds (not at the top: every command imports cli.docs)

    monkeypatch.setattr(subprocess, "call", no_build)
    assert main(["docs", "--build"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1
    assert "mkdocs" in err and "pip install -e '.[docs]'" in err
