//===- InstallLayout.cpp - A golden master laid out again per install ----===//

#include "divtool/install/InstallLayout.h"

#include "analysis/ElfImage.h"
#include "analysis/Gadgets.h"
#include "divtool/install/LayoutCheck.h"
#include "divtool/install/ProgramCode.h"
#include "divtool/install/UnusedPlt.h"
#include "registry/Fingerprints.h"
#include "support/ElfPatch.h"
#include "support/ElfRewrite.h"
#include "random/RandomStream.h"
#include "random/SeedFile.h"
#include "registry/Artifacts.h"
#include "support/AtomicOutput.h"
#include "support/Diagnostics.h"
#include "support/Environment.h"
#include "support/Process.h"
#include "support/Sha256.h"
#include "targets/DiversityTarget.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCInst.h"
#include "llvm/ObjCopy/CommonConfig.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <openssl/crypto.h>
#include <sys/stat.h>

#include <chrono>

using namespace llvm;

namespace divcc {
namespace {

/// How many times a function BOLT refuses is skipped and BOLT run again.
constexpr unsigned MaxRefusedFunctions = 32;

/// A golden master's functions, as llvm-bolt names them: global symbols by
/// their name, local ones as NAME/N, N counting the local functions of that
/// name in address order from 1. Aliases (several symbols at one address)
/// are one function.
struct GoldenFunctions {
  struct Function {
    std::string Name;
    uint64_t Address;
    StringRef Code; ///< empty if unsized or not in the file
  };
  std::vector<Function> Functions; ///< in address order
  Triple::ArchType Arch;
};

Expected<GoldenFunctions>
readGolden(StringRef Path, object::OwningBinary<object::ObjectFile> &File) {
  Expected<object::OwningBinary<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(Path);
  if (!Obj)
    return makeError("cannot read '" + Path +
                     "': " + toString(Obj.takeError()));
  auto *Elf = dyn_cast<object::ELFObjectFileBase>(Obj->getBinary());
  std::unique_ptr<DiversityTarget> Target =
      Elf ? createDiversityTarget(Triple(
                Triple::getArchTypeName(Elf->getArch()), "unknown", "linux"))
          : nullptr;
  if (!Elf || Elf->getEType() == ELF::ET_REL || !Target ||
      !Target->canLayOutAgain())
    return makeError("'" + Path +
                     "' is not an x86-64 or AArch64 ELF executable or shared "
                     "object");
  // BOLT 19 cannot rewrite glibc's static start-up code (its FDEs conflict
  // with __restore_rt's symbols, and what it makes of them traps).
  if (auto *Elf64 = dyn_cast<object::ELF64LEObjectFile>(Elf)) {
    auto Headers = Elf64->getELFFile().program_headers();
    if (!Headers)
      return makeError("cannot read the program headers of '" + Path +
                       "': " + toString(Headers.takeError()));
    if (llvm::none_of(*Headers, [](const object::ELF64LE::Phdr &P) {
          return P.p_type == ELF::PT_DYNAMIC;
        }))
      return makeError("'" + Path +
                       "' is statically linked: LLVM BOLT 19 cannot lay out "
                       "the C library's static start-up code; link the "
                       "golden master dynamically");
  }
  bool CodeRelocations = false, Rewritten = false;
  for (const object::SectionRef &Sec : Elf->sections()) {
    Expected<StringRef> Name = Sec.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    CodeRelocations |= *Name == ".rela.text";
    Rewritten |= Name->starts_with(".bolt.org.");
  }
  if (Rewritten)
    return makeError("'" + Path +
                     "' was already rewritten by BOLT: give the golden master "
                     "itself");
  if (!CodeRelocations)
    return makeError("'" + Path +
                     "' is not a golden master: it has no relocations for its "
                     "code (link it with divcc -fdiversify-golden)");

  struct Symbol {
    uint64_t Address;
    std::string Name;
    bool Local;
    StringRef Code;
  };
  std::vector<Symbol> Symbols;
  for (const object::ELFSymbolRef &S : Elf->symbols()) {
    Expected<object::SymbolRef::Type> Type = S.getType();
    Expected<StringRef> Name = S.getName();
    Expected<uint64_t> Address = S.getAddress();
    Expected<object::section_iterator> Section = S.getSection();
    // Functions of any size: the C runtime's own (frame_dummy,
    // register_tm_clones...) have none, and BOLT would put every function
    // not listed after the listed ones, at the same place in every install.
    bool Keep = Type && Name && Address && Section &&
                *Type == object::SymbolRef::ST_Function &&
                *Section != Elf->section_end() && !Name->empty();
    if (!Keep) {
      consumeError(Type.takeError());
      consumeError(Name.takeError());
      consumeError(Address.takeError());
      consumeError(Section.takeError());
      continue;
    }
    Symbols.push_back({*Address, Name->str(), S.getBinding() == ELF::STB_LOCAL,
                       sectionBytes(**Section, *Address, S.getSize())});
  }
  if (Symbols.empty())
    return makeError("'" + Path +
                     "' has no function symbols (.symtab): a golden master "
                     "must not be stripped");
  llvm::stable_sort(Symbols, [](const Symbol &A, const Symbol &B) {
    return A.Address < B.Address;
  });
  GoldenFunctions G;
  G.Arch = Elf->getArch();
  StringMap<unsigned> LocalCount;
  uint64_t Last = ~uint64_t(0);
  for (const Symbol &S : Symbols) {
    std::string Name =
        S.Local ? S.Name + "/" + std::to_string(++LocalCount[S.Name]) : S.Name;
    if (S.Address == Last)
      continue;
    Last = S.Address;
    G.Functions.push_back({std::move(Name), S.Address, S.Code});
  }
  File = std::move(*Obj);
  return G;
}

/// A BOLT profile (fdata, branch records) that gives every direct jump
/// inside a function, and the fall-through of each conditional one, a
/// random count from \p Random: BOLT lays out the blocks of functions with
/// a profile only, and with random counts each function gets a layout of
/// its own. The counts say nothing of the program's real behaviour.
std::string randomProfile(const GoldenFunctions &G, const Disassembler &D,
                          RandomStream &Random) {
  std::string Profile;
  raw_string_ostream OS(Profile);
  auto Edge = [&](StringRef Name, uint64_t From, uint64_t To) {
    OS << "1 " << Name << " " << utohexstr(From, /*LowerCase=*/true) << " 1 "
       << Name << " " << utohexstr(To, /*LowerCase=*/true) << " 0 "
       << Random.between(1, 1000) << "\n";
  };
  for (const GoldenFunctions::Function &F : G.Functions) {
    if (F.Code.empty() || StringRef(F.Name).contains(' '))
      continue;
    uint64_t End = F.Address + F.Code.size();
    D.sweep(arrayRefFromStringRef(F.Code), F.Address,
            [&](const MCInst &I, uint64_t Address, unsigned Size) {
              auto Jump = D.directJump(I, Address, Size);
              if (!Jump || Jump->Target < F.Address || Jump->Target >= End)
                return;
              Edge(F.Name, Address - F.Address, Jump->Target - F.Address);
              if (Jump->Conditional && Address + Size < End)
                Edge(F.Name, Address - F.Address, Address + Size - F.Address);
            });
  }
  return Profile;
}

/// The function BOLT names in "... in function NAME. Consider adding this
/// function to --skip-funcs", if the log says so.
std::optional<std::string> refusedFunction(StringRef Log) {
  size_t Hint = Log.find("Consider adding this function to --skip-funcs");
  if (Hint == StringRef::npos)
    return std::nullopt;
  StringRef Before = Log.take_front(Hint);
  size_t At = Before.rfind(" in function ");
  if (At == StringRef::npos)
    return std::nullopt;
  StringRef Name = Before.drop_front(At + strlen(" in function ")).rtrim();
  Name.consume_back(".");
  // BOLT prints a function of several symbols as "NAME(*N)"; its
  // -skip-funcs takes the NAME.
  if (Name.ends_with(")"))
    if (size_t Count = Name.rfind("(*"); Count != StringRef::npos)
      Name = Name.take_front(Count);
  if (Name.empty())
    return std::nullopt;
  return Name.str();
}

/// The line of BOLT's -v=1 log \p BoltLog that says why it left \p Name
/// alone ("function NAME has invalid padding. Ignoring the function.", "...
/// in function NAME(*2)..."), or a general reason.
std::string boltReason(StringRef BoltLog, StringRef Name) {
  auto IsNameChar = [](char C) { return isAlnum(C) || C == '_' || C == '.'; };
  std::string Reason = "ignored by BOLT";
  SmallVector<StringRef, 0> Lines;
  BoltLog.split(Lines, '\n');
  for (StringRef Line : Lines) {
    size_t At = Line.find(Name);
    size_t After = At + Name.size();
    if (At == StringRef::npos || (At && IsNameChar(Line[At - 1])) ||
        (After < Line.size() && IsNameChar(Line[After])))
      continue;
    Reason = Line.trim().str();
    if (Line.contains_insensitive("ignor"))
      break;
  }
  return Reason;
}

/// What the install \p Installed made of each function of the golden
/// master: those it keeps at their golden-master address, in the code BOLT
/// leaves as it was (its .bolt.org.* sections), each with what BOLT said
/// of it (skipped after it refused the function, in \p Skipped, or
/// ignored: the line of \p BoltLog that names it), or in its new code where
/// the code before it adds up to the same size in the new order (landed in
/// place); and those BOLT moved but not into their place in \p Order (a
/// name it did not take), which it puts after the ordered ones.
struct FunctionAccount {
  std::vector<FunctionLeftInPlace> LeftInPlace;
  std::vector<std::string> OutOfOrder;
};
/// The reason given for a function BOLT moved that landed in place.
constexpr char LandedInPlace[] =
    "landed at its golden-master address in every order drawn";
Expected<FunctionAccount>
accountForFunctions(const GoldenFunctions &G, const ProgramCode &Golden,
                    ArrayRef<uint8_t> Installed, ArrayRef<std::string> Order,
                    ArrayRef<std::string> Skipped, StringRef BoltLog) {
  Expected<ProgramCode> Install = ProgramCode::read(Installed);
  if (!Install)
    return makeError("cannot read BOLT's output: " +
                     toString(Install.takeError()));
  DenseMap<uint64_t, StringRef> BoltName;
  for (const GoldenFunctions::Function &F : G.Functions)
    BoltName[F.Address] = F.Name;
  FunctionAccount Account;
  StringMap<uint64_t> NewAddress; // of each function BOLT moved
  for (const CodeFunction &F : Golden.functions()) {
    const CodeFunction *Now = Install->function(F.Key);
    if (!Now)
      return makeError("function '" + F.Key +
                       "' of the golden master is not in BOLT's output");
    StringRef Name = BoltName.lookup(F.Address);
    if (Name.empty())
      Name = F.Key;
    bool Moved = !Install->sectionAt(Now->Address).starts_with(".bolt.org.");
    if (Moved && Now->Address != F.Address) {
      NewAddress[Name] = Now->Address;
      continue;
    }
    Account.LeftInPlace.push_back(
        {Name.str(), Moved ? LandedInPlace
                     : llvm::is_contained(Skipped, Name)
                         ? "refused by BOLT (skipped)"
                         : boltReason(BoltLog, Name)});
  }
  // In order, each moved function lies before every one after it.
  uint64_t Lowest = UINT64_MAX;
  for (const std::string &Name : llvm::reverse(Order)) {
    auto It = NewAddress.find(Name);
    if (It == NewAddress.end())
      continue;
    if (It->second > Lowest)
      Account.OutOfOrder.push_back(Name);
    Lowest = std::min(Lowest, It->second);
  }
  llvm::sort(Account.OutOfOrder);
  return Account;
}

/// A copy of the golden master at \p Path with a local symbol at each
/// address inside a function that a dynamic relocation holds (the labels
/// of a computed goto's table in a position-independent program): LLVM
/// BOLT 19 cannot say where such an address goes in the new layout unless
/// a symbol names it, and stops with "unable to get new address
/// corresponding to input address". Nothing else changes.
Expected<SmallVector<char, 0>> labelCodeAddresses(StringRef Path,
                                                  const ProgramCode &Golden,
                                                  unsigned &Labels) {
  Expected<std::vector<CodeReference>> Refs = Golden.dataReferences();
  if (!Refs)
    return makeError("cannot read '" + Path + "': " +
                     toString(Refs.takeError()));
  std::vector<uint64_t> Inside;
  for (const CodeReference &R : *Refs)
    if (R.Kind == ReferenceKind::DynamicRelocation)
      if (std::optional<size_t> F = Golden.functionAt(R.Target);
          F && Golden.functions()[*F].Address != R.Target)
        Inside.push_back(R.Target);
  sortUnique(Inside);
  Labels = Inside.size();
  std::vector<std::string> Names, Sections;
  for (uint64_t A : Inside) {
    Names.push_back("__divcc_code_label_" + utohexstr(A, /*LowerCase=*/true));
    Sections.push_back(Golden.sectionAt(A).str());
  }
  return rewriteElf(Path, [&](objcopy::CommonConfig &Common) {
    for (size_t I = 0; I < Inside.size(); ++I) {
      objcopy::NewSymbolInfo Label;
      Label.SymbolName = Names[I];
      Label.SectionName = Sections[I];
      Label.Value = Inside[I] - Golden.sectionStart(Inside[I]);
      Label.Flags = {objcopy::SymbolFlag::Local};
      Common.SymbolsToAdd.push_back(std::move(Label));
    }
  });
}

/// Fills with traps, in \p Copy (BOLT's copy of the golden master
/// \p Golden), the padding after each x86-64 function that mixes traps with
/// NOPs or zeros: BOLT takes for padding only traps alone, or NOPs, zeros
/// and jumps, and ignores a function followed by anything else, leaving it
/// where it was. divcc's gaps end functions with traps, and the linker pads
/// the sections after them (the C runtime's empty .text) with NOPs. Only
/// bytes outside every function change, none of which runs. Returns how
/// many padding areas changed.
Expected<unsigned> trapMixedPadding(MutableArrayRef<uint8_t> Copy,
                                    const ProgramCode &Golden,
                                    const Disassembler &D) {
  if (Golden.arch() != Triple::x86_64)
    return 0;
  Expected<ProgramCode> InCopy = ProgramCode::read(Copy);
  if (!InCopy)
    return InCopy.takeError();
  constexpr uint8_t Int3 = 0xcc;
  const std::vector<CodeFunction> &Functions = Golden.functions();
  unsigned Changed = 0;
  for (size_t I = 0; I < Functions.size(); ++I) {
    const CodeFunction &F = Functions[I];
    if (!F.Sized)
      continue;
    // From its end to the next function or the end of its section.
    uint64_t Begin = F.end();
    uint64_t End = Golden.sectionEnd(F.Address);
    if (I + 1 < Functions.size())
      End = std::min(End, Functions[I + 1].Address);
    if (End <= Begin)
      continue;
    uint64_t Size = End - Begin;
    ArrayRef<uint8_t> Padding = Golden.bytesAt(Begin, Size);
    bool Traps = llvm::is_contained(Padding, Int3);
    bool Others = llvm::any_of(Padding, [](uint8_t B) { return B != Int3; });
    if (!Traps || !Others)
      continue;
    bool OnlyPadding = true;
    for (uint64_t At = 0; At < Padding.size() && OnlyPadding;) {
      if (Padding[At] == Int3 || Padding[At] == 0) {
        ++At;
        continue;
      }
      MCInst Inst;
      unsigned N = D.decode(Padding.drop_front(At), Begin + At, Inst);
      OnlyPadding = N && D.isNop(Inst);
      At += N;
    }
    std::optional<uint64_t> Offset = InCopy->fileOffsetOf(Begin);
    if (!OnlyPadding || !Offset || *Offset + Size > Copy.size())
      continue;
    std::fill_n(Copy.begin() + *Offset, Size, Int3);
    ++Changed;
  }
  return Changed;
}

/// Writes to \p Path BOLT's copy of the golden master \p Golden: its
/// computed-goto labels named (labelCodeAddresses), its mixed padding
/// made traps (trapMixedPadding). Sets \p Labels to the labels' count.
Error writeBoltInput(StringRef Golden, const ProgramCode &GoldenProgram,
                     const Disassembler &D, StringRef Path, unsigned &Labels) {
  Expected<SmallVector<char, 0>> Copy =
      labelCodeAddresses(Golden, GoldenProgram, Labels);
  if (!Copy)
    return Copy.takeError();
  MutableArrayRef<uint8_t> Bytes(reinterpret_cast<uint8_t *>(Copy->data()),
                                 Copy->size());
  if (Expected<unsigned> Trapped = trapMixedPadding(Bytes, GoldenProgram, D);
      !Trapped)
    return makeError("cannot read '" + Golden +
                     "': " + toString(Trapped.takeError()));
  if (Error E = writeFileAtomically(Path, toStringRef(Bytes)))
    return makeError("cannot copy '" + Golden + "': " + toString(std::move(E)));
  return Error::success();
}

double secondsSince(std::chrono::steady_clock::time_point Start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                       Start)
      .count();
}

/// Proves the install \p Image of the golden master \p Golden sound,
/// repairing it where the golden master says how (LayoutCheck.h), and
/// records in \p R what was checked and repaired; an error that names
/// every reference still wrong (up to ten) if it is not.
Error proveLayout(ArrayRef<uint8_t> Golden, MutableArrayRef<char> Image,
                  StringRef InstallId, InstallResult &R) {
  auto Started = std::chrono::steady_clock::now();
  Expected<LayoutCheckResult> Check = checkLayout(
      Golden,
      MutableArrayRef<uint8_t>(reinterpret_cast<uint8_t *>(Image.data()),
                               Image.size()),
      /*Repair=*/true);
  if (!Check)
    return makeError("cannot check the layout of install '" + InstallId +
                     "': " + toString(Check.takeError()));
  if (!Check->Violations.empty()) {
    std::string Message = "the layout of install '" + InstallId.str() +
                          "' is not sound; nothing was written:";
    constexpr size_t Shown = 10;
    for (size_t I = 0; I < Check->Violations.size() && I < Shown; ++I)
      Message += "\n  " + Check->Violations[I].describe();
    if (Check->Violations.size() > Shown)
      Message += "\n  and " + std::to_string(Check->Violations.size() - Shown) +
                 " more";
    return makeError(Message);
  }
  R.CheckSeconds = secondsSince(Started);
  R.CheckedReferences = Check->References;
  R.Repairs = std::move(Check->Repairs);
  return Error::success();
}

std::string readLog(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Log = MemoryBuffer::getFile(Path);
  return Log ? (*Log)->getBuffer().str() : std::string();
}

} // namespace

