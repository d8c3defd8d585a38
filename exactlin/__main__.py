"""``python -m exactlin``: the ``exactlin`` command (the console script's entry point, ``exactlin.cli:main``)."""

import sys

from exactlin.cli import main

sys.exit(main())
