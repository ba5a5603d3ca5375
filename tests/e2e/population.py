#!/usr/bin/env python3
"""divtool population, verify, identify and symbolize end to end, on a small
multi-file C project written to a temporary directory (5 .c files, a header
and a Makefile that uses $(CC)), built with `make CC=divcc`:

  population  10 variants (-j 2, two of them labelled, with --strip): 10
              registry rows, ids v0001..v0010, one artifact each, every
              artifact and every code different; the key id is the
              documented derivation; no seed (the master secret or a
              variant's, recomputed here with HKDF-SHA256) is in the
              registry, a build log or an artifact; the shared front-end
              cache was hit; the private seed files are gone; the debug
              information is kept (tests/e2e/debuginfod.py checks it)
  verify      a variant rebuilt from source and seed is byte-identical to
              the registry and the shipped file; a shipped binary with one
              byte changed, and a registry whose hash was changed, are each
              reported as the one that differs (exit 3)
  symbolize   a variant crashes in a known function (abort() after printing
              its return address); the address in a copy stripped with
              binutils' strip gives that function and errors.c:LINE, from
              the command line and from a stack trace on standard input
  identify    each of the 10 variants is identified; a stripped copy and
              the --strip copy too; a 4 KiB piece of one variant's .text
              (raw bytes) is identified as that variant; another program,
              and the same project built with a seed outside the population,
              give "none" (exit 4)
  bad input   unknown variant, wrong seed file, missing registry, corrupt
              registry, a file that is not a registry, missing binary: a
              clear error and exit 1, the registry file unchanged; a wrong
              seed file is refused by population before anything is built
  failures    a second population run continues the numbering (v0011,
              v0012); a variant whose build fails is reported with its exit
              status and the end of its log, recorded as failed, and the
              run exits 1 while the other variant is recorded
"""

import hashlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path

from divtest import checks, corpus, elf, hkdf, sample_project, tools
from divtest.tools import divtool, environment

VARIANTS = 10


# -- The checks -----------------------------------------------------------------

def check_population(work, pop, key, check):
    reg = pop / "registry.sqlite"
    code, out, err = divtool("population", "--count", VARIANTS, "-j", 2,
                             "--out", pop, "--seed-file", key, "--strip",
                             "--label", "acme", "--label", "globex",
                             "--source", work / "proj", "--", "make", "CC=divcc")
    if not check(code == 0, "population --count 10 exits 0", err):
        return False
    print(err.strip().splitlines()[-1])
    db = sqlite3.connect(f"file:{reg}?mode=ro", uri=True)
    rows = db.execute("SELECT id, label, status, seed_derivation, build_command, "
                      "tree FROM variants ORDER BY number").fetchall()
    ids = [r[0] for r in rows]
    check(ids == [f"v{i:04d}" for i in range(1, VARIANTS + 1)],
          "the registry holds 10 variants, v0001 to v0010", str(ids))
    check(all(r[2] == "built" for r in rows), "every variant is recorded as built")
    check([r[1] for r in rows[:3]] == ["acme", "globex", ""],
          "the labels go to the first variants in order")
    check(rows[0][3] == "HKDF-SHA256 stream key ('population','variant','v0001') "
          "of the master secret", "the seed derivation is described", rows[0][3])
    check(json.loads(rows[0][4]) == ["make", "CC=divcc"], "the build command is recorded")
    arts = db.execute("SELECT variant, path, size, sha256, code_sha256, "
                      "stripped_sha256 FROM artifacts ORDER BY variant").fetchall()
    check(len(arts) == VARIANTS and all(a[1] == "app" for a in arts),
          "one artifact, 'app', per variant", str(arts))
    check(len({a[3] for a in arts}) == VARIANTS, "the 10 artifacts all differ")
    check(len({a[4] for a in arts}) == VARIANTS, "the 10 variants' code all differs")
    for variant, path, size, sha, _code, stripped in arts:
        built = pop / "variants" / variant / "tree" / path
        ship = pop / "ship" / variant / path
        if not (built.exists() and hashlib.sha256(built.read_bytes()).hexdigest() == sha
                and built.stat().st_size == size and ship.exists()
                and hashlib.sha256(ship.read_bytes()).hexdigest() == stripped):
            check(False, f"{variant}: the registry's size and hashes are the files'")
            break
    else:
        check(True, "the registry's sizes and hashes are the files' (built and --strip copies)")
    fingerprints = db.execute("SELECT count(*) FROM fingerprints").fetchone()[0]
    check(fingerprints > 1000, f"the registry holds code fingerprints ({fingerprints})")

    secret = key.read_bytes()
    key_id = hkdf.stream_key(secret, "population", "key-id", "")[:8].hex()
    meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
    check(meta.get("key_id") == key_id, "the key id is HKDF('population','key-id','')[:8]",
          f"{meta.get('key_id')} != {key_id}")
    db.close()

    secrets = [secret] + [hkdf.variant_seed(secret, i) for i in ids]
    files = [reg] + list(pop.glob("variants/*/build.log")) + \
        list(pop.glob("variants/*/tree/app")) + list(pop.glob("ship/*/app")) + \
        list(pop.glob(".build-id/*/*.debug"))
    leaked = [str(f) for f in files for s in secrets
              if s in f.read_bytes() or s.hex().encode() in f.read_bytes()]
    check(not leaked, "no seed in the registry, the logs or the artifacts", str(leaked))
    tmp = Path(tempfile.gettempdir())
    left = [p for p in tmp.glob("divtool-seeds-*") if any(p.iterdir())]
    check(not left, "no seed file is left in the temporary directory", str(left))

    code, out, err = divtool("cache", "--stats", "--json", "--dir", pop / "cache")
    stats = json.loads(out) if code == 0 else {}
    check(stats.get("hits", 0) > 0, f"variants shared the front-end cache "
          f"(hits {stats.get('hits')}, misses {stats.get('misses')})", err)
    return True


