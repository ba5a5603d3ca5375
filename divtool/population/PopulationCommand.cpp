//===- PopulationCommand.cpp - `divtool population`: one per customer -----===//
//
// Builds N variants of a project through its own build command, each in its
// own copy of the source tree with its own seed, J at a time, and records
// them in the registry (registry/Registry.h). Variants share divcc's
// front-end cache, so that only the first one runs clang's front end.
//
//===----------------------------------------------------------------------===//

#include "divtool/Subcommands.h"
#include "divtool/population/VariantBuild.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

#include <chrono>
#include <thread>

using namespace llvm;

namespace divcc {
namespace {

struct PopulationCommandLine {
  unsigned Count = 0;
  std::string Out;
  std::string SeedFile;
  std::vector<std::string> Labels;
  unsigned Jobs = 1;
  std::vector<std::string> Artifacts;
  std::string Source;
  std::string Registry;
  std::string Launcher;
  bool Strip = false;
  std::optional<bool> Progress;
  std::vector<std::string> Command;
};

Error fail(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

std::string elapsed(std::chrono::steady_clock::time_point Start) {
  auto Seconds = std::chrono::duration_cast<std::chrono::seconds>(
                     std::chrono::steady_clock::now() - Start)
                     .count();
  std::string S;
  raw_string_ostream(S) << Seconds / 60 << ":"
                        << format("%02d", int(Seconds % 60));
  return S;
}

/// One variant on its way: its record and, while it builds, its process.
struct Build {
  VariantRecord Variant;
  std::string Dir; ///< DIR/variants/ID
  std::string Log;
  std::string SeedFile;
  TreeSnapshot Before;
  pid_t Pid = 0;
};

class Population {
public:
  Population(const PopulationCommandLine &C, Registry &R, const MasterKey &K,
             PrivateDir &Seeds, std::string Out, std::string Source,
             std::vector<std::string> Exclude, std::vector<std::string> Env)
      : C(C), Reg(R), Key(K), Seeds(Seeds), Out(std::move(Out)),
        Source(std::move(Source)), Exclude(std::move(Exclude)),
        Env(std::move(Env)) {}

  /// Builds every variant; returns how many failed.
  unsigned run(std::vector<VariantRecord> Variants);

private:
  /// Copies the tree and starts the build; false if the variant failed.
  bool start(Build &B);
  void finish(Build &B, int Status);
  void failed(Build &B, const Twine &Why, int64_t ExitStatus);
  void progress(bool Force);
  void say(const Twine &Line);

  const PopulationCommandLine &C;
  Registry &Reg;
  const MasterKey &Key;
  PrivateDir &Seeds;
  std::string Out, Source;
  std::vector<std::string> Exclude, Env;

  bool Terminal = false;
  bool SourceChecked = false;
  unsigned Total = 0, Done = 0, Failed = 0, Running = 0;
  std::chrono::steady_clock::time_point Start, LastProgress;
  /// Artifact hash -> the first variant that built it.
  StringMap<std::string> Hashes;
  std::vector<std::string> Duplicates;
};

void Population::say(const Twine &Line) {
  if (Terminal)
    errs() << "\r\033[K";
  errs() << Line << "\n";
  progress(/*Force=*/true);
}

void Population::progress(bool Force) {
  auto Now = std::chrono::steady_clock::now();
  if (!Terminal || (!Force && Now - LastProgress < std::chrono::seconds(1)))
    return;
  LastProgress = Now;
  errs() << "\r\033[Kdivtool population: " << Done << "/" << Total
         << " variants done";
  if (Failed)
    errs() << " (" << Failed << " failed)";
  errs() << ", " << Running << " building, " << elapsed(Start) << " elapsed";
  errs().flush();
}

void Population::failed(Build &B, const Twine &Why, int64_t ExitStatus) {
  ++Failed;
  ++Done;
  std::string Message = ("divtool: error: " + B.Variant.Id + ": " + Why).str();
  if (sys::fs::exists(B.Log))
    Message += "; the last lines of " + B.Log + ":\n" +
               StringRef(lastLines(B.Log, 10)).rtrim('\n').str();
  say(Message);
  if (Error E = Reg.recordFailed(B.Variant.Id, ExitStatus))
    say("divtool: error: " + toString(std::move(E)));
}

bool Population::start(Build &B) {
  if (sys::fs::exists(B.Dir)) {
    failed(B,
           "'" + B.Dir +
               "' already exists but is not in the registry "
               "(left by another registry?); remove it",
           -1);
    return false;
  }
  if (std::error_code EC = sys::fs::create_directories(B.Dir)) {
    failed(B, "cannot create '" + B.Dir + "': " + EC.message(), -1);
    return false;
  }
  Expected<CopyStats> Copied = copyTree(Source, B.Variant.Tree, Exclude);
  if (!Copied) {
    failed(B, toString(Copied.takeError()), -1);
    return false;
  }
  if (!SourceChecked && !Copied->BuiltFiles.empty()) {
    const std::string &Example = Copied->BuiltFiles.front();
    say("divtool: warning: the source tree holds " +
        Twine(Copied->BuiltFiles.size()) + " built file(s), e.g. '" + Example +
        "'; a build that reuses them links code divcc did not diversify: "
        "clean the source tree first (e.g. make clean)");
  }
  SourceChecked = true;
  B.Before = snapshotTree(B.Variant.Tree);
  Expected<std::string> SeedFile = writeVariantSeed(Seeds, Key, B.Variant.Id);
  if (!SeedFile) {
    failed(B, toString(SeedFile.takeError()), -1);
    return false;
  }
  B.SeedFile = *SeedFile;
  std::vector<std::string> BuildEnv = Env;
  BuildEnv.push_back("DIVCC_SEED_FILE=" + B.SeedFile);
  Expected<pid_t> Pid = startBuild(C.Command, B.Variant.Tree, BuildEnv, B.Log);
  if (!Pid) {
    Seeds.removeSecret(B.SeedFile);
    failed(B, toString(Pid.takeError()), -1);
    return false;
  }
  B.Pid = *Pid;
  ++Running;
  return true;
}

void Population::finish(Build &B, int Status) {
  --Running;
  Seeds.removeSecret(B.SeedFile);
  if (Status != 0)
    return failed(B, "the build failed (" + describeWaitStatus(Status) + ")",
                  exitCodeOf(Status));
  Expected<std::vector<std::string>> Found =
      findArtifacts(B.Variant.Tree, B.Before, C.Artifacts);
  if (!Found)
    return failed(B, toString(Found.takeError()), 0);
  std::vector<ArtifactRecord> Artifacts;
  for (const std::string &Relative : *Found) {
    std::string StripTo;
    if (C.Strip)
      StripTo = (Out + "/ship/" + B.Variant.Id + "/" + Relative);
    Expected<ArtifactRecord> A =
        examineArtifact(B.Variant.Tree, Relative, StripTo);
    if (!A)
      return failed(B, toString(A.takeError()), 0);
    auto [It, New] = Hashes.try_emplace(A->Sha256, B.Variant.Id);
    if (!New)
      Duplicates.push_back("'" + Relative + "' of " + It->second + " and " +
                           B.Variant.Id);
    Artifacts.push_back(std::move(*A));
  }
  if (Error E = Reg.recordBuilt(B.Variant.Id, Artifacts))
    return failed(B, toString(std::move(E)), 0);
  ++Done;
  std::string Names;
  for (const ArtifactRecord &A : Artifacts)
    Names += (Names.empty() ? "" : ", ") + A.Path;
  if (!Terminal)
    say("divtool population: [" + Twine(Done) + "/" + Twine(Total) + "] " +
        B.Variant.Id + " built (" + Names + "), " + elapsed(Start) +
        " elapsed");
  else
    progress(true);
}

unsigned Population::run(std::vector<VariantRecord> Variants) {
  Terminal = C.Progress.value_or(sys::Process::StandardErrIsDisplayed());
  Start = LastProgress = std::chrono::steady_clock::now();
  Total = Variants.size();
  std::vector<Build> Builds;
  for (VariantRecord &V : Variants) {
    Build B;
    B.Dir = Out + "/variants/" + V.Id;
    B.Log = B.Dir + "/build.log";
    B.Variant = std::move(V);
    Builds.push_back(std::move(B));
  }
  progress(true);
  size_t Next = 0;
  std::vector<Build *> Active;
  while (Next < Builds.size() || !Active.empty()) {
    while (Active.size() < C.Jobs && Next < Builds.size()) {
      Build &B = Builds[Next++];
      if (start(B))
        Active.push_back(&B);
    }
    bool Finished = false;
    for (size_t I = 0; I < Active.size();) {
      if (std::optional<int> Status = waitBuild(Active[I]->Pid, false)) {
        finish(*Active[I], *Status);
        Active.erase(Active.begin() + I);
        Finished = true;
      } else {
        ++I;
      }
    }
    if (!Finished && !Active.empty()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      progress(false);
    }
  }
  if (Terminal)
    errs() << "\r\033[K";
  for (const std::string &D : Duplicates)
    errs() << "divtool: warning: identical artifacts " << D
           << ": the build is not diversified by DIVCC_SEED_FILE (does it "
              "pass -frandom-seed=, -fdiversify-seed-file= or -fno-diversify, "
              "or not use divcc?)\n";
  return Failed;
}

int runPopulationCommand(const PopulationCommandLine &C) {
  if (C.Command.empty())
    return reportError(fail("no build command: give it after '--', e.g. "
                            "divtool population ... -- make CC=divcc"));
  if (C.Labels.size() > C.Count)
    return reportError(fail(Twine(C.Labels.size()) + " labels for " +
                            Twine(C.Count) +
                            " variants: give at most one "
                            "--label per variant"));
  Expected<MasterKey> Key = readSeedFile(C.SeedFile);
  if (!Key)
    return reportError(Key.takeError());
  std::string KeyId = populationKeyId(*Key);

  SmallString<256> Source(C.Source.empty() ? "." : C.Source);
  if (std::error_code EC = sys::fs::real_path(SmallString<256>(Source), Source))
    return reportError(fail("source tree '" + Source + "': " + EC.message()));
  if (!sys::fs::is_directory(Source))
    return reportError(fail("source tree '" + Source + "' is not a directory"));

  SmallString<256> Out(C.Out);
  sys::fs::make_absolute(Out);
  sys::path::remove_dots(Out, /*remove_dot_dot=*/true);
  if (Out == Source)
    return reportError(fail("the population's directory '" + Out +
                            "' is the source tree; choose another --out"));
  if (std::error_code EC = sys::fs::create_directories(Out + "/variants"))
    return reportError(fail("cannot create '" + Out + "': " + EC.message()));
  if (std::error_code EC = sys::fs::real_path(SmallString<256>(Out), Out))
    return reportError(fail("'" + Out + "': " + EC.message()));
  if (Out == Source)
    return reportError(fail("the population's directory '" + Out +
                            "' is the source tree; choose another --out"));
  SmallString<256> RegistryPath(C.Registry);
  if (C.Registry.empty())
    RegistryPath = (Out + "/registry.sqlite").str();
  sys::fs::make_absolute(RegistryPath);

  Expected<Registry> Reg = Registry::openOrCreate(RegistryPath, KeyId);
  if (!Reg)
    return reportError(Reg.takeError());

  // What the copies leave out: this population, should it sit inside the
  // source tree, and the registry with its journal.
  std::vector<std::string> Exclude = {std::string(Out)};
  SmallString<256> RealRegistry;
  if (!sys::fs::real_path(RegistryPath, RealRegistry)) {
    Exclude.push_back(std::string(RealRegistry));
    Exclude.push_back(std::string(RealRegistry) + "-journal");
  }
  // Nor is the master secret copied into every variant's tree.
  SmallString<256> RealSeedFile;
  if (!sys::fs::real_path(C.SeedFile, RealSeedFile) &&
      StringRef(RealSeedFile).starts_with((Source + "/").str())) {
    Exclude.push_back(std::string(RealSeedFile));
    errs() << "divtool: warning: the seed file '" << C.SeedFile
           << "' is inside the source tree; it is left out of the variants' "
              "copies, but keep it elsewhere\n";
  }

  Expected<PrivateDir> Seeds = PrivateDir::create("divtool-seeds");
  if (!Seeds)
    return reportError(Seeds.takeError());

  VariantRecord Template;
  Template.Compiler = compilerIdentity(findDivcc(C.Command));
  Template.BuildCommand = C.Command;
  Template.SourceDir = std::string(Source);
  std::vector<std::string> Labels = C.Labels;
  Labels.resize(C.Count);
  Expected<std::vector<VariantRecord>> Variants =
      Reg->reserveVariants(Template, Labels, [&](StringRef Id) {
        return (Out + "/variants/" + Id + "/tree").str();
      });
  if (!Variants)
    return reportError(Variants.takeError());

  // Variants share the front-end cache, unless the user chose one (or
  // none: DIVCC_CACHE_DIR set to an empty value).
  // A relative DIVCC_CACHE_DIR would be a cache per tree.
  std::vector<std::string> Add;
  std::optional<std::string> UserCache =
      sys::Process::GetEnv("DIVCC_CACHE_DIR");
  if (!UserCache) {
    Add.push_back(("DIVCC_CACHE_DIR=" + Out + "/cache").str());
  } else if (!UserCache->empty()) {
    SmallString<256> Absolute(*UserCache);
    sys::fs::make_absolute(Absolute);
    Add.push_back(("DIVCC_CACHE_DIR=" + Absolute).str());
  }
  // The launcher gets each compile with a key derived from the variant's
  // seed, never the seed (driver/RemoteCompile.h).
  if (!C.Launcher.empty())
    Add.push_back("DIVCC_PREFIX=" + C.Launcher);
  std::vector<std::string> Env =
      environmentWith({"DIVCC_SEED_FILE", "DIVCC_PREFIX"}, Add);

  std::string First = Variants->front().Id, Last = Variants->back().Id;
  Population P(C, *Reg, *Key, *Seeds, std::string(Out), std::string(Source),
               Exclude, Env);
  auto Start = std::chrono::steady_clock::now();
  unsigned Failed = P.run(std::move(*Variants));
  errs() << "divtool population: " << (C.Count - Failed) << " of " << C.Count
         << " variants built (" << First << (First == Last ? "" : " to " + Last)
         << ") in " << elapsed(Start) << "; registry " << RegistryPath << "\n";
  if (Failed) {
    errs() << "divtool: error: " << Failed << " variant"
           << (Failed == 1 ? "" : "s")
           << " failed to build; their trees and logs are kept in " << Out
           << "/variants\n";
    return 1;
  }
  return 0;
}

} // namespace

void addPopulationSubcommand(CLI::App &Divtool, RunSubcommand &Run) {
  auto C = std::make_shared<PopulationCommandLine>();
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
  Pop->add_option("--seed-file,-k", C->SeedFile,
                  "The master secret: every variant's seed is derived from "
                  "its bytes and the variant's id")
      ->required();
  Pop->add_option("--label,-l", C->Labels,
                  "A label for the next variant (e.g. a customer); repeat it, "
                  "one per variant in order")
      ->allow_extra_args(false);
  Pop->add_option("-j,--jobs", C->Jobs, "Build J variants at a time")
      ->default_val(1)
      ->check(CLI::Range(1u, 256u));
  Pop->add_option("--artifact,-a", C->Artifacts,
                  "An output to record, relative to the tree (default: every "
                  "ELF executable or shared object the build creates)")
      ->allow_extra_args(false);
  Pop->add_option("--source,-s", C->Source,
                  "The source tree to copy (default: the current directory)");
  Pop->add_option("--registry", C->Registry,
                  "The registry (default: DIR/registry.sqlite)");
  Pop->add_option("--launcher", C->Launcher,
                  "Run each compile through this command, e.g. distcc (sets "
                  "DIVCC_PREFIX: compile hosts get a key derived from the "
                  "variant's seed, never a seed)");
  Pop->add_flag("--strip", C->Strip,
                "Also write a stripped copy of each artifact to "
                "DIR/ship/ID/, and record its hash");
  Pop->add_flag("--progress,!--no-progress", C->Progress,
                "Show a progress line on stderr (default: when it is a "
                "terminal)");
  Pop->add_option("command", C->Command,
                  "The build command, after '--' (e.g. make CC=divcc)");
  Pop->footer(
      "Each variant gets a copy of the source tree in DIR/variants/ID/tree "
      "(ids v0001, v0002... continuing the registry's numbering), where the "
      "build command runs with DIVCC_SEED_FILE naming a private file that "
      "holds the variant's seed (removed when the build ends) and "
      "DIVCC_CACHE_DIR=DIR/cache unless set. The build's output goes to "
      "DIR/variants/ID/build.log.\n\nExit status: 0 when every variant was "
      "built, 1 on bad input or when a variant failed (the others are "
      "recorded), 2 on a usage error.");
  Pop->callback([&Run, C] { Run = [C] { return runPopulationCommand(*C); }; });
}

} // namespace divcc
