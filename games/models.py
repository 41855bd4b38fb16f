"""Stored hands will live here, converting to and from the engine with to_engine()."""
