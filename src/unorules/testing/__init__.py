"""Testing tools for unorules plugins (filled in by the testing toolkit)."""
