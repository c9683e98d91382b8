"""Hostile rulebooks (issue 48, point 7): ``extends`` reads only regular files of a
bounded size, relative to the book, through a bounded chain; the line scanner is
linear; deep nesting and huge numbers are refused; every failure is a
``RulesetError`` naming the file and the line, and the command line says so
without a traceback."""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from unorules import Ruleset, RulesetError
from unorules.cli import EXIT_USAGE, main
from unorules.plugin import MAX_OPTION_NUMBER
from unorules.rulebook import MAX_BYTES, MAX_EXTENDS, MAX_KEY_PARTS, MAX_NESTING, Rulebook, _key_lines, _Scan


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


# -- extends reads only regular files ---------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX thing")
def test_extends_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    # Before: reading the FIFO blocked forever (nobody writes to it).
    os.mkfifo(tmp_path / "pipe.toml")
    book = write(tmp_path, "book.toml", 'extends = "pipe.toml"\n')
    with pytest.raises(RulesetError) as error:
        Rulebook.from_file(book)
    message = str(error.value)
    assert message.startswith(f"{book}, line 1 (extends): "), message
    assert "pipe.toml" in message
    assert "not a regular file" in message
    with pytest.raises(RulesetError, match="not a regular file"):
        Rulebook.from_file(tmp_path / "pipe.toml")  # named directly, too


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_extends_dev_zero_is_refused_without_reading_it(tmp_path: Path) -> None:
    # Before: read until MemoryError.
    book = write(tmp_path, "book.toml", 'extends = "/dev/zero"\n')
    with pytest.raises(RulesetError, match=r"line 1 \(extends\).*'/dev/zero': it is not a regular file"):
        Rulebook.from_file(book)


def test_extends_a_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "rules.toml").mkdir()
    book = write(tmp_path, "book.toml", 'extends = "rules.toml"\n')
    with pytest.raises(RulesetError, match="it is a folder"):
        Rulebook.from_file(book)


def test_a_file_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_bytes(b'plugins = ["classic"]\n' + b"#" * MAX_BYTES + b"\n")
    book = write(tmp_path, "book.toml", 'extends = "big.toml"\n')
    with pytest.raises(RulesetError, match=f"more than {MAX_BYTES:,} bytes") as error:
        Rulebook.from_file(book)
    assert str(error.value).startswith(f"{book}, line 1 (extends): {big}: ")
    with pytest.raises(RulesetError, match="characters"):
        Rulebook.from_toml('plugins = ["classic"]\n' + "#" * MAX_BYTES, "text.toml")


