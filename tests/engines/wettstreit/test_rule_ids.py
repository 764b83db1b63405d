"""Every rule id of docs/rules/wettstreit.md is named by at least one test of this folder."""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).parent
DOC = HERE.parents[2] / "docs" / "rules" / "wettstreit.md"


def test_every_rule_id_has_a_test():
    ids = set(re.findall(r"\bWB-[A-Z]+(?:-[A-Z]+)*\b", DOC.read_text(encoding="utf-8")))
    assert len(ids) > 30
    names = " ".join(
        re.findall(r"def (test_\w+)", "".join(p.read_text(encoding="utf-8") for p in HERE.glob("test_*.py")))
    )
    missing = sorted(i for i in ids if i.replace("-", "_") + "_" not in names)
    assert not missing, missing
