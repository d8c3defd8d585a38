"""The exception hierarchy: one base class, each subclass also a ValueError or a TypeError.

Every error a user can see is one of these.  Messages name the offending row,
column, line or parameter, so that the CLI can print the message alone (exit 2)
and a user can fix the input without reading a traceback.

>>> issubclass(InputError, ValueError) and issubclass(InputTypeError, TypeError)
True
"""

from __future__ import annotations

__all__ = [
    "ExactlinError",
    "InputError",
    "InputTypeError",
    "ShapeError",
    "LabelError",
    "CSVError",
    "ParameterError",
    "SingularMatrixError",
    "InvariantViolation",
    "VerificationError",
    "NotSeparableError",
    "LongRationalWarning",
    "InputSizeError",
]


class ExactlinError(Exception):
    """Base class of every error exactlin raises on purpose."""


class InputError(ExactlinError, ValueError):
    """A value in the data is not acceptable (NaN, infinity, empty data, ...).

    ``row`` and ``column`` (0-based, as Python indexes) are set where known.
    """

    def __init__(self, message: str, *, row: int | None = None, column: int | None = None):
        super().__init__(message)
        self.row = row
        self.column = column


class InputTypeError(ExactlinError, TypeError):
    """A value in the data has a type exactlin does not accept (complex, bool, None, ...)."""

    def __init__(self, message: str, *, row: int | None = None, column: int | None = None):
        super().__init__(message)
        self.row = row
        self.column = column


class ShapeError(InputError):
    """Ragged rows, non-conformable matrices, X/y length mismatch, empty data."""


class LabelError(InputError):
    """Labels that the algorithm cannot take (e.g. three classes for a binary algorithm)."""


class InputSizeError(InputError):
    """A number of the input longer than the input-size limit (:data:`exactlin.exact.numbers.INPUT_DIGITS`):
    refused before any work, with the limit and how to raise it (``input_digits=N``, ``--input-digits N``)."""


class CSVError(InputError):
    """A CSV file that cannot be read; ``line`` is the 1-based line number."""

    def __init__(self, message: str, *, line: int | None = None, column: int | None = None):
        super().__init__(message, row=None, column=column)
        self.line = line


class ParameterError(ExactlinError, ValueError):
    """An algorithm parameter that is unknown, malformed, out of range or in conflict."""

    def __init__(self, message: str, *, parameter: str | None = None):
        super().__init__(message)
        self.parameter = parameter


class SingularMatrixError(ExactlinError, ValueError):
    """A matrix that must be invertible is singular (e.g. S_W in Fisher's discriminant)."""


class InvariantViolation(ExactlinError, ValueError):
    """A convergence-theorem inequality failed at a step: a bug or a false premise.

    The message names the step and both sides of the inequality.
    """


class VerificationError(ExactlinError, ValueError):
    """A claimed result (separator, certificate, optimum) failed its exact check."""


class NotSeparableError(VerificationError):
    """The data are not linearly separable, so the asked-for result (a hard margin) does not exist.

    A property of the data, not a failed check; it subclasses :class:`VerificationError` (which
    exactlin raised here before) so that existing handlers still catch it.  ``certificate`` is the
    verified proof (a Gordan certificate: lambda >= 0 with sum_i lambda_i y_i x~_i = 0), ``run``
    the Run that found it.
    """

    def __init__(self, message: str, *, certificate=None, run=None):
        super().__init__(message)
        self.certificate = certificate
        self.run = run


class LongRationalWarning(UserWarning):
    """Float input turned into rationals with long numerators or denominators (slow, unreadable results).

    Not an error: the result is exact.  See the how-to page ``docs/howto/long-rationals.md``.
    """
