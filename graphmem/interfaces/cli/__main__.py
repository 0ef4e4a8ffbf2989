"""``python -m graphmem.interfaces.cli …`` is the ``graphmem`` command."""

from . import entry

entry()
