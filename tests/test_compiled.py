"""The compiled core (``python3 dev.py build-compiled``, issue 43): the hot modules
compiled by mypyc, the same games as the pure-Python package.

``dev.py test``'s ``compiled`` step runs the golden digests and the core's rule tests
with ``PYTHONPATH=build/compiled`` and ``UNORULES_EXPECT_COMPILED=1``; this module
checks, there and in every other run, that the modules imported are the build the
run expects: compiled extension modules in that step, Python files elsewhere.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from pathlib import Path

import pytest
from dev_script import load_dev

ROOT = Path(__file__).resolve().parents[1]


_dev = load_dev


COMPILED_MODULES: tuple[str, ...] = _dev().COMPILED_MODULES


def test_the_modules_imported_are_the_build_this_run_expects() -> None:
    expect_compiled = os.environ.get("UNORULES_EXPECT_COMPILED") == "1"
    for name in COMPILED_MODULES:
        module = importlib.import_module(f"unorules.{name}")
        path = Path(module.__file__ or "")
        if expect_compiled:
            assert path.suffix == ".so", path
            assert path.parent == ROOT / "build" / "compiled" / "unorules", path
        else:
            assert path.suffix == ".py", path  # src/ in a checkout, site-packages for a wheel
            assert ROOT / "build" not in path.parents, path


def test_the_plugins_stay_python_and_import_the_same_core() -> None:
    import unorules_classic

    import unorules
    import unorules.state

    assert Path(unorules_classic.__file__ or "").suffix == ".py"
    assert Path(unorules.__file__ or "").parent == Path(unorules.state.__file__ or "").parent


def test_a_class_that_stays_python_keeps_its_dynamic_parts() -> None:
    # What the compiled build must not change: a draft frozen in place into a state
    # (its class swapped), a state's __dict__, the draft's guard of its fields.
    from unorules import GameState, Ruleset
    from unorules.draft import draft_of

    state = Ruleset.from_names(["classic"]).new_game(3, seed=5)
    draft = draft_of(state)
    with pytest.raises(AttributeError, match="changes only through the draft's mechanics"):
        draft.hands = ()  # type: ignore[misc]
    draft.color = None
    frozen = draft.freeze()
    assert id(frozen) == id(draft)
    assert type(frozen) is GameState
    assert frozen.color is None
    assert frozen == state.replace(color=None, events=())


def test_register_kind_names_the_calling_module_in_both_builds() -> None:
    # A compiled function has no frame of its own: the caller is found one frame nearer.
    from unorules.cards import kind_info, register_kind

    info = register_kind("ZZTOP", "Test Kind", wild=True)
    assert info.module == __name__
    assert kind_info("7").module is None  # the core's own
    # The same kind from another module is the same description (module is not compared).
    assert register_kind("ZZTOP", "Test Kind", wild=True, module="elsewhere") == info


def test_an_unpickled_ordinary_turn_is_the_shared_phase() -> None:
    import pickle

    from unorules.values import PLAY, Phase

    assert pickle.loads(pickle.dumps(Phase("play"))) is PLAY
    assert pickle.loads(pickle.dumps(Phase("play", count=2))) is not PLAY


def test_no_two_attrs_values_are_compared_with_eq_in_a_compiled_module() -> None:
    # mypyc sees no __eq__ on an attrs class (attrs adds it at run time), so compiled
    # code compares two values typed as one such class by identity: `phase == PLAY`
    # would be False for an equal phase. Such comparisons go through object.
    from mypy import build
    from mypy.main import process_options
    from mypy.nodes import ComparisonExpr
    from mypy.types import Instance, NoneType, ProperType, Type, UnionType, get_proper_type

    def instance(typ: Type | None) -> Instance | None:
        if typ is None:
            return None
        proper: ProperType = get_proper_type(typ)
        if isinstance(proper, UnionType):
            items = [get_proper_type(i) for i in proper.items]
            rest = [i for i in items if not isinstance(i, NoneType)]
            proper = rest[0] if len(rest) == 1 else proper
        return proper if isinstance(proper, Instance) else None

    files = [str(ROOT / "src" / "unorules" / f"{name}.py") for name in COMPILED_MODULES]
    sources, options = process_options(["--config-file", str(ROOT / "pyproject.toml"), *files])
    options.preserve_asts = True
    options.export_types = True
    options.incremental = False
    options.cache_dir = os.devnull
    options.follow_imports = "skip"  # only the compiled modules' own comparisons are typed
    old = Path.cwd()
    os.chdir(ROOT)
    try:
        result = build.build(sources, options)
    finally:
        os.chdir(old)
    compiled = {f"unorules.{name}" for name in COMPILED_MODULES}
    assert compiled <= set(result.graph)
    found = []
    for expr in list(result.types):
        if not isinstance(expr, ComparisonExpr):
            continue
        for op, left, right in zip(expr.operators, expr.operands, expr.operands[1:], strict=False):
            lt, rt = instance(result.types.get(left)), instance(result.types.get(right))
            # A class of a module that is not compiled is an object to compiled code.
            if (
                op in ("==", "!=")
                and lt is not None
                and rt is not None
                and lt.type is rt.type
                and lt.type.module_name in compiled
                and any(lt.type.defn.decorators)
            ):
                found.append((lt.type.fullname, op, expr.line))
    assert not found, found
