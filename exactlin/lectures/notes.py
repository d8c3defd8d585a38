"""What every lecture module shares: the five notes' file names, the data sets the notes print, and the few exact
helpers the examples use to recompute a value independently of the algorithms."""

from __future__ import annotations

from fractions import Fraction as F

from exactlin.exact.numbers import dot  # noqa: F401 (the seed modules recompute with it)

SEED000 = "000_478cb53c624e7eb5.txt"
SEED001 = "001_5ccb68c426482a98.txt"
SEED002 = "002_c246c20bba6fa4e1.txt"
SEED003 = "003_ffe0ec08819b37d8.txt"
SEED004 = "004_f7c425a21563e0cd.txt"

#: a readable title of each note, read from its headings (the site prints it beside the file name)
NOTE_TITLES = {
    SEED000: "Seed 000 — The perceptron and its convergence proof (Lecture 5: voted/averaged perceptron, margins, "
             "the bias by augmentation)",
    SEED001: "Seed 001 — Non-separable data: batch PLA, the pocket algorithm, gradient descent, multiclass",
    SEED002: "Seed 002 — The perceptron as gradient descent on the perceptron risk (batch and stochastic)",
    SEED003: "Seed 003 — Linear discriminant functions: Fisher, perceptron criteria, Winnow, relaxation, MSE, "
             "LMS, Ho-Kashyap, the multi-category case",
    SEED004: "Seed 004 — Lecture 19: the perceptron theorem, maximum margin and soft-margin SVMs",
}


def note_title(seed: str) -> str:
    """The readable title of the lecture note ``seed`` (a file name); the file name itself when it is unknown."""
    return NOTE_TITLES.get(seed, seed)


def notes_title(seed: str) -> str:
    """The title of the lecture note ``seed`` as a student reads it: :func:`note_title` without its "Seed N —"
    tag (student-facing text names the notes by title, never by seed number)."""
    import re

    return re.sub(r"^Seed \d+ \u2014 ", "", note_title(seed))


def cite_note(seed) -> str:
    """Markdown citing a note: its readable title with the file name beside it, e.g.
    "Seed 000 — The perceptron ... (`000_478cb53c624e7eb5.txt`)"; an unknown name is shown as code alone."""
    if not seed:
        return ""
    title = NOTE_TITLES.get(seed)
    return f"{title} (`{seed}`)" if title else f"`{seed}`"

#: seed 000, Example 1 ("Training Data")
EX1_X = [(4, 0), (1, 1), (0, 1), (-2, -2)]
EX1_Y = [1, -1, -1, 1]
#: seed 000, Example 2 (XOR-like: not separable through the origin)
EX2_X = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
EX2_Y = [1, -1, -1, 1]

#: seed 003's pseudoinverse example as data: omega_1 = {(1,2), (2,0)}, omega_2 = {(3,1), (2,3)}, bias first
MSE_X = [(1, 2), (2, 0), (3, 1), (2, 3)]
MSE_Y = [1, 1, -1, -1]
#: the matrix Y and its pseudoinverse as the notes print them
Y_PRINTED = ((1, 1, 2), (1, 2, 0), (-1, -3, -1), (-1, -2, -3))
PINV_PRINTED = ((F(5, 4), F(13, 12), F(3, 4), F(7, 12)),
                (F(-1, 2), F(-1, 6), F(-1, 2), F(-1, 6)),
                (F(0), F(-1, 3), F(0), F(-1, 3)))


def sign(v) -> int:
    """-1, 0 or +1: the sign of an exact number."""
    return (v > 0) - (v < 0)


def value_text(v):
    """A value as the worked examples print it (the one number rule, exactlin.render.report.fmt_value)."""
    from exactlin.render.report import fmt_value

    return fmt_value(v)
