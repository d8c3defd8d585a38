"""The Testing page (docs/howto/testing.md) shows the report of a real comparison, computed while the site is
built (a live block), not a pasted one."""

from pathlib import Path

from exactlin.docsgen import site

PAGE = Path(__file__).resolve().parents[2] / "docs" / "howto" / "testing.md"


def test_the_report_on_the_testing_page_is_generated():
    text = PAGE.read_text(encoding="utf-8")
    assert "float result DIFFERS" not in text  # nothing pasted: the page holds only the code
    out = site.expand_live(text, "howto/testing.md")
    # scikit-learn issue 18606: the exact hard-margin answer is w = (-2, -2), b = 9 (hand derivation in
    # tests/integrations/test_float_gallery.py); SVC(C=1e6) misses it by more than rtol = 1e-6
    assert "float result DIFFERS from the exact svm-hard run" in out
    assert "coef[0]: exact -2" in out and "intercept: exact 9" in out
