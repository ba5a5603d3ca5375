"""The sample project of the divtool population tests and benchmarks: 5 .c
files, a header and a Makefile that uses $(CC), written to a folder;
`make CC=divcc` builds it as `app`. `app crash` prints the address its
crash site returns to ("crash-site 0x...") and aborts in fail_hard
(errors.c:crash_line())."""

import re
import subprocess

FUNCTIONS_PER_FILE = 40


def generated_functions(module, count, seed):
    """count functions MODULE_fN(long) with varied control flow, a table of
    them and MODULE_run(long) that calls each: enough code for a 4 KiB
    fragment of .text to be a small part of it."""
    out = []
    for i in range(count):
        k = [(seed * 7919 + i * 104729 + j * 1299709) % 9973 + 1 for j in range(4)]
        out.append(f"""long {module}_f{i}(long x) {{
  long acc = x * {k[0]} + {k[1]};
  for (int i = 0; i < (int)(x & 7) + {i % 5 + 2}; ++i) {{
    switch ((acc + i) & 3) {{
    case 0: acc ^= acc << {k[2] % 13 + 1}; break;
    case 1: acc += {k[3]}L * i; break;
    case 2: acc = (acc >> 2) | {k[0] * 3}; break;
    default: acc -= x * {i + 1}; break;
    }}
  }}
  return acc;
}}
""")
    names = ", ".join(f"{module}_f{i}" for i in range(count))
    out.append(f"""static long (*const {module}_table[])(long) = {{{names}}};
long {module}_run(long x) {{
  long sum = 0;
  for (unsigned i = 0; i < sizeof({module}_table) / sizeof({module}_table[0]); ++i)
    sum += {module}_table[i](x + i);
  return sum;
}}
""")
    return "\n".join(out)


def big_header(lines):
    """A header of about `lines` lines of static inline functions that no
    translation unit calls: work for clang's front end only, the part the
    front-end cache saves."""
    out = ["#ifndef BIG_H", "#define BIG_H"]
    i = 0
    while len(out) + 6 <= lines:
        out += [f"static inline long big_{i}(long a, long b) {{",
                f"  long r = a * {i % 97 + 3} - b;",
                f"  if (r > {i}) r ^= b << {i % 7};",
                f"  return r + {i};",
                "}"]
        i += 1
    out.append("#endif")
    return "\n".join(out) + "\n"


ERRORS_C = """#include <stdio.h>
#include <stdlib.h>
#include "app.h"

void fail_hard(const char *why) {
  fprintf(stderr, "fatal: %s\\n", why);
  report_site(); abort();
}
"""


def write_project(root, functions_per_file=FUNCTIONS_PER_FILE, header_lines=0):
    """Writes the sample project to root; returns its Makefile's name."""
    root.mkdir(parents=True, exist_ok=True)
    include_big = '#include "big.h"\n' if header_lines else ""
    if header_lines:
        (root / "big.h").write_text(big_header(header_lines))
    (root / "app.h").write_text(include_big + """#include <stddef.h>
int parse_number(const char *s);
long compute(int n);
void report(const char *what, long value);
void fail_hard(const char *why) __attribute__((noreturn));
void report_site(void);
long parse_run(long x);
long compute_run(long x);
long report_run(long x);
long errors_run(long x);
long main_run(long x);
""")
    (root / "main.c").write_text("""#include <stdio.h>
#include <string.h>
#include "app.h"
""" + generated_functions("main", functions_per_file, 1) + """
int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "crash") == 0)
    fail_hard("asked to crash");
  int n = argc > 1 ? parse_number(argv[1]) : 10;
  report("result", compute(n) + main_run(n));
  return 0;
}
""")
    (root / "parse.c").write_text('#include "app.h"\n' + """
int parse_number(const char *s) {
  int n = 0;
  while (*s >= '0' && *s <= '9')
    n = n * 10 + (*s++ - '0');
  return n;
}
""" + generated_functions("parse", functions_per_file, 2))
    (root / "compute.c").write_text('#include "app.h"\n' + """
long compute(int n) {
  return parse_run(n) + compute_run(n) + report_run(n) + errors_run(n);
}
""" + generated_functions("compute", functions_per_file, 3))
    (root / "report.c").write_text("""#include <stdint.h>
#include <stdio.h>
#include "app.h"

extern char __ehdr_start;

void report(const char *what, long value) { printf("%s: %ld\\n", what, value); }

/* Prints the address its caller returns to, relative to where the program
   is loaded: a virtual address of the binary, as symbolize reads them. */
__attribute__((noinline)) void report_site(void) {
  uintptr_t ret = (uintptr_t)__builtin_return_address(0);
  printf("crash-site 0x%lx\\n", (unsigned long)(ret - (uintptr_t)&__ehdr_start));
  fflush(stdout);
}
""" + generated_functions("report", functions_per_file, 4))
    (root / "errors.c").write_text(ERRORS_C + generated_functions(
        "errors", functions_per_file, 5))
    (root / "Makefile").write_text(
        "CFLAGS = -O2\n"
        "OBJS = main.o parse.o compute.o report.o errors.o\n"
        "app: $(OBJS)\n"
        "\t$(CC) $(CFLAGS) -o $@ $(OBJS)\n"
        "%.o: %.c app.h\n"
        "\t$(CC) $(CFLAGS) -c $< -o $@\n"
        "clean:\n"
        "\trm -f app $(OBJS)\n")


def crash_line():
    """The line of errors.c where fail_hard calls report_site()."""
    for number, line in enumerate(ERRORS_C.splitlines(), 1):
        if "report_site();" in line:
            return number
    raise AssertionError("no report_site() call in errors.c")


def crash(app):
    """Runs `app crash`: (the finished process, the address of fail_hard's
    call to report_site as hex, or None if it printed no crash site)."""
    run = subprocess.run([str(app), "crash"], capture_output=True, text=True, timeout=60)
    site = re.search(r"crash-site (0x[0-9a-f]+)", run.stdout)
    # The return address is after the call; the call is one byte before.
    return run, (hex(int(site.group(1), 16) - 1) if site else None)
