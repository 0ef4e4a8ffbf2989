"""Compatibility path: the same module as :mod:`graphmem.local.testing` (an alias, not a copy)."""

import sys

from graphmem.local import testing as _module

sys.modules[__name__] = _module
