//===- DiversityTarget.cpp - The architectures divcc knows ----------------===//
//
// The one table of architectures: every question "which architecture is
// this?" is answered here, once per function or link.
//
//===----------------------------------------------------------------------===//

#include "targets/DiversityTarget.h"
#include "targets/GadgetTarget.h"
#include "targets/Substitution.h"
#include "targets/aarch64/AArch64.h"
#include "targets/riscv/RISCV.h"
#include "targets/x86/X86.h"

#include "llvm/CodeGen/ScheduleDAGMutation.h"

using namespace llvm;

namespace divcc {
namespace {

struct Architecture {
  Triple::ArchType Arch;
  const char *Name;        // as in triples and messages
  const char *LinuxTriple; // what divtool disassembles with
  std::unique_ptr<DiversityTarget> (*Create)();
};

const Architecture Architectures[] = {
    {Triple::x86_64, "x86_64", "x86_64-unknown-linux-gnu",
     createX86DiversityTarget},
    {Triple::aarch64, "aarch64", "aarch64-unknown-linux-gnu",
     createAArch64DiversityTarget},
    {Triple::riscv64, "riscv64", "riscv64-unknown-linux-gnu",
     createRISCVDiversityTarget},
};

const Architecture *find(Triple::ArchType Arch) {
  for (const Architecture &A : Architectures)
    if (A.Arch == Arch)
      return &A;
  return nullptr;
}

} // namespace

std::unique_ptr<ScheduleDAGMutation>
DiversityTarget::createMacroFusionMutation() const {
  return nullptr;
}

std::unique_ptr<SubstitutionTarget>
DiversityTarget::createSubstitutions(const TargetSubtargetInfo &) const {
  return nullptr;
}

bool isSupportedTarget(const Triple &T) {
  return T.isOSBinFormatELF() && find(T.getArch());
}

std::string supportedTargetsText() {
  std::string Text;
  for (const Architecture &A : Architectures) {
    if (!Text.empty())
      Text +=
          &A == &Architectures[std::size(Architectures) - 1] ? " and " : ", ";
    Text += A.Name;
  }
  return Text + " Linux/ELF";
}

std::unique_ptr<DiversityTarget> createDiversityTarget(const Triple &T) {
  if (!isSupportedTarget(T))
    return nullptr;
  return find(T.getArch())->Create();
}

std::optional<Triple> gadgetTriple(Triple::ArchType Arch) {
  if (const Architecture *A = find(Arch))
    return Triple(A->LinuxTriple);
  return std::nullopt;
}

} // namespace divcc
