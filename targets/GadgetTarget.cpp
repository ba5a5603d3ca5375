//===- GadgetTarget.cpp - The targets divtool audit can read --------------===//

#include "targets/GadgetTarget.h"

namespace divcc {

std::unique_ptr<GadgetTarget>
createX86GadgetTarget(const llvm::MCInstrInfo &MII);
std::unique_ptr<GadgetTarget>
createAArch64GadgetTarget(const llvm::MCInstrInfo &MII);

const char *gadgetKindName(GadgetKind K) {
  switch (K) {
  case GadgetKind::Ret:
    return "ret";
  case GadgetKind::Jop:
    return "jop";
  case GadgetKind::Sys:
    return "sys";
  }
  return "?";
}

std::optional<llvm::Triple> gadgetTriple(llvm::Triple::ArchType Arch) {
  switch (Arch) {
  case llvm::Triple::x86_64:
    return llvm::Triple("x86_64-unknown-linux-gnu");
  case llvm::Triple::aarch64:
    return llvm::Triple("aarch64-unknown-linux-gnu");
  default:
    return std::nullopt;
  }
}

std::unique_ptr<GadgetTarget> createGadgetTarget(const llvm::Triple &T,
                                                 const llvm::MCInstrInfo &MII) {
  switch (T.getArch()) {
  case llvm::Triple::x86_64:
    return createX86GadgetTarget(MII);
  case llvm::Triple::aarch64:
    return createAArch64GadgetTarget(MII);
  default:
    return nullptr;
  }
}

} // namespace divcc
