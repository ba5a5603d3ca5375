//===- AtomicOutput.cpp - Files that appear only when complete ------------===//

#include "support/AtomicOutput.h"

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
    Out.Direct = std::make_unique<raw_fd_ostream>(Path, EC);
    if (EC)
      return errorCodeToError(EC);
    return Out;
  }
  auto Temp = sys::fs::TempFile::create(Path + ".divcc-%%%%%%.tmp");
  if (!Temp)
    return Temp.takeError();
  Out.Temp.emplace(std::move(*Temp));
  Out.TempOS =
      std::make_unique<raw_fd_ostream>(Out.Temp->FD, /*shouldClose=*/false);
  return Out;
}

Error AtomicOutput::commit() {
  raw_fd_ostream &OS = Temp ? *TempOS : *Direct;
  OS.flush();
  if (OS.has_error())
    return errorCodeToError(OS.error());
  return Temp ? Temp->keep(Path) : Error::success();
}

AtomicOutput::~AtomicOutput() {
  if (Temp)
    consumeError(Temp->discard());
}

Error writeFileAtomically(StringRef Path, StringRef Contents) {
  auto Out = AtomicOutput::create(Path);
  if (!Out)
    return Out.takeError();
  Out->os() << Contents;
  return Out->commit();
}

} // namespace divcc
