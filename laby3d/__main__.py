"""``python -m laby3d``."""

import sys

from laby3d.cli import main

sys.exit(main())
