//===- RemoteCompile.cpp - Compiles handed to distcc, ccache, sccache -----===//
//
// Invariants:
//  * The secret (the bytes of -frandom-seed= or of a seed file) never goes
//    to the prefix command: only -fdiversify-key=, the master key derived
//    from it by HKDF-Extract, which is one-way. A compile host can rebuild
//    this variant (it sees the objects it compiles anyway) but learns
//    nothing about the secret, hence nothing about other variants.
//  * The handed-over compile is the same compile: every other argument
//    goes through unchanged, and the options of DIVCC_OPTIONS follow them
//    (distcc sends no environment), so its output is bit-identical to a
//    local one.
//  * DIVCC_PREFIX is removed from the environment of the command, so that
//    distcc's local fallback does not hand the compile over again.
//  * A compiler cache never serves one variant's object for another: under
//    ccache or sccache, divcc compiles only when everything that decides
//    the variant is in the cache's key (DIVCC_PREFIX=ccache puts the
//    derived key on ccache's command line, which always is).
//
//===----------------------------------------------------------------------===//

#include "driver/RemoteCompile.h"

#include "driver/Config.h"
#include "driver/Options.h"
#include "support/Diagnostics.h"
#include "support/Environment.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <unistd.h>
#include <vector>

using namespace llvm;

namespace divcc {

/// Whether the invocation compiles without linking: what distcc hands out.
static bool compilesOnly(ArrayRef<const char *> Args) {
  bool Compiles = false;
  for (StringRef A : Args) {
    if (A == "-E" || A == "-M" || A == "-MM")
      return false;
    Compiles |= A == "-c" || A == "-S";
  }
  return Compiles;
}

/// This program, under the name it was run as (div++ is a link to divcc,
/// and the name decides the language).
static std::string selfPath(const char *Argv0) {
  static int Anchor;
  std::string Exe = sys::fs::getMainExecutable(Argv0, &Anchor);
  return (sys::path::parent_path(Exe) + "/" + sys::path::filename(Argv0))
      .str();
}

std::optional<int> runThroughPrefix(ArrayRef<const char *> Argv,
                                    const Config &Cfg) {
  const std::optional<std::string> &Prefix = Cfg.Environment.Prefix;
  if (!Prefix || StringRef(*Prefix).trim().empty() || !Cfg.diversifying() ||
      !compilesOnly(Argv.drop_front()))
    return std::nullopt;

  SmallVector<StringRef, 4> PrefixWords;
  StringRef(*Prefix).split(PrefixWords, ' ', -1, /*KeepEmpty=*/false);
  std::string Self = selfPath(Argv[0]);
  std::string KeyArg = "-fdiversify-key=" + Cfg.Key->toHex();
  std::vector<StringRef> Command(PrefixWords.begin(), PrefixWords.end());
  Command.push_back(Self);
  for (StringRef A : Argv.drop_front())
    if (!isSeedOption(A))
      Command.push_back(A);
  // A compile host does not get this environment: DIVCC_OPTIONS goes on the
  // command line, after the rest, where it wins as it does here.
  // A seed file named there stays here: the key replaces it.
  std::vector<std::string> EnvironmentOptions =
      environmentOptions(Cfg.Environment);
  for (const std::string &Option : EnvironmentOptions)
    if (!isSeedOption(Option))
      Command.push_back(Option);
  Command.push_back(KeyArg);

  std::vector<std::string> Env =
      environmentWith({EnvPrefix, EnvSeedFile, EnvOptions}, {});
  std::vector<StringRef> EnvRefs(Env.begin(), Env.end());

  ErrorOr<std::string> Program = sys::findProgramByName(Command[0]);
  if (!Program) {
    printError("cannot find '" + Command[0] + "' (from " + EnvPrefix + ")");
    return 1;
  }
  std::string Message;
  int Code = sys::ExecuteAndWait(*Program, Command, EnvRefs, {}, 0, 0, &Message);
  if (Code < 0) {
    printError("running '" + Command[0] + "' (from " + EnvPrefix +
               ") failed: " + Message);
    return 1;
  }
  return Code;
}

Error checkSeedUnderDistcc(ArrayRef<const char *> Argv, const Config &Cfg) {
  // distcc sets _DISTCC_SAFEGUARD in the environment of every compiler it
  // runs, on the client (local fallback) and in the daemon.
  if (Cfg.Seed != SeedSource::None || !Cfg.diversifying() ||
      !sys::Process::GetEnv("_DISTCC_SAFEGUARD") ||
      !compilesOnly(Argv.drop_front()))
    return Error::success();
  return createStringError(
      inconvertibleErrorCode(),
      "distcc runs this compile but no seed was given on its command line "
      "(a seed file or DIVCC_SEED_FILE stays on the host that has it): each "
      "host would draw its own seed, and the variant could not be rebuilt; "
      "set DIVCC_PREFIX=distcc instead of CC=\"distcc divcc\", so that divcc "
      "passes distcc a key derived from the seed");
}

} // namespace divcc

