//===- CommandLine.h - Options and words divtool's subcommands share ------===//
//
// The options several subcommands take, declared once so that they read
// and behave alike everywhere (--source, --jobs, --seed-file, --keep,
// --progress, the command after '--'), and the shell words divtool prints
// and reads (a reproduction line, --build 'make CC=divcc').
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DIVTOOL_COMMANDLINE_H
#define DIVCC_DIVTOOL_COMMANDLINE_H

#include "divtool/Subcommands.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
} // namespace CLI

namespace divcc {

/// --golden, an install's golden master (verify, symbolize).
void addGoldenOption(CLI::App &Command, std::string &Golden);
/// --source/-s, the source tree to copy (default: the current directory).
void addSourceOption(CLI::App &Command, std::string &Source,
                     const std::string &Help = "The source tree to copy "
                                               "(default: the current "
                                               "directory)");
/// -j/--jobs, 1 to 256, default 1.
void addJobsOption(CLI::App &Command, unsigned &Jobs,
                   const std::string &Help = "Build J variants at a time");
/// --seed-file/-k, the master secret.
CLI::Option *addSeedFileOption(CLI::App &Command, std::string &SeedFile,
                               const std::string &Help);
/// --registry/-r, the population's registry, and --seed-file/-k, the master
/// secret it was built with, both required (verify, identify, symbolize).
void addRegistryOptions(CLI::App &Command, std::string &Registry,
                        std::string &SeedFile);
/// --keep.
void addKeepFlag(CLI::App &Command, bool &Keep, const std::string &Help);
/// --progress/--no-progress (default: whether stderr is a terminal).
void addProgressFlag(CLI::App &Command, std::optional<bool> &Progress,
                     const std::string &Help);
/// The command after '--' (a build, a benchmark, a test).
void addCommandArgument(CLI::App &Command, std::vector<std::string> &Words,
                        const std::string &Help);

/// Sets \p Run to \p Body with the parsed \p Values when \p Command is the
/// subcommand chosen.
template <typename Values>
void runWhenChosen(CLI::App &Command, RunSubcommand &Run,
                   std::shared_ptr<Values> C,
                   int (*Body)(const Values &, const DivccEnvironment &));

/// The real path of the source tree \p Dir (the current directory if
/// empty), which must be a directory.
llvm::Expected<std::string> resolveSourceTree(llvm::StringRef Dir);

/// \p S in single quotes, as one shell word whatever it holds.
std::string shellQuote(llvm::StringRef S);
/// \p Word as one shell word: as it is when that is safe, else quoted.
std::string shellWord(llvm::StringRef Word);
/// \p Words as a shell command line.
std::string shellJoin(llvm::ArrayRef<std::string> Words);
/// Splits a command given as one string (--build 'make CC=divcc') into
/// words as a shell would (quotes and backslashes), without expanding
/// anything; an error naming \p Option if there are none.
llvm::Expected<std::vector<std::string>> splitCommand(llvm::StringRef Text,
                                                      llvm::StringRef Option);

} // namespace divcc

#include <CLI/CLI.hpp>

template <typename Values>
void divcc::runWhenChosen(CLI::App &Command, RunSubcommand &Run,
                          std::shared_ptr<Values> C,
                          int (*Body)(const Values &,
                                      const DivccEnvironment &)) {
  Command.callback([&Run, C, Body] {
    Run = [C, Body](const DivccEnvironment &Env) { return Body(*C, Env); };
  });
}

#endif
