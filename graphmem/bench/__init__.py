"""The bench layer: benchmarks, the scenario evaluation and benchmark data readers; may import any layer but interfaces."""
