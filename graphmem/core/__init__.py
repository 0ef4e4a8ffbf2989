"""The core layer: rules, models, errors and tenant scope — pure, no I/O; imports no other graphmem layer."""
