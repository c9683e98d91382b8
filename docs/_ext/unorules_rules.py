"""A small Sphinx extension: rule ids link to the rules reference.

``docs/rules.rst`` defines each rule with an explicit target
``.. _rule-R-TURN-MATCH:``. This extension

* adds the role ``:rule:`R-TURN-MATCH``` (a link with the id as its text), and
* links every other mention of a rule id in the documentation, wherever it
  comes from (hand-written pages, generated plugin pages and their option
  tables, docstrings pulled in by autodoc): plain text and inline literals
  that consist of an id alone become links to the rule's definition.

Section titles, code blocks and existing links are left alone. A mention of
an id that ``rules.rst`` does not define is a warning ("undefined label"), so
``sphinx -W`` fails on it.
"""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes
from docutils.parsers.rst.states import Inliner
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform

RULE_ID = re.compile(r"(?<![\w-])R-[A-Z0-9]+(?:-[A-Z0-9]+)*(?![\w-])")
"""A rule id such as ``R-TURN-MATCH`` or ``R-2P``."""

_SKIP = (
    nodes.title,
    nodes.literal_block,
    nodes.doctest_block,
    nodes.reference,
    nodes.target,
    nodes.raw,
    nodes.comment,
    nodes.system_message,
    addnodes.pending_xref,
    addnodes.desc_signature,
    addnodes.toctree,
)


def label(rule: str) -> str:
    """The Sphinx label of a rule id (labels are lower case)."""
    return f"rule-{rule}".lower()


def _xref(rule: str, content: nodes.Node, docname: str) -> addnodes.pending_xref:
    ref = addnodes.pending_xref(
        "",
        refdomain="std",
        reftype="ref",
        reftarget=label(rule),
        refexplicit=True,
        refwarn=True,
        refdoc=docname,
    )
    ref += content
    return ref


def rule_role(
    name: str,
    rawtext: str,
    text: str,
    lineno: int,
    inliner: Inliner,
    options: dict[str, Any] | None = None,
    content: list[str] | None = None,
) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """``:rule:`R-TURN-MATCH```: a link to the rule, the id as its text."""
    rule = text.strip()
    env = inliner.document.settings.env
    return [_xref(rule, nodes.literal(rule, rule), env.docname)], []


def _skipped(node: nodes.Node) -> bool:
    parent = node.parent
    while parent is not None:
        if isinstance(parent, _SKIP):
            return True
        parent = parent.parent
    return False


class LinkRuleIds(SphinxTransform):
    """Turn every rule id mentioned in a document into a link to its definition."""

    default_priority = 800

    def apply(self, **kwargs: Any) -> None:
        docname = self.env.docname
        for literal in list(self.document.findall(nodes.literal)):
            text = literal.astext()
            if RULE_ID.fullmatch(text) and not _skipped(literal):
                literal.replace_self(_xref(text, literal.deepcopy(), docname))
        for text_node in list(self.document.findall(nodes.Text)):
            parent = text_node.parent
            if parent is None or isinstance(parent, nodes.literal) or _skipped(text_node):
                continue
            source = str(text_node)
            if not RULE_ID.search(source):
                continue
            pieces: list[nodes.Node] = []
            at = 0
            for match in RULE_ID.finditer(source):
                if match.start() > at:
                    pieces.append(nodes.Text(source[at : match.start()]))
                rule = match.group()
                pieces.append(_xref(rule, nodes.inline(rule, rule), docname))
                at = match.end()
            if at < len(source):
                pieces.append(nodes.Text(source[at:]))
            parent.replace(text_node, pieces)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_role("rule", rule_role)
    app.add_transform(LinkRuleIds)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
