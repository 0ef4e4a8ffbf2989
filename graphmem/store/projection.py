"""The write path's public names where recall, governance, the working layer and the store's
operations import them; the write path itself is the package :mod:`graphmem.store.write`."""

from .write import Expander, UnitOfWork, row_to_assertion, to_datetime

__all__ = ["Expander", "UnitOfWork", "row_to_assertion", "to_datetime"]