std::string installSeedDerivation(StringRef InstallId) {
  return ("HKDF-SHA256 stream key ('install', the golden master's code "
          "SHA-256, '" +
          InstallId + "') of the master secret")
      .str();
}

namespace {

/// One install being laid out: the steps of InstallLayout.h, one function
/// each, in the order run() calls them, and the state they hand on.
class InstallLayoutSteps {
public:
  InstallLayoutSteps(StringRef Golden, const MasterKey &Key,
                     StringRef InstallId, StringRef Output,
                     const InstallOptions &Options)
      : Golden(Golden), Key(Key), InstallId(InstallId), Output(Output),
        Options(Options) {}

  Expected<InstallResult> run() {
    for (Error (InstallLayoutSteps::*Step)() :
         {&InstallLayoutSteps::readGoldenMaster,
          &InstallLayoutSteps::layOutUntilEveryFunctionMoves,
          &InstallLayoutSteps::patchOutput,
          &InstallLayoutSteps::proveSound,
          &InstallLayoutSteps::accountForEveryFunction,
          &InstallLayoutSteps::writeInstall})
      if (Error E = (this->*Step)())
        return E;
    return std::move(R);
  }

private:
  /// 1. The golden master: its functions as BOLT names them, its code, how
  /// it binds symbols and whether it has debug information.
  Error readGoldenMaster() {
    if (InstallId.empty() || InstallId.size() > 128 ||
        !llvm::all_of(InstallId, [](char C) { return isPrint(C); }))
      return makeError("invalid install id '" + InstallId +
                       "': expected 1 to 128 printable characters");
    Expected<GoldenFunctions> F = readGolden(Golden, File);
    if (!F)
      return F.takeError();
    Functions = std::move(*F);
    if (Options.AlignBranches && Functions.Arch != Triple::x86_64)
      return makeError("--align-branches: '" + Golden +
                       "' is not an x86-64 program");
    // The layout follows the golden master's code, not its file: a copy
    // stripped of debug information is laid out as the golden master with
    // it, whose updated debug information then describes the install.
    Expected<ElfImage> GoldenImage = ElfImage::open(Golden);
    if (!GoldenImage)
      return GoldenImage.takeError();
    GoldenCode = codeSha256(*GoldenImage);
    Expected<std::unique_ptr<Disassembler>> D =
        Disassembler::create(Functions.Arch);
    if (!D)
      return D.takeError();
    Decoder = std::move(*D);
    Expected<ProgramCode> Program = ProgramCode::read(goldenBytes());
    if (!Program)
      return makeError("cannot read '" + Golden +
                       "': " + toString(Program.takeError()));
    GoldenProgram = std::move(*Program);
    for (const object::SectionRef &Sec : File.getBinary()->sections())
      if (Expected<StringRef> Name = Sec.getName())
        DebugInfo |= *Name == ".debug_info";
      else
        consumeError(Name.takeError());
    // A golden master that binds every symbol at load time lets BOLT call
    // through the GOT, and the PLT become traps (UnusedPlt.h).
    if (Functions.Arch == Triple::x86_64) {
      StringRef Data = File.getBinary()->getData();
      Expected<bool> Now = bindsNow(ArrayRef<char>(Data.data(), Data.size()));
      if (!Now)
        return makeError("cannot read the dynamic section of '" + Golden +
                         "': " + toString(Now.takeError()));
      ClosePlt = *Now;
    }
    return Error::success();
  }

