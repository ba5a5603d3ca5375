#!/usr/bin/env python3
"""Proves that the build enforces divcc's layers (docs/design.md): every
layer's sources, compiled with the exact command the build uses for them,
can include the headers of the layers below it and cannot include one from
any other layer.

Usage: layering.py BUILD_DIR (configured with compile_commands.json, which
divcc's CMakeLists.txt always writes)."""

import json
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# What each layer uses directly: the design, as docs/design.md draws it.
USES = {
    "support": [],
    "random": ["support"],
    "targets": ["support"],
    "transforms": ["random", "targets"],
    "codegen": ["transforms"],
    "cache": ["support"],
    "driver": ["codegen", "cache"],
    "analysis": ["targets"],
    "registry": ["analysis", "random"],
    "divtool": ["registry", "cache", "transforms"],
}


def closure(layer):
    seen, pending = [], [layer]
    while pending:
        l = pending.pop()
        if l not in seen:
            seen.append(l)
            pending += USES[l]
    return set(seen)


def a_header(layer):
    """One header of \\p layer, as the sources spell it."""
    headers = sorted((ROOT / layer).rglob("*.h"))
    if not headers:
        sys.exit(f"layering: no header in {layer}/")
    return headers[0].relative_to(ROOT).as_posix()


def compiles(command, directory, header, tmp):
    probe = Path(tmp) / "probe.cpp"
    probe.write_text(f'#include "{header}"\n')
    args = shlex.split(command)
    # The build's own flags; the source replaced by the probe, preprocessed.
    out = args.index("-o")
    args = args[:out] + args[out + 2:]
    src = args.index("-c")
    args = args[:src] + ["-E", "-o", "/dev/null", str(probe)]
    p = subprocess.run(args, cwd=directory, capture_output=True, text=True)
    return p.returncode == 0, p.stderr


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    build = Path(sys.argv[1])
    db = build / "compile_commands.json"
    if not db.exists():
        sys.exit(f"layering: {db} is missing")
    commands = {}
    for entry in json.loads(db.read_text()):
        rel = Path(entry["file"]).resolve().relative_to(ROOT)
        commands.setdefault(rel.parts[0], entry)

    failures = checks = 0
    with tempfile.TemporaryDirectory() as tmp:
        for layer in USES:
            # The build's view of the layer must be exactly the design's.
            view = build / "layers" / layer
            seen = {p.name for p in view.iterdir()} if view.is_dir() else set()
            if seen != closure(layer):
                print(f"FAIL {layer}: the build lets it see {sorted(seen)}, "
                      f"the design {sorted(closure(layer))}")
                failures += 1
            entry = commands.get(layer)
            if not entry:
                sys.exit(f"layering: no compile command for {layer}/")
            for other in USES:
                ok, err = compiles(entry["command"], entry["directory"],
                                   a_header(other), tmp)
                allowed = other in closure(layer)
                checks += 1
                # A header from above must be missing, not merely broken.
                refused = not ok and "No such file" in err
                if ok != allowed or (not allowed and not refused):
                    failures += 1
                    verdict = "cannot" if allowed else "can"
                    print(f"FAIL {layer} {verdict} include {a_header(other)}"
                          + (f":\n{err}" if err else ""))
    print(f"layering: {checks} include checks, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
