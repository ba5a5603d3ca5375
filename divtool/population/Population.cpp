//===- Population.cpp - Building a whole population of variants ----------===//

#include "divtool/population/Population.h"

#include "divtool/population/VariantBuild.h"
#include "support/Diagnostics.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <thread>

using namespace llvm;

namespace divcc {

namespace {

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
  Population(const PopulationOptions &C, Registry &R, const MasterKey &K,
             PrivateDir &Seeds, std::string Out, std::string Source,
             std::string DebugRoot, std::vector<std::string> Exclude,
             std::vector<std::string> Env)
      : C(C), Reg(R), Key(K), Seeds(Seeds), Out(std::move(Out)),
        Source(std::move(Source)), DebugRoot(std::move(DebugRoot)),
        Exclude(std::move(Exclude)), Env(std::move(Env)) {}

  /// Builds every variant; returns how many failed.
  unsigned run(std::vector<VariantRecord> Variants);

private:
  /// Copies the tree and starts the build; false if the variant failed.
  bool start(Build &B);
  void finish(Build &B, int Status);
  void failed(Build &B, const Twine &Why, int64_t ExitStatus);
  void progress(bool Force);
  void say(const Twine &Line);

  const PopulationOptions &C;
  Registry &Reg;
  const MasterKey &Key;
  PrivateDir &Seeds;
  std::string Out, Source;
  /// Where debug files are kept (DebugRoot/.build-id/...).
  std::string DebugRoot;
  std::vector<std::string> Exclude, Env;
  bool WarnedNoDebugInfo = false;

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
  errs() << "\r\033[K" << C.Tool << ": " << Done << "/" << Total
         << " variants done";
  if (Failed)
    errs() << " (" << Failed << " failed)";
  errs() << ", " << Running << " building, " << elapsed(Start) << " elapsed";
  errs().flush();
}

void Population::failed(Build &B, const Twine &Why, int64_t ExitStatus) {
  ++Failed;
  ++Done;
  std::string Message =
      formatDiagnostic(Severity::Error, B.Variant.Id + ": " + Why);
  if (sys::fs::exists(B.Log))
    Message += "; the last lines of " + B.Log + ":\n" +
               StringRef(lastLines(B.Log, 10)).rtrim('\n').str();
  say(Message);
  if (Error E = Reg.recordFailed(B.Variant.Id, ExitStatus))
    say(formatDiagnostic(Severity::Error, toString(std::move(E))));
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
    say(formatDiagnostic(
        Severity::Warning,
        "the source tree holds " + Twine(Copied->BuiltFiles.size()) +
            " built file(s), e.g. '" + Example +
            "'; a build that reuses them links code divcc did not "
            "diversify: clean the source tree first (e.g. make clean)"));
  }
  SourceChecked = true;
  B.Before = snapshotTree(B.Variant.Tree);
  Expected<std::string> SeedFile = writeVariantSeed(Seeds, Key, B.Variant.Id);
  if (!SeedFile) {
    failed(B, toString(SeedFile.takeError()), -1);
    return false;
  }
  B.SeedFile = *SeedFile;
  std::vector<std::string> Command = C.Command;
  std::vector<std::string> BuildEnv = Env;
  BuildEnv.push_back(assignment(EnvSeedFile, B.SeedFile));
  if (C.KeepDebug) {
    // The scripts hold no secret; they go with the seeds, in the private
    // directory removed at the end.
    if (Error E = addDebugInfoShim(Seeds.path() + "/bin/" + B.Variant.Id,
                                   B.Variant.Tree, Source, Command, BuildEnv)) {
      Seeds.removeSecret(B.SeedFile);
      failed(B, toString(std::move(E)), -1);
      return false;
    }
  }
  Expected<pid_t> Pid =
      startProcess(Command, B.Variant.Tree, BuildEnv, B.Log, B.Log,
                   /*OwnProcessGroup=*/false, "the build command");
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
    if (C.Strip || C.KeepDebug)
      StripTo = (Out + "/ship/" + B.Variant.Id + "/" + Relative);
    Expected<ArtifactRecord> A =
        examineArtifact(B.Variant.Tree, Relative, StripTo);
    if (!A)
      return failed(B, toString(A.takeError()), 0);
    if (C.KeepDebug && !A->CodeSha256.empty()) {
      Expected<std::string> Kept =
          keepDebugInfo(B.Variant.Tree + "/" + Relative, DebugRoot);
      if (!Kept)
        return failed(B, toString(Kept.takeError()), 0);
      if (Kept->empty() && !WarnedNoDebugInfo) {
        WarnedNoDebugInfo = true;
        say(formatDiagnostic(
            Severity::Warning,
            "'" + Relative + "' of " + B.Variant.Id + " has no " +
                (buildIdOf(B.Variant.Tree + "/" + Relative).empty()
                     ? "build id (link with -Wl,--build-id)"
                     : "line tables (the build must run divcc or div++ by "
                       "name: through PATH, a CC=/CXX= argument, or "
                       "$CC/$CXX)") +
                "; its debug information is not kept"));
      }
    }
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
    say(C.Tool + ": [" + Twine(Done) + "/" + Twine(Total) + "] " +
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
      if (std::optional<int> Status = waitProcess(Active[I]->Pid, false)) {
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
    printWarning("identical artifacts " + D +
                 ": the build is not diversified by " + EnvSeedFile +
                 " (does it pass -frandom-seed=, -fdiversify-seed-file= or "
                 "-fno-diversify, or not use divcc?)");
  return Failed;
}

} // namespace

Error checkPopulationOptions(const PopulationOptions &C) {
  if (C.Command.empty())
    return makeError("no build command");
  if (C.Labels.size() > C.Count)
    return makeError(Twine(C.Labels.size()) + " labels for " + Twine(C.Count) +
                     " variants: give at most one --label per variant");
  return Error::success();
}

Expected<PopulationBuilt> buildPopulation(const PopulationOptions &C,
                                          const MasterKey &Key,
                                          const DivccEnvironment &DivccEnv) {
  if (Error E = checkPopulationOptions(C))
    return E;
  std::string KeyId = populationKeyId(Key);

  SmallString<256> Source(C.Source.empty() ? "." : C.Source);
  if (std::error_code EC = sys::fs::real_path(SmallString<256>(Source), Source))
    return makeError("source tree '" + Source + "': " + EC.message());
  if (!sys::fs::is_directory(Source))
    return makeError("source tree '" + Source + "' is not a directory");

  SmallString<256> Out(C.Out);
  sys::fs::make_absolute(Out);
  sys::path::remove_dots(Out, /*remove_dot_dot=*/true);
  if (Out == Source)
    return makeError("the population's directory '" + Out +
                     "' is the source tree; choose another --out");
  if (std::error_code EC = sys::fs::create_directories(Out + "/variants"))
    return makeError("cannot create '" + Out + "': " + EC.message());
  if (std::error_code EC = sys::fs::real_path(SmallString<256>(Out), Out))
    return makeError("'" + Out + "': " + EC.message());
  if (Out == Source)
    return makeError("the population's directory '" + Out +
                     "' is the source tree; choose another --out");
  SmallString<256> RegistryPath(C.Registry);
  if (C.Registry.empty())
    RegistryPath = (Out + "/registry.sqlite").str();
  sys::fs::make_absolute(RegistryPath);

  Expected<Registry> Reg = Registry::openOrCreate(RegistryPath, KeyId);
  if (!Reg)
    return Reg.takeError();

  // What the copies leave out: this population, should it sit inside the
  // source tree, and the registry with its journal.
  std::vector<std::string> Exclude = {std::string(Out)};
  SmallString<256> RealRegistry;
  if (!sys::fs::real_path(RegistryPath, RealRegistry)) {
    Exclude.push_back(std::string(RealRegistry));
    Exclude.push_back(std::string(RealRegistry) + "-journal");
  }
  // Nor the debug files kept beside a registry inside the source tree.
  Exclude.push_back(
      (sys::path::parent_path(RealRegistry.empty() ? StringRef(RegistryPath)
                                                   : StringRef(RealRegistry)) +
       "/.build-id")
          .str());
  // Nor is the master secret copied into every variant's tree.
  SmallString<256> RealSeedFile;
  if (!C.SeedFile.empty() && !sys::fs::real_path(C.SeedFile, RealSeedFile) &&
      StringRef(RealSeedFile).starts_with((Source + "/").str())) {
    Exclude.push_back(std::string(RealSeedFile));
    printWarning("the seed file '" + C.SeedFile +
                 "' is inside the source tree; it is left out of the "
                 "variants' copies, but keep it elsewhere");
  }

  Expected<PrivateDir> Seeds = PrivateDir::create("divtool-seeds");
  if (!Seeds)
    return Seeds.takeError();

  VariantRecord Template;
  Template.Compiler = compilerIdentity(findDivcc(C.Command));
  Template.BuildCommand = C.Command;
  Template.SourceDir = std::string(Source);
  Template.KeptDebugInfo = C.KeepDebug;
  std::vector<std::string> Labels = C.Labels;
  Labels.resize(C.Count);
  Expected<std::vector<VariantRecord>> Variants =
      Reg->reserveVariants(Template, Labels, [&](StringRef Id) {
        return (Out + "/variants/" + Id + "/tree").str();
      });
  if (!Variants)
    return Variants.takeError();

  // Variants share the front-end cache, unless the user chose one (or
  // none: DIVCC_CACHE_DIR set to an empty value).
  // A relative DIVCC_CACHE_DIR would be a cache per tree.
  std::vector<std::string> Add;
  const std::optional<std::string> &UserCache = DivccEnv.CacheDir;
  if (!UserCache) {
    Add.push_back(assignment(EnvCacheDir, Out + "/cache"));
  } else if (!UserCache->empty()) {
    SmallString<256> Absolute(*UserCache);
    sys::fs::make_absolute(Absolute);
    Add.push_back(assignment(EnvCacheDir, Absolute));
  }
  // The launcher gets each compile with a key derived from the variant's
  // seed, never the seed (driver/RemoteCompile.h).
  if (!C.Launcher.empty())
    Add.push_back(assignment(EnvPrefix, C.Launcher));
  if (C.Divcc)
    Add.push_back(C.Divcc->assignment());
  std::vector<std::string> Env = environmentWith({EnvSeedFile, EnvPrefix}, Add);

  std::string First = Variants->front().Id, Last = Variants->back().Id;
  Population P(C, *Reg, Key, *Seeds, std::string(Out), std::string(Source),
               sys::path::parent_path(RegistryPath).str(), Exclude, Env);
  auto Start = std::chrono::steady_clock::now();
  PopulationBuilt Built;
  for (const VariantRecord &V : *Variants)
    Built.Ids.push_back(V.Id);
  Built.Failed = P.run(std::move(*Variants));
  errs() << C.Tool << ": " << (C.Count - Built.Failed) << " of " << C.Count
         << " variants built (" << First << (First == Last ? "" : " to " + Last)
         << ") in " << elapsed(Start) << "; registry " << RegistryPath << "\n";
  Built.Out = std::string(Out);
  Built.RegistryPath = std::string(RegistryPath);
  return Built;
}

} // namespace divcc