  /// 2-4. A layout drawn and made by BOLT, and drawn again, from a stream
  /// of its own, while a function BOLT moved lands at its golden-master
  /// address: the code before it in the new order added up to the same
  /// size (one chance in a few dozen functions for a small program). An
  /// attacker who studied the golden master would find it in place, so
  /// every function moves. After MaxRedraws layouts, the last one stays,
  /// and the function is named among those left in place.
  Error layOutUntilEveryFunctionMoves() {
    for (Redraw = 0;; ++Redraw) {
      for (Error (InstallLayoutSteps::*Step)() :
           {&InstallLayoutSteps::drawLayout, &InstallLayoutSteps::writeInputs,
            &InstallLayoutSteps::runBolt})
        if (Error E = (this->*Step)())
          return E;
      Expected<bool> Landed = functionLandedInPlace();
      if (!Landed)
        return Landed.takeError();
      if (!*Landed || Redraw + 1 == MaxRedraws)
        return Error::success();
    }
  }

  /// Whether a function BOLT moved is at its golden-master address.
  Expected<bool> functionLandedInPlace() const {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Out =
        MemoryBuffer::getFile(Dir->path() + "/install", /*IsText=*/false,
                              /*RequiresNullTerminator=*/false);
    if (!Out)
      return makeError("cannot read BOLT's output", Out.getError());
    Expected<FunctionAccount> Account = accountForFunctions(
        Functions, GoldenProgram, arrayRefFromStringRef((*Out)->getBuffer()),
        Order, Skipped, BoltLog);
    if (!Account)
      return Account.takeError();
    return llvm::any_of(Account->LeftInPlace, [](const FunctionLeftInPlace &F) {
      return F.Reason == LandedInPlace;
    });
  }

