//===- RerandomizeCommand.cpp - `divtool rerandomize`: a layout per install
//===//
//
// divtool rerandomize --seed-file K --install ID GOLDEN -o OUT [-r REGISTRY]
//
// Lays out a golden master (divcc -fdiversify-golden) again for one install,
// with LLVM BOLT, under the secret in K and the install's id (see
// divtool/install/InstallLayout.h), and records it in the registry if one
// is named (InstallRecord.h). Standard error summarizes what moved; nothing
// printed depends on the secret beyond what the output itself is.
//
//===----------------------------------------------------------------------===//

#include "divtool/CommandLine.h"
#include "divtool/Subcommands.h"
#include "divtool/install/InstallLayout.h"
#include "divtool/install/InstallRecord.h"
#include "random/SeedFile.h"
#include "registry/Artifacts.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

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
  std::string Check;
  std::string Registry;
  bool Verbose = false;
  InstallOptions Options;
};

constexpr int DiffersStatus = 3;

/// --check INSTALLED: lays out again into a private directory and compares.
int checkInstall(const RerandomizeCommandLine &C, const MasterKey &Key) {
  Expected<PrivateDir> Dir = PrivateDir::create("divtool-check");
  if (!Dir)
    return reportError(Dir.takeError());
  std::string Again = Dir->path() + "/again";
  Expected<InstallResult> R =
      layOutInstall(C.Golden, Key, C.Install, Again, C.Options);
  if (!R)
    return reportError(R.takeError());
  Expected<std::string> Installed = fileSha256(C.Check);
  if (!Installed)
    return reportError(Installed.takeError());
  sys::fs::remove(Again);
  if (*Installed != R->OutputSha256) {
    noteStream() << "'" << C.Check
           << "' is not the layout of install '" << C.Install
           << "' of this golden master under this secret\n";
    return DiffersStatus;
  }
  noteStream() << "'" << C.Check << "' is install '" << C.Install
         << "' of this golden master, byte for byte\n";
  return 0;
}

/// Records the install just written to C.Output in C.Registry (created if
/// missing); an install already recorded must have the same bytes.
Error recordInRegistry(const RerandomizeCommandLine &C, const MasterKey &Key,
                       const InstallResult &R) {
  Expected<VariantRecord> Row =
      installRecord(C.Install, C.Golden, C.Output, C.Options, R);
  if (!Row)
    return Row.takeError();
  Expected<ArtifactRecord> Artifact =
      examineArtifact(Row->Tree, sys::path::filename(C.Output), /*StripTo=*/"");
  if (!Artifact)
    return Artifact.takeError();
  Expected<Registry> Reg =
      Registry::openOrCreate(C.Registry, populationKeyId(Key));
  if (!Reg)
    return Reg.takeError();
  if (Expected<std::vector<ArtifactRecord>> Known = Reg->artifacts(Row->Id);
      !Known || !Known->empty()) {
    if (!Known)
      return Known.takeError();
    if (Known->front().Sha256 != Artifact->Sha256)
      return makeError(
          "registry '" + C.Registry + "' records install '" + C.Install +
          "' of this golden master with other bytes (" +
          Known->front().Sha256.substr(0, 12) +
          "...): laid out with other options or another llvm-bolt?");
    noteStream() << "install '" << C.Install
           << "' was already recorded as " << Row->Id << "\n";
    return Error::success();
  }
  if (Error E = Reg->recordInstall(*Row, *Artifact))
    return E;
  noteStream() << "recorded as " << Row->Id << " in '"
         << C.Registry << "'\n";
  return Error::success();
}

