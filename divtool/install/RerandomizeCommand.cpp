//===- RerandomizeCommand.cpp - `divtool rerandomize`: a layout per install
//===//
//
// divtool rerandomize --seed-file K --install ID GOLDEN -o OUT
//
// Lays out a golden master (divcc -fdiversify-golden) again for one install,
// with LLVM BOLT, under the secret in K and the install's id (see
// divtool/install/InstallLayout.h). Standard error summarizes what moved;
// nothing printed depends on the secret beyond what the output itself is.
//
//===----------------------------------------------------------------------===//

#include "divtool/CommandLine.h"
#include "divtool/Subcommands.h"
#include "divtool/install/InstallLayout.h"
#include "random/SeedFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

using namespace llvm;

namespace divcc {
namespace {

struct RerandomizeCommandLine {
  std::string SeedFile;
  std::string Install;
  std::string Golden;
  std::string Output;
  InstallOptions Options;
};

int runRerandomizeCommand(const RerandomizeCommandLine &C,
                          const DivccEnvironment &) {
  Expected<MasterKey> Key = readSeedFile(C.SeedFile);
  if (!Key)
    return reportError(Key.takeError());
  Expected<InstallResult> R =
      layOutInstall(C.Golden, *Key, C.Install, C.Output, C.Options);
  if (!R)
    return reportError(R.takeError());
  errs() << "divtool rerandomize: install '" << C.Install
         << "': " << R->Functions << " functions in a new order";
  if (!R->LeftInPlace.empty())
    errs() << ", " << R->LeftInPlace.size()
           << " left where they were (BOLT cannot move them): "
           << join(R->LeftInPlace, ", ");
  double Growth =
      R->GoldenSize ? double(R->OutputSize) / double(R->GoldenSize) - 1 : 0.0;
  errs() << "; " << R->GoldenSize << " -> " << R->OutputSize << " bytes ("
         << format("%+.1f%%", Growth * 100) << ", "
         << (R->FitInOldText ? "in the golden master's .text"
                             : "in a new segment: the new code did not fit")
         << (R->FunctionAlignment == 1 ? ", functions unaligned to fit" : "")
         << ")\n";
  if (!R->WorkDir.empty())
    errs() << "divtool rerandomize: working directory kept in '" << R->WorkDir
           << "'\n";
  outs() << R->OutputSha256 << "  " << C.Output << "\n";
  return 0;
}

} // namespace

void addRerandomizeSubcommand(CLI::App &Divtool, RunSubcommand &Run) {
  auto C = std::make_shared<RerandomizeCommandLine>();
  CLI::App *Command = Divtool.add_subcommand(
      "rerandomize", "Lay out a golden master's code again for one install "
                     "(LLVM BOLT), from the master secret and the install id");
  addSeedFileOption(*Command, C->SeedFile,
                    "The master secret (as for population)")
      ->required();
  Command
      ->add_option("--install", C->Install,
                   "The install's id: another id, another layout")
      ->required();
  Command->add_option("-o,--output", C->Output, "The file to write")
      ->required();
  Command->add_option("--bolt", C->Options.Bolt,
                      "The llvm-bolt program (default: llvm-bolt-19)");
  addKeepFlag(*Command, C->Options.Keep,
              "Keep BOLT's working directory (its log; never the secret "
              "order)");
  Command
      ->add_option("golden", C->Golden,
                   "The golden master (linked with divcc -fdiversify-golden)")
      ->required();
  Command->footer(
      "Every function of GOLDEN moves, in an order drawn from the stream of "
      "(secret, GOLDEN's SHA-256, ID), into the space of GOLDEN's own .text "
      "where it fits; the original code left behind becomes traps. A "
      "function BOLT cannot move stays where it was and is named on stderr. "
      "The same GOLDEN, secret and ID give the same bytes; the build id is a "
      "digest of them. Prints the SHA-256 and name of OUT."
      "\n\nExit status: 0 on success, 1 on bad input or a failed rewrite, 2 "
      "on a usage error.");
  runWhenChosen(*Command, Run, C, runRerandomizeCommand);
}

} // namespace divcc