def test_extends_is_relative_to_the_book_not_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    books = tmp_path / "books"
    books.mkdir()
    write(books, "base.toml", 'plugins = ["classic", "stacking"]\n')
    book = write(books, "ours.toml", 'extends = "base.toml"\nplugins = ["seven-o"]\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    write(elsewhere, "base.toml", 'plugins = ["classic", "jump-in"]\n')  # a decoy beside the cwd
    monkeypatch.chdir(elsewhere)
    assert Rulebook.from_file(book).plugins == ("classic", "stacking", "seven-o")


# -- extends chains ----------------------------------------------------------------------------


def _chain(folder: Path, length: int) -> Path:
    for i in range(1, length):
        write(folder, f"c{i}.toml", f'extends = "c{i + 1}.toml"\n')
    write(folder, f"c{length}.toml", 'plugins = ["classic"]\n')
    return folder / "c1.toml"


def test_a_chain_of_400_rulebooks_is_refused_clearly(tmp_path: Path) -> None:
    # Before: RecursionError (the command line: "unexpected RecursionError", no file, no line).
    first = _chain(tmp_path, 400)
    with pytest.raises(RulesetError) as error:
        Rulebook.from_file(first)
    message = str(error.value)
    assert message.startswith(f"{first}, line 1 (extends): "), message
    assert f"more than {MAX_EXTENDS} deep" in message
    assert len(message) < 400, message  # the books between pass the error on, not their names


def test_a_chain_as_long_as_the_limit_reads(tmp_path: Path) -> None:
    assert Rulebook.from_file(_chain(tmp_path, MAX_EXTENDS)).plugins == ("classic",)
    with pytest.raises(RulesetError, match=f"more than {MAX_EXTENDS} deep"):
        Rulebook.from_file(_chain(tmp_path / ".." / tmp_path.name, MAX_EXTENDS + 1))


# -- nesting and numbers -----------------------------------------------------------------------


@pytest.mark.parametrize("opening", ["[", "{a = "])
def test_values_nested_5000_deep_are_refused_at_their_line(opening: str) -> None:
    closing = "]" if opening == "[" else "}"
    text = f'plugins = ["classic"]\n[options]\nx = {opening * 5000}1{closing * 5000}\n'
    with pytest.raises(RulesetError) as error:
        Rulebook.from_toml(text, "deep.toml")
    assert str(error.value).startswith("deep.toml, line 3: "), str(error.value)
    assert f"nested more than {MAX_NESTING} deep" in str(error.value)


def test_nesting_up_to_the_limit_and_brackets_in_strings_and_comments_are_not_refused() -> None:
    text = (
        f"a = {'[' * MAX_NESTING}{']' * MAX_NESTING}\n"
        f'b = "{"[" * 100}"  # {"{" * 100}\n'
        f"c = '''\n{'[' * 100}\n'''\n"
        f'd = """\n{"{" * 100}\\"""\n"""\n'
        "e = 1\n"
    )
    assert _key_lines(text) == {"a": 1, "b": 2, "c": 3, "d": 6, "e": 9}


@pytest.mark.parametrize("value", ["9223372036854775808", "9" * 400, "-9223372036854775808"])
def test_a_huge_target_score_is_refused_by_every_door(value: str) -> None:
    # Before: a target score of 2**63 built.
    text = f'plugins = ["classic"]\n[options]\ntarget_score = {value}\n'
    with pytest.raises(RulesetError, match=r"line 3 \(options.target_score\).*out of range"):
        Rulebook.from_toml(text, "big.toml")
    with pytest.raises(RulesetError, match="out of range"):
        Ruleset.from_names(["classic"], {"target_score": int(value)})
    with pytest.raises(RulesetError):
        Ruleset.from_names([f"classic target_score={value}"])
    with pytest.raises(RulesetError):
        Rulebook.from_toml(f'plugins = ["classic"]\n[options]\ntarget_score = "{value}"\n')


def test_every_integer_option_is_bounded_in_one_place() -> None:
    # The bound is Option.validate's, not each option's: a check that accepts any
    # integer (flip's pairing seed) is bounded as well, and a number inside a list too.
    assert Ruleset.from_names(["classic"], {"target_score": MAX_OPTION_NUMBER}).options["target_score"] == (
        MAX_OPTION_NUMBER
    )
    bounded = (("classic", "target_score"), ("flip", "flip_pairing_seed"), ("classic", "uno_penalty"))
    for names, option in bounded:
        with pytest.raises(RulesetError, match="out of range"):
            Ruleset.from_names([names], {option: MAX_OPTION_NUMBER + 1})
    from unorules.plugin import Option

    anything = Option("anything", (), check=lambda value: value)
    with pytest.raises(ValueError, match="out of range"):
        anything.validate((1, (2, -(2**70))))
    assert anything.validate((1, (2, 3))) == (1, (2, 3))


# -- the line scanner is linear ----------------------------------------------------------------


class _Counted(str):
    """A text that counts how often the scanner looks into it."""

    looks = 0

    def __getitem__(self, key: object) -> str:
        _Counted.looks += 1
        return super().__getitem__(key)  # type: ignore[index]

    def startswith(self, *args: object) -> bool:
        _Counted.looks += 1
        return super().startswith(*args)  # type: ignore[arg-type]

    def find(self, *args: object) -> int:
        _Counted.looks += 1
        return super().find(*args)  # type: ignore[arg-type]


def _looks(text: str) -> int:
    _Counted.looks = 0
    _Scan(_Counted(text), "t.toml").run()
    return _Counted.looks


SHAPES: dict[str, Callable[[int], str]] = {
    "a header of spaces": lambda n: "[" + " " * n,
    "spaces then a word in a header": lambda n: "[" + " " * n + "a" + " " * n + "]",
    "spaces before =": lambda n: " " * n + "=",
    "keys of many dots": lambda n: ("a . " * 7 + "a = 1\n") * (n // 34),
    "an open string": lambda n: 'x = "' + " " * n,
    "an open multi-line string": lambda n: 'x = """' + '\\"' * (n // 2),
    "many short lines": lambda n: "a = 1\n" * (n // 6),
    "open brackets over lines": lambda n: "x = [" + "\n" * n,
    "quotes": lambda n: "'" * n,
    "headers": lambda n: "[a]\n" * (n // 4),
}


@pytest.mark.parametrize("shape", SHAPES)
def test_the_scanner_looks_at_each_character_a_bounded_number_of_times(shape: str) -> None:
    # Before: the _HEADER regular expression backtracked: 10k/20k/40k spaces took
    # 0.21/1.08/4.9 s. Counting the scanner's looks into the text is timing-free:
    # four times the text costs about four times the looks, never sixteen.
    make = SHAPES[shape]
    small, large = _looks(make(10_000)), _looks(make(40_000))
    assert large <= 4.5 * small + 100, (small, large)
    assert large <= 6 * 40_000 + 100, large


def test_a_key_of_50000_dotted_parts_is_refused_before_tomllib_reads_it() -> None:
    # tomllib's time grows with the square of a key's parts (8,000 parts took 2 s).
    with pytest.raises(RulesetError, match=f"line 2: a key of more than {MAX_KEY_PARTS} dotted parts"):
        Rulebook.from_toml('plugins = ["classic"]\n' + "a" + ".a" * 50_000 + " = 1\n", "dots.toml")
    with pytest.raises(RulesetError, match="dotted parts"):
        Rulebook.from_toml("[" + ".".join(["t"] * 9) + "]\n", "dots.toml")
    assert Rulebook.from_toml('plugins = ["classic"]\noptions.target_score = 300\n').option_values == {
        "target_score": 300
    }


def test_the_scanner_uses_no_regular_expression() -> None:
    source = inspect.getsource(_Scan)
    for construct in ("re.compile", "re.match", "re.search", "_HEADER", "import re"):
        assert construct not in source


def test_a_valid_200_kb_rulebook_reads() -> None:
    text = (
        'plugins = ["classic"]\n'
        f'description = """{"a long description " * 5000}"""\n'
        + "# a comment\n" * 7000
        + f"[{' ' * 1000}options{' ' * 1000}]\n"
        + f"{' ' * 20000}target_score = 200\n"
    )
    assert len(text) > 200_000
    book = Rulebook.from_toml(text, "long.toml")
    assert book.option_values == {"target_score": 200}
    assert book.line("options.target_score") == 7004


# -- the command line --------------------------------------------------------------------------


def test_the_command_line_names_the_file_and_line_and_shows_no_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = _chain(tmp_path, 400)
    deep = write(tmp_path, "deep.toml", "[options]\nx = " + "[" * 5000 + "]" * 5000 + "\n")
    for path, where in ((first, f"{first}, line 1 (extends)"), (deep, f"{deep}, line 2")):
        code = main(["simulate", "--rules", str(path), "--games", "1"])
        _, err = capsys.readouterr()
        assert code == EXIT_USAGE, err
        assert where in err, err
        for word in ("Traceback", "unexpected", "RecursionError"):
            assert word not in err
