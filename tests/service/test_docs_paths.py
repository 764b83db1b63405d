"""Every file of the repository that the docs name exists (issue 61): a path such as
``service/store/keys.py``, ``docs/deploy.md`` or ``tests/cluster/`` written in README.md or
docs/*.md, or in a docstring or comment of the code, and every relative link of those pages.

A named file that was moved or removed leaves the reader looking for it; this finds it when it
happens. Only path tokens are read: one of the repository's top folders, then a path of word
characters, dots, dashes and slashes, not inside a URL or a longer path; a pattern with a
placeholder (``engines/<game>/``, ``docs/rules/*.md``) names no one file and is not checked.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# What a run makes (gitignored: var/ of `skyline serve`, build output) is not the repository's: a
# page naming var/redis/ names a folder of the running service, not a file to find here.
RUN_FOLDERS = {"var", "build", "dist", "node_modules"}
TOP_FOLDERS = sorted(
    path.name
    for path in ROOT.iterdir()
    if path.is_dir()
    and not path.name.startswith(".")
    and path.name not in RUN_FOLDERS
    and not path.name.endswith(".egg-info")
)
# Where the code's docstrings and comments are read.
CODE_FOLDERS = ("service", "worker", "engines", "boards", "harness")

_PATH = re.compile(
    r"(?<![\w./~:-])"  # not inside a URL, an absolute path or a longer path
    r"(?:" + "|".join(re.escape(folder) for folder in TOP_FOLDERS) + r")"
    r"/(?:[\w.-]+/)*[\w.-]*"
)
_PLACEHOLDER = re.compile(r"[<*{\[$]")
_LINK = re.compile(r"\]\(([^)\s]+)\)")


def named_paths(text: str) -> set[str]:
    """The repository paths ``text`` names (a trailing sentence dot dropped)."""
    found = set()
    for match in _PATH.finditer(text):
        following = text[match.end() : match.end() + 1]
        if following and _PLACEHOLDER.match(following):
            continue
        found.add(match.group().rstrip("."))
    return found


def linked_paths(text: str, page: Path) -> set[str]:
    """The targets of a page's relative markdown links, as paths from the repository's root."""
    found = set()
    for target in _LINK.findall(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith(("#", "/")):
            continue  # a URL, an anchor of the page itself, a route of the API
        local = target.split("#", 1)[0]
        if local:
            found.add(str((page.parent / local).resolve().relative_to(ROOT)))
    return found


def code_prose(source: str) -> str:
    """The docstrings and comments of a Python module."""
    parts: list[str] = []
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            docstring = ast.get_docstring(node, clean=False)
            if docstring:
                parts.append(docstring)
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            parts.append(token.string)
    return "\n".join(parts)


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def modules() -> list[Path]:
    return sorted(path for folder in CODE_FOLDERS for path in (ROOT / folder).rglob("*.py"))


def missing(paths: set[str]) -> list[str]:
    return sorted(path for path in paths if not (ROOT / path).exists())


@pytest.mark.parametrize("page", pages(), ids=lambda page: str(page.relative_to(ROOT)))
def test_every_file_a_page_names_or_links_exists(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    # A link's target is relative to its page (docs/'s `boards/x.svg` is docs/boards/x.svg).
    prose = _LINK.sub("]", text)
    assert missing(named_paths(prose) | linked_paths(text, page)) == []


def test_every_file_a_docstring_or_comment_names_exists() -> None:
    gone = {
        str(module.relative_to(ROOT)): absent
        for module in modules()
        if (absent := missing(named_paths(code_prose(module.read_text(encoding="utf-8")))))
    }
    assert gone == {}


def test_the_reader_finds_paths_and_only_paths() -> None:
    """What the two tests above rely on: a made-up path is found (and reported missing); a URL, a
    pattern, a dotted module name and an absolute path are not taken for one."""
    text = (
        "See service/run/supervisor.py and service/nowhere/made_up.py, then docs/deploy.md. "
        "Also tests/cluster/, https://example.net/service/x.py, /tmp/service/y.py, "
        "engines/<game>/rules.py, docs/rules/*.md and service.run.wsgi:app."
    )
    assert named_paths(text) == {
        "service/run/supervisor.py",
        "service/nowhere/made_up.py",
        "docs/deploy.md",
        "tests/cluster/",
    }
    assert missing(named_paths(text)) == ["service/nowhere/made_up.py"]
    page = ROOT / "docs" / "deploy.md"
    links = "[a](archive.md), [b](rules/nowhere.md#x), [c](https://example.net/a.md), [d](#8-settings)"
    assert missing(linked_paths(links, page)) == ["docs/rules/nowhere.md"]
    source = '"""Module: service/gone.py."""\nx = "service/data.py"  # see worker/gone.py\n'
    assert named_paths(code_prose(source)) == {"service/gone.py", "worker/gone.py"}
