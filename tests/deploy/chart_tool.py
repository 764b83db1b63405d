"""Lint, check and render the Helm chart offline — run by the tools virtualenv's Python (.venv-tools),
where helm-python-sdk (the Helm v4 SDK in a shared library) lives, never the app's.

    python chart_tool.py CHART_DIR VALUES_JSON OUT_DIR

Prints one JSON object: the lint result and the rendered files (one per template, NOTES.txt
left out). Exit 2 when the values break values.schema.json, 3 when lint or rendering fails.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import helm_python as helm


def main(chart_dir: str, values_json: str, out_dir: str) -> int:
    values = json.loads(values_json)
    chart = helm.Chart.load(chart_dir)
    try:
        chart.validate_schema(values)
    except helm.HelmError as error:
        print(json.dumps({"error": "values", "message": str(error)}))
        return 2
    lint = helm.lint(chart_dir, values, strict=True)
    if lint["errors"]:
        print(json.dumps({"error": "lint", "lint": lint}, default=str))
        return 3
    try:
        rendered = chart.render(values, name="skyline", namespace="games", is_install=True)
    except helm.HelmError as error:
        print(json.dumps({"error": "render", "message": str(error)}))
        return 3
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    files = []
    for template, text in sorted(rendered.items()):
        if template.endswith("NOTES.txt") or not text.strip():
            continue
        target = out / template.replace("/", "__")
        target.write_text(text, encoding="utf-8")
        files.append(str(target))
    print(json.dumps({"lint": lint, "files": files}, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(*sys.argv[1:4]))
