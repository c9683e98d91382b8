"""pytest: doctest the hand-written pages (``--doctest-glob``), not the
generated plugin pages or the build output."""

collect_ignore_glob = ["plugins/*", "_build/*", "_ext/*", "conf.py"]
