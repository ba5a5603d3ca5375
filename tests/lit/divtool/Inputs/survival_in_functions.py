"""From `divtool audit --json GOLDEN INSTALL...`: per install, the share of
GOLDEN's gadgets inside its functions found at the same address with the
same bytes, and the number outside functions (PLT, .init, .fini)."""

import json
import sys

report = json.load(sys.stdin)
inside = report["relative"]["gadgets_in_functions"]
outside = report["surviving_outside_functions"]
for v in report["variants"]:
    print(f"{v['path'].rsplit('/', 1)[-1]}: inside functions "
          f"{100.0 * (v['surviving'] - outside) / inside:.2f}% "
          f"of {inside}, outside functions {outside}")
