"""``verbose=True`` of the scikit-learn wrappers: the run's progress on stderr, nothing on stdout."""

from __future__ import annotations

import pytest

pytest.importorskip("sklearn")

from benchmarks.budget_data import make  # noqa: E402
from exactlin.sklearn import ExactHoKashyap, ExactPerceptron, ExactSVC  # noqa: E402


def test_verbose_prints_progress_to_stderr_only(capsys, monkeypatch):
    import exactlin.render.progress as progress_mod

    monkeypatch.setattr(progress_mod, "MIN_INTERVAL", 0)  # every record shown (the display is time-throttled)
    X, y = make("noisy", 100)
    est = ExactPerceptron(algorithm="fixed-increment", params={"max_steps": 2500}, verbose=True)
    with pytest.warns(UserWarning):  # the budget ended the run before convergence
        est.fit(X, y)
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()  # not a terminal: one line per record
    assert lines[0].startswith("exactlin fixed-increment: step 1,000  updates ")
    assert lines[1].startswith("exactlin fixed-increment: step 2,000  updates ")
    assert lines[-1].endswith("stopped: max_steps") and "step 2,500" in lines[-1]
    assert est.reason_ == "max_steps"


def test_quiet_by_default_and_a_real_parameter(capsys):
    X, y = make("separable", 40)
    est = ExactPerceptron(algorithm="fixed-increment")
    assert est.get_params()["verbose"] is False
    assert ExactHoKashyap().get_params()["verbose"] is False and ExactSVC().get_params()["verbose"] is False
    est.set_params(verbose=False).fit(X, y)
    assert capsys.readouterr().err == ""