int runRerandomizeCommand(const RerandomizeCommandLine &C,
                          const DivccEnvironment &) {
  Expected<MasterKey> Key = readSeedFile(C.SeedFile);
  if (!Key)
    return reportError(Key.takeError());
  if (!C.Check.empty())
    return checkInstall(C, *Key);
  Expected<InstallResult> R =
      layOutInstall(C.Golden, *Key, C.Install, C.Output, C.Options);
  if (!R)
    return reportError(R.takeError());
  noteStream() << "install '" << C.Install
         << "': " << R->Functions << " functions in a new order";
  if (!R->LeftInPlace.empty()) {
    std::vector<std::string> Names;
    for (const FunctionLeftInPlace &F : R->LeftInPlace)
      Names.push_back(F.Name);
    errs() << ", " << R->LeftInPlace.size()
           << " left where they were (BOLT cannot move them): "
           << join(Names, ", ");
  }
  double Growth =
      R->GoldenSize ? double(R->OutputSize) / double(R->GoldenSize) - 1 : 0.0;
  errs() << "; " << R->GoldenSize << " -> " << R->OutputSize << " bytes ("
         << format("%+.1f%%", Growth * 100) << ", "
         << (R->FitInOldText ? "in the golden master's .text"
                             : "in a new segment: " + R->NewSegmentReason)
         << (R->FunctionAlignment == 1 ? ", functions unaligned to fit" : "")

         << ")";
  if (R->TrappedLazyBinding)
    errs() << "; PLT: lazy binding and " << R->TrappedPltStubs
           << (R->TrappedPltStubs == 1 ? " stub" : " stubs")
           << " nothing calls are traps";
  errs() << "; " << R->CheckedReferences << " code references proved sound";
  if (!R->Repairs.empty())
    errs() << " (" << R->Repairs.size() << " repaired)";
  errs() << "\n";
  for (const FunctionLeftInPlace &F : R->LeftInPlace)
    noteStream() << "left in place: " << F.Name << ": "
           << F.Reason << "\n";
  for (const std::string &F : R->OutOfOrder)
    noteStream() << "not in the new order (BOLT put it after "
              "the others): "
           << F << "\n";
  if (C.Verbose) {
    for (const std::string &Repair : R->Repairs)
      noteStream() << "repaired " << Repair << "\n";
    noteStream() << format("%.2f", R->BoltSeconds)
           << " s in llvm-bolt, " << format("%.2f", R->CheckSeconds)
           << " s proving the layout\n";
  }
  if (!R->WorkDir.empty())
    noteStream() << "working directory kept in '" << R->WorkDir
           << "'\n";
  if (!C.Registry.empty())
    if (Error E = recordInRegistry(C, *Key, *R))
      return reportError(std::move(E));
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
  // Exactly one of -o and --check.
  CLI::Option_group *Mode =
      Command->add_option_group("output", "Where the layout goes");
  Mode->add_option("-o,--output", C->Output, "The file to write");
  CLI::Option *Check = Mode->add_option(
      "--check", C->Check,
      "Instead of writing, check that INSTALLED is this install's "
      "layout (exit status 3 if not)");
  Mode->require_option(1);
  Command
      ->add_option("-r,--registry", C->Registry,
                   "Record the install in this registry (created if missing; "
                   "for verify, identify and symbolize)")
      ->excludes(Check);
  Command->add_flag("--blocks", C->Options.Blocks,
                    "Also lay out each function's blocks anew (a random "
                    "profile for BOLT; costs about 1% more instructions)");
  Command->add_flag("--align-branches", C->Options.AlignBranches,
                    "x86-64: also pad before branches to 32-byte boundaries, "
                    "which moves code inside each function differently per "
                    "install (about 1% more cycles)");
  Command->add_flag("-v,--verbose", C->Verbose,
                    "List each reference the soundness check repaired, and "
                    "the time in llvm-bolt and in the check");
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
      "where it fits (drawn again if a function would land at its old "
      "address); the original code left behind becomes traps. A "
      "function BOLT cannot move stays where it was and is named on stderr, "
      "with BOLT's reason. Before anything is written, every code address "
      "the install can use (branches, calls, data relocations, exported "
      "symbols, unwind tables) is checked against the install's functions "
      "and GOLDEN; a stale reference is repaired where GOLDEN says what it "
      "meant, and an install that still fails is refused with each "
      "reference named (exit status 1, nothing written). The same GOLDEN, secret and ID give the same bytes; the build id is a "
      "digest of them. Prints the SHA-256 and name of OUT. --check INSTALLED "
      "lays out again in a private directory and compares. With --registry, "
      "the install is a row of the population registry (as ID@ and 12 hex "
      "digits of GOLDEN's code SHA-256), which divtool verify, identify and "
      "symbolize read."
      "\n\nExit status: 0 on success, 1 on bad input, a failed or unsound "
      "rewrite, 2 "
      "on a usage error, 3 if --check finds another layout.");
  runWhenChosen(*Command, Run, C, runRerandomizeCommand);
}

} // namespace divcc