  /// 2. The layout: one stream per golden master, install and redraw; the
  /// function order first, then (with blocks) the profile and BOLT's own
  /// seed.
  Error drawLayout() {
    Order.clear();
    for (const GoldenFunctions::Function &F : Functions.Functions)
      Order.push_back(F.Name);
    std::string Label =
        Redraw == 0 ? "install" : "install, redraw " + std::to_string(Redraw);
    Key256 Seed = Key.streamKey({Label, GoldenCode, InstallId});
    RandomStream Random(Seed);
    OPENSSL_cleanse(Seed.data(), Seed.size());
    Random.shuffle(MutableArrayRef<std::string>(Order));
    if (Options.Blocks) {
      Profile = randomProfile(Functions, *Decoder, Random);
      BoltSeed = Random.between(1, UINT32_MAX);
    }
    R.Functions = Order.size();
    return Error::success();
  }

  /// BOLT's inputs, in a private directory: its copy of the golden master,
  /// the order and the profile (secret files, wiped in memory).
  Error writeInputs() {
    Expected<PrivateDir> D = PrivateDir::create("divtool-install");
    if (!D)
      return D.takeError();
    Dir.emplace(std::move(*D));
    if (Options.Keep)
      Dir->keep();
    // BOLT records its command line in the output: fixed names, run in Dir.
    if (Error E = writeBoltInput(Golden, GoldenProgram, *Decoder,
                                 Dir->path() + "/golden", R.CodeLabels))
      return E;
    std::string OrderText;
    for (const std::string &Name : Order)
      OrderText += Name + "\n";
    Expected<std::string> OrderPath =
        Dir->writeSecret("order", arrayRefFromStringRef(OrderText));
    OPENSSL_cleanse(OrderText.data(), OrderText.size());
    if (!OrderPath)
      return OrderPath.takeError();
    OrderFile = *OrderPath;
    if (Options.Blocks) {
      Expected<std::string> ProfilePath =
          Dir->writeSecret("profile", arrayRefFromStringRef(Profile));
      OPENSSL_cleanse(Profile.data(), Profile.size());
      if (!ProfilePath)
        return ProfilePath.takeError();
      ProfileFile = *ProfilePath;
    }
    return Error::success();
  }

