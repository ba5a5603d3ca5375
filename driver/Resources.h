//===- Resources.h - Files an installed divcc carries beside itself -------===//
//
// divcc's plugins (the LTO pass plugin lld loads, the linker plugin GNU ld
// loads) and libgcc's soft-float sources live in lib/divcc/ beside an
// installed divcc's bin/, or next to divcc in its build tree.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DRIVER_RESOURCES_H
#define DIVCC_DRIVER_RESOURCES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace divcc {

/// The path of divcc's file or directory \p Name. A missing one is an error
/// that says where it was looked for: divcc never falls back quietly to
/// doing without.
llvm::Expected<std::string> divccResource(llvm::StringRef Name);

} // namespace divcc

#endif
