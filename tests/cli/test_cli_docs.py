"""``exactlin docs``: says where the built site is and how to build it."""

from __future__ import annotations

from exactlin.cli.app import main
from exactlin.cli.docs import BUILD_COMMAND, find_project


def test_docs_command_names_the_site_and_the_build_command(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # not inside a checkout: falls back to the checkout the package comes from
    assert main(["docs"]) == 0
    out = capsys.readouterr().out
    assert BUILD_COMMAND in out
    root = find_project()
    if root is not None:
        assert str(root / "site" / "index.html") in out
    else:
        assert "source checkout" in out


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
