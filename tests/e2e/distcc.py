#!/usr/bin/env python3
"""divcc behind distcc, end to end: two distccd daemons on 127.0.0.1 (free
ports, started and stopped here) compile variants of the sample project of
divtest/sample_project.py, and the binaries must equal locally built ones
of the same seed.

  farm        `divtool population --launcher distcc` builds 3 variants with
              distcc's local fallback off (DISTCC_FALLBACK=0): every compile
              ran on a daemon, both daemons compiled, and each binary is
              byte-identical to the same variant built without distcc
  secrecy     the daemons received -fdiversify-key= with each variant's
              master key (HKDF-Extract of its seed, recomputed here);
              neither the master secret nor any variant's seed is on any
              command line they logged
  prefix      DIVCC_PREFIX=distcc on a plain `make CC=divcc` with
              DIVCC_SEED_FILE gives the local build's binary
  refusal     CC="distcc divcc" with only DIVCC_SEED_FILE: the seed file
              stays on this host, so the daemon's divcc refuses with a clear
              message (the build fails with fallback off); with distcc's
              fallback on, the compile is redone locally and gives the local
              build's binary
"""

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from divtest import checks, hkdf, sample_project, tools

VARIANTS = 3
SECRET = b"distcc-farm-master-secret-Qv7"
DISTCCD = shutil.which("distccd") or "/usr/bin/distccd"
DISTCC = shutil.which("distcc") or "/usr/bin/distcc"


