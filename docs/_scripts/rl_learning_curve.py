"""Draw the REINFORCE example's learning curve for the docs (docs/_static/rl_learning_curve.png).

Needs matplotlib (not a dependency of unorules or its tests). Trains the
example's policy and plots the win rate of each block of 100 training episodes:

    .venv/bin/pip install matplotlib
    .venv/bin/python docs/_scripts/rl_learning_curve.py     # a few minutes

or plots a curve the example wrote with ``--curve FILE``:

    .venv/bin/python docs/_scripts/rl_learning_curve.py --from-csv FILE
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "_static" / "rl_learning_curve.png"


def train_curve(episodes: int, block: int) -> list[tuple[int, float]]:
    spec = importlib.util.spec_from_file_location("rl_reinforce", ROOT / "examples" / "rl_reinforce.py")
    assert spec is not None
    assert spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    sys.modules["rl_reinforce"] = example
    spec.loader.exec_module(example)
    _, curve = example.train(episodes, seed=0, block=block)
    points: list[tuple[int, float]] = curve.points
    return points


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=4000)
    parser.add_argument("--block", type=int, default=100)
    parser.add_argument("--from-csv", help="plot this CSV (episodes,win_rate) instead of training")
    args = parser.parse_args()
    if args.from_csv:
        with open(args.from_csv, encoding="utf-8") as f:
            points = [(int(row["episodes"]), float(row["win_rate"])) for row in csv.DictReader(f)]
    else:
        points = train_curve(args.episodes, args.block)
    fig, ax = plt.subplots(figsize=(7, 3.6), dpi=110)
    ax.plot([e for e, _ in points], [r for _, r in points], marker=".", label="linear softmax policy")
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=1, label="uniform random policy (0.5)")
    ax.set_xlabel("training episodes (one round each)")
    ax.set_ylabel(f"win rate per {points[0][0]} episodes")
    ax.set_ylim(0.3, 1.0)
    ax.set_title("REINFORCE against RandomBot, classic, 2 players")
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(OUT)
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
