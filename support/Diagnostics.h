//===- Diagnostics.h - Errors and warnings under the program's name -------===//
//
// divcc, div++ and divtool print every diagnostic the same way, lld-style:
// "PROGRAM: error: MESSAGE", lower case, the offending value quoted.
// Informational lines (progress, summaries) name the command that prints
// them instead: "divtool rerandomize: MESSAGE" (printNote, noteStream). The
// program's name is set once, in main; layers below build llvm::Error
// values (makeError) and hand them up, and only the program's top level
// prints them (printError, reportError). report_fatal_error is kept for
// broken invariants, never for user input.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_SUPPORT_DIAGNOSTICS_H
#define DIVCC_SUPPORT_DIAGNOSTICS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <system_error>

namespace divcc {

/// Names the program in diagnostics ("divcc", "div++", "divtool"). Set once,
/// in main, before anything is printed; "divcc" until then.
void setProgramName(llvm::StringRef Name);
llvm::StringRef programName();

/// Names the running command in informational lines ("divtool audit"); the
/// program's name until set.
void setCommandName(llvm::StringRef Name);
llvm::StringRef commandName();

/// An error with \p Message, for a caller to print or wrap.
llvm::Error makeError(const llvm::Twine &Message);
/// "WHAT: SYSTEM MESSAGE", keeping \p EC for callers that test it.
llvm::Error makeError(const llvm::Twine &What, std::error_code EC);

enum class Severity { Error, Warning };

/// "PROGRAM: error: MESSAGE" (or "warning:"), without a newline.
std::string formatDiagnostic(Severity S, const llvm::Twine &Message);

/// Prints "PROGRAM: error: MESSAGE" on stderr for each error in \p E.
void printError(llvm::Error E);
void printError(const llvm::Twine &Message);
void printWarning(const llvm::Twine &Message);

/// Prints \p E as printError does; returns 1, the exit status of a command
/// that failed on bad input or a failed step.
int reportError(llvm::Error E);

/// 0 for success; else prints \p E as printError does and returns 1.
int exitCodeFor(llvm::Error E);

/// A failure whose diagnostics were printed as they came, by clang's or
/// LLVM's diagnostic engine: it carries the failure up to the one place
/// that picks the exit status, and printError prints nothing more for it.
llvm::Error alreadyReportedError();

/// Prints "COMMAND: MESSAGE" on stderr: an informational line (progress, a
/// summary), not a diagnostic.
void printNote(const llvm::Twine &Message);
/// Starts such a line on stderr, after "COMMAND: "; the caller ends it with
/// a newline.
llvm::raw_ostream &noteStream();

} // namespace divcc

#endif
