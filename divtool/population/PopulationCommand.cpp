//===- PopulationCommand.cpp - `divtool population`: one per customer -----===//
//
// Builds N variants of a project through its own build command, each in its
// own copy of the source tree with its own seed, J at a time, and records
// them in the registry (registry/Registry.h). Variants share divcc's
// front-end cache, so that only the first one runs clang's front end.
// The building itself is buildPopulation (Population.h), which `divtool
// perf` and `divtool test` share; this file is the command line around it.
//
// Debug information is kept by default: a crash report from a customer's
// stripped binary can only be read with it, and rebuilding from the seed
// is slow and, where clang's -g changes code, incomplete (symbolize).
// Each variant is built with -g; what ships is stripped, and the debug
// information goes to a build-id tree beside the registry.
//
//===----------------------------------------------------------------------===//

#include "divtool/CommandLine.h"
#include "divtool/Subcommands.h"
#include "divtool/population/Population.h"
#include "random/SeedFile.h"

#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

using namespace llvm;

namespace divcc {
namespace {

int runPopulationCommand(const PopulationOptions &C,
                         const DivccEnvironment &Env) {
  if (C.Command.empty())
    return reportError(makeError("no build command: give it after '--', e.g. "
                                 "divtool population ... -- make CC=divcc"));
  if (Error E = checkPopulationOptions(C))
    return reportError(std::move(E));
  Expected<MasterKey> Key = readSeedFile(C.SeedFile);
  if (!Key)
    return reportError(Key.takeError());
  Expected<PopulationBuilt> Built = buildPopulation(C, *Key, Env);
  if (!Built)
    return reportError(Built.takeError());
  if (unsigned Failed = Built->Failed) {
    printError(Twine(Failed) + " variant" + (Failed == 1 ? "" : "s") +
               " failed to build; their trees and logs are kept in " +
               Built->Out + "/variants");
    return 1;
  }
  return 0;
}

} // namespace

void addPopulationSubcommand(CLI::App &Divtool, RunSubcommand &Run) {
  auto C = std::make_shared<PopulationOptions>();
  CLI::App *Pop = Divtool.add_subcommand(
      "population", "Build N variants of a project, one per customer, and "
                    "record them in a registry");
  Pop->add_option("--count,-n", C->Count, "How many variants to build")
      ->required()
      ->check(CLI::Range(1u, 100000u));
  Pop->add_option("--out,-o", C->Out,
                  "The population's directory: variants/ID/tree, the "
                  "registry, the shared front-end cache")
      ->required();
  addSeedFileOption(*Pop, C->SeedFile,
                    "The master secret: every variant's seed is derived from "
                    "its bytes and the variant's id")
      ->required();
  Pop->add_option("--label,-l", C->Labels,
                  "A label for the next variant (e.g. a customer); repeat it, "
                  "one per variant in order")
      ->allow_extra_args(false);
  addJobsOption(*Pop, C->Jobs);
  Pop->add_option("--artifact,-a", C->Artifacts,
                  "An output to record, relative to the tree (default: every "
                  "ELF executable or shared object the build creates)")
      ->allow_extra_args(false);
  addSourceOption(*Pop, C->Source);
  Pop->add_option("--registry", C->Registry,
                  "The registry (default: DIR/registry.sqlite)");
  Pop->add_option("--launcher", C->Launcher,
                  std::string("Run each compile through this command, e.g. "
                              "distcc (sets ") +
                      EnvPrefix +
                      ": compile hosts get a key derived from the variant's "
                      "seed, never a seed)");
  Pop->add_flag("--strip", C->Strip,
                "Also write a stripped copy of each artifact to "
                "DIR/ship/ID/, and record its hash (implied unless "
                "--no-keep-debug)");
  C->KeepDebug = true;
  Pop->add_flag("--keep-debug,!--no-keep-debug", C->KeepDebug,
                "Build each variant with -g, ship it stripped (DIR/ship/ID/) "
                "and keep its debug information in "
                "DIR/.build-id/XX/REST.debug, by GNU build id, for "
                "symbolize, gdb and debuginfod (default: on)");
  addProgressFlag(*Pop, C->Progress,
                  "Show a progress line on stderr (default: when it is a "
                  "terminal)");
  addCommandArgument(*Pop, C->Command,
                     "The build command, after '--' (e.g. make CC=divcc)");
  Pop->footer(
      std::string("Each variant gets a copy of the source tree in "
                  "DIR/variants/ID/tree (ids v0001, v0002... continuing the "
                  "registry's numbering), where the build command runs with ") +
      EnvSeedFile +
      " naming a private file that holds the variant's seed (removed when "
      "the build ends) and " +
      EnvCacheDir +
      "=DIR/cache unless set. The build's output goes to "
      "DIR/variants/ID/build.log. Unless --no-keep-debug, every divcc or "
      "div++ the build runs by name adds -g; the stripped artifacts go to "
      "DIR/ship/ID/ and their debug information to DIR/.build-id/ (DIR being "
      "the registry's directory), where gdb (set debug-file-directory), "
      "eu-stack and debuginfod -F find it.\n\nExit status: 0 when every "
      "variant was "
      "built, 1 on bad input or when a variant failed (the others are "
      "recorded), 2 on a usage error.");
  runWhenChosen(*Pop, Run, C, runPopulationCommand);
}

} // namespace divcc
