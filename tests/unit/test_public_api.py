"""The package's public names: sorted, importable, and the same as __all__."""

import graphmem


def test_all_is_sorted_and_importable():
    names = [n for n in graphmem.__all__ if n != "__version__"]
    assert names == sorted(names)
    for n in graphmem.__all__:
        assert hasattr(graphmem, n)
