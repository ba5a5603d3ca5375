//===- AtomicOutput.cpp - Files that appear only when complete ------------===//

#include "support/AtomicOutput.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Signals.h"

#include <utility>

using namespace llvm;

namespace divcc {

Expected<AtomicOutput> AtomicOutput::create(StringRef Path) {
  AtomicOutput Out(Path);
  sys::fs::file_status Status;
  bool Special = Path == "-" || (!sys::fs::status(Path, Status) &&
                                 sys::fs::exists(Status) &&
                                 !sys::fs::is_regular_file(Status));
  if (Special) {
    std::error_code EC;
    Out.OS = std::make_unique<raw_fd_ostream>(Path, EC);
    if (EC)
      return errorCodeToError(EC);
    return Out;
  }
  int FD;
  SmallString<128> TempPath;
  if (std::error_code EC = sys::fs::createUniqueFile(
          Path + ".divcc-%%%%%%.tmp", FD, TempPath))
    return errorCodeToError(EC);
  Out.TempPath = std::string(TempPath);
  sys::RemoveFileOnSignal(Out.TempPath);
  Out.OS = std::make_unique<raw_fd_ostream>(FD, /*shouldClose=*/true);
  return Out;
}

AtomicOutput::AtomicOutput(AtomicOutput &&Other)
    : Path(std::move(Other.Path)), TempPath(std::exchange(Other.TempPath, {})),
      OS(std::move(Other.OS)) {}

Error AtomicOutput::commit() {
  // Flush, check, close, check again (a file system may report a failed
  // write only then), and only then rename.
  if (TempPath.empty())
    OS->flush();
  else
    OS->close();
  std::error_code EC = OS->error();
  OS->clear_error(); // reported here, once
  OS.reset();
  if (EC) {
    discard();
    return errorCodeToError(EC);
  }
  if (TempPath.empty())
    return Error::success();
  if ((EC = sys::fs::rename(TempPath, Path))) {
    discard();
    return errorCodeToError(EC);
  }
  sys::DontRemoveFileOnSignal(TempPath);
  TempPath.clear();
  return Error::success();
}

void AtomicOutput::discard() {
  if (OS) {
    // Whatever the stream still holds goes to a file about to be removed;
    // its error has been reported or does not matter any more.
    if (!TempPath.empty())
      OS->close();
    else
      OS->flush();
    OS->clear_error();
    OS.reset();
  }
  if (!TempPath.empty()) {
    sys::fs::remove(TempPath);
    sys::DontRemoveFileOnSignal(TempPath);
    TempPath.clear();
  }
}

AtomicOutput::~AtomicOutput() { discard(); }

Error writeFileAtomically(StringRef Path, StringRef Contents) {
  auto Out = AtomicOutput::create(Path);
  if (!Out)
    return Out.takeError();
  Out->os() << Contents;
  return Out->commit();
}

} // namespace divcc
