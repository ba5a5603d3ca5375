//===- LayoutCheck.h - Proving a rewritten golden master sound ------------===//
//
// LLVM BOLT moves a golden master's functions and fills the code it leaves
// behind with traps. It is trusted for neither: a function it ignores keeps
// calling the old addresses of functions it moved, and a computed-goto
// table may be translated by offset into code whose offsets changed. So
// before an install is written, every code address the install can still
// use is checked against the install's own functions and the golden master
// (ProgramCode.h lists where code addresses are found):
//
//   - it must land in live code: in a function of the install's symbol
//     table, or in code the linker made (.plt, .init, .fini);
//   - inside a function, on an instruction boundary, and from another
//     function only at its start (or where the golden master also entered
//     that function in its middle);
//   - a code address held in data must reach the same function as in the
//     golden master, at its start if the golden master's did, and elsewhere
//     at the same instructions (compared up to the first branch).
//
// What fails is repaired where the golden master says what was meant: a
// direct call or jump, or a base-relative dynamic relocation, whose target
// was a function the rewrite moved is patched to the function's new place
// (or, for a label inside it, to the one place in the moved function with
// the same instructions), and the patched instruction decoded again to
// prove it. Whatever is still wrong is a violation, named by the reference
// and the function it is in or reaches: the install is refused.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DIVTOOL_INSTALL_LAYOUTCHECK_H
#define DIVCC_DIVTOOL_INSTALL_LAYOUTCHECK_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace divcc {

struct LayoutViolation {
  std::string Reference; ///< "call at 0x1234 in auxresume/1"
  std::string Problem;   ///< what is wrong with where it lands
  std::string describe() const { return Reference + " " + Problem; }
};

struct LayoutCheckResult {
  uint64_t References = 0; ///< code addresses checked
  /// What was patched, one line each ("call at 0x... in f: now to g").
  std::vector<std::string> Repairs;
  std::vector<LayoutViolation> Violations; ///< after the repairs
};

/// Checks \p Output, a rewrite of the golden master \p Golden (both ELF
/// images); with \p Repair, first patches in \p Output what it can.
llvm::Expected<LayoutCheckResult> checkLayout(llvm::ArrayRef<uint8_t> Golden,
                                              llvm::MutableArrayRef<uint8_t> Output,
                                              bool Repair);

} // namespace divcc

#endif
