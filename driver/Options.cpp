//===- Options.cpp - divcc's own command-line options ---------------------===//
//
// divcc takes a handful of options for itself and hands every other argument
// to clang-19 unchanged, so a build that works with clang works with divcc.
// The table below lists the driver's own (the seed, golden masters); the
// options of the transformations are transforms/DiversityOptionParser.h's,
// which divcc-llc shares. --help is made from both.
//
// The secret given by -frandom-seed=STRING is held only until it has been
// condensed into the master key; it is never echoed, not even in errors.
//
// DIVCC_OPTIONS holds more of divcc's own options, read after the command
// line so that they win: a tool (divtool test, divtool population) or a
// user changes what every divcc of a build does without editing the build,
// and no wrapper that filters flags (libtool) can drop them. A seed file may
// be named there; a secret itself may not (an environment is easily seen
// and inherited).
//
//===----------------------------------------------------------------------===//

#include "driver/Options.h"

#include "driver/LinkJob.h"
#include "driver/SoftFloat.h"
#include "random/SeedFile.h"
#include "support/OptionTable.h"
#include "transforms/DiversityOptionParser.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"

#include <openssl/crypto.h>

using namespace llvm;

namespace divcc {
namespace {

struct OptionState {
  ParsedCommandLine Result;
  std::string InlineSecret; // from -frandom-seed= or -fdiversify-key=
  // The secret is wiped however parsing ends, errors included.
  ~OptionState() { OPENSSL_cleanse(InlineSecret.data(), InlineSecret.size()); }
};

using Handler = Error (*)(OptionState &, StringRef Value, StringRef Spelling);

struct OptionInfo {
  const char *Spelling; // "-fname" or "-fname=" (then it takes a value)
  const char *MetaVar;
  const char *Help; // null: hidden from --help (debugging aids)
  Handler Handle;
};

const OptionInfo Options[] = {
    {"-fdiversify-seed-file=", "PATH",
     "Read the secret seed from the file PATH (all of its bytes)",
     [](OptionState &S, StringRef V, StringRef Spelling) -> Error {
       if (V.empty())
         return invalidOptionValue(Spelling, V, "expected a file name");
       S.Result.Cfg.Seed = SeedSource::File;
       S.Result.Cfg.SeedFile = V.str();
       return Error::success();
     }},
    {"-fdiversify-key=", "HEX",
     "Use a key divcc derived from a seed on another host (64 hex digits; "
     "see DIVCC_PREFIX)",
     [](OptionState &S, StringRef V, StringRef) -> Error {
       S.Result.Cfg.Seed = SeedSource::DerivedKey;
       OPENSSL_cleanse(S.InlineSecret.data(), S.InlineSecret.size());
       S.InlineSecret.assign(V.data(), V.size());
       return Error::success();
     }},
    {"-fdiversify-golden", "",
     "Link a golden master: keep the relocations (--emit-relocs) that "
     "'divtool rerandomize' needs to lay the program out again per "
     "install; compile with -fno-plt (a later -fplt overrides)",
     [](OptionState &S, StringRef, StringRef) -> Error {
       S.Result.Cfg.GoldenMaster = true;
       // Calls through the GOT rather than PLT stubs: BOLT moves the calls
       // but not .plt, whose stubs would be at the same address in every
       // install.
       S.Result.ClangArgs.push_back("-fno-plt");
       return Error::success();
     }},
    {"-fdiversify-golden-slack=", "BYTES",
     "With -fdiversify-golden: end .text with BYTES of trap padding, room "
     "for the rewritten code (0-16777216, default 4096)",
     [](OptionState &S, StringRef V, StringRef Spelling) -> Error {
       Expected<unsigned> Bytes = parseBoundedOption(Spelling, V, 0, 16777216);
       if (!Bytes)
         return Bytes.takeError();
       S.Result.Cfg.GoldenSlack = *Bytes;
       return Error::success();
     }},
    {"-fdiversify-debug-crash", "", nullptr,
     [](OptionState &S, StringRef, StringRef) -> Error {
       S.Result.Cfg.DebugCrash = true;
       return Error::success();
     }},
    {"-frandom-seed=", "STRING", "Use STRING as the secret seed",
     [](OptionState &S, StringRef V, StringRef Spelling) -> Error {
       if (V.empty())
         return createStringError(inconvertibleErrorCode(),
                                  "'%s' needs a non-empty seed",
                                  Spelling.str().c_str());
       S.Result.Cfg.Seed = SeedSource::Flag;
       // Overwrite in place: no temporary copy of the secret is made.
       OPENSSL_cleanse(S.InlineSecret.data(), S.InlineSecret.size());
       S.InlineSecret.assign(V.data(), V.size());
       return Error::success();
     }},
};

const OptionInfo *findOption(StringRef Arg, StringRef &Value) {
  for (const OptionInfo &O : Options)
    if (matchesOption(O.Spelling, Arg, Value))
      return &O;
  return nullptr;
}

/// Applies \p Arg if it is one of divcc's options (the driver's own or the
/// transformations'); false if it is not.
Expected<bool> applyOption(OptionState &S, StringRef Arg) {
  StringRef Value;
  if (const OptionInfo *O = findOption(Arg, Value)) {
    if (Error E = O->Handle(S, Value, O->Spelling))
      return E;
    return true;
  }
  return applyDiversityOption(Arg, S.Result.Cfg.Diversity);
}

/// The options whose value is the secret itself.
constexpr StringLiteral SecretSpellings[] = {"-frandom-seed=",
                                             "-fdiversify-key="};

/// The spelling of the secret option \p Arg is, or "".
StringRef secretSpelling(StringRef Arg) {
  for (StringRef Spelling : SecretSpellings)
    if (Arg.starts_with(Spelling))
      return Spelling;
  return "";
}

/// Applies the options of DIVCC_OPTIONS after the command line's.
Error applyEnvironmentOptions(OptionState &S) {
  for (const std::string &Word : environmentOptions(S.Result.Cfg.Environment)) {
    // An environment is inherited by every child and easily seen: a secret
    // has no place there (a seed file's name has). The message does not
    // repeat the value.
    if (StringRef Spelling = secretSpelling(Word); !Spelling.empty())
      return createStringError(inconvertibleErrorCode(),
                               "'" + Spelling +
                                   "' is not accepted in DIVCC_OPTIONS: give "
                                   "the seed on the command line or name a "
                                   "seed file with -fdiversify-seed-file= "
                                   "or DIVCC_SEED_FILE");
    Expected<bool> Applied = applyOption(S, Word);
    if (!Applied)
      return createStringError(inconvertibleErrorCode(),
                               toString(Applied.takeError()) +
                                   " (in DIVCC_OPTIONS)");
    if (!*Applied)
      return createStringError(inconvertibleErrorCode(),
                               "'" + Word +
                                   "' in DIVCC_OPTIONS is not a divcc option "
                                   "(clang's options go on the command line)");
  }
  return Error::success();
}

} // namespace

bool isSeedOption(StringRef Arg) {
  return Arg.starts_with("-fdiversify-seed-file=") ||
         !secretSpelling(Arg).empty();
}

std::string redactSecret(StringRef Arg) {
  StringRef Spelling = secretSpelling(Arg);
  return Spelling.empty() ? Arg.str() : (Spelling + "<secret>").str();
}

Error expandResponseFiles(SmallVectorImpl<const char *> &Args,
                          BumpPtrAllocator &Storage) {
  // As clang's driver: GNU quoting, nested files relative to the working
  // directory, and an @FILE that names no file is left as an argument.
  cl::ExpansionContext Expansion(Storage, cl::TokenizeGNUCommandLine);
  return Expansion.expandResponseFiles(Args);
}

std::vector<std::string> environmentOptions(const DivccEnvironment &Env) {
  std::vector<std::string> Words;
  if (Env.Options) {
    SmallVector<StringRef, 8> Parts;
    SplitString(*Env.Options, Parts);
    for (StringRef Part : Parts)
      Words.push_back(Part.str());
  }
  return Words;
}

Expected<ParsedCommandLine> parseCommandLine(ArrayRef<const char *> Args,
                                             const DivccEnvironment &Env) {
  OptionState S;
  S.Result.Cfg.Environment = Env;
  for (const char *Arg : Args) {
    StringRef A(Arg);
    Expected<bool> Applied = applyOption(S, A);
    if (!Applied)
      return Applied.takeError();
    if (*Applied)
      continue;
    if (isOwnLinkObject(A) || isSoftFloatArchive(A))
      continue;
    if (A == "--help" || A == "-help")
      S.Result.Help = true;
    else if (A == "--version")
      S.Result.Version = true;
    S.Result.ClangArgs.push_back(A.str());
  }
  if (Error E = applyEnvironmentOptions(S))
    return E;

  if (S.Result.Cfg.Seed == SeedSource::None && Env.SeedFile &&
      !Env.SeedFile->empty()) {
    S.Result.Cfg.Seed = SeedSource::Environment;
    S.Result.Cfg.SeedFile = *Env.SeedFile;
  }
  // --help and --version need no key (and must work with a bad seed file).
  if (!S.Result.Help && !S.Result.Version) {
    if (Error E = loadMasterKey(S.Result.Cfg, S.InlineSecret))
      return E;
    auto Cache = cacheSettingsFrom(Env);
    if (!Cache)
      return Cache.takeError();
    S.Result.Cfg.Cache = std::move(*Cache);
  }
  return std::move(S.Result);
}

Error loadMasterKey(Config &Cfg, StringRef InlineSecret) {
  switch (Cfg.Seed) {
  case SeedSource::Flag:
    Cfg.Key = MasterKey::fromSecret(arrayRefFromStringRef(InlineSecret));
    return Error::success();
  case SeedSource::DerivedKey:
    // The value is key material: the message must not repeat it.
    Cfg.Key = MasterKey::fromHex(InlineSecret);
    if (!Cfg.Key)
      return createStringError(inconvertibleErrorCode(),
                               "'-fdiversify-key=' needs 64 hexadecimal "
                               "digits, as DIVCC_PREFIX passes them");
    return Error::success();
  case SeedSource::File:
  case SeedSource::Environment: {
    const char *Origin =
        Cfg.Seed == SeedSource::File ? "-fdiversify-seed-file" : EnvSeedFile;
    Expected<MasterKey> Key = readSeedFile(Cfg.SeedFile, Origin);
    if (!Key)
      return Key.takeError();
    Cfg.Key = *Key;
    return Error::success();
  }
  case SeedSource::None: {
    // Nothing to diversify, nothing to draw: the system's random generator
    // costs as much to start as compiling a small file.
    if (!Cfg.diversifying())
      return Error::success();
    // Every build a new variant.
    auto Key = MasterKey::fresh();
    if (!Key)
      return Key.takeError();
    Cfg.Key = *Key;
    return Error::success();
  }
  }
  llvm_unreachable("unknown seed source");
}

std::string helpText(StringRef Prog) {
  std::string Out;
  raw_string_ostream OS(Out);
  OS << "OVERVIEW: " << Prog
     << " - a diversifying C/C++ compiler on clang-19\n\n"
        "Every build is a variant: the same program with a different code "
        "layout.\nThe same secret seed always gives the same, bit-identical "
        "variant.\n\nUSAGE: "
     << Prog
     << " [options] file...\n\n"
        "All options of clang-19 are accepted and mean what they mean to "
        "clang\n(see 'clang-19 --help'). divcc's own options:\n\n";
  printSelectionHelp(OS);
  for (const OptionInfo &O : Options)
    if (O.Help)
      printOptionHelp(OS, O.Spelling, O.MetaVar, O.Help);
  OS << "\nTransformations, each with its own options:\n";
  printTransformationHelp(OS);
  OS << "\nSeed: the last of -frandom-seed=, -fdiversify-seed-file= and "
        "-fdiversify-key= on the\ncommand line; without them, the file named "
        "by DIVCC_SEED_FILE; without that, a\nfresh seed from the system "
        "(every build a new variant). The seed is never\nwritten to any "
        "output.\n"
        "\nEnvironment: DIVCC_SEED_FILE (above); DIVCC_PREFIX=COMMAND runs "
        "each compile\nthrough COMMAND (e.g. distcc) with a key derived from "
        "the seed, never the seed;\nDIVCC_CACHE_DIR, DIVCC_CACHE_SIZE: the "
        "front-end cache; DIVCC_OPTIONS: more of\ndivcc's own options "
        "(a seed file, not a seed), applied after the command line's.\n"
        "\nArguments may come from response files (@FILE), as in clang.\n";
  return Out;
}

} // namespace divcc
