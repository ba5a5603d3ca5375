"""How a test script counts its checks and ends: one "ok"/"FAIL" line a
check, the failures again at the end, then "NAME: N passed, M failed" and
exit status 1 if anything failed."""

import shutil
import sys
import tempfile
from pathlib import Path


class Checks:
    """check(ok, what, detail) counts a check, prints its line and keeps
    the failures (with detail); returns ok. With show_detail, the detail is
    printed on every line, not only kept for failures."""

    def __init__(self, show_detail=False):
        self.failures = []
        self.total = 0
        self.show_detail = show_detail

    def __call__(self, ok, what, detail=""):
        self.total += 1
        if self.show_detail:
            print(f"{'ok  ' if ok else 'FAIL'}  {what}" + (f": {detail}" if detail else ""))
            failure = what + (f": {detail}" if detail else "")
        else:
            print(("ok    " if ok else "FAIL  ") + what)
            failure = what + (f"\n{detail}" if detail else "")
        if not ok:
            self.failures.append(failure)
        return ok

    def report(self, name):
        report(name, self.failures, self.total)


_work_dirs = []


def work_dir(name):
    """A fresh folder for a check's builds. report() removes it when every
    check passed, and names it when some failed, for a closer look."""
    path = Path(tempfile.mkdtemp(prefix=f"divcc-{name}-"))
    _work_dirs.append(path)
    return path


def report(name, failures, total):
    """Prints the closing line and exits non-zero if anything failed."""
    for f in failures:
        print(f"FAIL: {f}")
    for path in _work_dirs:
        if failures:
            print(f"{name}: builds kept in {path}")
        else:
            shutil.rmtree(path, ignore_errors=True)
    print(f"{name}: {total - len(failures)} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)


def scenario(name, prefix, run):
    """Runs run(work, check) in a fresh folder divcc-PREFIX-*, removed
    afterwards whatever happened, then reports the checks as NAME."""
    check = Checks()
    work = Path(tempfile.mkdtemp(prefix=f"divcc-{prefix}-"))
    try:
        run(work, check)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    check.report(name)
