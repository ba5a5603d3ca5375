//===- FunctionTable.cpp - A binary's functions, compared across rebuilds -===//

#include "divtool/population/FunctionTable.h"

#include "analysis/ElfImage.h"
#include "analysis/Gadgets.h"
#include "support/Diagnostics.h"

#include "llvm/MC/MCInst.h"
#include "llvm/Object/ELFObjectFile.h"

using namespace llvm;

namespace divcc {

Expected<FunctionTable> FunctionTable::read(StringRef Path) {
  FunctionTable T;
  Expected<object::OwningBinary<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(Path);
  if (!Obj)
    return Obj.takeError();
  auto *Elf = dyn_cast<object::ELFObjectFileBase>(Obj->getBinary());
  if (!Elf)
    return makeError("'" + Path + "' is not an ELF file");
  for (const object::ELFSymbolRef &S : Elf->symbols()) {
    Expected<object::SymbolRef::Type> Type = S.getType();
    Expected<StringRef> Name = S.getName();
    Expected<uint64_t> Address = S.getAddress();
    Expected<object::section_iterator> Section = S.getSection();
    if (!Type || !Name || !Address || !Section ||
        *Type != object::SymbolRef::ST_Function || S.getSize() == 0 ||
        *Section == Elf->section_end()) {
      consumeError(Type.takeError());
      consumeError(Name.takeError());
      consumeError(Address.takeError());
      consumeError(Section.takeError());
      continue;
    }
    T.Functions.push_back({Name->str(), 0, *Address, S.getSize(),
                           sectionBytes(**Section, *Address, S.getSize())});
  }
  llvm::sort(T.Functions, [](const Function &A, const Function &B) {
    return std::tie(A.Address, A.Name) < std::tie(B.Address, B.Name);
  });
  StringMap<unsigned> Seen;
  for (Function &F : T.Functions)
    F.Rank = Seen[F.Name]++;
  T.File = std::move(*Obj);
  return T;
}

const FunctionTable::Function *FunctionTable::at(uint64_t Address) const {
  for (const Function &F : Functions)
    if (Address >= F.Address && Address - F.Address < F.Size)
      return &F;
  return nullptr;
}

const FunctionTable::Function *FunctionTable::find(StringRef Name,
                                                   unsigned Rank) const {
  for (const Function &F : Functions)
    if (F.Name == Name && F.Rank == Rank)
      return &F;
  return nullptr;
}

std::string FunctionTable::placeOf(uint64_t Address) const {
  if (const Function *F = at(Address))
    return "function " + F->Name + "#" + std::to_string(F->Rank) + "+" +
           std::to_string(Address - F->Address);
  for (const object::SectionRef &Sec : File.getBinary()->sections()) {
    auto Elf = object::ELFSectionRef(Sec);
    if (!(Elf.getFlags() & ELF::SHF_ALLOC) || Address < Sec.getAddress() ||
        Address - Sec.getAddress() >= std::max<uint64_t>(Sec.getSize(), 1))
      continue;
    Expected<StringRef> Name = Sec.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    return "section " + Name->str() + "+" +
           std::to_string(Address - Sec.getAddress());
  }
  return "address " + std::to_string(Address);
}

Expected<std::unique_ptr<Disassembler>> FunctionTable::disassembler() const {
  return Disassembler::create(File.getBinary()->getArch());
}

bool sameCode(const FunctionTable &FTable, const FunctionTable::Function &F,
              const FunctionTable &GTable, const FunctionTable::Function &G,
              const Disassembler &D) {
  if (F.Bytes.empty() || F.Bytes.size() != G.Bytes.size())
    return false;
  if (F.Bytes == G.Bytes)
    return true;
  ArrayRef<uint8_t> FCode = arrayRefFromStringRef(F.Bytes),
                    GCode = arrayRefFromStringRef(G.Bytes);
  for (uint64_t Offset = 0; Offset < FCode.size();) {
    MCInst FI, GI;
    ArrayRef<uint8_t> FRest = FCode.drop_front(Offset),
                      GRest = GCode.drop_front(Offset);
    unsigned Size = D.decode(FRest, F.Address + Offset, FI);
    if (Size != D.decode(GRest, G.Address + Offset, GI))
      return false;
    // Bytes that decode to nothing (data in code) must be equal.
    unsigned Compared = std::max(Size, 1u);
    if (FRest.take_front(Compared) == GRest.take_front(Compared)) {
      Offset += Compared;
      continue;
    }
    if (Size == 0 || !D.sameExceptDisplacements(FI, GI))
      return false;
    std::optional<uint64_t> FTarget =
        D.pcRelativeTarget(FI, F.Address + Offset, Size);
    std::optional<uint64_t> GTarget =
        D.pcRelativeTarget(GI, G.Address + Offset, Size);
    if (!FTarget || !GTarget ||
        FTable.placeOf(*FTarget) != GTable.placeOf(*GTarget))
      return false;
    Offset += Size;
  }
  return true;
}

} // namespace divcc
