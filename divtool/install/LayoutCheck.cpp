//===- LayoutCheck.cpp - Proving a rewritten golden master sound ----------===//

#include "divtool/install/LayoutCheck.h"

#include "analysis/Gadgets.h"
#include "divtool/install/ProgramCode.h"
#include "support/Diagnostics.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/MC/MCInst.h"
#include "llvm/Support/Endian.h"

#include <map>

using namespace llvm;

namespace divcc {
namespace {

/// How many instructions from a label are compared, at most.
constexpr unsigned ComparedInstructions = 4;

std::string hex(uint64_t V) { return "0x" + utohexstr(V, /*LowerCase=*/true); }

/// "F+0x10", "F", or the address alone outside any function.
std::string place(const ProgramCode &P, uint64_t Address) {
  std::optional<size_t> F = P.functionAt(Address);
  if (!F)
    return hex(Address);
  const CodeFunction &Fn = P.functions()[*F];
  return Address == Fn.Address ? Fn.Key
                               : Fn.Key + "+" + hex(Address - Fn.Address);
}

/// Identifies a data reference in both programs: slots and symbols stay
/// where they were when code moves. The unwind tables are rewritten with
/// the code: theirs pair with nothing.
std::optional<std::string> pairingKey(const CodeReference &R) {
  if (R.Kind == ReferenceKind::FrameStart || R.Kind == ReferenceKind::LandingPad)
    return std::nullopt;
  return std::string(describe(R.Kind)) + "/" + std::to_string(R.Site) + "/" +
         R.Symbol;
}

bool isCodeKind(ReferenceKind K) {
  return K == ReferenceKind::Jump || K == ReferenceKind::Call ||
         K == ReferenceKind::CodeOperand;
}

class Checker {
public:
  Checker(const ProgramCode &Golden, const ProgramCode &Output,
          const Disassembler &D)
      : G(Golden), O(Output), D(D) {}

  /// What is wrong with \p R, a reference of the output, or nothing.
  std::optional<std::string> problem(const CodeReference &R,
                                     const CodeReference *InGolden);
  /// Where the output should refer for what the golden master reached at
  /// \p GoldenTarget, if that is one place.
  std::optional<uint64_t> translate(uint64_t GoldenTarget);

  std::string site(const CodeReference &R) const {
    std::string S = std::string(describe(R.Kind));
    if (R.Kind == ReferenceKind::DynamicSymbol)
      return S + " '" + R.Symbol + "'";
    if (R.Kind == ReferenceKind::EntryPoint)
      return S;
    S += " at " + hex(R.Site);
    if (R.Function)
      S += " in " + O.functions()[*R.Function].Key;
    return S;
  }

  /// The output's function holding \p Address, if it is one of the golden
  /// master's: BOLT names the old code of a function it moved NAME.org.0,
  /// a function symbol of trapped bytes.
  std::optional<size_t> liveFunctionAt(uint64_t Address) const {
    std::optional<size_t> F = O.functionAt(Address);
    if (F && !G.function(O.functions()[*F].Key))
      return std::nullopt;
    return F;
  }

private:
  struct Decoded {
    uint64_t Address;
    unsigned Size;
    MCInst I;
  };
  /// At most \p Max instructions of \p P from \p From to the end of its
  /// function, NOPs left out: padding a rewrite adds or drops (BOLT's
  /// branch alignment) changes nothing they do.
  std::vector<Decoded> instructions(const ProgramCode &P, uint64_t From,
                                    size_t Max) const;
  /// Whether the golden master's code at \p GoldenAt and the output's at
  /// \p OutputAt are the same instructions up to the first branch.
  bool sameCode(uint64_t GoldenAt, uint64_t OutputAt);
  /// Whether \p A, of the golden master, and \p B, of the output, do the
  /// same: equal but for displacements, branches perhaps re-encoded (where
  /// their targets moved).
  bool sameInstruction(const Decoded &A, const Decoded &B) const;
  /// The golden master's function \p GF's instructions paired one by one
  /// with those of the output's \p NF, if both have the same instructions
  /// in the same order, NOPs aside (a function BOLT moves whole,
  /// re-encoding some branches and padding others): golden address ->
  /// output address. Empty if they differ.
  const DenseMap<uint64_t, uint64_t> &alignment(size_t GF, size_t NF);
  /// Whether the golden master enters function \p To other than at its
  /// start from function \p From.
  bool goldenEntersMiddle(StringRef From, StringRef To);