def check_verify(work, pop, key, check):
    reg = pop / "registry.sqlite"
    shipped = pop / "variants" / "v0004" / "tree" / "app"
    code, out, err = divtool("verify", "--registry", reg, "--seed-file", key, shipped)
    check(code == 0 and "verified: v0004" in out,
          "verify: v0004 rebuilt from source and seed is byte-identical", out + err)

    # A shipped binary with one byte of code changed.
    text = elf.section(shipped, ".text")
    offset, size = text.offset, text.size
    data = bytearray(shipped.read_bytes())
    data[offset + size // 2] ^= 0xFF
    tampered = work / "tampered"
    tampered.write_bytes(bytes(data))
    code, out, err = divtool("verify", "-r", reg, "-k", key, "--variant", "v0004",
                             tampered)
    check(code == 3 and re.search(r"shipped .* DIFFERS", out)
          and re.search(r"rebuilt .* identical to the registry", out)
          and "the shipped binary differs" in out,
          "verify: a changed shipped binary is the one reported to differ (exit 3)",
          out + err)

    # A registry whose record no longer matches what the source builds.
    forged = work / "forged.sqlite"
    shutil.copy(reg, forged)
    db = sqlite3.connect(forged)
    db.execute("UPDATE artifacts SET sha256 = ? WHERE variant = 'v0004'", ("0" * 64,))
    db.commit()
    db.close()
    code, out, err = divtool("verify", "-r", forged, "-k", key, "--variant", "v0004")
    check(code == 3 and re.search(r"rebuilt .* DIFFERS", out)
          and "the rebuild differs from the registry" in out,
          "verify: a registry that no longer matches the rebuild is reported (exit 3)",
          out + err)


def check_symbolize(work, pop, key, check):
    reg = pop / "registry.sqlite"
    app = pop / "variants" / "v0005" / "tree" / "app"
    run, address = sample_project.crash(app)
    if not check(run.returncode == -6 and address,
                 "the variant aborts, printing the crash site",
                 f"status {run.returncode}: {run.stdout} {run.stderr}"):
        return
    stripped = work / "shipped-v0005"
    shutil.copy(app, stripped)
    subprocess.run(["strip", str(stripped)], check=True)
    check(b".symtab" not in stripped.read_bytes(), "the shipped copy is stripped")

    line = sample_project.crash_line()
    expected = re.compile(rf"^{address}\nfail_hard\nerrors\.c:{line}:\d+\n", re.M)
    trace = f"fatal: asked to crash\n#0 {address} in ?? (app+{address})\n"
    # --rebuild: regenerated, though the population kept the debug
    # information (tests/e2e/debuginfod.py reads that).
    code, out, err = divtool("symbolize", "--registry", reg, "--variant", "v0005",
                             "--seed-file", key, "--rebuild", stripped, stdin=trace)
    check(code == 0 and expected.search(out),
          f"symbolize: the stripped v0005's crash address from a stack trace on "
          f"stdin is fail_hard at errors.c:{line}", out + err)
    check("debug information from the rebuild" in err,
          "symbolize: the debug information comes from a rebuild with -g", err)

    # The same address in another variant is other code: refused.
    code, out, err = divtool("symbolize", "-r", reg, "--variant", "v0006", "-k", key,
                             stripped, address)
    check(code == 1 and "is not an artifact of variant v0006" in err,
          "symbolize: a binary of another variant is refused", err)


def check_identify(work, pop, key, check):
    reg = pop / "registry.sqlite"

    def identify(path):
        code, out, err = divtool("identify", "--json", "-r", reg, "-k", key, path)
        return code, (json.loads(out) if out.strip() else {}), err

    wrong = []
    for i in range(1, VARIANTS + 1):
        vid = f"v{i:04d}"
        code, answer, err = identify(pop / "variants" / vid / "tree" / "app")
        if code != 0 or answer.get("variant") != vid or answer.get("match") != "exact":
            wrong.append(f"{vid}: {code} {answer} {err}")
    check(not wrong, "identify: each of the 10 variants is identified", "\n".join(wrong))

    code, answer, err = identify(work / "shipped-v0005")
    check(code == 0 and answer.get("variant") == "v0005" and answer.get("match") == "code",
          "identify: a copy stripped with strip is identified by its code", f"{answer} {err}")
    code, answer, err = identify(pop / "ship" / "v0003" / "app")
    check(code == 0 and answer.get("variant") == "v0003" and answer.get("match") == "exact",
          "identify: the --strip copy is identified exactly", f"{answer} {err}")

    app = pop / "variants" / "v0007" / "tree" / "app"
    text = elf.section(app, ".text")
    offset, size = text.offset, text.size
    start = offset + (size - 4096) // 2
    fragment = work / "fragment.bin"
    fragment.write_bytes(app.read_bytes()[start:start + 4096])
    code, answer, err = identify(fragment)
    check(size > 3 * 4096 and code == 0 and answer.get("variant") == "v0007"
          and answer.get("match") == "layout" and answer.get("confidence", 0) > 0.5,
          f"identify: a 4 KiB piece of v0007's .text (of {size} bytes) is v0007 "
          f"(confidence {answer.get('confidence', 0):.2f}, runner-up "
          f"{(answer.get('runner_up') or {}).get('variant')} "
          f"{(answer.get('runner_up') or {}).get('share', 0):.1%})", f"{answer} {err}")
    code, out, err = divtool("identify", "-r", reg, "-k", key, fragment)
    check(code == 0 and out.startswith("v0007") and "confidence" in out,
          "identify: the text answer names the variant and a confidence", out + err)

    # Another program, built by divcc.
    other = work / "other"
    source = corpus.CORPUS / "c_sorting.c"
    subprocess.run([tools.divcc(False), "-O2", str(source), "-o", str(other)],
                   check=True, env=environment())
    code, out, err = divtool("identify", "-r", reg, "-k", key, other)
    check(code == 4 and out.startswith("none"),
          "identify: another program gives 'none' (exit 4)", out + err)

    # The same project, built with a seed that is not the population's.
    outsider = work / "outsider"
    shutil.copytree(work / "proj", outsider)
    (work / "outsider-seed").write_bytes(os.urandom(32))
    env = environment()
    env["DIVCC_SEED_FILE"] = str(work / "outsider-seed")
    subprocess.run(["make", "-s", "CC=divcc"], cwd=outsider, check=True, env=env)
    code, out, err = divtool("identify", "-r", reg, "-k", key, outsider / "app")
    check(code == 4 and out.startswith("none"),
          "identify: the project built with a seed outside the population gives "
          "'none' (exit 4)", out + err)


def check_bad_input(work, pop, key, wrong_key, check):
    reg = pop / "registry.sqlite"
    app = pop / "variants" / "v0001" / "tree" / "app"
    before = reg.read_bytes()

    code, out, err = divtool("symbolize", "-r", reg, "--variant", "v0099", "-k", key,
                             app, "0x1000")
    check(code == 1 and "divtool: error: no variant or install 'v0099' in registry" in err,
          "unknown variant: error, exit 1", err)
    code, out, err = divtool("identify", "-r", reg, "-k", wrong_key, app)
    check(code == 1 and "belongs to another master secret" in err
          and "wrong seed file?" in err, "wrong seed file: error, exit 1", err)
    code, out, err = divtool("verify", "-r", work / "missing.sqlite", "-k", key, app)
    check(code == 1 and "registry '" in err and "does not exist" in err,
          "missing registry: error, exit 1", err)
    code, out, err = divtool("identify", "-r", reg, "-k", key, work / "no-such-binary")
    check(code == 1 and "cannot read" in err and "no-such-binary" in err,
          "missing binary: error, exit 1", err)

    corrupt = work / "corrupt.sqlite"
    data = bytearray(before)
    for i in range(len(data) // 4, 3 * len(data) // 4):
        data[i] = (i * 151 + 7) & 0xFF
    corrupt.write_bytes(bytes(data))
    code, out, err = divtool("identify", "-r", corrupt, "-k", key, app)
    check(code == 1 and "is corrupt" in err, "corrupt registry: error, exit 1", err)
    code, out, err = divtool("population", "--count", 1, "--out", work / "pop-corrupt",
                             "--registry", corrupt, "-k", key, "--source",
                             work / "proj", "--", "make", "CC=divcc")
    check(code == 1 and "is corrupt" in err and corrupt.read_bytes() == bytes(data)
          and not (work / "pop-corrupt" / "variants" / "v0001").exists(),
          "corrupt registry: population refuses it and leaves it as it was", err)

    text = work / "notes.txt"
    text.write_text("not a registry\n")
    code, out, err = divtool("identify", "-r", text, "-k", key, app)
    check(code == 1 and "is not a divtool registry" in err,
          "a file that is not a registry: error, exit 1", err)

    code, out, err = divtool("population", "--count", 1, "--out", pop, "-k", wrong_key,
                             "--source", work / "proj", "--", "make", "CC=divcc")
    check(code == 1 and "belongs to another master secret" in err
          and not (pop / "variants" / "v0011").exists(),
          "population refuses a wrong seed file before building", err)
    check(reg.read_bytes() == before, "the registry is unchanged by all of these")


def check_failures(work, pop, key, check):
    # v0012 fails: its build command fails in its tree only.
    code, out, err = divtool(
        "population", "--count", 2, "--out", pop, "-k", key, "--source", work / "proj",
        "--", "sh", "-c",
        'make CC=divcc && case "$(pwd)" in */v0012/tree) echo "no luck for this one" >&2; '
        'exit 7;; esac')
    check(code == 1 and "v0012: the build failed (exit status 7)" in err
          and "no luck for this one" in err and "v0011 built" in err,
          "a failed variant is reported with its status and log; exit 1", err)
    db = sqlite3.connect(pop / "registry.sqlite")
    rows = db.execute("SELECT id, status, exit_status FROM variants WHERE number > 10 "
                      "ORDER BY number").fetchall()
    db.close()
    check(rows == [("v0011", "built", 0), ("v0012", "failed", 7)],
          "numbering continues; the failed variant is recorded as failed, the "
          "other as built", str(rows))
    code, out, err = divtool("verify", "-r", pop / "registry.sqlite", "-k", key,
                             "--variant", "v0012")
    check(code == 1 and "failed to build" in err,
          "a failed variant cannot be verified: error, exit 1", err)


def run_checks(work, check):
    sample_project.write_project(work / "proj")
    key = work / "master.key"
    key.write_bytes(os.urandom(32))
    wrong_key = work / "wrong.key"
    wrong_key.write_bytes(os.urandom(32))
    pop = work / "pop"
    if check_population(work, pop, key, check):
        check_verify(work, pop, key, check)
        check_symbolize(work, pop, key, check)
        check_identify(work, pop, key, check)
        check_bad_input(work, pop, key, wrong_key, check)
        check_failures(work, pop, key, check)


def main():
    checks.scenario("population", "population", run_checks)

if __name__ == "__main__":
    main()
