import os

from hypothesis import HealthCheck, settings

# CI is deterministic: the default profile draws the same cases on every run (a failure there is reproducible
# from the log alone).  HYPOTHESIS_PROFILE=thorough draws 500 fresh random cases per test, to explore by hand.
settings.register_profile("default", max_examples=40, deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("thorough", max_examples=500, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


# --- fuzz case counts (tests/test_fuzz_*.py): printed at the end of the session -----------------------------
import pytest  # noqa: E402

FUZZ_COUNTS: dict = {}


@pytest.fixture(scope="session")
def fuzz_count():
    """count(entry, outcome): one fuzz case tried on an entry point ("run", "error", ...)."""

    def count(entry: str, outcome: str) -> None:
        FUZZ_COUNTS.setdefault(entry, {}).setdefault(outcome, 0)
        FUZZ_COUNTS[entry][outcome] += 1

    return count


def pytest_sessionfinish(session, exitstatus):
    # an xdist worker hands its counts to the controller, which prints the summary (pytest_testnodedown below)
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["fuzz_counts"] = FUZZ_COUNTS


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """pytest-xdist, on the controller: add a finished worker's fuzz counts to the session's."""
    for entry, counts in getattr(node, "workeroutput", {}).get("fuzz_counts", {}).items():
        for outcome, n in counts.items():
            FUZZ_COUNTS.setdefault(entry, {}).setdefault(outcome, 0)
            FUZZ_COUNTS[entry][outcome] += n


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not FUZZ_COUNTS:
        return
    terminalreporter.write_sep("-", "fuzz cases per entry point")
    for entry in sorted(FUZZ_COUNTS):
        c = FUZZ_COUNTS[entry]
        detail = ", ".join(f"{k} {v}" for k, v in sorted(c.items()))
        terminalreporter.write_line(f"fuzz: {entry} {sum(c.values())} cases ({detail})")
    terminalreporter.write_line(f"fuzz: {sum(sum(c.values()) for c in FUZZ_COUNTS.values())} cases in all")


# --- pytest-xdist (scripts/check.sh runs ``pytest -n 2 --dist loadfile``) ----------------------------------------
def pytest_configure(config):
    """On an xdist worker, the docs site is built once for all workers, in the run's common temporary directory
    (the parent of the worker's own; tests/docs/docs_site.py).  ``--dist loadfile`` keeps each docs test file, and
    its module-scoped Chromium run, on one worker.  (xdist's ``loadgroup`` cannot group them: with pytest 9.2 its
    renaming of node ids has no effect.)"""
    if hasattr(config, "workerinput") and config.option.basetemp:
        from pathlib import Path

        from tests.docs import docs_site

        docs_site.SHARED_ROOT = Path(config.option.basetemp).resolve().parent
