//===- Resources.cpp - Files an installed divcc carries beside itself -----===//

#include "driver/Resources.h"

#include "support/Diagnostics.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace divcc {

Expected<std::string> divccResource(StringRef Name) {
  static int Anchor;
  std::string Self = sys::fs::getMainExecutable(nullptr, &Anchor);
  StringRef Dir = sys::path::parent_path(Self);
  std::string Installed =
      (sys::path::parent_path(Dir) + "/lib/divcc/" + Name).str();
  std::string BuildTree = (Dir + "/" + Name).str();
  for (const std::string &Path : {Installed, BuildTree})
    if (sys::fs::exists(Path))
      return Path;
  return makeError("divcc's " + Name + " is missing: neither '" + Installed +
                   "' nor '" + BuildTree +
                   "' exists (install divcc whole, e.g. with cmake --install)");
}

} // namespace divcc