  std::vector<std::string> boltCommand() const {
    std::vector<std::string> Command = {
        Options.Bolt, "golden", "-o", "install",
        // Every function in the stream's order...
        "-reorder-functions=user", "-function-order=" + OrderFile,
        // ...where the golden master's code was, without the 2 MiB
        // alignment and hot-text padding meant for huge pages...
        "-no-huge-pages", "-hot-text=0", "-align-text=16",
        "-align-functions=" + std::to_string(FunctionAlign),
        // ...and the code left behind becomes traps. Every function is
        // processed (not only those with a profile), and each keeps its
        // bytes where BOLT does not change its code: NOPs stay, so that
        // an address inside a function it moves whole (a computed goto's
        // label) keeps its offset.
        "-trap-old-code", "-lite=0", "-keep-nops",
        // What it ignores, and why, in the log.
        "-v=1"};
    if (OldText)
      Command.push_back("-use-old-text");
    if (Options.Blocks) {
      // Blocks in an order from the random profile, and BOLT's shuffle of
      // its clusters from the stream too; no function split in two.
      Command.push_back("-data=" + ProfileFile);
      Command.push_back("-reorder-blocks=cluster-shuffle");
      Command.push_back("-bolt-seed=" + std::to_string(BoltSeed));
      Command.push_back("-split-functions=0");
    }
    if (Options.AlignBranches) {
      Command.push_back("-x86-align-branch-boundary=32");
      Command.push_back("-x86-align-branch=fused+jcc+jmp+indirect+call+ret");
    }
    if (DebugInfo)
      Command.push_back("-update-debug-sections");
    if (ClosePlt)
      Command.push_back("-plt=all");
    if (!Skipped.empty())
      Command.push_back("-skip-funcs=" + join(Skipped, ","));
    return Command;
  }

