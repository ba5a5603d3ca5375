//===- AtomicOutput.h - Files that appear only when complete --------------===//
//
// Nothing divcc or divtool writes is ever seen half-written, and an
// interrupted run leaves the previous file in place (as ccache's AtomicFile).
//
// Invariants:
//   - The temporary file is written, flushed, checked and closed before it
//     is renamed: a full disk or a failing write (including one that shows
//     only when the descriptor is closed) is reported by commit(), and the
//     output keeps its previous contents.
//   - Whatever happens, the temporary file is gone when the AtomicOutput
//     is: renamed by a successful commit, removed otherwise (and, on SIGINT
//     or SIGTERM, by LLVM's signal handlers). Only SIGKILL can leave one.
//   - A write error is reported once, by commit(), and then cleared: the
//     stream never takes the process down with LLVM's "IO failure on output
//     stream" when it is destroyed.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_SUPPORT_ATOMICOUTPUT_H
#define DIVCC_SUPPORT_ATOMICOUTPUT_H

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace divcc {

/// An output file that appears under its final name only when complete: it
/// is written to a temporary file beside it and renamed. Outputs that are
/// not regular files (standard output, /dev/null, a pipe) are written
/// directly: renaming over them would replace the device or pipe.
///
/// Errors carry the system's message only ("No space left on device");
/// callers name the file.
class AtomicOutput {
public:
  static llvm::Expected<AtomicOutput> create(llvm::StringRef Path);

  llvm::raw_pwrite_stream &os() { return *OS; }
  /// Makes the output appear under its name. On failure, and without a
  /// commit, the temporary file is removed and the old output left as it
  /// was.
  llvm::Error commit();

  AtomicOutput(AtomicOutput &&Other);
  AtomicOutput &operator=(AtomicOutput &&) = delete;
  ~AtomicOutput();

private:
  explicit AtomicOutput(llvm::StringRef P) : Path(P.str()) {}
  /// Closes the stream, dropping any error, and removes the temporary file.
  void discard();

  std::string Path;
  /// Empty when writing directly, and once renamed or removed.
  std::string TempPath;
  /// Owns the temporary file's descriptor, or writes the output itself.
  std::unique_ptr<llvm::raw_fd_ostream> OS;
};

/// Writes \p Contents to \p Path through an AtomicOutput.
llvm::Error writeFileAtomically(llvm::StringRef Path,
                                llvm::StringRef Contents);

} // namespace divcc

#endif
