"""Seeded random play for instruction counts under callgrind (deterministic, unlike timings).

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out \
        .venv/bin/python benchmarks/instructions.py classic 3000
    callgrind_annotate /tmp/cg.out | head -20

Plays 4-player games (seeds 0, 1, ...) through the public API only
(``legal_actions()`` then ``apply()`` of a ``random.Random(seed)`` choice)
until ``ACTIONS`` actions were applied, and prints the count. Run it once more
with ``0`` actions: the difference of the two totals, divided by the actions,
is the instructions per action without start-up. ``all`` is classic with every
non-mode plugin and the options ``run.py`` uses for its "all plugins" figures;
``discard-all`` is classic with the Discard All card plugin of the testing
toolkit's tests (``tests/testing/toolkit_broken_plugins.py``), a new card's
plugin that declares nothing beyond what correctness needs.
"""

from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

from run import all_plugins_ruleset, shipped_plugins

from unorules import Ruleset


def main() -> None:
    which, wanted = sys.argv[1], int(sys.argv[2])
    if which == "all":
        rules = all_plugins_ruleset(shipped_plugins())[0]
    elif which == "discard-all":
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "testing"))
        discard_all = importlib.import_module("toolkit_broken_plugins").DiscardAll()
        rules = Ruleset([*Ruleset.from_names(["classic"]).plugins, discard_all])
    else:
        rules = Ruleset.from_names(which.split(","))
    done = 0
    seed = 0
    state = rules.new_game(4, seed=seed)
    while done < wanted:
        rng = random.Random(seed)
        state = rules.new_game(4, seed=seed)
        while done < wanted:
            legal = state.legal_actions()
            if not legal:
                break
            state = state.apply(rng.choice(legal))
            done += 1
        seed += 1
    print(which, done, "actions", seed, "games")


if __name__ == "__main__":
    main()
