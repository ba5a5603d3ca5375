//===- divtool.cpp - divcc's companion tool -------------------------------===//
//
// divtool works on what divcc builds: it measures how much a population of
// variants resists code reuse (audit), builds populations of variants with
// a registry (population), and answers questions about a shipped variant
// (verify, identify, symbolize), and times benchmarks over layout variants
// (perf), and finds the variants that break a project's tests (test); it
// also manages divcc's front-end cache (cache). Each subcommand is in its
// own folder.
//
//===----------------------------------------------------------------------===//

#include "divtool/Subcommands.h"

#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

using namespace divcc;

int main(int Argc, char **Argv) {
  setProgramName("divtool");
  CLI::App Divtool("divtool: measure and manage diversified builds made by "
                   "divcc",
                   "divtool");
  Divtool.set_version_flag("--version", "divtool " DIVCC_VERSION);
  Divtool.require_subcommand(1);
  Divtool.footer("Run 'divtool SUBCOMMAND --help' for a subcommand's "
                 "options. Manual: docs/divtool.md.");
  RunSubcommand Run;
  addAuditSubcommand(Divtool, Run);
  addCacheSubcommand(Divtool, Run);
  addPopulationSubcommand(Divtool, Run);
  addVerifySubcommand(Divtool, Run);
  addIdentifySubcommand(Divtool, Run);
  addSymbolizeSubcommand(Divtool, Run);
  addRerandomizeSubcommand(Divtool, Run);
  addPerfSubcommand(Divtool, Run);
  addTestSubcommand(Divtool, Run);

  // CLI11 would only say "a subcommand is required".
  if (Argc > 1 && Argv[1][0] != '-') {
    std::string Known;
    bool Found = false;
    for (const CLI::App *Sub : Divtool.get_subcommands({})) {
      Found |= Sub->get_name() == Argv[1];
      Known += (Known.empty() ? "" : ", ") + Sub->get_name();
    }
    if (!Found) {
      printError("unknown subcommand '" + llvm::Twine(Argv[1]) +
                 "' (known: " + Known + ")");
      return 2;
    }
  }

  try {
    Divtool.parse(Argc, Argv);
  } catch (const CLI::Success &E) { // --help, --version
    return Divtool.exit(E);
  } catch (const CLI::ParseError &E) {
    printError(E.what());
    llvm::errs() << "Run 'divtool --help' for usage.\n";
    return 2;
  }
  for (const CLI::App *Sub : Divtool.get_subcommands())
    setCommandName("divtool " + Sub->get_name());
  // The DIVCC_* variables are read here, once; subcommands get the values.
  return Run(DivccEnvironment::fromProcess());
}
