"""``python -m graphmem.cli …`` is the ``graphmem`` command."""

from . import main

main()
