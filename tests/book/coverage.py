"""Which numbered sections the book tests of one system quote: shared by the coverage tests of
Days of Iron and the hex ironclads game (a docstring quotes a section as `17.2.3: "sentence"`)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

QUOTE = re.compile(r"(?<![\d.])(\d{1,2}(?:\.\d{1,2}){0,2}): \"")


def quoted_sections(folder: Path) -> dict[str, list[str]]:
    """Section -> the book tests in ``folder`` whose docstrings quote it (the coverage test's own
    file is skipped)."""
    found: dict[str, list[str]] = {}
    for path in sorted(folder.glob("test_*.py")):
        if path.name == "test_sections_covered.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                for section in QUOTE.findall(ast.get_docstring(node) or ""):
                    found.setdefault(section, []).append(f"{path.name}::{node.name}")
    return found
