//===- Artifacts.cpp - What the registry records of a built file ----------===//

#include "registry/Artifacts.h"

#include "registry/Fingerprints.h"
#include "support/AtomicOutput.h"
#include "support/Diagnostics.h"
#include "support/ElfRewrite.h"
#include "support/Sha256.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ObjCopy/CommonConfig.h"
#include "llvm/Object/BuildID.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <sys/stat.h>

using namespace llvm;

namespace divcc {

Expected<std::string> fileSha256(StringRef Path) {
  auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return makeError("cannot read '" + Path + "'", Buffer.getError());
  return toHex(Sha256::digest((*Buffer)->getBuffer()));
}

std::string codeSha256(const ElfImage &Image) {
  Sha256 H;
  for (const CodeSegment &S : Image.code()) {
    uint8_t Header[16];
    support::endian::write64le(Header, S.Address);
    support::endian::write64le(Header + 8, S.Bytes.size());
    H.update(ArrayRef<uint8_t>(Header));
    H.update(S.Bytes);
  }
  return toHex(H.final());
}

std::vector<uint64_t> codeFingerprints(const ElfImage &Image) {
  std::vector<uint64_t> Hashes;
  for (const CodeSegment &S : Image.code())
    addFingerprints(S.Bytes, Hashes);
  sortUnique(Hashes);
  return Hashes;
}

/// Writes what llvm-objcopy with \p Configure's settings makes of the ELF
/// file \p From to \p To (atomically, with \p From's mode); returns the
/// SHA-256 of what was written.
static Expected<std::string>
writeObjcopy(StringRef From, StringRef To, StringRef What,
             function_ref<void(objcopy::CommonConfig &)> Configure) {
  Expected<SmallVector<char, 0>> Output = rewriteElf(From, Configure);
  if (!Output)
    return makeError("cannot " + What + " '" + From +
                     "': " + toString(Output.takeError()));
  StringRef Bytes(Output->data(), Output->size());
  if (std::error_code EC =
          sys::fs::create_directories(sys::path::parent_path(To)))
    return makeError("cannot create '" + sys::path::parent_path(To) + "'", EC);
  if (Error E = writeFileAtomically(To, Bytes))
    return makeError("cannot write '" + To + "': " + toString(std::move(E)));
  struct stat St;
  if (::stat(From.str().c_str(), &St) == 0)
    ::chmod(To.str().c_str(), St.st_mode & 07777);
  return toHex(Sha256::digest(Bytes));
}

/// Writes a copy of the ELF file \p From without symbols and debug
/// information (llvm-strip's default) to \p To; returns its SHA-256.
static Expected<std::string> writeStrippedCopy(StringRef From, StringRef To) {
  return writeObjcopy(From, To, "strip", [](objcopy::CommonConfig &Common) {
    Common.StripAll = true;
  });
}

Expected<ArtifactRecord> examineArtifact(StringRef Tree, StringRef Relative,
                                         StringRef StripTo) {
  SmallString<256> Path(Tree);
  sys::path::append(Path, Relative);
  ArtifactRecord A;
  A.Path = Relative.str();
  auto Buffer = MemoryBuffer::getFile(Path, false, false);
  if (!Buffer)
    return makeError("cannot read artifact '" + Path + "'", Buffer.getError());
  A.Size = (*Buffer)->getBufferSize();
  A.Sha256 = toHex(Sha256::digest((*Buffer)->getBuffer()));
  Expected<ElfImage> Image = ElfImage::open(Path);
  if (!Image) {
    // Not a binary divtool reads (an archive, a data file): recorded by
    // its hash alone.
    consumeError(Image.takeError());
    return A;
  }
  A.CodeSha256 = codeSha256(*Image);
  A.Fingerprints = codeFingerprints(*Image);
  if (!StripTo.empty()) {
    Expected<std::string> Stripped = writeStrippedCopy(Path, StripTo);
    if (!Stripped)
      return Stripped.takeError();
    A.StrippedSha256 = *Stripped;
  }
  return A;
}

/// The object file \p Path, or none (with its error dropped): the questions
/// below have an answer for any file, "no" for one that is not an object.
static std::optional<object::OwningBinary<object::ObjectFile>>
openObject(StringRef Path) {
  Expected<object::OwningBinary<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(Path);
  if (!Obj) {
    consumeError(Obj.takeError());
    return std::nullopt;
  }
  return std::move(*Obj);
}

bool hasLineTables(StringRef Path) {
  std::optional<object::OwningBinary<object::ObjectFile>> Obj =
      openObject(Path);
  if (!Obj)
    return false;
  for (const object::SectionRef &S : Obj->getBinary()->sections()) {
    Expected<StringRef> Name = S.getName();
    if (Name && *Name == ".debug_line" && S.getSize() > 0)
      return true;
    if (!Name)
      consumeError(Name.takeError());
  }
  return false;
}

std::string buildIdOf(StringRef Path) {
  std::optional<object::OwningBinary<object::ObjectFile>> Obj =
      openObject(Path);
  if (!Obj)
    return "";
  return toHex(object::getBuildID(Obj->getBinary()), /*LowerCase=*/true);
}

std::string keptDebugFile(StringRef Root, StringRef BuildId) {
  SmallString<256> File(Root);
  sys::path::append(File, ".build-id", BuildId.take_front(2),
                    BuildId.drop_front(2) + ".debug");
  return std::string(File);
}

Expected<std::string> keepDebugInfo(StringRef Path, StringRef Root) {
  std::string BuildId = buildIdOf(Path);
  // A build id of one byte would name no file in the layout.
  if (BuildId.size() < 4 || !hasLineTables(Path))
    return "";
  std::string File = keptDebugFile(Root, BuildId);
  Expected<std::string> Written = writeObjcopy(
      Path, File, "keep the debug information of",
      [](objcopy::CommonConfig &Common) { Common.OnlyKeepDebug = true; });
  if (!Written)
    return Written.takeError();
  // Debug files are data, whatever the binary's mode.
  ::chmod(File.c_str(), 0644);
  return File;
}

} // namespace divcc
