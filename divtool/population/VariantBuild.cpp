//===- VariantBuild.cpp - Building one variant in a private tree ----------===//

#include "divtool/population/VariantBuild.h"

#include "divtool/install/InstallRecord.h"
#include "support/AtomicOutput.h"
#include "support/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <openssl/crypto.h>

#include <cerrno>
#include <cstdlib>
#include <sys/stat.h>

using namespace llvm;

namespace divcc {

Expected<OpenPopulation> openPopulation(StringRef RegistryPath,
                                        StringRef SeedFile) {
  Expected<MasterKey> Key = readSeedFile(SeedFile);
  if (!Key)
    return Key.takeError();
  return openPopulation(RegistryPath, *Key);
}

Expected<OpenPopulation> openPopulation(StringRef RegistryPath,
                                        const MasterKey &Key) {
  Expected<Registry> Reg =
      Registry::open(RegistryPath, populationKeyId(Key), /*Write=*/false);
  if (!Reg)
    return Reg.takeError();
  return OpenPopulation{Key, std::move(*Reg)};
}

Expected<std::string> writeVariantSeed(PrivateDir &Dir, const MasterKey &Key,
                                       StringRef Id) {
  Key256 Seed = variantSeed(Key, Id);
  Expected<std::string> File = Dir.writeSecret(Id, Seed);
  OPENSSL_cleanse(Seed.data(), Seed.size());
  return File;
}

static bool isDivccName(StringRef Path) {
  StringRef Base = sys::path::filename(Path);
  return Base == "divcc" || Base == "div++";
}

/// NAME=VALUE with NAME a variable name: the value, else none.
static std::optional<StringRef> assignmentValue(StringRef Arg) {
  auto [Name, Value] = Arg.split('=');
  if (Name.size() == Arg.size() || Name.empty() ||
      !all_of(Name, [](char C) { return isAlnum(C) || C == '_'; }))
    return std::nullopt;
  return Value;
}

/// The divcc beside \p DivccOrDivxx.
static std::string siblingDivcc(StringRef Path) {
  SmallString<256> Divcc(sys::path::parent_path(Path));
  sys::path::append(Divcc, "divcc");
  return std::string(Divcc);
}

static std::string resolveDivcc(StringRef Named) {
  if (Named.contains('/')) {
    SmallString<256> Absolute(Named);
    sys::fs::make_absolute(Absolute);
    if (sys::fs::can_execute(Absolute))
      return siblingDivcc(Absolute);
  }
  if (ErrorOr<std::string> Found =
          sys::findProgramByName(sys::path::filename(Named)))
    return siblingDivcc(*Found);
  return "";
}

std::string findDivcc(ArrayRef<std::string> Command) {
  for (const std::string &Arg : Command) {
    StringRef Value = assignmentValue(Arg).value_or(Arg);
    if (isDivccName(Value))
      if (std::string Found = resolveDivcc(Value); !Found.empty())
        return Found;
  }
  for (const char *Variable : {"CC", "CXX"})
    if (const char *Value = ::getenv(Variable); Value && isDivccName(Value))
      if (std::string Found = resolveDivcc(Value); !Found.empty())
        return Found;
  if (ErrorOr<std::string> Found = sys::findProgramByName("divcc"))
    return *Found;
  std::string Self =
      sys::fs::getMainExecutable(nullptr, reinterpret_cast<void *>(&findDivcc));
  std::string Beside = siblingDivcc(Self);
  return sys::fs::can_execute(Beside) ? Beside : "";
}

std::string compilerIdentity(StringRef Divcc) {
  if (Divcc.empty())
    return "unknown (no divcc in the build command, $CC, $CXX or PATH)";
  SmallString<128> Output;
  std::string Version = "divcc";
  if (!sys::fs::createTemporaryFile("divtool-version", "txt", Output)) {
    std::optional<StringRef> Redirects[] = {StringRef(), StringRef(Output),
                                            StringRef()};
    if (sys::ExecuteAndWait(Divcc, {Divcc, "--version"}, std::nullopt,
                            Redirects, /*SecondsToWait=*/60) == 0)
      if (auto Buffer = MemoryBuffer::getFile(Output)) {
        // "divcc VERSION (...) on:" and clang's version on the next line.
        auto [First, Rest] = (*Buffer)->getBuffer().split('\n');
        Version = First.str();
        if (First.ends_with(":"))
          Version += " " + Rest.split('\n').first.str();
      }
    sys::fs::remove(Output);
  }
  SmallString<256> Real;
  if (sys::fs::real_path(Divcc, Real))
    Real = Divcc;
  Expected<std::string> Hash = fileSha256(Real);
  std::string HashText = Hash ? "SHA-256 " + *Hash : "unreadable";
  if (!Hash)
    consumeError(Hash.takeError());
  return Version + " (" + std::string(Real) + ", " + HashText + ")";
}

std::string describeVariant(const VariantRecord &V) {
  if (V.isInstall())
    return "install '" + V.Label + "' of golden master " +
           V.GoldenCodeSha256.substr(0, 12) + " (" + V.Id + ")";
  return "variant " + V.Id + (V.Label.empty() ? "" : " ('" + V.Label + "')");
}

/// A shell word for \p S.
static std::string shellQuote(StringRef S) {
  std::string Out = "'";
  for (char C : S)
    Out += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Out + "'";
}

// Makes every divcc and div++ the build in \p Tree runs add -g: scripts of
/// those names in \p Bin, first on PATH, and NAME=.../divcc arguments and
/// $CC/$CXX pointed at them. Appended last, -g overrides a -g0 of the
/// build's own.
///
/// The debug information names \p CompilationDir, not \p Tree: each
/// compile gets -ffile-compilation-dir (its working directory with \p Tree
/// replaced by \p CompilationDir) and, when an argument names a path in
/// \p Tree, -fdebug-prefix-map. So the variants of a population, each in
/// its own tree, give the front-end cache the same compile commands (the
/// cache keys on the compilation directory once -g is on), and a rebuild in
/// a temporary tree gives the very bytes of the population's build. Paths
/// in the debug information name the population's source tree.
Error addDebugInfoShim(StringRef Bin, StringRef Tree, StringRef CompilationDir,
                       std::vector<std::string> &Command,
                       std::vector<std::string> &Env) {
  std::string Divcc = findDivcc(Command);
  if (Divcc.empty())
    return makeError("cannot add debug information to the build: no divcc "
                     "found in the build command, $CC, $CXX or PATH");
  if (std::error_code EC =
          sys::fs::create_directories(Bin, true, sys::fs::perms::owner_all))
    return makeError("cannot create '" + Bin + "'", EC);
  SmallString<256> DivccShim(Bin), DivxxShim(Bin);
  sys::path::append(DivccShim, "divcc");
  sys::path::append(DivxxShim, "div++");
  std::string Divxx = (sys::path::parent_path(Divcc) + "/div++").str();
  std::string T = shellQuote(Tree), D = shellQuote(CompilationDir);
  for (auto [Shim, Real] :
       {std::pair<StringRef, StringRef>(DivccShim, Divcc),
        std::pair<StringRef, StringRef>(DivxxShim, Divxx)}) {
    std::string Script =
        "#!/bin/sh\n# divtool: the build's " +
        sys::path::filename(Real).str() +
        ", with debug information that names the source tree\n"
        "d=$(pwd -P)\n"
        "case $d in " + T + ") d=" + D + " ;; " + T + "/*) d=" + D + "${d#" +
        T + "} ;; esac\n"
        "case \" $* \" in *" + T + "*) set -- \"$@\" -fdebug-prefix-map=" + T +
        "=" + D + " ;; esac\n"
        "exec " + shellQuote(Real) + " \"$@\" -g -ffile-compilation-dir=\"$d\"\n";
    if (Error E = writeFileAtomically(Shim, Script))
      return E;
    if (::chmod(Shim.str().c_str(), 0700) != 0)
      return makeError("cannot make '" + Shim + "' executable",
                       std::error_code(errno, std::generic_category()));
  }
  auto Redirect = [&](StringRef Value) -> std::optional<std::string> {
    if (!isDivccName(Value))
      return std::nullopt;
    return sys::path::filename(Value) == "div++" ? std::string(DivxxShim)
                                                 : std::string(DivccShim);
  };
  for (std::string &Arg : Command) {
    if (std::optional<StringRef> Value = assignmentValue(Arg)) {
      if (std::optional<std::string> Shim = Redirect(*Value))
        Arg = (variableName(Arg) + "=" + *Shim).str();
    } else if (std::optional<std::string> Shim = Redirect(Arg)) {
      Arg = *Shim;
    }
  }
  for (std::string &E : Env) {
    StringRef Name = variableName(E);
    if (Name == "CC" || Name == "CXX") {
      if (std::optional<std::string> Shim =
              Redirect(StringRef(E).drop_front(Name.size() + 1)))
        E = (Name + "=" + *Shim).str();
    } else if (Name == "PATH") {
      E = ("PATH=" + Bin + ":" + StringRef(E).drop_front(5)).str();
    }
  }
  return Error::success();
}

/// Lays the install \p V out again from its golden master.
static Expected<RebuiltVariant> layOutAgain(const VariantRecord &V,
                                            const MasterKey &Key,
                                            const RebuildOptions &Options) {
  Expected<RecordedInstall> I = recordedInstall(V, Options.Golden);
  if (!I)
    return I.takeError();
  Expected<PrivateDir> Dir = PrivateDir::create("divtool-rebuild");
  if (!Dir)
    return Dir.takeError();
  RebuiltVariant R{std::move(*Dir), "", ""};
  R.Tree = R.Dir.path() + "/tree";
  if (Options.Keep)
    R.Dir.keep();
  if (std::error_code EC = sys::fs::create_directory(R.Tree))
    return makeError("cannot create '" + R.Tree + "'", EC);
  errs() << Options.Tool << ": laying out " << describeVariant(V)
         << " again from '" << I->Golden << "' in '" << R.Tree << "'\n";
  Expected<InstallResult> Laid = layOutInstall(
      I->Golden, Key, I->InstallId, R.Tree + "/" + I->Artifact, I->Options);
  if (!Laid)
    return makeError("the layout of " + describeVariant(V) +
                     " failed: " + toString(Laid.takeError()));
  return R;
}

Expected<RebuiltVariant> rebuildVariant(const VariantRecord &V,
                                        const MasterKey &Key,
                                        StringRef RegistryPath,
                                        const RebuildOptions &Options) {
  if (V.isInstall())
    return layOutAgain(V, Key, Options);
  std::string Named = Options.Source.empty() ? V.SourceDir : Options.Source;
  SmallString<256> Source;
  if (std::error_code EC = sys::fs::real_path(Named, Source))
    return makeError("source tree '" + Named + "'" +
                         (Options.Source.empty()
                              ? " (where the population was built from)"
                              : "") +
                         " cannot be read; name it with --source",
                     EC);
  if (!sys::fs::is_directory(Source))
    return makeError("source tree '" + Source + "' is not a directory");
  if (V.BuildCommand.empty())
    return makeError(describeVariant(V) + " has no recorded build command");

  // Leave out the population's directory (DIR of DIR/variants/ID/tree) and
  // the registry, should they be inside the source.
  std::vector<std::string> Exclude;
  for (StringRef Path : {sys::path::parent_path(sys::path::parent_path(
                             sys::path::parent_path(V.Tree))),
                         RegistryPath, StringRef(Options.SeedFile)}) {
    SmallString<256> Real;
    if (!Path.empty() && !sys::fs::real_path(Path, Real))
      Exclude.push_back(std::string(Real));
  }

  PrivateBuild B;
  B.Source = std::string(Source);
  B.Exclude = std::move(Exclude);
  B.Command = V.BuildCommand;
  B.Key = &Key;
  B.SeedId = V.Id;
  bool DebugInfo = Options.DebugInfo || V.KeptDebugInfo;
  B.What = describeVariant(V) + (DebugInfo ? " with debug information" : "");
  return buildPrivateCopy(
      B, Options,
      [&](PrivateDir &Dir, std::vector<std::string> &Command,
          std::vector<std::string> &Env) -> Error {
        if (!DebugInfo)
          return Error::success();
        // The compilation directory of the population's build: the
        // recorded source tree, whatever --source names.
        SmallString<256> Tree;
        if (std::error_code EC = sys::fs::real_path(Dir.path() + "/tree", Tree))
          return makeError("'" + Dir.path() + "/tree'", EC);
        return addDebugInfoShim(Dir.path() + "/bin", Tree, V.SourceDir,
                                Command, Env);
      });
}

Expected<RebuiltVariant>
buildPrivateCopy(const PrivateBuild &B, const RebuildOptions &Options,
                 function_ref<Error(PrivateDir &, std::vector<std::string> &,
                                    std::vector<std::string> &)>
                     Prepare) {
  Expected<PrivateDir> Dir = PrivateDir::create("divtool-rebuild");
  if (!Dir)
    return Dir.takeError();
  RebuiltVariant R{std::move(*Dir), "", ""};
  R.Tree = R.Dir.path() + "/tree";
  R.Log = R.Dir.path() + "/build.log";
  if (Options.Keep)
    R.Dir.keep();
  errs() << Options.Tool << ": " << (B.Key ? "rebuilding " : "building ")
         << B.What << " from '" << B.Source << "' in '" << R.Tree << "'\n";
  Expected<CopyStats> Copied = copyTree(B.Source, R.Tree, B.Exclude);
  if (!Copied)
    return Copied.takeError();

  std::vector<std::string> Command = B.Command;
  std::vector<std::string> Add;
  std::string SeedFile;
  if (B.Key) {
    Expected<std::string> Written = writeVariantSeed(R.Dir, *B.Key, B.SeedId);
    if (!Written)
      return Written.takeError();
    SeedFile = *Written;
    Add.push_back(assignment(EnvSeedFile, SeedFile));
  }
  if (!Options.CacheDir.empty())
    Add.push_back(assignment(EnvCacheDir, Options.CacheDir));
  if (Options.Divcc)
    Add.push_back(Options.Divcc->assignment());
  // A DIVCC_OPTIONS of the user's reaches the build unless one is given.
  std::vector<std::string> Env =
      environmentWith({EnvCacheDir, EnvSeedFile}, Add);
  if (Prepare)
    if (Error E = Prepare(R.Dir, Command, Env))
      return E;

  Expected<pid_t> Pid =
      startProcess(Command, R.Tree, Env, R.Log, R.Log,
                   /*OwnProcessGroup=*/false, "the build command");
  if (!Pid)
    return Pid.takeError();
  int Status = *waitProcess(*Pid, /*Block=*/true);
  if (B.Key)
    R.Dir.removeSecret(SeedFile);
  if (Status != 0)
    return makeError("the " + Twine(B.Key ? "rebuild" : "build") + " of " +
                     B.What + " failed (" + describeWaitStatus(Status) +
                     "); the last lines of its log:\n" +
                     StringRef(lastLines(R.Log, 10)).rtrim('\n'));
  return R;
}

} // namespace divcc
