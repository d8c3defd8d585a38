"""Every command's ``--help`` ends with examples (issue 20, item 5), found by walking the parser: the top level,
every command and every subcommand, so a command added later is checked without a word here.  Each example is
a command line that the parser itself accepts (its words after ``exactlin``, with a ``> file`` redirection
dropped), and uses only files that ship in ``examples/``."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

import pytest

from exactlin.cli.app import build_parser, main

ROOT = Path(__file__).resolve().parents[2]


def _commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    """(path of command words, parser) for the top level and every command and subcommand below it."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _commands(sub, (*path, name))


COMMANDS = [path for path, _ in _commands(build_parser())]


def test_the_walk_reaches_every_command():
    # the ten commands of exactlin.cli.app.COMMANDS (tests/algorithms/test_inventory.py pins them), and the top level
    assert () in COMMANDS and len(COMMANDS) >= 11
    assert {"explain", "exercise", "fit", "predict", "docs"} <= {p[0] for p in COMMANDS if p}


def _examples(help_text: str) -> list[str]:
    assert "\nexamples:\n" in help_text, "no examples"
    block = help_text.rsplit("\nexamples:\n", 1)[1]
    lines = [ln.strip() for ln in block.splitlines()]
    assert all(lines), "the examples end the help: nothing after them"
    return lines


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "exactlin")
def test_help_ends_with_examples_the_parser_accepts(path, capsys):
    assert main([*path, "--help"]) == 0
    lines = _examples(capsys.readouterr().out)
    assert len(lines) >= 2
    parser = build_parser()
    shown = []
    for line in lines:
        words = shlex.split(line.split(" | ")[-1], comments=True)  # `cat f | exactlin ...`: the exactlin part
        if ">" in words:
            words = words[:words.index(">")]
        assert words[0] == "exactlin", line
        argv = words[1:]
        shown.append([w for w in argv if not w.startswith("-")][:len(path)] == list(path))
        if "--help" not in argv:
            try:
                parser.parse_args(argv)
            except SystemExit:  # pragma: no cover - the failure below names the line
                pytest.fail(f"`{line}` does not parse")
        for w in argv:  # a file an example reads must ship with exactlin
            if w.startswith("examples/"):
                assert (ROOT / w).is_file(), line
    assert any(shown), "no example shows the command itself"  # (predict's first fits the model it reads)


def test_exercise_help_names_every_exercise():
    from exactlin.lectures.exercises import EXERCISES

    parser = dict(_commands(build_parser()))[("exercise",)]
    (algorithm,) = [a for a in parser._actions if a.dest == "algorithm"]
    named = [w.strip() for w in algorithm.help.split(",")]
    assert "threshold-unit" in EXERCISES  # issue 20: it works but the help left it out
    assert sorted(named) == sorted(EXERCISES)