  /// 4. llvm-bolt, until the layout fits: functions keep their 16-byte
  /// alignment unless the new order only fits in the golden master's
  /// .text without it, else go to a new segment; a function BOLT refuses
  /// is retried as skipped.
  Error runBolt() {
    std::string Log = logPath();
    for (unsigned Attempt = 0;; ++Attempt) {
      auto BoltStarted = std::chrono::steady_clock::now();
      Expected<pid_t> Pid =
          startProcess(boltCommand(), Dir->path(), environmentWith({}, {}),
                       Log, Log, /*OwnProcessGroup=*/false, "llvm-bolt");
      if (!Pid)
        return Pid.takeError();
      std::optional<int> Status = waitProcess(*Pid, /*Block=*/true);
      R.BoltSeconds += secondsSince(BoltStarted);
      std::string Text = readLog(Log);
      if (Status && *Status == 0 && OldText &&
          StringRef(Text).contains("too small to fit the new code")) {
        // Unaligned functions may fit; if not, aligned ones in a new
        // segment.
        if (FunctionAlign > 1) {
          FunctionAlign = 1;
        } else {
          FunctionAlign = 16;
          OldText = false;
          R.NewSegmentReason = "the new code did not fit";
        }
        continue;
      }
      if (Status && *Status == 0)
        break;
      std::optional<std::string> Refused = refusedFunction(Text);
      bool RefusedAgain = Refused && llvm::is_contained(Skipped, *Refused);
      if (!Refused || Attempt >= MaxRefusedFunctions ||
          (RefusedAgain && !OldText))
        return makeError("llvm-bolt failed on '" + Golden + "' (" +
                         describeWaitStatus(Status.value_or(-1)) + "):\n" +
                         lastLines(Log, 8));
      // A skipped function keeps its place in the old .text, where BOLT 19
      // cannot also put new code: then the new code goes to a new segment.
      if (RefusedAgain) {
        OldText = false;
        R.NewSegmentReason = "the old .text keeps a function BOLT cannot move";
      } else {
        Skipped.push_back(*Refused);
      }
    }
    BoltLog = readLog(Log);
    R.FitInOldText = StringRef(BoltLog).contains("using original .text");
    R.FunctionAlignment = FunctionAlign;
    return Error::success();
  }

