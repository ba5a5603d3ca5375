//===- Gadgets.h - Finding code-reuse gadgets in machine code -------------===//
//
// A gadget is a sequence of at most N instructions (N counts the last one)
// that runs straight into a gadget ending (see targets/GadgetTarget.h): a
// return, an indirect jump or call, a system call. Gadgets may start at any
// byte an instruction can start at, including the middle of an instruction
// the compiler emitted, so every offset of every executable segment is
// decoded once; then, for each ending, every start up to Reach bytes before
// it is followed instruction by instruction. A start counts if it arrives
// exactly at the ending in at most N instructions, through valid
// instructions none of which surely transfers control elsewhere (a
// conditional branch may be inside: its fall-through path is the gadget).
//
// This is ROPgadget's definition with the length measured in instructions
// rather than bytes; `--depth D` of ROPgadget (starts up to D-1 bytes before
// the ending) is Reach = D-1 with a large N.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_ANALYSIS_GADGETS_H
#define DIVCC_ANALYSIS_GADGETS_H

#include "targets/DiversityTarget.h"
#include "targets/GadgetTarget.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/MC/MCInst.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class MCAsmInfo;
class MCContext;
class MCDisassembler;
class MCInstPrinter;
class MCInstrAnalysis;
class MCInstrInfo;
class MCRegisterInfo;
class MCSubtargetInfo;
class Target;
} // namespace llvm

namespace divcc {

class ElfImage;

/// LLVM's MC disassembler for one architecture, with its gadget knowledge.
class Disassembler {
public:
  /// Fails for an architecture divtool cannot audit.
  static llvm::Expected<std::unique_ptr<Disassembler>>
  create(llvm::Triple::ArchType Arch);
  ~Disassembler();

  /// Decodes the instruction of instruction set \p Set (see GadgetTarget)
  /// at the start of \p Bytes into \p I, as if a jump had landed there;
  /// returns its size, or 0 if the bytes are no valid instruction.
  unsigned decode(llvm::ArrayRef<uint8_t> Bytes, uint64_t Address,
                  llvm::MCInst &I, unsigned Set = 0) const;
  /// Decodes \p Bytes, at \p Address, one instruction after another from
  /// its start (past bytes that decode to nothing one at a time), and calls
  /// \p Visit with each instruction, its address and its size.
  void sweep(llvm::ArrayRef<uint8_t> Bytes, uint64_t Address,
             llvm::function_ref<void(const llvm::MCInst &, uint64_t Address,
                                     unsigned Size)>
                 Visit) const;
  /// The instructions of \p Bytes, in instruction set \p Set, as text,
  /// "pop rdi ; ret".
  std::string print(llvm::ArrayRef<uint8_t> Bytes, uint64_t Address,
                    unsigned Set = 0) const;
  /// The address \p I, decoded at \p Address with \p Size bytes, reaches
  /// through a PC-relative operand: a direct branch or call's target, or
  /// the memory a RIP-relative operand reads or writes. None if it has no
  /// such operand or LLVM cannot tell (AArch64's ADRP is not followed).
  std::optional<uint64_t> pcRelativeTarget(const llvm::MCInst &I,
                                           uint64_t Address,
                                           unsigned Size) const;
  /// A direct jump's or call's target, and what kind of transfer it is.
  struct DirectBranch {
    uint64_t Target;
    bool Conditional;
    bool Call;
  };
  /// \p I's transfer, if it is a direct jump or call (not a return or an
  /// indirect one), decoded at \p Address with \p Size bytes.
  std::optional<DirectBranch> directBranch(const llvm::MCInst &I,
                                           uint64_t Address,
                                           unsigned Size) const;
  /// directBranch() without the calls.
  std::optional<DirectBranch> directJump(const llvm::MCInst &I,
                                         uint64_t Address,
                                         unsigned Size) const;
  /// Whether \p I is a no-op (GadgetTarget::isNop).
  bool isNop(const llvm::MCInst &I) const { return Target->isNop(I); }
  /// Whether \p I may transfer control anywhere but to the next
  /// instruction: a branch, call or return, direct or not.
  bool transfersControl(const llvm::MCInst &I) const;
  /// Whether \p A and \p B are the same instruction except perhaps for
  /// their PC-relative displacements (the immediate that moves a branch's
  /// target or a RIP-relative operand's address): the same opcode and every
  /// other operand equal. With \p AnyBranchEncoding, two direct branches
  /// of one kind (jump or call, conditional or not) with the same other
  /// operands (a condition) are the same though their encodings differ
  /// (x86's 8- and 32-bit displacements).
  bool sameExceptDisplacements(const llvm::MCInst &A, const llvm::MCInst &B,
                               bool AnyBranchEncoding = false) const;
  const GadgetTarget &target() const { return *Target; }

private:
  Disassembler() = default;
  /// Whether operand \p Op of \p I is its PC-relative displacement.
  bool isDisplacement(const llvm::MCInst &I, unsigned Op) const;

  /// One instruction set's decoder. LLVM's may keep state from one
  /// instruction to the next (Thumb's IT): it is made anew after such an
  /// instruction, so each offset decodes the same whatever came before.
  struct Decoder {
    std::unique_ptr<llvm::MCSubtargetInfo> STI;
    mutable std::unique_ptr<llvm::MCDisassembler> Dis;
  };

  const llvm::Target *TheTarget = nullptr;
  std::unique_ptr<llvm::MCRegisterInfo> MRI;
  std::unique_ptr<llvm::MCAsmInfo> MAI;
  std::unique_ptr<llvm::MCInstrInfo> MII;
  std::unique_ptr<llvm::MCContext> Ctx;
  std::vector<Decoder> Decoders; // one per instruction set
  std::unique_ptr<llvm::MCInstPrinter> Printer;
  std::unique_ptr<llvm::MCInstrAnalysis> MIA;
  std::unique_ptr<GadgetTarget> Target;
};

struct GadgetOptions {
  /// At most this many instructions, the ending included.
  unsigned MaxInstructions = 5;
  /// Starts at most this many bytes before the ending; 0 means as far as
  /// MaxInstructions reach.
  unsigned Reach = 0;
};

struct Gadget {
  uint64_t Address;
  uint32_t Size; // in bytes, the ending included
  GadgetKind Kind;
  uint8_t Instructions;
  uint8_t InstructionSet = 0; // see GadgetTarget::instructionSetCount()
};

/// Called now and then with the bytes decoded so far and in total.
using ProgressFn = std::function<void(uint64_t Done, uint64_t Total)>;

/// The gadgets of \p Code, placed at \p Address and all in instruction set
/// \p Set, sorted by address.
std::vector<Gadget> findGadgets(llvm::ArrayRef<uint8_t> Code, uint64_t Address,
                                const Disassembler &D,
                                const GadgetOptions &Opts, unsigned Set = 0);

/// The gadgets of every executable segment of \p Image, sorted by address.
/// Where the image has mapping symbols the target knows, each run of bytes
/// is decoded in the instruction set its mapping symbol names, and data
/// is not decoded; elsewhere code is in set 0.
std::vector<Gadget> findGadgets(const ElfImage &Image, const Disassembler &D,
                                const GadgetOptions &Opts,
                                const ProgressFn &Progress = nullptr);

} // namespace divcc

#endif
