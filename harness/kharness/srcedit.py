"""Source edits located by the syntax tree.

Candidate kernels are made from the incumbent's module by replacing the exact text spans of
syntax-tree nodes (``ast`` gives every node its start and end line/column). Nothing is found
by matching text: a span always comes from a node, so a replacement can only touch the
expression or statement it was meant for, and the rest of the module (comments, layout)
stays byte for byte what the submitter wrote — which keeps the round's diff readable.

We do not use ``ast.unparse`` on the whole module because it drops comments and reflows
every line; libcst would keep them too, but it is one more large dependency for what span
replacement already gives."""
from __future__ import annotations

import ast
import itertools
from dataclasses import dataclass


class RewriteRefused(Exception):
    """A change set or structural rewrite cannot be applied; the message says precisely why
    (which knob or rewrite, which line, which precondition)."""


@dataclass(frozen=True)
class Edit:
    """Replace source[start:end] (character offsets) with text."""

    start: int
    end: int
    text: str


class LineIndex:
    """Converts the (line, column) positions of ``ast`` nodes into character offsets.

    ``ast`` columns are UTF-8 byte offsets within the line; this class converts them so that
    modules with non-ASCII text (comments, strings) are edited at the right place."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.lines = source.splitlines(keepends=True)
        self.starts: list[int] = []
        pos = 0
        for ln in self.lines:
            self.starts.append(pos)
            pos += len(ln)
        self.starts.append(pos)

    def offset(self, lineno: int, col_utf8: int) -> int:
        line = self.lines[lineno - 1] if lineno - 1 < len(self.lines) else ""
        prefix = line.encode("utf-8")[:col_utf8].decode("utf-8", errors="strict")
        return self.starts[lineno - 1] + len(prefix)

    def span(self, node: ast.AST) -> tuple[int, int]:
        """(start, end) character offsets of node's source text."""
        lineno = getattr(node, "lineno", None)
        end_lineno = getattr(node, "end_lineno", None)
        col = getattr(node, "col_offset", None)
        end_col = getattr(node, "end_col_offset", None)
        if lineno is None or end_lineno is None or col is None or end_col is None:
            raise RewriteRefused(f"{type(node).__name__} node has no source position")
        return self.offset(lineno, col), self.offset(end_lineno, end_col)

    def text(self, node: ast.AST) -> str:
        a, b = self.span(node)
        return self.source[a:b]

    def line_indent(self, lineno: int) -> str:
        line = self.lines[lineno - 1]
        return line[: len(line) - len(line.lstrip(" \t"))]

    def stmt_lines(self, stmt: ast.stmt) -> tuple[int, int] | None:
        """(start, end) of the whole lines a statement fills alone: only indentation before it
        and only blanks or a comment after it; None when it shares a line with other code."""
        a, b = self.span(stmt)
        start = self.starts[stmt.lineno - 1]
        end_lineno = stmt.end_lineno or stmt.lineno
        end = self.starts[end_lineno] if end_lineno < len(self.lines) else len(self.source)
        rest = self.source[b:end].strip()
        if self.source[start:a].strip() or (rest and not rest.startswith("#")):
            return None
        return start, end


def apply_edits(source: str, edits: list[Edit]) -> str:
    """Applies non-overlapping edits (any order). Two edits of the same span with the same
    text count once; overlapping different edits are refused, since one would silently undo
    the other."""
    uniq = sorted(set(edits), key=lambda e: (e.start, e.end))
    for a, b in itertools.pairwise(uniq):
        if b.start < a.end:
            raise RewriteRefused(f"two edits overlap at characters {a.start}-{a.end} and {b.start}-{b.end}")
    out = source
    for e in reversed(uniq):
        out = out[: e.start] + e.text + out[e.end:]
    return out


def replace_node(index: LineIndex, node: ast.AST, text: str) -> Edit:
    a, b = index.span(node)
    return Edit(a, b, text)


def parse_module(source: str, what: str = "module") -> ast.Module:
    try:
        return ast.parse(source)
    except SyntaxError as e:
        raise RewriteRefused(f"the {what} does not parse: line {e.lineno}: {e.msg}") from e


def check_parses(source: str, what: str = "candidate") -> None:
    """A rewrite must leave a module that parses; raises RewriteRefused otherwise."""
    parse_module(source, what)
