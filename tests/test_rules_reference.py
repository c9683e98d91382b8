"""The rules reference (``docs/rules.rst``) and the rule ids the project cites
agree: every id cited in code, tests, examples and docs is defined there, and
every id defined there is cited somewhere. Nothing in the repository points
to a rules text outside it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES_PAGE = ROOT / "docs" / "rules.rst"
RULE_ID = re.compile(r"(?<![\w-])R-[A-Z0-9]+(?:-[A-Z0-9]+)*(?![\w-])")
TARGET = re.compile(r"^\.\. _rule-(R-[A-Z0-9-]+):\s*$", re.MULTILINE)
SCANNED = ("src", "plugins", "examples", "docs", "tests", "benchmarks")
TOP_LEVEL = ("README.md", "DEVELOPING.md", "CHANGELOG.md", "dev.py", "conftest.py")
SUFFIXES = {".py", ".rst", ".md", ".toml", ".txt"}


def _files() -> list[Path]:
    found = [ROOT / name for name in TOP_LEVEL if (ROOT / name).is_file()]
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*")):
            parts = set(path.relative_to(ROOT).parts)
            if path.suffix not in SUFFIXES or not path.is_file():
                continue
            if parts & {"_build", ".venv", "__pycache__", "build", "dist"}:
                continue
            if path.relative_to(ROOT).parts[:2] == ("docs", "plugins"):
                continue  # generated from the plugins' docstrings, which are scanned
            found.append(path)
    return found


def defined() -> set[str]:
    return set(TARGET.findall(RULES_PAGE.read_text(encoding="utf-8")))


def cited() -> dict[str, list[str]]:
    """Rule id -> the files citing it (the rules page itself not counted)."""
    where: dict[str, list[str]] = {}
    for path in _files():
        if path == RULES_PAGE or path == Path(__file__):
            continue
        for rule in set(RULE_ID.findall(path.read_text(encoding="utf-8", errors="replace"))):
            where.setdefault(rule, []).append(str(path.relative_to(ROOT)))
    return where


def test_every_cited_rule_id_is_defined_on_the_rules_page() -> None:
    missing = {rule: files[:3] for rule, files in cited().items() if rule not in defined()}
    assert not missing, f"rule ids cited but not defined in docs/rules.rst: {missing}"


def test_every_rule_id_on_the_rules_page_is_cited() -> None:
    unused = defined() - set(cited())
    assert not unused, f"docs/rules.rst defines rule ids nothing cites: {sorted(unused)}"


def test_each_rule_is_defined_once_with_its_id_right_after_the_target() -> None:
    text = RULES_PAGE.read_text(encoding="utf-8")
    targets = TARGET.findall(text)
    assert len(targets) == len(set(targets))
    assert len(targets) >= 30
    for rule in targets:
        after = text.split(f".. _rule-{rule}:", 1)[1].lstrip()
        assert after.startswith(f"**{rule}**"), rule


def test_edition_tags_used_anywhere_are_explained() -> None:
    page = RULES_PAGE.read_text(encoding="utf-8")
    explained = set(re.findall(r"^   \* - ``\[([A-Z0-9]+)\]``", page, re.MULTILINE))
    assert explained >= {"E15", "LT", "CZ", "PL"}
    used: set[str] = set()
    for path in _files():
        text = path.read_text(encoding="utf-8", errors="replace")
        used |= set(re.findall(r"\[(E15|[A-Z]{2})\](?![(:])", text))
    unknown = {tag for tag in used if tag in {"E15", "LT", "CZ", "PL", "HU", "SK", "EN"}} - explained
    assert not unknown, f"edition tags used but not explained in docs/rules.rst: {unknown}"


@pytest.mark.parametrize("needle", ["RULES.md", "../shared", "the seed's example", "seeds'", "seed review"])
def test_nothing_points_outside_the_repository(needle: str) -> None:
    offenders = [
        str(path.relative_to(ROOT))
        for path in _files()
        if path != Path(__file__) and needle in path.read_text(encoding="utf-8", errors="replace")
    ]
    assert not offenders, f"{needle!r} (a text outside the repository) is named in: {offenders}"
