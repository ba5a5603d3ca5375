//===- ElfPatch.cpp - Small patches to a linked ELF image in memory -------===//

#include "support/ElfPatch.h"

#include "support/Diagnostics.h"
#include "support/Sha256.h"

#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Endian.h"

using namespace llvm;

namespace divcc {

Expected<std::optional<std::pair<uint64_t, uint64_t>>>
sectionInFile(ArrayRef<char> Image, StringRef Name) {
  Expected<std::unique_ptr<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(
          MemoryBufferRef(StringRef(Image.data(), Image.size()), "install"));
  if (!Obj)
    return Obj.takeError();
  for (const object::SectionRef &Sec : (*Obj)->sections()) {
    Expected<StringRef> SecName = Sec.getName();
    if (!SecName) {
      consumeError(SecName.takeError());
      continue;
    }
    if (*SecName != Name || Sec.isBSS())
      continue;
    uint64_t Offset = object::ELFSectionRef(Sec).getOffset();
    if (Offset + Sec.getSize() > Image.size())
      return makeError("section " + Name + " is out of the file");
    return std::make_pair(Offset, Sec.getSize());
  }
  return std::nullopt;
}

Error blankSection(MutableArrayRef<char> Image, StringRef Name) {
  auto Where = sectionInFile(Image, Name);
  if (!Where)
    return Where.takeError();
  if (*Where)
    std::fill_n(Image.data() + (*Where)->first, (*Where)->second, 0);
  return Error::success();
}

Error setBuildIdToDigest(MutableArrayRef<char> Image) {
  auto Where = sectionInFile(Image, ".note.gnu.build-id");
  if (!Where)
    return Where.takeError();
  if (!*Where)
    return Error::success();
  auto [Offset, Size] = **Where;
  if (Size < 16)
    return makeError("the build id note is malformed");
  uint32_t NameSize = support::endian::read32le(Image.data() + Offset);
  uint32_t DescSize = support::endian::read32le(Image.data() + Offset + 4);
  uint64_t Desc = Offset + 12 + alignTo(NameSize, 4);
  if (Desc + DescSize > Offset + Size || DescSize > sizeof(Sha256Digest))
    return makeError("the build id note is malformed");
  std::fill_n(Image.data() + Desc, DescSize, 0);
  Expected<object::ELF64LEFile> Elf =
      object::ELF64LEFile::create(StringRef(Image.data(), Image.size()));
  if (!Elf)
    return Elf.takeError();
  auto Headers = Elf->program_headers();
  if (!Headers)
    return Headers.takeError();
  Sha256 H;
  for (const object::ELF64LE::Phdr &P : *Headers) {
    if (P.p_type != ELF::PT_LOAD)
      continue;
    if (P.p_offset + P.p_filesz > Image.size())
      return makeError("a segment is out of the file");
    uint64_t Begin = std::max<uint64_t>(P.p_offset, sizeof(ELF::Elf64_Ehdr));
    uint64_t End = std::max<uint64_t>(P.p_offset + P.p_filesz, Begin);
    uint8_t Header[16];
    support::endian::write64le(Header, P.p_vaddr);
    support::endian::write64le(Header + 8, P.p_filesz);
    H.update(ArrayRef<uint8_t>(Header));
    H.update(ArrayRef<uint8_t>(
        reinterpret_cast<const uint8_t *>(Image.data()) + Begin, End - Begin));
  }
  Sha256Digest D = H.final();
  std::copy_n(D.begin(), DescSize, Image.data() + Desc);
  return Error::success();
}

} // namespace divcc
