"""pytest plugin: exact references for tests of float code.

Enable it with ``pytest -p exactlin.testing.pytest_plugin``, or with one line in your top-level
``conftest.py``::

    pytest_plugins = ["exactlin.testing.pytest_plugin"]

Fixtures:

* ``exact_reference(algorithm, X, y=None, **kwargs)``: runs the registered exact algorithm (a name such as
  ``"svm-hard"``, ``"fisher"``, ``"perceptron"``; keyword arguments as the algorithm function takes them:
  ``bias``, ``positive``, parameters) and returns its :class:`~exactlin.model.run.Run`.  Runs are cached for the
  session by (algorithm, data, arguments), so many tests can compare against one exact answer; the cached Run
  is shared: do not modify it.
* ``assert_exact``: :func:`exactlin.testing.assert_matches_exact`.

When a test fails with :class:`~exactlin.testing.ExactMismatch`, the report (per coefficient the exact value as
a fraction and a correctly rounded decimal, the float value and both errors; the samples decided differently;
the support vectors missing or extra) is added to the failure output as an ``exactlin report`` section, and the
terminal summary says how many exact references were computed and reused.
"""

from __future__ import annotations

from typing import Any

import pytest

from exactlin.testing import ExactMismatch, assert_matches_exact

__all__ = ["ExactReferenceCache", "exact_reference", "assert_exact"]


def _key(obj: Any):
    """A hashable key for data and arguments (numpy arrays, lists, Fractions, strings...)."""
    if hasattr(obj, "tolist") and not isinstance(obj, (str, bytes)):
        return ("array", str(getattr(obj, "dtype", "")), _key(obj.tolist()))
    if isinstance(obj, dict):
        return ("dict", tuple(sorted((str(k), _key(v)) for k, v in obj.items())))
    if isinstance(obj, (list, tuple)):
        return tuple(_key(v) for v in obj)
    try:
        hash(obj)
    except TypeError:
        return ("repr", type(obj).__name__, repr(obj))
    return (type(obj).__name__, obj)


class ExactReferenceCache:
    """The callable behind the ``exact_reference`` fixture; ``computed`` and ``reused`` count the runs."""

    def __init__(self) -> None:
        self._runs: dict = {}
        self.computed = 0
        self.reused = 0

    def __call__(self, algorithm: str, X, y=None, **kwargs):
        from exactlin.algorithms import get

        key = (algorithm, _key(X), _key(y), _key(kwargs))
        run = self._runs.get(key)
        if run is not None:
            self.reused += 1
            return run
        run = get(algorithm).func(X, y, **kwargs)
        self._runs[key] = run
        self.computed += 1
        return run


_CACHE = pytest.StashKey[ExactReferenceCache]()


def pytest_configure(config) -> None:
    config.stash[_CACHE] = ExactReferenceCache()


@pytest.fixture(scope="session")
def exact_reference(request) -> ExactReferenceCache:
    """exact_reference(algorithm, X, y=None, **kwargs) -> the exact Run, cached for the session."""
    return request.config.stash[_CACHE]


@pytest.fixture
def assert_exact():
    """exactlin.testing.assert_matches_exact."""
    return assert_matches_exact


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    exc = call.excinfo.value if call.excinfo is not None else None
    if isinstance(exc, ExactMismatch):
        rep.sections.append(("exactlin report", exc.report.text()))


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    cache = config.stash.get(_CACHE, None)
    if cache is not None and (cache.computed or cache.reused):
        terminalreporter.write_line(f"exactlin: {cache.computed} exact reference run(s) computed, "
                                    f"{cache.reused} reused from the cache")
