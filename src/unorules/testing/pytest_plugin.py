"""pytest plugin for unorules (registered under ``pytest11``)."""
