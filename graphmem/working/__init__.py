"""The working-memory layer: the session face, its plans and projection, its budget, the end gate; imports core, store, extract and the other feature layers, never interfaces, local or bench."""
