//===- Subcommands.h - The subcommands of divtool -------------------------===//
//
// Each subcommand lives in its own folder and adds itself to divtool's
// command line: its options, its help, and what to run when it is chosen.
// The run function gets the DIVCC_* variables divtool's main read, and
// returns the process exit status: 0 for success, 1 for bad input or a
// failed step (after printing "divtool: error: ...", support/Diagnostics.h),
// other values as the subcommand documents.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DIVTOOL_SUBCOMMANDS_H
#define DIVCC_DIVTOOL_SUBCOMMANDS_H

#include "support/Diagnostics.h"
#include "support/Environment.h"

#include "llvm/Support/Error.h"

#include <functional>

namespace CLI {
class App;
}

namespace divcc {

using RunSubcommand = std::function<int(const DivccEnvironment &)>;

/// Adds `audit` to \p Divtool; \p Run is set to it when it is chosen.
void addAuditSubcommand(CLI::App &Divtool, RunSubcommand &Run);

/// Adds `cache`.
void addCacheSubcommand(CLI::App &Divtool, RunSubcommand &Run);

/// Adds `population`, `verify`, `identify` and `symbolize`: building a
/// population of variants into a registry, and working with it
/// (divtool/population/).
void addPopulationSubcommand(CLI::App &Divtool, RunSubcommand &Run);
void addVerifySubcommand(CLI::App &Divtool, RunSubcommand &Run);
void addIdentifySubcommand(CLI::App &Divtool, RunSubcommand &Run);
void addSymbolizeSubcommand(CLI::App &Divtool, RunSubcommand &Run);

/// Adds `rerandomize`: a golden master laid out again for one install
/// (divtool/install/).
void addRerandomizeSubcommand(CLI::App &Divtool, RunSubcommand &Run);

/// Adds `perf`: timing a benchmark over layout variants (divtool/perf/).
void addPerfSubcommand(CLI::App &Divtool, RunSubcommand &Run);

/// Adds `test`: a project's tests run against variants, failures bisected
/// to a transformation and a function (divtool/test/).
void addTestSubcommand(CLI::App &Divtool, RunSubcommand &Run);

} // namespace divcc

#endif
