//===- UnusedPlt.cpp - Trapping the PLT an install no longer calls --------===//

#include "divtool/install/UnusedPlt.h"

#include "analysis/Gadgets.h"
#include "support/Diagnostics.h"

#include "llvm/MC/MCInst.h"
#include "llvm/Object/ELF.h"

#include <optional>
#include <set>

using namespace llvm;
using namespace llvm::object;

namespace divcc {

static Expected<ELF64LEFile> elfOf(ArrayRef<char> Image) {
  return ELF64LEFile::create(StringRef(Image.data(), Image.size()));
}

Expected<bool> bindsNow(ArrayRef<char> Image) {
  Expected<ELF64LEFile> Elf = elfOf(Image);
  if (!Elf)
    return Elf.takeError();
  Expected<ArrayRef<ELF64LE::Dyn>> Dynamic = Elf->dynamicEntries();
  if (!Dynamic)
    return Dynamic.takeError();
  for (const ELF64LE::Dyn &D : *Dynamic)
    if (D.d_tag == ELF::DT_BIND_NOW ||
        (D.d_tag == ELF::DT_FLAGS && (D.d_un.d_val & ELF::DF_BIND_NOW)) ||
        (D.d_tag == ELF::DT_FLAGS_1 && (D.d_un.d_val & ELF::DF_1_NOW)))
      return true;
  return false;
}

namespace {

struct Range {
  std::string Name;
  uint64_t Begin, End, Offset;
  bool contains(uint64_t A) const { return A >= Begin && A < End; }
};

/// x86-64's PLT stubs: a first instruction `jmp *GOT(%rip)` (ff 25 disp32),
/// then, in .plt, `push $n; jmp .plt` for lazy binding (16 bytes a stub,
/// after a 16-byte header), in .plt.got a 2-byte nop (8 bytes a stub).
struct StubLayout {
  uint64_t Header, Stride;
};
std::optional<StubLayout> stubLayout(StringRef Section) {
  if (Section == ".plt")
    return StubLayout{16, 16};
  if (Section == ".plt.got")
    return StubLayout{0, 8};
  return std::nullopt;
}
constexpr unsigned JumpSize = 6;

} // namespace

Expected<unsigned> trapUnusedPlt(MutableArrayRef<char> Image) {
  Expected<ELF64LEFile> Elf = elfOf(Image);
  if (!Elf)
    return Elf.takeError();
  Expected<ELF64LEFile::Elf_Shdr_Range> Sections = Elf->sections();
  if (!Sections)
    return Sections.takeError();
  std::vector<Range> Plt, Code;
  for (const ELF64LE::Shdr &S : *Sections) {
    Expected<StringRef> Name = Elf->getSectionName(S);
    if (!Name)
      return Name.takeError();
    if (!(S.sh_flags & ELF::SHF_EXECINSTR) || S.sh_type != ELF::SHT_PROGBITS)
      continue;
    if (S.sh_offset + S.sh_size > Image.size())
      return makeError("section " + *Name + " is out of the file");
    Range R{Name->str(), S.sh_addr, S.sh_addr + S.sh_size, S.sh_offset};
    if (Name->starts_with(".plt"))
      Plt.push_back(R);
    else
      Code.push_back(R);
  }
  if (Plt.empty())
    return 0;

  // Every address in the PLT something refers to: a call or jump of the
  // code, a dynamic symbol defined there (a canonical PLT entry, the
  // address of an imported function in a non-PIE program), a dynamic
  // relocation's addend.
  std::set<uint64_t> Used;
  auto Use = [&](uint64_t A) {
    if (llvm::any_of(Plt, [&](const Range &R) { return R.contains(A); }))
      Used.insert(A);
  };
  for (const ELF64LE::Shdr &S : *Sections) {
    if (S.sh_type == ELF::SHT_DYNSYM) {
      Expected<ELF64LEFile::Elf_Sym_Range> Symbols = Elf->symbols(&S);
      if (!Symbols)
        return Symbols.takeError();
      for (const ELF64LE::Sym &Sym : *Symbols)
        if (Sym.st_value)
          Use(Sym.st_value);
    } else if (S.sh_type == ELF::SHT_RELA) {
      Expected<ELF64LEFile::Elf_Rela_Range> Relocations = Elf->relas(S);
      if (!Relocations)
        return Relocations.takeError();
      // A GOT slot's lazy-binding value points into its stub; with every
      // symbol bound at load time it is never used.
      for (const ELF64LE::Rela &R : *Relocations)
        if (R.getType(false) != ELF::R_X86_64_JUMP_SLOT)
          Use(R.r_addend);
    }
  }
  Expected<std::unique_ptr<Disassembler>> D =
      Disassembler::create(Triple::x86_64);
  if (!D)
    return D.takeError();
  for (const Range &R : Code) {
    ArrayRef<uint8_t> Bytes(reinterpret_cast<const uint8_t *>(Image.data()) +
                                R.Offset,
                            R.End - R.Begin);
    (*D)->sweep(Bytes, R.Begin,
                [&](const MCInst &I, uint64_t Address, unsigned Size) {
                  if (std::optional<uint64_t> Target =
                          (*D)->pcRelativeTarget(I, Address, Size))
                    Use(*Target);
                });
  }

  // Each stub: its jump stays if it is used, everything else becomes traps.
  // A section of another layout, or used elsewhere than at a stub's start,
  // stays as it is.
  unsigned Trapped = 0;
  for (const Range &R : Plt) {
    std::optional<StubLayout> L = stubLayout(R.Name);
    if (!L || R.End - R.Begin < L->Header ||
        (R.End - R.Begin - L->Header) % L->Stride != 0)
      continue;
    auto Stub = [&](uint64_t A) {
      return A >= R.Begin + L->Header &&
             (A - R.Begin - L->Header) % L->Stride == 0;
    };
    bool Regular = llvm::all_of(
        Used, [&](uint64_t A) { return !R.contains(A) || Stub(A); });
    for (uint64_t A = R.Begin + L->Header; Regular && A < R.End; A += L->Stride)
      Regular = Image[R.Offset + (A - R.Begin)] == '\xff' &&
                Image[R.Offset + (A - R.Begin) + 1] == '\x25';
    if (!Regular)
      continue;
    char *Bytes = Image.data() + R.Offset;
    std::fill_n(Bytes, L->Header, '\xcc');
    for (uint64_t A = R.Begin + L->Header; A < R.End; A += L->Stride) {
      bool Kept = Used.count(A);
      std::fill_n(Bytes + (A - R.Begin) + (Kept ? JumpSize : 0),
                  L->Stride - (Kept ? JumpSize : 0), '\xcc');
      Trapped += !Kept;
    }
  }
  return Trapped;
}

} // namespace divcc
