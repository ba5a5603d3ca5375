//===- SeedFile.cpp - Reading and writing the files that hold secrets -----===//

#include "random/SeedFile.h"

#include "support/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"

#include <openssl/crypto.h>

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <unistd.h>

using namespace llvm;

namespace divcc {

SecretBuffer &SecretBuffer::operator=(SecretBuffer &&Other) {
  wipe();
  Bytes = std::move(Other.Bytes);
  return *this;
}

void SecretBuffer::wipe() {
  if (Bytes.capacity())
    OPENSSL_cleanse(Bytes.data(), Bytes.capacity());
  Bytes.clear();
}

Expected<SecretBuffer> readSecretFile(StringRef Path, StringRef Origin) {
  std::string Named = ("seed file '" + Path + "'").str();
  if (!Origin.empty())
    Named += (" (from " + Origin + ")").str();
  Expected<sys::fs::file_t> File = sys::fs::openNativeFileForRead(Path);
  if (!File)
    return makeError("cannot read " + Named,
                     errorToErrorCode(File.takeError()));
  SecretBuffer Secret;
  sys::fs::file_status Status;
  // Reserve first, so that no partial copy of the secret is left behind in
  // memory freed by growing the buffer.
  if (!sys::fs::status(*File, Status))
    Secret.Bytes.reserve(Status.getSize() + 1);
  Error E = sys::fs::readNativeFileToEOF(*File, Secret.Bytes);
  sys::fs::closeFile(*File);
  if (E)
    return makeError("cannot read " + Named, errorToErrorCode(std::move(E)));
  if (Secret.Bytes.empty())
    return makeError(Named + " is empty");
  return Secret;
}

Expected<MasterKey> readSeedFile(StringRef Path, StringRef Origin) {
  Expected<SecretBuffer> Secret = readSecretFile(Path, Origin);
  if (!Secret)
    return Secret.takeError();
  return MasterKey::fromSecret(Secret->bytes());
}

Expected<PrivateDir> PrivateDir::create(StringRef Prefix) {
  SmallString<256> Template;
  sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Template);
  sys::path::append(Template, Prefix + "-XXXXXX");
  // mkdtemp creates the directory with mode 0700.
  if (!::mkdtemp(const_cast<char *>(Template.c_str())))
    return makeError("cannot create a temporary directory in '" +
                         sys::path::parent_path(Template) + "'",
                     std::error_code(errno, std::generic_category()));
  PrivateDir Dir;
  Dir.Path = std::string(Template);
  return Dir;
}

PrivateDir::PrivateDir(PrivateDir &&Other)
    : Path(std::move(Other.Path)), Secrets(std::move(Other.Secrets)),
      Kept(Other.Kept) {
  Other.Path.clear();
  Other.Secrets.clear();
}

PrivateDir::~PrivateDir() {
  for (const std::string &File : std::vector<std::string>(Secrets))
    removeSecret(File);
  if (!Path.empty() && !Kept)
    sys::fs::remove_directories(Path, /*IgnoreErrors=*/true);
}

Expected<std::string> PrivateDir::writeSecret(StringRef Name,
                                              ArrayRef<uint8_t> Bytes) {
  SmallString<256> File(Path);
  sys::path::append(File, Name);
  int Fd = ::open(File.c_str(),
                  O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (Fd < 0)
    return makeError("cannot create a seed file in '" + Path + "'",
                     std::error_code(errno, std::generic_category()));
  Secrets.push_back(std::string(File));
  sys::RemoveFileOnSignal(File);
  size_t Done = 0;
  while (Done < Bytes.size()) {
    ssize_t N = ::write(Fd, Bytes.data() + Done, Bytes.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      std::error_code EC(errno, std::generic_category());
      ::close(Fd);
      removeSecret(File);
      return makeError("cannot write a seed file in '" + Path + "'", EC);
    }
    Done += N;
  }
  ::close(Fd);
  return std::string(File);
}

void PrivateDir::removeSecret(StringRef File) {
  sys::fs::remove(File);
  sys::DontRemoveFileOnSignal(File);
  llvm::erase(Secrets, File.str());
}

} // namespace divcc
