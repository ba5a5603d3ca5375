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
#include "targets/arm/ARM.h"
#include "targets/riscv/RISCV.h"
#include "targets/x86/X86.h"

#include "llvm/ADT/SmallVector.h"
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
    // 32-bit ARM; clang's triple says "thumb" for -mthumb.
    {Triple::arm, "arm", "armv7-unknown-linux-gnueabihf",
     createARMDiversityTarget},
    {Triple::thumb, "thumb", "thumbv7-unknown-linux-gnueabihf",
     createARMDiversityTarget},
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

LibgccSoftFloat DiversityTarget::quadSoftFpRoutines(StringRef ConfigDir,
                                                    StringRef CmpReturnMode,
                                                    ArrayRef<StringRef> Extra) {
  // libgcc's t-softfp with softfp_float_modes tf, softfp_int_modes
  // si di ti, extensions sftf dftf and truncations tfsf tfdf.
  static constexpr StringLiteral Quad[] = {
      "addtf3",      "subtf3",      "multf3",      "divtf3",      "negtf2",
      "eqtf2",       "getf2",       "letf2",       "unordtf2",    "fixtfsi",
      "fixtfdi",     "fixtfti",     "fixunstfsi",  "fixunstfdi",  "fixunstfti",
      "floatsitf",   "floatditf",   "floattitf",   "floatunsitf", "floatunditf",
      "floatuntitf", "extendsftf2", "extenddftf2", "trunctfsf2",  "trunctfdf2"};
  LibgccSoftFloat SoftFloat{ConfigDir.str(), CmpReturnMode.str(), {}};
  auto Add = [&](StringRef Name) {
    SoftFloat.Routines.push_back(
        {("libgcc/soft-fp/" + Name + ".c").str(), ("__" + Name).str()});
  };
  for (StringRef Name : Quad)
    Add(Name);
  for (StringRef Name : Extra)
    Add(Name);
  return SoftFloat;
}

std::unique_ptr<SubstitutionTarget>
DiversityTarget::createSubstitutions(const TargetSubtargetInfo &) const {
  return nullptr;
}

bool isSupportedTarget(const Triple &T) {
  return T.isOSBinFormatELF() && find(T.getArch());
}

std::string supportedTargetsText() {
  // One name an architecture: "thumb" is 32-bit ARM's second spelling.
  SmallVector<const char *, 8> Names;
  for (const Architecture &A : Architectures)
    if (&A == Architectures || A.Create != (&A)[-1].Create)
      Names.push_back(A.Name);
  std::string Text;
  for (size_t I = 0; I < Names.size(); ++I)
    Text += (I == 0                  ? ""
             : I + 1 == Names.size() ? " and "
                                     : ", ") +
            std::string(Names[I]);
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
