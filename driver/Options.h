//===- Options.h - divcc's own command-line options -----------------------===//

#ifndef DIVCC_DRIVER_OPTIONS_H
#define DIVCC_DRIVER_OPTIONS_H

#include "driver/Config.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace divcc {

/// What is left of the command line once divcc's own options are taken out.
struct ParsedCommandLine {
  Config Cfg;
  std::vector<std::string> ClangArgs; // everything else, in order, for clang
  bool Help = false;                  // --help
  bool Version = false;               // --version
};

/// Takes divcc's options (see the table in Options.cpp) out of \p Args
/// (without argv[0]), then applies DIVCC_OPTIONS and reads DIVCC_SEED_FILE.
/// Errors name the offending option but never repeat a secret.
llvm::Expected<ParsedCommandLine> parseCommandLine(llvm::ArrayRef<const char *> Args);

/// The words of DIVCC_OPTIONS (divcc's own options, separated by white
/// space), which parseCommandLine applies after the command line's.
std::vector<std::string> environmentOptions();

/// Loads the secret named in \p Cfg (or draws a fresh one) into Cfg.Key.
/// With no seed and nothing to diversify, Cfg.Key stays empty.
llvm::Error loadMasterKey(Config &Cfg, llvm::StringRef InlineSecret);

/// The text of `divcc --help`.
std::string helpText(llvm::StringRef ProgramName);

} // namespace divcc

#endif
