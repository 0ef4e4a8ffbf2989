"""The store layer: plans, the write path, named queries, the shared API and the sync/async clients; its kernel imports only core (the API facade composes the feature layers)."""
