#!/usr/bin/env bash
# Install what the test suite needs outside Python: Debian's chromium for the docs browser test
# (tests/docs/test_docs_browser.py fails, on purpose, when no chromium is found).  Idempotent; run as root or with sudo.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then
    echo "install-test-deps: chromium is installed ($(command -v chromium || command -v chromium-browser))"
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
fi
echo "install-test-deps: installing Debian's chromium (for the docs browser test)"
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends chromium fonts-dejavu-core
command -v chromium
