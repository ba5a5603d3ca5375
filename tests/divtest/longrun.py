"""The long runs' progress lines and closing report (tests/real-world/
realworld.py, tests/debian/rebuild.py): time-stamped lines as things
happen, then each failure with its reproduction and log, where the build
folders are, the time taken and "NAME: N passed, M failed"."""

import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

START = time.monotonic()
_PRINT_LOCK = threading.Lock()


def say(msg):
    """Prints msg after the seconds since the run started."""
    with _PRINT_LOCK:
        print(f"[{time.monotonic() - START:7.1f}s] {msg}", flush=True)


def fmt_time(seconds):
    return f"{seconds:.1f}s" if seconds < 120 else f"{seconds / 60:.1f}min"


def work_dir(given, prefix):
    """The folder to build in: given (--work-dir), made if need be, else a
    new one in $TMPDIR named PREFIX*."""
    if given:
        work = Path(given).resolve()
        work.mkdir(parents=True, exist_ok=True)
        return work
    return Path(tempfile.mkdtemp(prefix=prefix))


def finish(name, mode, passed, failures, work, keep, given, ours):
    """Prints the closing report and exits, 1 if anything failed. failures
    have .line(), .log and, optionally, .repro. The build folders stay when
    something failed or with keep; else a given --work-dir loses only the
    entries ours(entry) names, and a temporary work folder goes."""
    elapsed = time.monotonic() - START
    for f in failures:
        print(f.line())
        if getattr(f, "repro", None):
            print(f"  reproduce: {f.repro}")
        if f.log:
            print(f"  log: {f.log}")
    if failures or keep:
        print(f"build folders kept in {work}")
    elif given:  # remove only what this run made
        for d in list(work.iterdir()):
            if ours(d):
                shutil.rmtree(d, ignore_errors=True)
    else:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{name} ({mode}) took {fmt_time(elapsed)}")
    print(f"{name}: {passed} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)
