//===- ElfImage.cpp - The code of an ELF executable, as it will be mapped -===//

#include "analysis/ElfImage.h"

#include "targets/DiversityTarget.h"
#include "targets/GadgetTarget.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Object/ELFObjectFile.h"

#include <algorithm>

using namespace llvm;
using namespace llvm::object;

namespace divcc {

static Error fail(StringRef Path, const Twine &Problem) {
  return createStringError(inconvertibleErrorCode(),
                           "'" + Path + "': " + Problem);
}

template <class ELFT>
static Error readSegments(const ELFObjectFile<ELFT> &Obj, StringRef Path,
                          std::vector<CodeSegment> &Code) {
  const ELFFile<ELFT> &Elf = Obj.getELFFile();
  auto Type = Elf.getHeader().e_type;
  if (Type == ELF::ET_REL)
    return fail(Path, "is a relocatable object file, not an executable or "
                      "shared object; audit the linked program");
  if (Type != ELF::ET_EXEC && Type != ELF::ET_DYN)
    return fail(Path, "is not an executable or shared object");
  auto Headers = Elf.program_headers();
  if (!Headers)
    return fail(Path, "truncated or malformed ELF file: " +
                          toString(Headers.takeError()));
  StringRef Data = Obj.getData();
  for (const auto &Ph : *Headers) {
    if (Ph.p_type != ELF::PT_LOAD || !(Ph.p_flags & ELF::PF_X))
      continue;
    if (Ph.p_offset > Data.size() || Ph.p_filesz > Data.size() - Ph.p_offset)
      return fail(Path, "truncated ELF file: an executable segment ends past "
                        "the end of the file");
    Code.push_back({Ph.p_vaddr, arrayRefFromStringRef(Data.substr(
                                    Ph.p_offset, Ph.p_filesz))});
  }
  if (Code.empty())
    return fail(Path, "has no executable segment");
  std::sort(Code.begin(), Code.end(), [](auto &A, auto &B) {
    return A.Address < B.Address;
  });
  return Error::success();
}

// The name and address of \p Sym; nothing where the symbol table is
// malformed.
static std::optional<std::pair<StringRef, uint64_t>>
nameAndAddress(const ELFSymbolRef &Sym) {
  Expected<StringRef> Name = Sym.getName();
  Expected<uint64_t> Address = Sym.getAddress();
  if (!Name || !Address) {
    consumeError(Name.takeError());
    consumeError(Address.takeError());
    return std::nullopt;
  }
  return std::make_pair(*Name, *Address);
}

// Whether \p Name is a branch stub the linker wrote: lld's range-extension
// and interworking thunks (__ThumbV7PILongThunk_memcpy, which a Thumb tail
// call to ARM code goes through; __AArch64ADRPThunk_f, ...) and GNU ld's
// veneers (__f_veneer, __f_from_thumb). They carry sized function symbols
// but are no function of the program, and nothing ever holds a pointer to
// one, as nothing holds one to a PLT entry: their gadgets count with the
// code outside functions.
static bool isLinkerStub(StringRef Name) {
  if (!Name.starts_with("__"))
    return false;
  return Name.contains("Thunk_") || Name.ends_with("_veneer") ||
         Name.ends_with("_from_thumb") || Name.ends_with("_from_arm");
}

// The sized, named functions of \p Symbols, sorted by address, one per
// address, each keyed by a name of its own; linker stubs are none.
template <class SymbolRange>
static Error collectFunctions(SymbolRange Symbols, StringRef Path,
                              std::vector<FunctionSymbol> &Functions,
                              bool DefinedOnly) {
  for (const ELFSymbolRef Sym : Symbols) {
    if (Sym.getELFType() != ELF::STT_FUNC || Sym.getSize() == 0)
      continue;
    if (DefinedOnly) {
      Expected<uint32_t> Flags = Sym.getFlags();
      if (!Flags) {
        consumeError(Flags.takeError());
        return fail(Path, "malformed dynamic symbol table");
      }
      if (*Flags & SymbolRef::SF_Undefined)
        continue;
    }
    auto Named = nameAndAddress(Sym);
    if (!Named)
      return fail(Path, "malformed symbol table");
    auto [Name, Address] = *Named;
    if (Name.empty() || isLinkerStub(Name))
      continue;
    Functions.push_back({Name.str(), Address, Sym.getSize()});
  }
  std::sort(Functions.begin(), Functions.end(), [](auto &A, auto &B) {
    return std::tie(A.Address, A.Key) < std::tie(B.Address, B.Key);
  });
  // Aliases (one address, several names) would count a function twice.
  Functions.erase(std::unique(Functions.begin(), Functions.end(),
                              [](auto &A, auto &B) {
                                return A.Address == B.Address;
                              }),
                  Functions.end());
  StringMap<unsigned> Seen;
  for (FunctionSymbol &F : Functions)
    if (unsigned N = ++Seen[F.Key]; N > 1)
      F.Key += "#" + std::to_string(N);
  return Error::success();
}

static Error readFunctions(const ObjectFile &Obj, StringRef Path,
                           std::vector<FunctionSymbol> &Functions,
                           bool &SymbolTable) {
  for (const SectionRef &S : Obj.sections())
    if (ELFSectionRef(S).getType() == ELF::SHT_SYMTAB)
      SymbolTable = true;
  return collectFunctions(cast<ELFObjectFileBase>(Obj).symbols(), Path,
                          Functions, false);
}

// The mapping symbols of .symtab ("$t", "$a.0", ...), sorted by address.
static std::vector<MappingSymbol> readMappings(const ELFObjectFileBase &Obj) {
  std::vector<MappingSymbol> Mappings;
  for (const ELFSymbolRef Sym : Obj.symbols()) {
    if (Sym.getELFType() != ELF::STT_NOTYPE)
      continue;
    auto Named = nameAndAddress(Sym);
    if (!Named)
      continue;
    auto [Name, Address] = *Named;
    if (Name.size() >= 2 && Name[0] == '$' &&
        (Name.size() == 2 || Name[2] == '.'))
      Mappings.push_back({Address, Name[1]});
  }
  std::stable_sort(Mappings.begin(), Mappings.end(),
                   [](auto &A, auto &B) { return A.Address < B.Address; });
  return Mappings;
}

StringRef sectionBytes(const SectionRef &Sec, uint64_t Address,
                       uint64_t Size) {
  if (!Size || Sec.isBSS() || Address < Sec.getAddress() ||
      Address + Size > Sec.getAddress() + Sec.getSize())
    return {};
  Expected<StringRef> Contents = Sec.getContents();
  if (!Contents) {
    consumeError(Contents.takeError());
    return {};
  }
  return Contents->substr(Address - Sec.getAddress(), Size);
}

Expected<ElfImage> ElfImage::open(StringRef Path) {
  ElfImage Image;
  Image.Path = Path.str();
  Expected<OwningBinary<Binary>> File = createBinary(Path);
  if (!File) {
    std::string Message = toString(File.takeError());
    return fail(Path, Message);
  }
  Image.File = std::move(*File);
  auto *Obj = dyn_cast<ELFObjectFileBase>(Image.File.getBinary());
  if (!Obj)
    return fail(Path, "not an ELF file");
  Image.Arch = Obj->getArch();
  if (!gadgetTriple(Image.Arch))
    return fail(Path, "unsupported architecture '" +
                          Triple::getArchTypeName(Image.Arch) +
                          "'; divtool reads " + supportedTargetsText() +
                          " binaries");
  if (auto *Elf64 = dyn_cast<ELF64LEObjectFile>(Obj)) {
    if (Error E = readSegments(*Elf64, Path, Image.Code))
      return E;
  } else if (auto *Elf32 = dyn_cast<ELF32LEObjectFile>(Obj)) {
    if (Error E = readSegments(*Elf32, Path, Image.Code))
      return E;
  } else {
    return fail(Path, "not a little-endian ELF file");
  }
  Image.Mappings = readMappings(*Obj);
  if (Error E = readFunctions(*Obj, Path, Image.Functions, Image.SymbolTable))
    return E;
  if (!Image.SymbolTable)
    if (Error E = collectFunctions(Obj->getDynamicSymbolIterators(), Path,
                                   Image.DynamicFunctions, true))
      return E;
  return Image;
}

uint64_t ElfImage::codeSize() const {
  uint64_t Size = 0;
  for (const CodeSegment &S : Code)
    Size += S.Bytes.size();
  return Size;
}

// The segment holding \p Address, or null.
static const CodeSegment *segmentAt(const std::vector<CodeSegment> &Code,
                                    uint64_t Address) {
  auto It = std::upper_bound(
      Code.begin(), Code.end(), Address,
      [](uint64_t A, const CodeSegment &S) { return A < S.Address; });
  if (It == Code.begin() || Address - It[-1].Address >= It[-1].Bytes.size())
    return nullptr;
  return &It[-1];
}

ArrayRef<uint8_t> ElfImage::codeFrom(uint64_t Address) const {
  const CodeSegment *S = segmentAt(Code, Address);
  return S ? S->Bytes.drop_front(Address - S->Address) : ArrayRef<uint8_t>();
}

ArrayRef<uint8_t> ElfImage::codeAt(uint64_t Address, uint64_t Size) const {
  ArrayRef<uint8_t> Rest = codeFrom(Address);
  return Size <= Rest.size() ? Rest.take_front(Size) : ArrayRef<uint8_t>();
}

} // namespace divcc