class Daemon:
    """One distccd on 127.0.0.1, logging every job's argv to its log."""

    def __init__(self, work, name):
        self.port = tools.free_port()
        # distccd started as root runs compiles as an unprivileged user:
        # the log and its temporary directory must be writable by it.
        self.log = work / f"{name}.log"
        self.log.touch()
        self.log.chmod(0o666)
        self.proc = subprocess.Popen(
            [DISTCCD, "--daemon", "--no-detach", "--listen", "127.0.0.1",
             "--port", str(self.port), "--allow", "127.0.0.1", "--jobs", "2",
             "--enable-tcp-insecure", "--log-level", "debug",
             "--log-file", str(self.log)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.5).close()
                return
            except OSError:
                time.sleep(0.2)
        raise SystemExit(f"distccd on port {self.port} did not start")

    def jobs_done(self):
        return self.log.read_text(errors="replace").count("COMPILE_OK")

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def distcc_environment(work, daemons, fallback):
    env = tools.environment()
    state = work / "distcc-state"
    state.mkdir(exist_ok=True)
    env.update({
        "DISTCC_HOSTS": " ".join(f"127.0.0.1:{d.port}/2" for d in daemons),
        "DISTCC_DIR": str(state),
        "DISTCC_BACKOFF_PERIOD": "0",
        "DISTCC_FALLBACK": "1" if fallback else "0",
    })
    # distcc reads the mere presence of this variable as "yes"
    if not fallback:
        env["DISTCC_SKIP_LOCAL_RETRY"] = "1"
    return env


def variant_binaries(pop):
    """{variant id: bytes of its app} for a population directory."""
    return {d.name: (d / "tree" / "app").read_bytes()
            for d in sorted((pop / "variants").iterdir())
            if (d / "tree" / "app").exists()}


def make(tree, env, cc):
    """A clean build of the sample project in tree; (status, stderr)."""
    subprocess.run(["make", "clean"], cwd=tree, capture_output=True)
    p = subprocess.run(["make", "-j4", f"CC={cc}"], cwd=tree, env=env,
                       capture_output=True, text=True, timeout=600)
    return p.returncode, p.stderr


def divtool_population(work, out, env, *extra):
    # Without kept debug information: clang's DWARF 5 line tables carry the
    # MD5 of each source file only when it compiles the file itself, not
    # the preprocessed source distcc sends, so -g builds differ there.
    code, _, err = tools.divtool(
        "population", "--count", VARIANTS, "-j", 2, "--seed-file", work / "secret",
        "--out", out, "--source", work / "proj", "--no-progress",
        "--no-keep-debug", *extra, "--", "make", "-j4", "CC=divcc", env=env)
    return code, err


def main():
    if not Path(DISTCCD).exists():
        raise SystemExit("distccd not found: scripts/install-deps.sh installs "
                         "Debian's distcc")
    work = Path(tempfile.mkdtemp(prefix="divcc-distcc-"))
    work.chmod(0o755)
    sample_project.write_project(work / "proj", functions_per_file=10)
    (work / "secret").write_bytes(SECRET)
    check = checks.Checks()
    daemons = [Daemon(work, "daemon1"), Daemon(work, "daemon2")]
    try:
        # -- farm ------------------------------------------------------------
        code, err = divtool_population(work, work / "local", tools.environment())
        check(code == 0, "3 variants built locally", err)
        env = distcc_environment(work, daemons, fallback=False)
        code, err = divtool_population(work, work / "farm", env,
                                       "--launcher", "distcc")
        check(code == 0, "3 variants built with --launcher distcc, fallback off",
              err)
        local, farm = variant_binaries(work / "local"), variant_binaries(work / "farm")
        check(len(farm) == VARIANTS and farm == local,
              "each distcc-built variant equals the locally built one",
              f"local {sorted(local)}, farm {sorted(farm)}")
        check(len(set(farm.values())) == VARIANTS, "the variants differ")
        jobs = [d.jobs_done() for d in daemons]
        check(all(j > 0 for j in jobs) and sum(jobs) >= 5 * VARIANTS,
              "both daemons compiled, every file of every variant remotely",
              f"jobs per daemon: {jobs}")

        # -- secrecy ---------------------------------------------------------
        # Each variant's seed is a stream key of the master secret; the
        # daemons must have seen exactly the key divcc derives from it
        # (HKDF-Extract, random/SecretSeed.cpp) and neither seed.
        seeds = [hkdf.variant_seed(SECRET, f"v{i:04d}") for i in range(1, VARIANTS + 1)]
        logs = b"".join(d.log.read_bytes() for d in daemons)
        derived = [hkdf.master_key(s).hex() for s in seeds]
        check(all(b"-fdiversify-key=" + k.encode() in logs for k in derived),
              "daemons got each variant's key derived from its seed")
        leaked = [s for s in [SECRET] + seeds
                  if s in logs or s.hex().encode() in logs]
        check(not leaked, "no seed on any command line the daemons saw",
              f"{len(leaked)} found")

        # -- prefix on a plain build -------------------------------------------
        tree = work / "plain"
        shutil.copytree(work / "proj", tree)
        seed_file = work / "plain.seed"
        seed_file.write_bytes(b"plain-build-seed")
        base = tools.environment(DIVCC_SEED_FILE=str(seed_file))
        code, err = make(tree, base, "divcc")
        check(code == 0, "plain local build", err)
        local_app = (tree / "app").read_bytes()
        before = sum(d.jobs_done() for d in daemons)
        env = dict(distcc_environment(work, daemons, fallback=False),
                   DIVCC_SEED_FILE=str(seed_file), DIVCC_PREFIX="distcc")
        code, err = make(tree, env, "divcc")
        check(code == 0 and (tree / "app").read_bytes() == local_app
              and sum(d.jobs_done() for d in daemons) >= before + 5,
              "DIVCC_PREFIX=distcc gives the local build's binary, compiled "
              "remotely", err)

        # -- refusal -----------------------------------------------------------
        env = dict(distcc_environment(work, daemons, fallback=False),
                   DIVCC_SEED_FILE=str(seed_file))
        # The daemon runs the compiler it is named: give it divcc's path.
        distcc_divcc = f"{DISTCC} {tools.divcc(False)}"
        code, err = make(tree, env, distcc_divcc)
        check(code != 0 and "no seed was given on its command line" in err
              and "DIVCC_PREFIX=distcc" in err,
              "CC=\"distcc divcc\" with a local seed file is refused remotely",
              err[-2000:])
        env = dict(distcc_environment(work, daemons, fallback=True),
                   DIVCC_SEED_FILE=str(seed_file))
        code, err = make(tree, env, distcc_divcc)
        check(code == 0 and (tree / "app").read_bytes() == local_app,
              "with fallback on, distcc redoes it locally: the local binary",
              err[-2000:])
    finally:
        for d in daemons:
            d.stop()
    if not check.failures:
        shutil.rmtree(work, ignore_errors=True)
    check.report("distcc")


if __name__ == "__main__":
    main()
