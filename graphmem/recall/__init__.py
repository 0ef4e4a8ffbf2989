"""The recall layer: context() and the reads it is made of; imports core, store, extract and the other feature layers, never interfaces, local or bench."""
