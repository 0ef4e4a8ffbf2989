"""Compatibility path: the same module as :mod:`graphmem.interfaces.cli` (an alias, not a copy)."""

import sys

from graphmem.interfaces import cli as _module

sys.modules[__name__] = _module
