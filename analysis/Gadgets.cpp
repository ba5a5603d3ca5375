//===- Gadgets.cpp - Finding code-reuse gadgets in machine code -----------===//

#include "analysis/Gadgets.h"

#include "analysis/ElfImage.h"

#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCDisassembler/MCDisassembler.h"
#include "llvm/MC/MCInstPrinter.h"
#include "llvm/MC/MCInstrAnalysis.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace llvm;

namespace divcc {

static Error disassemblerError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

Expected<std::unique_ptr<Disassembler>>
Disassembler::create(Triple::ArchType Arch) {
  static std::once_flag Initialized;
  std::call_once(Initialized, [] {
    InitializeAllTargetInfos();
    InitializeAllTargetMCs();
    InitializeAllDisassemblers();
  });
  std::optional<Triple> T = gadgetTriple(Arch);
  if (!T)
    return disassemblerError("unsupported architecture '" +
                             Triple::getArchTypeName(Arch) + "'");
  std::string Message;
  const llvm::Target *TheTarget = TargetRegistry::lookupTarget(T->str(), Message);
  if (!TheTarget)
    return disassemblerError("no LLVM target for " + T->str() + ": " +
                             Message);
  std::unique_ptr<Disassembler> D(new Disassembler);
  D->TheTarget = TheTarget;
  D->MRI.reset(TheTarget->createMCRegInfo(T->str()));
  MCTargetOptions Options;
  D->MAI.reset(TheTarget->createMCAsmInfo(*D->MRI, T->str(), Options));
  D->MII.reset(TheTarget->createMCInstrInfo());
  if (!D->MRI || !D->MAI || !D->MII)
    return disassemblerError("LLVM cannot describe " + T->str());
  D->Target = createDiversityTarget(*T)->createGadgetTarget(*D->MII, *D->MRI);
  for (unsigned Set = 0; Set < D->Target->instructionSetCount(); ++Set) {
    Decoder &Dec = D->Decoders.emplace_back();
    Dec.STI.reset(TheTarget->createMCSubtargetInfo(
        T->str(), "", D->Target->disassemblerFeatures(Set)));
    if (!Dec.STI)
      return disassemblerError("LLVM cannot describe " + T->str());
  }
  D->Ctx = std::make_unique<MCContext>(*T, D->MAI.get(), D->MRI.get(),
                                       D->Decoders[0].STI.get());
  for (Decoder &Dec : D->Decoders) {
    Dec.Dis.reset(TheTarget->createMCDisassembler(*Dec.STI, *D->Ctx));
    if (!Dec.Dis)
      return disassemblerError("LLVM has no disassembler for " + T->str());
  }
  D->Printer.reset(TheTarget->createMCInstPrinter(
      *T, D->Target->printerVariant(), *D->MAI, *D->MII, *D->MRI));
  D->MIA.reset(TheTarget->createMCInstrAnalysis(D->MII.get()));
  if (!D->Printer || !D->MIA)
    return disassemblerError("LLVM has no disassembler for " + T->str());
  return D;
}

Disassembler::~Disassembler() = default;

unsigned Disassembler::decode(ArrayRef<uint8_t> Bytes, uint64_t Address,
                              MCInst &I, unsigned Set) const {
  const Decoder &Dec = Decoders[Set];
  uint64_t Size = 0;
  MCDisassembler::DecodeStatus Status =
      Dec.Dis->getInstruction(I, Size, Bytes, Address, nulls());
  if (Status == MCDisassembler::Fail)
    return 0;
  if (Target->leavesDecoderState(I))
    Dec.Dis.reset(TheTarget->createMCDisassembler(*Dec.STI, *Ctx));
  return Status == MCDisassembler::Success ? Size : 0;
}

std::string Disassembler::print(ArrayRef<uint8_t> Bytes, uint64_t Address,
                                unsigned Set) const {
  std::string Text;
  raw_string_ostream OS(Text);
  for (uint64_t Offset = 0; Offset < Bytes.size();) {
    MCInst I;
    unsigned Size = decode(Bytes.drop_front(Offset), Address + Offset, I, Set);
    if (Size == 0) {
      OS << (Offset ? " ; " : "") << "(bad)";
      break;
    }
    std::string One;
    raw_string_ostream OneOS(One);
    Printer->printInst(&I, Address + Offset, "", *Decoders[Set].STI, OneOS);
    // Printers indent and separate operands with tabs.
    StringRef Trimmed = StringRef(One).trim();
    OS << (Offset ? " ; " : "");
    for (char C : Trimmed)
      OS << (C == '\t' ? ' ' : C);
    Offset += Size;
  }
  return Text;
}

void Disassembler::sweep(
    ArrayRef<uint8_t> Bytes, uint64_t Address,
    function_ref<void(const MCInst &, uint64_t, unsigned)> Visit) const {
  for (uint64_t Offset = 0; Offset < Bytes.size();) {
    MCInst I;
    unsigned Size = decode(Bytes.drop_front(Offset), Address + Offset, I);
    if (Size == 0) {
      ++Offset;
      continue;
    }
    Visit(I, Address + Offset, Size);
    Offset += Size;
  }
}

std::optional<uint64_t> Disassembler::pcRelativeTarget(const MCInst &I,
                                                       uint64_t Address,
                                                       unsigned Size) const {
  const MCInstrDesc &Desc = MII->get(I.getOpcode());
  uint64_t Reached;
  // AArch64's evaluateBranch also "evaluates" ADR and ADRP, whose operands
  // count pages or bytes, not instructions: only branches and calls.
  if ((Desc.isBranch() || Desc.isCall()) &&
      MIA->evaluateBranch(I, Address, Size, Reached))
    return Reached;
  const MCSubtargetInfo *STI = Decoders[0].STI.get();
  if (std::optional<uint64_t> Memory =
          MIA->evaluateMemoryOperandAddress(I, STI, Address, Size))
    return Memory;
  // LLVM does not evaluate a memory operand that names a segment, even one
  // that changes nothing (divcc's prefixes).
  MCInst Plain = I;
  if (!Target->dropRedundantPrefix(Plain))
    return std::nullopt;
  return MIA->evaluateMemoryOperandAddress(Plain, STI, Address, Size);
}

std::optional<Disassembler::DirectBranch>
Disassembler::directBranch(const MCInst &I, uint64_t Address,
                           unsigned Size) const {
  const MCInstrDesc &Desc = MII->get(I.getOpcode());
  uint64_t Target;
  if (!(Desc.isBranch() || Desc.isCall()) || Desc.isIndirectBranch() ||
      !MIA->evaluateBranch(I, Address, Size, Target))
    return std::nullopt;
  return DirectBranch{Target, Desc.isConditionalBranch(), Desc.isCall()};
}

std::optional<Disassembler::DirectBranch>
Disassembler::directJump(const MCInst &I, uint64_t Address,
                         unsigned Size) const {
  std::optional<DirectBranch> B = directBranch(I, Address, Size);
  if (B && B->Call)
    return std::nullopt;
  return B;
}

bool Disassembler::transfersControl(const MCInst &I) const {
  const MCInstrDesc &Desc = MII->get(I.getOpcode());
  return Desc.isBranch() || Desc.isCall() || Desc.isReturn() ||
         Desc.isIndirectBranch() || Desc.isTrap();
}

// x86 declares a memory operand's displacement as OPERAND_MEMORY for mov
// but not for lea, and AArch64's branch targets are scaled: the operand
// that moves the target is the one that is the displacement, whatever the
// operand tables say.
bool Disassembler::isDisplacement(const MCInst &I, unsigned Op) const {
  std::optional<uint64_t> Target = pcRelativeTarget(I, 0, 0);
  if (!Target || !I.getOperand(Op).isImm())
    return false;
  MCInst Moved = I;
  Moved.getOperand(Op).setImm(I.getOperand(Op).getImm() + 1);
  std::optional<uint64_t> MovedTarget = pcRelativeTarget(Moved, 0, 0);
  return MovedTarget && *MovedTarget != *Target;
}

bool Disassembler::sameExceptDisplacements(const MCInst &A, const MCInst &B,
                                           bool AnyBranchEncoding) const {
  if (A.getNumOperands() != B.getNumOperands())
    return false;
  if (A.getOpcode() != B.getOpcode()) {
    auto JA = directBranch(A, 0, 0), JB = directBranch(B, 0, 0);
    if (!AnyBranchEncoding || !JA || !JB || JA->Call != JB->Call ||
        JA->Conditional != JB->Conditional)
      return false;
  }
  for (unsigned Op = 0; Op < A.getNumOperands(); ++Op) {
    const MCOperand &X = A.getOperand(Op), &Y = B.getOperand(Op);
    if (!X.isValid() || !Y.isValid() || X.isReg() != Y.isReg() ||
        X.isImm() != Y.isImm() || (!X.isReg() && !X.isImm()))
      return false;
    if (X.isReg() ? X.getReg() == Y.getReg() : X.getImm() == Y.getImm())
      continue;
    if (!X.isImm() || !isDisplacement(A, Op) || !isDisplacement(B, Op))
      return false;
  }
  return true;
}

namespace {

/// What the instruction decoded at one offset is, for gadget purposes.
enum Role : uint8_t { Invalid, Plain, Breaks, EndsRet, EndsJop, EndsSys };

Role roleOf(const GadgetTarget &T, const MCInst &I) {
  if (std::optional<GadgetKind> K = T.endingKind(I))
    return Role(EndsRet + unsigned(*K));
  return T.breaksGadget(I) ? Breaks : Plain;
}

} // namespace

// Decodes every aligned offset once, then follows each start forward.
static void findGadgetsIn(ArrayRef<uint8_t> Code, uint64_t Address,
                          unsigned Set, const Disassembler &D,
                          const GadgetOptions &Opts, std::vector<Gadget> &Out,
                          const std::function<void(uint64_t)> &Decoded) {
  const unsigned Align = D.target().instructionAlignment(Set);
  std::vector<uint8_t> Size(Code.size()), Roles(Code.size(), Invalid);
  for (uint64_t Offset = 0; Offset < Code.size(); Offset += Align) {
    if ((Address + Offset) % Align)
      continue;
    MCInst I;
    unsigned N = D.decode(Code.drop_front(Offset), Address + Offset, I, Set);
    if (N) {
      Size[Offset] = N;
      Roles[Offset] = roleOf(D.target(), I);
    }
    if (Decoded && (Offset & 0xffff) == 0)
      Decoded(Offset);
  }
  for (uint64_t Start = 0; Start < Code.size(); Start += Align) {
    uint64_t Offset = Start;
    for (unsigned Count = 1; Count <= Opts.MaxInstructions; ++Count) {
      Role R = Role(Roles[Offset]);
      if (R == Invalid || R == Breaks)
        break;
      if (Opts.Reach && Offset - Start > Opts.Reach)
        break;
      if (R >= EndsRet) {
        Out.push_back({Address + Start, uint32_t(Offset + Size[Offset] - Start),
                       GadgetKind(R - EndsRet), uint8_t(Count), uint8_t(Set)});
        break;
      }
      Offset += Size[Offset];
      if (Offset >= Code.size())
        break;
    }
  }
}

std::vector<Gadget> findGadgets(ArrayRef<uint8_t> Code, uint64_t Address,
                                const Disassembler &D,
                                const GadgetOptions &Opts, unsigned Set) {
  std::vector<Gadget> Out;
  findGadgetsIn(Code, Address, Set, D, Opts, Out, nullptr);
  return Out;
}

namespace {
/// A run of bytes of one segment in one instruction set.
struct CodeRun {
  uint64_t Offset, Size;
  unsigned Set;
};
} // namespace

// \p S cut where \p Image's mapping symbols change the instruction set, data
// left out; one run in set 0 if there are none.
static std::vector<CodeRun>
codeRuns(const CodeSegment &S, const ElfImage &Image, const GadgetTarget &T) {
  std::vector<CodeRun> Runs;
  int Current = 0;
  uint64_t From = 0;
  auto Close = [&](uint64_t To) {
    if (To > From && Current != GadgetTarget::DataMapping)
      Runs.push_back({From, To - From, unsigned(Current)});
  };
  for (const MappingSymbol &M : Image.mappingSymbols()) {
    std::optional<int> Set = T.mappingSymbol(M.Letter);
    if (!Set || M.Address < S.Address ||
        M.Address - S.Address >= S.Bytes.size())
      continue;
    Close(M.Address - S.Address);
    Current = *Set;
    From = M.Address - S.Address;
  }
  Close(S.Bytes.size());
  return Runs;
}

std::vector<Gadget> findGadgets(const ElfImage &Image, const Disassembler &D,
                                const GadgetOptions &Opts,
                                const ProgressFn &Progress) {
  std::vector<Gadget> Out;
  uint64_t Total = Image.codeSize(), Before = 0;
  for (const CodeSegment &S : Image.code()) {
    for (const CodeRun &R : codeRuns(S, Image, D.target()))
      findGadgetsIn(S.Bytes.slice(R.Offset, R.Size), S.Address + R.Offset,
                    R.Set, D, Opts, Out, [&](uint64_t Done) {
                      if (Progress)
                        Progress(Before + R.Offset + Done, Total);
                    });
    Before += S.Bytes.size();
  }
  if (Progress)
    Progress(Total, Total);
  return Out;
}

} // namespace divcc
