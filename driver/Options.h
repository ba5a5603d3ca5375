//===- Options.h - divcc's own command-line options -----------------------===//

#ifndef DIVCC_DRIVER_OPTIONS_H
#define DIVCC_DRIVER_OPTIONS_H

#include "driver/Config.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Allocator.h"
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
/// (without argv[0]), then applies \p Env's DIVCC_OPTIONS and
/// DIVCC_SEED_FILE. Errors name the offending option but never repeat a
/// secret.
llvm::Expected<ParsedCommandLine>
parseCommandLine(llvm::ArrayRef<const char *> Args,
                 const DivccEnvironment &Env);

/// The words of DIVCC_OPTIONS (divcc's own options, separated by white
/// space), which parseCommandLine applies after the command line's.
std::vector<std::string> environmentOptions(const DivccEnvironment &Env);

/// Loads the secret named in \p Cfg (or draws a fresh one) into Cfg.Key.
/// With no seed and nothing to diversify, Cfg.Key stays empty.
llvm::Error loadMasterKey(Config &Cfg, llvm::StringRef InlineSecret);

/// Whether \p Arg is one of the options that say where the seed comes from
/// (-frandom-seed=, -fdiversify-seed-file=, -fdiversify-key=).
bool isSeedOption(llvm::StringRef Arg);

/// \p Arg as it may be shown to anyone: the value of an option that holds a
/// secret (-frandom-seed=, -fdiversify-key=) becomes "<secret>".
std::string redactSecret(llvm::StringRef Arg);

/// Replaces each `@FILE` argument of \p Args by the arguments FILE holds,
/// recursively, quoted and escaped as GCC and clang read them. Expanded
/// strings live in \p Storage.
llvm::Error expandResponseFiles(llvm::SmallVectorImpl<const char *> &Args,
                                llvm::BumpPtrAllocator &Storage);

/// The text of `divcc --help`.
std::string helpText(llvm::StringRef ProgramName);

} // namespace divcc

#endif
