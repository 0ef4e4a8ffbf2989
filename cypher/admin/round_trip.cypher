// The round-trip floor: a read that does nothing, run through the same path as every read
// (`graphmem bench` times it interleaved with as_of, so as_of's cost is read against it).
// It touches no data, so it takes no $tenant.
RETURN 1 AS one