  /// 5-6. BOLT's output in memory; its note, which holds BOLT's command
  /// line, blanked in place (removing it with objcopy would lay the file
  /// out again, which breaks BOLT's AArch64 output); the unused PLT made
  /// traps.
  Error patchOutput() {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Rewritten =
        MemoryBuffer::getFile(Dir->path() + "/install", /*IsText=*/false,
                              /*RequiresNullTerminator=*/false);
    if (!Rewritten)
      return makeError("cannot read BOLT's output", Rewritten.getError());
    Image.assign((*Rewritten)->getBufferStart(), (*Rewritten)->getBufferEnd());
    if (Error E = blankSection(Image, ".note.bolt_info"))
      return makeError("cannot blank BOLT's note: " + toString(std::move(E)));
    if (ClosePlt) {
      Expected<unsigned> Trapped = trapUnusedPlt(Image);
      if (!Trapped)
        return makeError("cannot read BOLT's output: " +
                         toString(Trapped.takeError()));
      R.TrappedPltStubs = *Trapped;
      R.TrappedLazyBinding = true;
    }
    return Error::success();
  }

  /// Nothing is written that is not proved sound (LayoutCheck.h).
  Error proveSound() { return proveLayout(goldenBytes(), Image, InstallId, R); }

  /// Every function named that BOLT left in place or out of order.
  Error accountForEveryFunction() {
    Expected<FunctionAccount> Account = accountForFunctions(
        Functions, GoldenProgram,
        ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(Image.data()),
                          Image.size()),
        Order, Skipped, BoltLog);
    if (!Account)
      return Account.takeError();
    R.LeftInPlace = std::move(Account->LeftInPlace);
    R.OutOfOrder = std::move(Account->OutOfOrder);
    return Error::success();
  }

