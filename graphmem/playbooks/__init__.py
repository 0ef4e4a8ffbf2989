"""The playbooks layer: L3 experience cards and L4 workflows; imports core, store and the other feature layers, never interfaces, local or bench."""
