//===- AtomicOutput.h - Files that appear only when complete --------------===//
//
// Nothing divcc or divtool writes is ever seen half-written, and an
// interrupted run leaves the previous file in place (as ccache's AtomicFile).
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_SUPPORT_ATOMICOUTPUT_H
#define DIVCC_SUPPORT_ATOMICOUTPUT_H

#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>

namespace divcc {

/// An output file that appears under its final name only when complete: it
/// is written to a temporary file beside it and renamed. Outputs that are
/// not regular files (standard output, /dev/null, a pipe) are written
/// directly: renaming over them would replace the device or pipe.
class AtomicOutput {
public:
  static llvm::Expected<AtomicOutput> create(llvm::StringRef Path);

  llvm::raw_pwrite_stream &os() { return Temp ? *TempOS : *Direct; }
  /// Makes the output appear under its name. Without a commit, destruction
  /// removes the temporary file and leaves the old output as it was.
  llvm::Error commit();

  AtomicOutput(AtomicOutput &&) = default;
  ~AtomicOutput();

private:
  explicit AtomicOutput(llvm::StringRef P) : Path(P.str()) {}
  std::string Path;
  std::optional<llvm::sys::fs::TempFile> Temp;
  std::unique_ptr<llvm::raw_fd_ostream> TempOS; // writes Temp's descriptor
  std::unique_ptr<llvm::raw_fd_ostream> Direct; // or the output itself
};

/// Writes \p Contents to \p Path through an AtomicOutput.
llvm::Error writeFileAtomically(llvm::StringRef Path,
                                llvm::StringRef Contents);

} // namespace divcc

#endif