  /// 7. A build id of the install's own, then the output, atomically, with
  /// the golden master's mode.
  Error writeInstall() {
    if (Error E = setBuildIdToDigest(Image))
      return makeError("cannot set the build id: " + toString(std::move(E)));
    StringRef Bytes(Image.data(), Image.size());
    if (Error E = writeFileAtomically(Output, Bytes))
      return makeError("cannot write '" + Output +
                       "': " + toString(std::move(E)));
    struct stat St;
    if (::stat(Golden.str().c_str(), &St) == 0)
      ::chmod(Output.str().c_str(), St.st_mode & 07777);
    R.GoldenSize = File.getBinary()->getData().size();
    R.OutputSize = Bytes.size();
    R.OutputSha256 = toHex(Sha256::digest(Bytes));
    R.GoldenCodeSha256 = GoldenCode;
    if (Options.Keep)
      R.WorkDir = Dir->path();
    return Error::success();
  }

  ArrayRef<uint8_t> goldenBytes() const {
    return arrayRefFromStringRef(File.getBinary()->getData());
  }
  std::string logPath() const { return Dir->path() + "/bolt.log"; }

  // What layOutInstall was asked.
  StringRef Golden;
  const MasterKey &Key;
  StringRef InstallId;
  StringRef Output;
  const InstallOptions &Options;

  // The golden master (readGoldenMaster).
  object::OwningBinary<object::ObjectFile> File;
  GoldenFunctions Functions;
  std::string GoldenCode;
  std::unique_ptr<Disassembler> Decoder;
  ProgramCode GoldenProgram;
  bool DebugInfo = false;
  bool ClosePlt = false;
  // The layout (drawLayout): secret until BOLT has read it.
  static constexpr unsigned MaxRedraws = 8;
  unsigned Redraw = 0;
  std::vector<std::string> Order;
  std::string Profile;
  uint64_t BoltSeed = 0;
  // BOLT's run (writeInputs, runBolt).
  std::optional<PrivateDir> Dir;
  std::string OrderFile, ProfileFile;
  unsigned FunctionAlign = 16;
  bool OldText = true;
  std::vector<std::string> Skipped; // what BOLT refused, retried as skipped
  std::string BoltLog;
  // The install (patchOutput onwards).
  SmallVector<char, 0> Image;
  InstallResult R;
};

} // namespace

Expected<InstallResult> layOutInstall(StringRef Golden, const MasterKey &Key,
                                      StringRef InstallId, StringRef Output,
                                      const InstallOptions &Options) {
  return InstallLayoutSteps(Golden, Key, InstallId, Output, Options).run();
}

} // namespace divcc
