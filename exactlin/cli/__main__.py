import sys

from exactlin.cli.app import main

sys.exit(main())
