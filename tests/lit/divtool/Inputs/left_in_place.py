"""From `divtool audit --json GOLDEN INSTALL...`: the golden master's
gadgets outside any function (PLT, .init, .fini: code BOLT does not move)
that survive at their address in some install, as a share of all its
gadgets, "under N%" for the given bound."""

import json
import sys

bound = float(sys.argv[1])
report = json.load(sys.stdin)
share = 100.0 * report["surviving_outside_functions"] / report["base"]["gadgets"]
print(f"left in place: {f'under {bound:g}%' if share < bound else f'{share:.2f}%'}")
