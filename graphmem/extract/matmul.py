"""The English model's matrix products: numpy's BLAS on one thread, instead of thinc's default blis.

The layers of ``en_core_web_sm`` multiply matrices (the two token-to-vector encoders, the tagger's
output, the parser's and entity recogniser's hidden layers) through thinc's ``Ops.gemm``, with
the ops they were built with. On a CPU thinc's default ``NumpyOps`` hands that to blis; with
``use_blis=False`` it goes to numpy, whose wheels carry OpenBLAS. Parsing 800 LoCoMo turns, six
alternating rounds in one process, the second took ~30% less CPU a turn (6.1 against 8.6 ms),
with the same tags, parts of speech, dependencies and entities on all 2,760 turns of the tuning
conversations (``tests/unit/test_matmul.py`` holds them equal on graphmem's labelled sentences).

Why blis is slower here: the blis inside the ``blis`` 1.3 wheel that thinc 8.3 requires selects its
``generic`` sub-configuration on this machine (``BLIS_ARCH_DEBUG=1`` prints it; an AMD EPYC of CPU
family 25, Zen 3), ~20 GFLOP/s on one core against OpenBLAS's 50–68 for the model's shapes. The
parser's and entity recogniser's transition loops still call blis directly from spaCy's compiled
code (thinc's ``CBlas``), which only a rebuild could change. On a CPU whose kernel blis does pick,
the two should be closer; the annotations are the same either way.

One thread, because OpenBLAS would otherwise spread a large product over every core: that cut the
wall time of a parse alone, but cost more CPU in all (9.3 against 8.8 ms a turn), and a transcript
import already keeps both cores busy (this process, the parse worker and the database). The limit
holds only while graphmem parses (:func:`pipe`, :func:`parse`; ~20 µs to set and restore) and
is then put back, so numpy elsewhere in the caller's process keeps its own setting. Only on the
main thread: the OpenBLAS in numpy's wheel (0.3.31 here) lowers its thread count when asked from
any thread but ignores a raise asked from another one, so a limit set there could not be put
back. A parse on another thread (a caller's worker thread) runs with numpy's own setting — the
same annotations, at the CPU cost above. The parse worker process parses on its main thread.
"""

from __future__ import annotations

import threading
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any, Iterator, Sequence

__all__ = ["loading", "parse", "pipe"]

_controller: Any = None


def loading() -> AbstractContextManager[Any]:
    """Load a spaCy pipeline inside this: its layers keep the numpy ops they were built with. Only
    in place of thinc's CPU default: ops the caller chose (a GPU's after ``spacy.require_gpu()``,
    Apple's) are theirs to keep."""
    from thinc.api import NumpyOps, get_current_ops, use_ops
    if type(get_current_ops()) is not NumpyOps:
        return nullcontext()
    return use_ops("numpy", use_blis=False)


@contextmanager
def _one_thread() -> Iterator[None]:
    global _controller
    if threading.current_thread() is not threading.main_thread():
        yield  # a limit set here could not be put back (the module's docstring)
        return
    if _controller is None:
        from threadpoolctl import ThreadpoolController
        _controller = ThreadpoolController()  # inspects the BLAS libraries loaded, once
    with _controller.limit(limits=1, user_api="blas"):
        yield


def pipe(nlp: Any, texts: Sequence[str], batch_size: int) -> list[Any]:
    """``nlp.pipe`` over ``texts``, its products on one BLAS thread."""
    with _one_thread():
        return list(nlp.pipe(texts, batch_size=batch_size))


def parse(nlp: Any, text: str) -> Any:
    """One text through ``nlp``, its products on one BLAS thread."""
    with _one_thread():
        return nlp(text)
