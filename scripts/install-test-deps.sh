#!/usr/bin/env bash
# Install what the test suite needs outside Python (Debian packages), each only when missing:
#   - chromium for the docs browser test (tests/docs/test_docs_browser.py fails, on purpose, when none is found);
#   - TeX for the LaTeX compile test (tests/cli/test_latex_compile.py): pdflatex (texlive-latex-base), the
#     packages the documents load (texlive-latex-recommended: booktabs, longtable, array, geometry, amsmath),
#     T1 fonts (lmodern, cm-super), latexmk, and pdftoppm (poppler-utils) to render page 1 of each document.
# Idempotent; run as root or with sudo.
set -euo pipefail

missing=()
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
    missing+=(chromium fonts-dejavu-core)
fi
if ! command -v pdflatex >/dev/null 2>&1; then
    missing+=(texlive-latex-base)
fi
# the LaTeX packages and fonts the documents use (kpsewhich finds them in an installed TeX tree)
if ! command -v kpsewhich >/dev/null 2>&1 || [ -z "$(kpsewhich booktabs.sty 2>/dev/null)" ] \
        || [ -z "$(kpsewhich geometry.sty 2>/dev/null)" ]; then
    missing+=(texlive-latex-recommended)
fi
if ! command -v kpsewhich >/dev/null 2>&1 || [ -z "$(kpsewhich lmodern.sty 2>/dev/null)" ]; then
    missing+=(lmodern)
fi
if ! command -v latexmk >/dev/null 2>&1; then
    missing+=(latexmk)
fi
if ! command -v pdftoppm >/dev/null 2>&1; then
    missing+=(poppler-utils)
fi

if [ ${#missing[@]} -eq 0 ]; then
    echo "install-test-deps: chromium, pdflatex (with lmodern, booktabs), latexmk and pdftoppm are installed"
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
echo "install-test-deps: installing Debian's ${missing[*]}"
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
command -v chromium || command -v chromium-browser
command -v pdflatex && command -v pdftoppm