namespace divcc {

/// The file name of this process's parent's executable ("ccache"), or "".
static std::string parentProgramName() {
  std::string Proc = "/proc/" + std::to_string(::getppid());
  SmallString<256> Exe;
  if (!sys::fs::real_path(Proc + "/exe", Exe))
    return sys::path::filename(Exe).str();
  // Another user's process: its name is still readable.
  auto Comm = MemoryBuffer::getFile(Proc + "/comm", /*IsText=*/true);
  return Comm ? (*Comm)->getBuffer().trim().str() : std::string();
}

/// The files ccache hashes into every key besides the sources: its
/// extra_files_to_hash setting, from the environment or from its
/// configuration files (asked of ccache itself).
static std::vector<std::string> ccacheExtraFiles() {
  std::string Setting;
  if (std::optional<std::string> Env = sys::Process::GetEnv("CCACHE_EXTRAFILES")) {
    Setting = *Env;
  } else if (ErrorOr<std::string> Ccache = sys::findProgramByName("ccache")) {
    SmallString<128> Output;
    if (!sys::fs::createTemporaryFile("divcc-ccache", "txt", Output)) {
      FileRemover Remove(Output);
      std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(Output),
                                              StringRef("")};
      StringRef Args[] = {*Ccache, "--get-config", "extra_files_to_hash"};
      if (sys::ExecuteAndWait(*Ccache, Args, std::nullopt, Redirects) == 0)
        if (auto Buffer = MemoryBuffer::getFile(Output, /*IsText=*/true))
          Setting = (*Buffer)->getBuffer().trim().str();
    }
  }
  std::vector<std::string> Files;
  SmallVector<StringRef, 4> Parts;
  StringRef(Setting).split(Parts, ':', -1, /*KeepEmpty=*/false);
  for (StringRef Part : Parts) {
    SmallString<256> Real;
    if (!sys::fs::real_path(Part, Real))
      Files.push_back(Real.str().str());
  }
  return Files;
}

/// Why the cache \p Cache, running this compile, cannot tell this variant
/// from others, or "".
static std::string whyVariantNotInCacheKey(StringRef Cache, const Config &Cfg) {
  if (!environmentOptions(Cfg.Environment).empty())
    return "DIVCC_OPTIONS, which changes what divcc generates, is not part "
           "of " + Cache.str() + "'s key";
  switch (Cfg.Seed) {
  case SeedSource::Flag:
  case SeedSource::DerivedKey:
    return ""; // on the command line, which the cache hashes
  case SeedSource::None:
    return "no seed was given (every build a new variant), which is not in " +
           Cache.str() + "'s key";
  case SeedSource::File:
  case SeedSource::Environment: {
    SmallString<256> Real;
    if (Cache == "ccache" && !sys::fs::real_path(Cfg.SeedFile, Real) &&
        is_contained(ccacheExtraFiles(), Real.str()))
      return ""; // ccache hashes the seed file's contents
    return "the contents of seed file '" + Cfg.SeedFile + "' (from " +
           (Cfg.Seed == SeedSource::File ? "-fdiversify-seed-file"
                                         : EnvSeedFile) +
           ") are not part of " + Cache.str() + "'s key";
  }
  }
  llvm_unreachable("unknown seed source");
}

Error checkVariantUnderCompilerCache(ArrayRef<const char *> Argv,
                                     const Config &Cfg) {
  if (!Cfg.diversifying() || !compilesOnly(Argv.drop_front()))
    return Error::success();
  std::string Parent = parentProgramName();
  if (Parent != "ccache" && Parent != "sccache")
    return Error::success();
  std::string Why = whyVariantNotInCacheKey(Parent, Cfg);
  if (Why.empty())
    return Error::success();
  return createStringError(
      inconvertibleErrorCode(),
      Parent + " runs this compile, but " + Why +
          ": it could return another variant's object; set CC=divcc and "
          "DIVCC_PREFIX=" +
          Parent + " instead (divcc then hands " + Parent +
          " a key derived from the seed, on the command line it hashes)" +
          (Parent == "ccache" && Cfg.Seed != SeedSource::None &&
                   environmentOptions(Cfg.Environment).empty()
               ? ", or list the seed file in CCACHE_EXTRAFILES"
               : ""));
}

} // namespace divcc
