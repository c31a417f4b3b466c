"""``python -m hippograph.cli``."""

import sys

from hippograph.cli import main

sys.exit(main())
