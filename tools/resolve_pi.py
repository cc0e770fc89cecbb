"""Resolve tablekit's install for a 64-bit Raspberry Pi with pip's own resolver, from here.

For each target (Raspberry Pi OS Bookworm: CPython 3.11; Trixie: CPython 3.13; both aarch64,
glibc 2.36+) it evaluates pyproject.toml's markers for that machine (pip cannot: with
``--platform`` it still reads this machine's ``platform_machine``), then runs
``pip install --dry-run --only-binary=:all: --platform ... --report`` and prints every
package with its version and wheel tag. Exit 1 when a target cannot be resolved from wheels.

    python tools/resolve_pi.py                 # both targets
    python tools/resolve_pi.py --python 3.13 --json /tmp/trixie.json

A tool to run by hand (it asks the package index), not part of CI.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
PLATFORMS = ("manylinux_2_36_aarch64", "manylinux_2_34_aarch64", "manylinux_2_28_aarch64",
             "manylinux_2_17_aarch64", "manylinux2014_aarch64", "linux_aarch64")
TARGETS = {"3.11": "Raspberry Pi OS Bookworm", "3.13": "Raspberry Pi OS Trixie"}


def requirements(python: str) -> list[str]:
    """pyproject's dependencies that apply on an aarch64 Pi running ``python``, markers gone."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    env = {"platform_machine": "aarch64", "sys_platform": "linux", "platform_system": "Linux",
           "os_name": "posix", "python_version": python, "python_full_version": f"{python}.0",
           "implementation_name": "cpython", "platform_python_implementation": "CPython"}
    found = []
    for line in project["dependencies"]:
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate(env):
            requirement.marker = None
            found.append(str(requirement))
    return found


def resolve(python: str) -> list[tuple[str, str, str]]:
    """(name, version, wheel tag) of every package pip would install for ``python``."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        command = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed",
                   "--quiet", "--only-binary=:all:", "--implementation", "cp",
                   "--python-version", python, "--target", str(Path(folder) / "target"),
                   "--report", str(report)]
        for platform in PLATFORMS:
            command += ["--platform", platform]
        result = subprocess.run([*command, *requirements(python)], capture_output=True,
                                text=True)
        if result.returncode != 0:
            errors = [line for line in result.stderr.splitlines() if line.startswith("ERROR")]
            raise SystemExit(f"resolve_pi: Python {python}: {' '.join(errors) or result.stderr}")
        installs = json.loads(report.read_text())["install"]
    return [(item["metadata"]["name"], item["metadata"]["version"],
             item["download_info"]["url"].rsplit("/", 1)[-1].split("-", 2)[-1])
            for item in installs]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", action="append", choices=sorted(TARGETS))
    parser.add_argument("--json", type=Path, help="write the resolved sets here")
    args = parser.parse_args()
    resolved = {}
    for python in args.python or sorted(TARGETS):
        packages = resolve(python)
        resolved[python] = {name: version for name, version, _ in packages}
        print(f"== CPython {python} aarch64 ({TARGETS[python]}): {len(packages)} packages")
        for name, version, tag in sorted(packages):
            print(f"   {name}=={version}  {tag.removesuffix('.whl')}")
    if args.json:
        args.json.write_text(json.dumps(resolved, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
