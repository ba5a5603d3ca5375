//===- ProgramCode.cpp - A linked program's code and what refers to it ----===//

#include "divtool/install/ProgramCode.h"

#include "analysis/Gadgets.h"
#include "support/Diagnostics.h"
#include "targets/DiversityTarget.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/DebugInfo/DWARF/DWARFDataExtractor.h"
#include "llvm/DebugInfo/DWARF/DWARFDebugFrame.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/LEB128.h"

#include <algorithm>

using namespace llvm;
using namespace llvm::object;

namespace divcc {

StringRef describe(ReferenceKind K) {
  switch (K) {
  case ReferenceKind::Jump:
    return "jump";
  case ReferenceKind::Call:
    return "call";
  case ReferenceKind::CodeOperand:
    return "code address operand";
  case ReferenceKind::DynamicRelocation:
    return "dynamic relocation";
  case ReferenceKind::StaticRelocation:
    return "data relocation";
  case ReferenceKind::ArrayEntry:
    return "init/fini array entry";
  case ReferenceKind::DynamicSymbol:
    return "dynamic symbol";
  case ReferenceKind::EntryPoint:
    return "entry point";
  case ReferenceKind::FrameStart:
    return "unwind table entry (FDE)";
  case ReferenceKind::LandingPad:
    return "exception landing pad";
  }
  return "reference";
}

namespace {

/// Sections of code the linker makes, which BOLT leaves where they are.
bool isLinkerCode(StringRef Name) {
  return Name == ".init" || Name == ".fini" || Name.starts_with(".plt") ||
         Name == ".iplt";
}

std::unique_ptr<DiversityTarget> targetFor(Triple::ArchType Arch) {
  return createDiversityTarget(
      Triple(Triple::getArchTypeName(Arch), "unknown", "linux"));
}

/// Calls \p Each with every symbol, and its name, of \p Elf's symbol
/// tables of type \p Type (SHT_SYMTAB or SHT_DYNSYM) that \p Wanted keeps;
/// \p What names the table in errors.
Error forEachSymbol(
    const ELF64LEFile &Elf, ArrayRef<ELF64LE::Shdr> Sections, unsigned Type,
    StringRef What, function_ref<bool(const ELF64LE::Sym &)> Wanted,
    function_ref<void(const ELF64LE::Sym &, StringRef)> Each) {
  for (const ELF64LE::Shdr &S : Sections) {
    if (S.sh_type != Type)
      continue;
    auto Symbols = Elf.symbols(&S);
    auto Names = Elf.getStringTableForSymtab(S);
    if (!Symbols || !Names) {
      consumeError(Symbols.takeError());
      consumeError(Names.takeError());
      return makeError("malformed " + What);
    }
    for (const ELF64LE::Sym &Sym : *Symbols) {
      if (!Wanted(Sym))
        continue;
      Expected<StringRef> Name = Sym.getName(*Names);
      if (!Name) {
        consumeError(Name.takeError());
        return makeError("malformed " + What);
      }
      Each(Sym, *Name);
    }
  }
  return Error::success();
}

} // namespace

Expected<ProgramCode> ProgramCode::read(ArrayRef<uint8_t> Image) {
  Expected<ELF64LEFile> Elf = ELF64LEFile::create(toStringRef(Image));
  if (!Elf)
    return makeError("not a little-endian ELF64 file: " +
                     toString(Elf.takeError()));
  ProgramCode P;
  P.Image = Image;
  const auto &Header = Elf->getHeader();
  P.Arch = Header.e_machine == ELF::EM_X86_64    ? Triple::x86_64
           : Header.e_machine == ELF::EM_AARCH64 ? Triple::aarch64
                                                 : Triple::UnknownArch;
  if (P.Arch == Triple::UnknownArch)
    return makeError("not an x86-64 or AArch64 program");
  P.Dynamic = Header.e_type == ELF::ET_DYN;
  P.Entry = Header.e_entry;

  auto Sections = Elf->sections();
  if (!Sections)
    return makeError("malformed section headers: " +
                     toString(Sections.takeError()));
  std::vector<Section> All;
  for (const ELF64LE::Shdr &S : *Sections) {
    Expected<StringRef> Name = Elf->getSectionName(S);
    if (!Name)
      return makeError("malformed section names: " +
                       toString(Name.takeError()));
    if (S.sh_type != ELF::SHT_NOBITS && S.sh_offset + S.sh_size > Image.size())
      return makeError("section " + *Name + " ends past the end of the file");
    All.push_back({Name->str(), S.sh_addr, S.sh_size, S.sh_offset, S.sh_type,
                   S.sh_flags, S.sh_link, S.sh_info, S.sh_entsize});
  }
  for (const Section &S : All)
    // What the file holds of the loaded image (.bss and .tbss hold no code,
    // and .tbss overlaps what follows it).
    if ((S.Flags & ELF::SHF_ALLOC) && S.Size && S.Type != ELF::SHT_NOBITS)
      P.Sections.push_back(S);
  llvm::sort(P.Sections, [](const Section &A, const Section &B) {
    return A.Address < B.Address;
  });

  // Function symbols in code, keyed in symbol-table order.
  StringMap<unsigned> Seen;
  if (Error E = forEachSymbol(
          *Elf, *Sections, ELF::SHT_SYMTAB, "symbol table",
          [](const ELF64LE::Sym &Sym) {
            return Sym.getType() == ELF::STT_FUNC &&
                   Sym.st_shndx != ELF::SHN_UNDEF;
          },
          [&](const ELF64LE::Sym &Sym, StringRef Name) {
            const Section *In = P.sectionOf(Sym.st_value);
            if (Name.empty() || !In || !In->executable())
              return;
            std::string Key = Name.str();
            if (unsigned N = ++Seen[Key]; N > 1)
              Key += "#" + std::to_string(N);
            P.Functions.push_back(
                {std::move(Key), Sym.st_value, Sym.st_size, Sym.st_size != 0});
          }))
    return E;
  llvm::stable_sort(P.Functions, [](const CodeFunction &A,
                                     const CodeFunction &B) {
    return std::tie(A.Address, A.Sized) < std::tie(B.Address, B.Sized);
  });
  // Aliases are one function: the sized symbol stands for the address.
  std::vector<CodeFunction> Unique;
  for (CodeFunction &F : P.Functions) {
    if (!Unique.empty() && Unique.back().Address == F.Address) {
      P.ByKey[F.Key] = Unique.size() - 1;
      if (F.Sized && !Unique.back().Sized) {
        std::string Alias = Unique.back().Key;
        Unique.back() = F;
        P.ByKey[Alias] = Unique.size() - 1;
      }
      continue;
    }
    P.ByKey[F.Key] = Unique.size();
    Unique.push_back(std::move(F));
  }
  P.Functions = std::move(Unique);
  for (size_t I = 0; I < P.Functions.size(); ++I) {
    CodeFunction &F = P.Functions[I];
    if (F.Sized)
      continue;
    const Section *In = P.sectionOf(F.Address);
    uint64_t End = In->Address + In->Size;
    if (I + 1 < P.Functions.size())
      End = std::min(End, P.Functions[I + 1].Address);
    F.Size = End - F.Address;
  }
  P.Boundaries.resize(P.Functions.size());

  for (const Section &S : All) {
    if (S.Type != ELF::SHT_RELA || S.EntrySize != sizeof(ELF64LE::Rela) ||
        S.Size % sizeof(ELF64LE::Rela))
      continue;
    // A data section's own relocations (--emit-relocs); code's are the
    // instructions themselves.
    bool Dynamic = S.Flags & ELF::SHF_ALLOC;
    if (!Dynamic && (S.Info >= All.size() || All[S.Info].executable() ||
                     !(All[S.Info].Flags & ELF::SHF_ALLOC)))
      continue;
    for (uint64_t At = S.Offset; At < S.Offset + S.Size;
         At += sizeof(ELF64LE::Rela)) {
      const uint8_t *R = Image.data() + At;
      P.Relocations.push_back({support::endian::read64le(R),
                               support::endian::read64le(R + 8),
                               int64_t(support::endian::read64le(R + 16)), At,
                               Dynamic, S.Link});
    }
  }
  return P;
}

const ProgramCode::Section *ProgramCode::sectionOf(uint64_t Address) const {
  auto It = llvm::upper_bound(Sections, Address,
                              [](uint64_t A, const Section &S) {
                                return A < S.Address;
                              });
  if (It == Sections.begin() || !(--It)->contains(Address))
    return nullptr;
  return &*It;
}

const CodeFunction *ProgramCode::function(StringRef Key) const {
  auto It = ByKey.find(Key);
  return It == ByKey.end() ? nullptr : &Functions[It->second];
}

std::optional<size_t> ProgramCode::functionAt(uint64_t Address) const {
  auto It = llvm::upper_bound(Functions, Address,
                              [](uint64_t A, const CodeFunction &F) {
                                return A < F.Address;
                              });
  if (It == Functions.begin())
    return std::nullopt;
  --It;
  if (Address >= It->end())
    return std::nullopt;
  return It - Functions.begin();
}

bool ProgramCode::inCode(uint64_t Address) const {
  const Section *S = sectionOf(Address);
  return S && S->executable();
}

bool ProgramCode::inLinkerCode(uint64_t Address) const {
  const Section *S = sectionOf(Address);
  return S && S->executable() && isLinkerCode(S->Name);
}

StringRef ProgramCode::sectionAt(uint64_t Address) const {
  const Section *S = sectionOf(Address);
  return S ? StringRef(S->Name) : StringRef();
}

uint64_t ProgramCode::sectionStart(uint64_t Address) const {
  const Section *S = sectionOf(Address);
  return S ? S->Address : 0;
}

uint64_t ProgramCode::sectionEnd(uint64_t Address) const {
  const Section *S = sectionOf(Address);
  return S ? S->Address + S->Size : 0;
}

std::optional<uint64_t> ProgramCode::fileOffsetOf(uint64_t Address) const {
  const Section *S = sectionOf(Address);
  if (!S)
    return std::nullopt;
  return S->Offset + (Address - S->Address);
}

ArrayRef<uint8_t> ProgramCode::bytesAt(uint64_t Address, uint64_t Size) const {
  const Section *S = sectionOf(Address);
  if (!S || Address - S->Address + Size > S->Size)
    return {};
  return Image.slice(S->Offset + (Address - S->Address), Size);
}

const std::vector<uint64_t> &ProgramCode::boundaries(size_t F,
                                                     const Disassembler &D) const {
  std::vector<uint64_t> &B = Boundaries[F];
  if (B.empty()) {
    const CodeFunction &Fn = Functions[F];
    D.sweep(bytesAt(Fn.Address, Fn.Size), Fn.Address,
            [&](const MCInst &, uint64_t Address, unsigned) {
              B.push_back(Address);
            });
  }
  return B;
}

bool ProgramCode::isBoundary(size_t F, uint64_t Address,
                             const Disassembler &D) const {
  return llvm::binary_search(boundaries(F, D), Address);
}

std::vector<CodeReference>
ProgramCode::codeReferences(const Disassembler &D) const {
  std::vector<CodeReference> Refs;
  auto Sweep = [&](uint64_t Address, uint64_t Size,
                   std::optional<size_t> Function) {
    D.sweep(bytesAt(Address, Size), Address,
            [&](const MCInst &I, uint64_t At, unsigned N) {
              if (auto B = D.directBranch(I, At, N)) {
                Refs.push_back({B->Call ? ReferenceKind::Call
                                        : ReferenceKind::Jump,
                                At, B->Target, Function, "", 0, N});
                return;
              }
              if (std::optional<uint64_t> T = D.pcRelativeTarget(I, At, N);
                  T && inCode(*T))
                Refs.push_back({ReferenceKind::CodeOperand, At, *T, Function,
                                "", 0, N});
            });
  };
  for (size_t F = 0; F < Functions.size(); ++F)
    Sweep(Functions[F].Address, Functions[F].Size, F);
  for (const Section &S : Sections)
    if (S.executable() && isLinkerCode(S.Name))
      Sweep(S.Address, S.Size, std::nullopt);
  return Refs;
}

Expected<std::vector<CodeReference>> ProgramCode::dataReferences() const {
  std::vector<CodeReference> Refs;
  std::unique_ptr<DiversityTarget> Target = targetFor(Arch);
  std::optional<CodeAddressRelocations> Types =
      Target ? Target->codeAddressRelocations() : std::nullopt;
  if (!Types)
    return makeError("no relocation knowledge for this architecture");
  auto Add = [&](ReferenceKind K, uint64_t Site, uint64_t Target,
                 std::string Symbol = "", uint64_t FileOffset = 0) {
    if (inCode(Target))
      Refs.push_back({K, Site, Target, std::nullopt, std::move(Symbol),
                      FileOffset, 0});
  };
  if (Entry)
    Add(ReferenceKind::EntryPoint, 0, Entry);

  Expected<ELF64LEFile> Elf = ELF64LEFile::create(toStringRef(Image));
  if (!Elf)
    return Elf.takeError();
  auto Sections = cantFail(Elf->sections());
  auto SymbolValue = [&](uint32_t Table,
                         uint32_t Index) -> std::optional<uint64_t> {
    if (Table >= Sections.size())
      return std::nullopt;
    auto Symbols = Elf->symbols(&Sections[Table]);
    if (!Symbols) {
      consumeError(Symbols.takeError());
      return std::nullopt;
    }
    if (Index >= Symbols->size() ||
        (*Symbols)[Index].st_shndx == ELF::SHN_UNDEF)
      return std::nullopt;
    return (*Symbols)[Index].st_value;
  };

  // Relocations: the dynamic ones; the static ones kept from the link for
  // slots no dynamic relocation covers (the file then holds the address).
  std::vector<uint64_t> DynamicSlots;
  for (const Rela &R : Relocations) {
    if (!R.Dynamic)
      continue;
    DynamicSlots.push_back(R.Offset);
    uint32_t Type = R.Info & 0xffffffff, Symbol = R.Info >> 32;
    if (Type == Types->Relative || Type == Types->IRelative) {
      Add(ReferenceKind::DynamicRelocation, R.Offset, uint64_t(R.Addend), "",
          R.FileOffset);
      continue;
    }
    if (Type != Types->Absolute64 && Type != Types->GlobDat &&
        Type != Types->JumpSlot)
      continue;
    if (std::optional<uint64_t> Value = SymbolValue(R.SymbolTable, Symbol))
      Add(ReferenceKind::DynamicRelocation, R.Offset,
          *Value + uint64_t(Type == Types->Absolute64 ? R.Addend : 0), "",
          R.FileOffset);
  }
  llvm::sort(DynamicSlots);
  auto SlotValue = [&](uint64_t Slot) -> std::optional<uint64_t> {
    ArrayRef<uint8_t> B = bytesAt(Slot, 8);
    if (B.size() != 8)
      return std::nullopt;
    return support::endian::read64le(B.data());
  };
  for (const Rela &R : Relocations) {
    if (R.Dynamic || (R.Info & 0xffffffff) != Types->Absolute64 ||
        llvm::binary_search(DynamicSlots, R.Offset))
      continue;
    if (std::optional<uint64_t> V = SlotValue(R.Offset))
      Add(ReferenceKind::StaticRelocation, R.Offset, *V);
  }
  for (const Section &S : this->Sections) {
    if (S.Type != ELF::SHT_INIT_ARRAY && S.Type != ELF::SHT_FINI_ARRAY &&
        S.Type != ELF::SHT_PREINIT_ARRAY)
      continue;
    for (uint64_t Slot = S.Address; Slot + 8 <= S.Address + S.Size; Slot += 8)
      if (!llvm::binary_search(DynamicSlots, Slot))
        if (std::optional<uint64_t> V = SlotValue(Slot))
          Add(ReferenceKind::ArrayEntry, Slot, *V);
  }

  // Dynamic symbols defined in code: what other modules call.
  if (Error E = forEachSymbol(
          *Elf, Sections, ELF::SHT_DYNSYM, "dynamic symbol table",
          [](const ELF64LE::Sym &Sym) {
            return Sym.st_shndx != ELF::SHN_UNDEF &&
                   Sym.st_shndx < ELF::SHN_LORESERVE;
          },
          [&](const ELF64LE::Sym &Sym, StringRef Name) {
            Add(ReferenceKind::DynamicSymbol, 0, Sym.st_value, Name.str());
          }))
    return E;

  // Unwind tables: each FDE's start, each LSDA's landing pads.
  for (const Section &S : this->Sections) {
    if (S.Name != ".eh_frame")
      continue;
    DWARFDataExtractor Data(toStringRef(Image.slice(S.Offset, S.Size)),
                            /*IsLittleEndian=*/true, /*AddressSize=*/8);
    DWARFDebugFrame Frames(Arch, /*IsEH=*/true, S.Address);
    if (Error E = Frames.parse(Data))
      return makeError("cannot read .eh_frame: " + toString(std::move(E)));
    for (const dwarf::FrameEntry &Entry : Frames) {
      const auto *Fde = dyn_cast<dwarf::FDE>(&Entry);
      if (!Fde)
        continue;
      uint64_t Start = Fde->getInitialLocation();
      Add(ReferenceKind::FrameStart, Start, Start);
      if (std::optional<uint64_t> Lsda = Fde->getLSDAAddress(); Lsda && *Lsda)
        if (Error E = readLandingPads(Start, *Lsda, Refs))
          return E;
    }
  }
  return Refs;
}

/// The landing pads of the LSDA at \p Lsda of the function that starts at
/// \p FunctionStart (the Itanium C++ ABI's format, as clang and GCC write
/// it).
Error ProgramCode::readLandingPads(uint64_t FunctionStart, uint64_t Lsda,
                                   std::vector<CodeReference> &Out) const {
  const Section *S = sectionOf(Lsda);
  if (!S)
    return makeError("an LSDA at 0x" + utohexstr(Lsda) +
                     " is in no section with contents");
  ArrayRef<uint8_t> Bytes = Image.slice(S->Offset + (Lsda - S->Address),
                                        S->Size - (Lsda - S->Address));
  size_t At = 0;
  bool Bad = false;
  auto Byte = [&]() -> uint8_t {
    if (At >= Bytes.size()) {
      Bad = true;
      return dwarf::DW_EH_PE_omit;
    }
    return Bytes[At++];
  };
  auto Uleb = [&]() -> uint64_t {
    unsigned N = 0;
    const char *Error = nullptr;
    uint64_t V = decodeULEB128(Bytes.data() + At, &N,
                               Bytes.data() + Bytes.size(), &Error);
    Bad |= Error != nullptr;
    At += N;
    return V;
  };
  auto Fixed = [&](unsigned Size) -> uint64_t {
    if (At + Size > Bytes.size()) {
      Bad = true;
      return 0;
    }
    uint64_t V = 0;
    for (unsigned I = 0; I < Size; ++I)
      V |= uint64_t(Bytes[At + I]) << (8 * I);
    At += Size;
    return V;
  };
  // A value of a call-site table's encoding (format only: the values are
  // offsets from the landing-pad base).
  auto Encoded = [&](uint8_t Encoding) -> uint64_t {
    switch (Encoding & 0x0f) {
    case dwarf::DW_EH_PE_uleb128:
      return Uleb();
    case dwarf::DW_EH_PE_udata2:
      return Fixed(2);
    case dwarf::DW_EH_PE_udata4:
    case dwarf::DW_EH_PE_sdata4:
      return Fixed(4);
    case dwarf::DW_EH_PE_udata8:
    case dwarf::DW_EH_PE_absptr:
      return Fixed(8);
    default:
      Bad = true;
      return 0;
    }
  };
  auto Fail = [&] {
    return makeError("cannot read the LSDA at 0x" + utohexstr(Lsda) +
                     " of the function at 0x" + utohexstr(FunctionStart));
  };
  uint64_t LandingPadBase = FunctionStart;
  if (uint8_t Encoding = Byte(); Encoding != dwarf::DW_EH_PE_omit) {
    // An explicit base: no compiler divcc works with writes one.
    return Fail();
  }
  if (uint8_t Encoding = Byte(); Encoding != dwarf::DW_EH_PE_omit)
    Uleb(); // the type table's offset
  uint8_t CallSiteEncoding = Byte();
  uint64_t Length = Uleb();
  size_t End = At + Length;
  if (Bad || End > Bytes.size())
    return Fail();
  while (At < End && !Bad) {
    Encoded(CallSiteEncoding); // start
    Encoded(CallSiteEncoding); // length
    uint64_t Pad = Encoded(CallSiteEncoding);
    Uleb(); // action
    if (Pad)
      Out.push_back({ReferenceKind::LandingPad, FunctionStart,
                     LandingPadBase + Pad, functionAt(FunctionStart), "", 0,
                     0});
  }
  if (Bad)
    return Fail();
  return Error::success();
}

} // namespace divcc