  const ProgramCode &G, &O;
  const Disassembler &D;
  std::optional<StringSet<>> MiddleEntries; // "From\0To", computed once
  std::map<std::pair<size_t, size_t>, DenseMap<uint64_t, uint64_t>> Alignments;
};

bool Checker::sameInstruction(const Decoded &A, const Decoded &B) const {
  return D.sameExceptDisplacements(A.I, B.I, /*AnyBranchEncoding=*/true);
}

std::vector<Checker::Decoded>
Checker::instructions(const ProgramCode &P, uint64_t From, size_t Max) const {
  std::vector<Decoded> Found;
  std::optional<size_t> F = P.functionAt(From);
  if (!F)
    return Found;
  uint64_t End = P.functions()[*F].end();
  ArrayRef<uint8_t> Bytes = P.bytesAt(From, End - From);
  // Disassembler::sweep's walk, stopped after Max.
  for (uint64_t Offset = 0; Offset < Bytes.size() && Found.size() < Max;) {
    MCInst I;
    unsigned Size = D.decode(Bytes.drop_front(Offset), From + Offset, I);
    if (Size && !D.isNop(I))
      Found.push_back({From + Offset, Size, I});
    Offset += Size ? Size : 1;
  }
  return Found;
}

bool Checker::sameCode(uint64_t GoldenAt, uint64_t OutputAt) {
  std::vector<Decoded> A = instructions(G, GoldenAt, ComparedInstructions);
  std::vector<Decoded> B = instructions(O, OutputAt, ComparedInstructions);
  if (A.empty())
    return false;
  for (size_t N = 0; N < A.size(); ++N) {
    if (N >= B.size() || !sameInstruction(A[N], B[N]))
      return false;
    // What follows a branch may be laid out elsewhere.
    if (D.transfersControl(A[N].I))
      return true;
  }
  return true;
}

const DenseMap<uint64_t, uint64_t> &Checker::alignment(size_t GF, size_t NF) {
  auto [It, New] = Alignments.try_emplace({GF, NF});
  DenseMap<uint64_t, uint64_t> &Map = It->second;
  if (!New)
    return Map;
  std::vector<Decoded> A = instructions(G, G.functions()[GF].Address, SIZE_MAX);
  std::vector<Decoded> B = instructions(O, O.functions()[NF].Address, SIZE_MAX);
  if (A.size() != B.size())
    return Map;
  for (size_t I = 0; I < A.size(); ++I) {
    if (!sameInstruction(A[I], B[I])) {
      Map.clear();
      return Map;
    }
    Map[A[I].Address] = B[I].Address;
  }
  return Map;
}

bool Checker::goldenEntersMiddle(StringRef From, StringRef To) {
  if (!MiddleEntries) {
    MiddleEntries.emplace();
    for (const CodeReference &R : G.codeReferences(D)) {
      std::optional<size_t> T = G.functionAt(R.Target);
      if (R.Function && T && *T != *R.Function &&
          R.Target != G.functions()[*T].Address)
        MiddleEntries->insert(G.functions()[*R.Function].Key + '\0' +
                              G.functions()[*T].Key);
    }
  }
  return MiddleEntries->contains((From + Twine('\0') + To).str());
}

std::optional<std::string> Checker::problem(const CodeReference &R,
                                            const CodeReference *InGolden) {
  uint64_t T = R.Target;
  if (O.inLinkerCode(T))
    return std::nullopt;
  std::optional<size_t> F = liveFunctionAt(T);
  // BOLT keeps the unwind entries of the code it left behind: never
  // consulted, since nothing runs there. Their landing pads are as dead.
  bool DeadFrame = (R.Kind == ReferenceKind::FrameStart ||
                    R.Kind == ReferenceKind::LandingPad) &&
                   !liveFunctionAt(R.Site);
  if (DeadFrame)
    return std::nullopt;
  if (!F) {
    std::string What = "reaches " + hex(T) + ", in no function of the install";
    if (G.functionAt(T))
      What += " (the golden master's " + place(G, T) +
              ", code the rewrite left behind)";
    return What;
  }
  const CodeFunction &Fn = O.functions()[*F];
  bool AtStart = T == Fn.Address;
  if (!AtStart && !O.isBoundary(*F, T, D))
    return "reaches " + place(O, T) + ", inside an instruction";
  if (isCodeKind(R.Kind)) {
    if (AtStart || (R.Function && *R.Function == *F))
      return std::nullopt;
    StringRef From = R.Function ? StringRef(O.functions()[*R.Function].Key) : "";
    if (goldenEntersMiddle(From, Fn.Key))
      return std::nullopt;
    return "enters " + place(O, T) + " other than at its start";
  }
  if (R.Kind == ReferenceKind::LandingPad) {
    if (R.Function && *R.Function == *F)
      return std::nullopt;
    return "reaches " + place(O, T) + ", outside the function it belongs to";
  }
  if (!InGolden)
    return std::nullopt;
  uint64_t GT = InGolden->Target;
  std::optional<size_t> GF = G.functionAt(GT);
  if (!GF) {
    // Linker-made code in the golden master (a PLT stub) stays put.
    return GT == T ? std::nullopt
                   : std::optional<std::string>(
                         "reaches " + place(O, T) +
                         "; the golden master's reaches " + hex(GT));
  }
  const CodeFunction &GFn = G.functions()[*GF];
  if (GFn.Key != Fn.Key || (GT == GFn.Address) != AtStart ||
      (!AtStart && !sameCode(GT, T)))
    return "reaches " + place(O, T) + ", not the golden master's " +
           place(G, GT);
  return std::nullopt;
}

std::optional<uint64_t> Checker::translate(uint64_t GoldenTarget) {
  std::optional<size_t> GF = G.functionAt(GoldenTarget);
  if (!GF)
    return std::nullopt;
  const CodeFunction &GFn = G.functions()[*GF];
  const CodeFunction *New = O.function(GFn.Key);
  if (!New)
    return std::nullopt;
  if (GoldenTarget == GFn.Address)
    return New->Address;
  std::optional<size_t> NF = O.functionAt(New->Address);
  // A function moved whole: its instructions pair up one by one.
  if (auto Aligned = alignment(*GF, *NF).find(GoldenTarget);
      Aligned != alignment(*GF, *NF).end())
    return Aligned->second;
  // Blocks laid out anew: the one place with the same instructions.
  std::optional<uint64_t> Found;
  for (uint64_t At : O.boundaries(*NF, D)) {
    if (!sameCode(GoldenTarget, At))
      continue;
    if (Found)
      return std::nullopt; // two candidates: not one place
    Found = At;
  }
  return Found;
}

/// Patches the direct branch of \p Size bytes at \p Address in \p Output
/// (whose file bytes are \p Bytes) to reach \p NewTarget, proved by
/// decoding it again; false if no field of it could be.
bool retargetBranch(MutableArrayRef<uint8_t> Bytes, uint64_t Address,
                    unsigned Size, uint64_t OldTarget, uint64_t NewTarget,
                    const Disassembler &D) {
  MCInst Before;
  if (D.decode(Bytes, Address, Before) != Size)
    return false;
  std::vector<uint8_t> Saved(Bytes.begin(), Bytes.begin() + Size);
  auto Proved = [&] {
    MCInst After;
    if (D.decode(Bytes, Address, After) != Size)
      return false;
    std::optional<Disassembler::DirectBranch> B =
        D.directBranch(After, Address, Size);
    return B && B->Target == NewTarget &&
           D.sameExceptDisplacements(Before, After);
  };
  auto Restore = [&] { llvm::copy(Saved, Bytes.begin()); };
  // A 32-bit displacement from the next instruction (x86-64).
  int64_t OldRel = int64_t(OldTarget - (Address + Size));
  int64_t NewRel = int64_t(NewTarget - (Address + Size));
  if (NewRel == int64_t(int32_t(NewRel)) && OldRel == int64_t(int32_t(OldRel)))
    for (unsigned At = 0; At + 4 <= Size; ++At) {
      if (int32_t(support::endian::read32le(&Bytes[At])) != int32_t(OldRel))
        continue;
      support::endian::write32le(&Bytes[At], uint32_t(int32_t(NewRel)));
      if (Proved())
        return true;
      Restore();
    }
  // A 26-bit word offset from the instruction (AArch64's B and BL).
  int64_t Words = (int64_t(NewTarget) - int64_t(Address)) / 4;
  if (Size == 4 && Words >= -(1 << 25) && Words < (1 << 25)) {
    uint32_t Insn = support::endian::read32le(&Bytes[0]);
    support::endian::write32le(&Bytes[0],
                               (Insn & ~0x3ffffffu) | (uint32_t(Words) & 0x3ffffff));
    if (Proved())
      return true;
    Restore();
  }
  return false;
}

/// Checks once; with \p Repairs, patches what it can in \p Output as it
/// goes and lists what it did. Returns the violations left.
Expected<std::vector<LayoutViolation>>
checkOnce(const ProgramCode &G, ArrayRef<uint8_t> GoldenBytes,
          MutableArrayRef<uint8_t> Output, const Disassembler &D,
          std::vector<std::string> *Repairs, uint64_t &Checked) {
  Expected<ProgramCode> O = ProgramCode::read(Output);
  if (!O)
    return makeError("cannot read the rewritten program: " +
                     toString(O.takeError()));
  Checker C(G, *O, D);
  std::vector<LayoutViolation> Violations;
  Checked = 0;

  Expected<std::vector<CodeReference>> GoldenData = G.dataReferences();
  if (!GoldenData)
    return makeError("cannot read the golden master: " +
                     toString(GoldenData.takeError()));
  std::map<std::string, const CodeReference *> Paired;
  for (const CodeReference &R : *GoldenData)
    if (std::optional<std::string> Key = pairingKey(R))
      Paired.emplace(std::move(*Key), &R);
  Expected<std::vector<CodeReference>> Data = O->dataReferences();
  if (!Data)
    return makeError("cannot read the rewritten program: " +
                     toString(Data.takeError()));

  for (const CodeReference &R : *Data) {
    ++Checked;
    const CodeReference *InGolden = nullptr;
    if (std::optional<std::string> Key = pairingKey(R))
      if (auto It = Paired.find(*Key); It != Paired.end())
        InGolden = It->second;
    std::optional<std::string> Problem = C.problem(R, InGolden);
    if (!Problem)
      continue;
    // A base-relative relocation says where in its addend: patched to
    // where the golden master's pointed, translated.
    if (Repairs && InGolden && R.Kind == ReferenceKind::DynamicRelocation &&
        R.FileOffset) {
      ArrayRef<uint8_t> Entry = Output.slice(R.FileOffset, 24);
      if (int64_t(support::endian::read64le(&Entry[16])) == int64_t(R.Target))
        if (std::optional<uint64_t> New = C.translate(InGolden->Target)) {
          support::endian::write64le(&Output[R.FileOffset + 16], *New);
          if (std::optional<uint64_t> Slot = O->fileOffsetOf(R.Site);
              Slot && *Slot + 8 <= Output.size() &&
              support::endian::read64le(&Output[*Slot]) == R.Target)
            support::endian::write64le(&Output[*Slot], *New);
          Repairs->push_back(C.site(R) + ": " + hex(R.Target) + " -> " +
                             place(*O, *New));
          continue;
        }
    }
    Violations.push_back({C.site(R), *Problem});
  }

  // Exceptions unwind through every function that could in the golden
  // master: each that had an unwind entry at its start has one in the
  // install.
  DenseSet<uint64_t> Frames;
  for (const CodeReference &R : *Data)
    if (R.Kind == ReferenceKind::FrameStart)
      Frames.insert(R.Target);
  for (const CodeReference &R : *GoldenData) {
    std::optional<size_t> GF = G.functionAt(R.Target);
    if (R.Kind != ReferenceKind::FrameStart || !GF ||
        G.functions()[*GF].Address != R.Target)
      continue;
    const CodeFunction *Now = O->function(G.functions()[*GF].Key);
    ++Checked;
    if (Now && !Frames.contains(Now->Address))
      Violations.push_back({"function " + Now->Key,
                            "has no unwind table entry (FDE) in the install: "
                            "an exception through it would not unwind"});
  }

  for (const CodeReference &R : O->codeReferences(D)) {
    // Code in no live function never runs (BOLT's NAME.org.0).
    if (R.Function && !C.liveFunctionAt(R.Site))
      continue;
    ++Checked;
    std::optional<std::string> Problem = C.problem(R, nullptr);
    if (!Problem)
      continue;
    // An instruction the rewrite left where it was: the golden master's
    // own, at the same address, says which function it meant.
    if (Repairs && R.Kind != ReferenceKind::CodeOperand) {
      MCInst GI;
      ArrayRef<uint8_t> GB = G.bytesAt(R.Site, R.Size);
      std::optional<uint64_t> New;
      if (GB.size() == R.Size && D.decode(GB, R.Site, GI) == R.Size)
        if (auto B = D.directBranch(GI, R.Site, R.Size); B && B->Target == R.Target)
          New = C.translate(B->Target);
      std::optional<uint64_t> At = O->fileOffsetOf(R.Site);
      // Read through value_or: GCC 12 warns that *New may be uninitialized
      // here (a false positive), which -Werror builds would stop on.
      uint64_t NewTarget = New.value_or(0);
      if (New && At && *At + R.Size <= Output.size() &&
          retargetBranch(Output.slice(*At, R.Size), R.Site, R.Size, R.Target,
                         NewTarget, D)) {
        Repairs->push_back(C.site(R) + ": " + hex(R.Target) + " -> " +
                           place(*O, NewTarget));
        continue;
      }
    }
    Violations.push_back({C.site(R), *Problem});
  }
  return Violations;
}

} // namespace

Expected<LayoutCheckResult> checkLayout(ArrayRef<uint8_t> Golden,
                                        MutableArrayRef<uint8_t> Output,
                                        bool Repair) {
  Expected<ProgramCode> G = ProgramCode::read(Golden);
  if (!G)
    return makeError("cannot read the golden master: " +
                     toString(G.takeError()));
  Expected<std::unique_ptr<Disassembler>> D = Disassembler::create(G->arch());
  if (!D)
    return D.takeError();
  LayoutCheckResult Result;
  std::vector<std::string> Repairs;
  Expected<std::vector<LayoutViolation>> V =
      checkOnce(*G, Golden, Output, **D, Repair ? &Repairs : nullptr,
                Result.References);
  if (!V)
    return V.takeError();
  // What was patched is proved by a check of the patched program.
  if (!Repairs.empty()) {
    V = checkOnce(*G, Golden, Output, **D, nullptr, Result.References);
    if (!V)
      return V.takeError();
  }
  Result.Repairs = std::move(Repairs);
  Result.Violations = std::move(*V);
  return Result;
}

} // namespace divcc
