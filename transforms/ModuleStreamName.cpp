//===- ModuleStreamName.cpp - Stream names; functions left exactly as built ===//

#include "transforms/Passes.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace divcc {

std::string moduleStreamName(const Module &M) {
  SHA256 Digest;
  auto AddName = [&](const GlobalValue &GV) {
    if (GV.isDeclaration())
      return;
    Digest.update(GV.getName());
    Digest.update(StringRef("\0", 1));
  };
  for (const Function &F : M)
    AddName(F);
  for (const GlobalVariable &GV : M.globals())
    AddName(GV);
  std::array<uint8_t, 32> Hash = Digest.final();
  return (sys::path::filename(M.getSourceFileName()) + ":" +
          toHex(ArrayRef<uint8_t>(Hash).take_front(16), /*LowerCase=*/true))
      .str();
}

bool mustKeepExactCode(const Function &F) {
  return F.hasFnAttribute(Attribute::Naked) ||
         F.hasFnAttribute("patchable-function-entry") ||
         F.hasFnAttribute("patchable-function-prefix") ||
         F.hasFnAttribute("patchable-function") ||
         F.hasFnAttribute("fentry-call") ||
         F.hasFnAttribute("function-instrument") ||
         F.hasFnAttribute("xray-instruction-threshold");
}

} // namespace divcc
