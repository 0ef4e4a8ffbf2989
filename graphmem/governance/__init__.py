"""The governance layer: erase, audit, secret patterns and operator stats; imports core, store and the other feature layers, never interfaces, local or bench."""
