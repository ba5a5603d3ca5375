//===- Options.cpp - divcc's own command-line options ---------------------===//
//
// divcc takes a handful of options for itself and hands every other argument
// to clang-19 unchanged, so a build that works with clang works with divcc.
// The table below is the single list of divcc's options; --help is made
// from it.
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
#include "random/SeedFile.h"

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

Error invalidValue(StringRef Spelling, StringRef Value, StringRef Why) {
  return createStringError(inconvertibleErrorCode(),
                           "invalid value '" + Value + "' in '" + Spelling +
                               Value + "': " + Why);
}

/// Sets \p Out to the mode named \p V, one of \p Modes; another name is an
/// error that lists them.
template <typename ModeT>
Error parseMode(StringRef Spelling, StringRef V,
                std::initializer_list<std::pair<StringRef, ModeT>> Modes,
                ModeT &Out) {
  std::string Known;
  for (auto [Name, Mode] : Modes) {
    if (V == Name) {
      Out = Mode;
      return Error::success();
    }
    Known += (Known.empty() ? "expected '" : " or '") + Name.str() + "'";
  }
  return invalidValue(Spelling, V, Known);
}

Error parseBounded(StringRef Spelling, StringRef V, unsigned Lo, unsigned Hi,
                   unsigned &Out) {
  unsigned N;
  if (V.getAsInteger(10, N) || N < Lo || N > Hi)
    return invalidValue(Spelling, V,
                        "expected a whole number from " + Twine(Lo).str() +
                            " to " + Twine(Hi).str());
  Out = N;
  return Error::success();
}

Error parseProbability(StringRef Spelling, StringRef V, Probability &Out) {
  auto P = Probability::parse(V);
  if (!P)
    return invalidValue(Spelling, V, toString(P.takeError()));
  Out = *P;
  return Error::success();
}

Error setTransformations(OptionState &S, StringRef Value, StringRef Spelling) {
  if (Value.empty())
    return invalidValue(Spelling, Value, "expected a comma-separated list");
  Expected<TransformationSet> Set =
      parseTransformationList(Value, (Spelling + Value).str());
  if (!Set)
    return Set.takeError();
  S.Result.Cfg.Diversity.Transformations = *Set;
  return Error::success();
}

/// The per-function transformations, for messages: "nops, sched, ...".
std::string perFunctionNames() {
  std::string Names;
  for (const TransformationInfo &Info : allTransformations())
    if (Info.PerFunction)
      Names += std::string(Names.empty() ? "" : ", ") + Info.Name;
  return Names;
}

/// The function names of FUNC[,FUNC...] or of @FILE (one a line; blank
/// lines ignored).
Error functionNames(StringRef Spelling, StringRef Value, StringRef List,
                    std::vector<std::string> &Names) {
  SmallVector<StringRef, 16> Parts;
  std::unique_ptr<MemoryBuffer> File;
  if (List.consume_front("@")) {
    auto Buffer = MemoryBuffer::getFile(List, /*IsText=*/true);
    if (!Buffer)
      return createStringError(Buffer.getError(),
                               "cannot read function list '%s' (from "
                               "'%s%s'): %s",
                               List.str().c_str(), Spelling.str().c_str(),
                               Value.str().c_str(),
                               Buffer.getError().message().c_str());
    File = std::move(*Buffer);
    File->getBuffer().split(Parts, '\n');
    for (StringRef Part : Parts)
      if (!Part.trim().empty())
        Names.push_back(Part.trim().str());
    return Error::success();
  }
  List.split(Parts, ',');
  for (StringRef Part : Parts) {
    if (Part.empty())
      return invalidValue(Spelling, Value,
                          "expected TRANSFORMATION:FUNCTION[,FUNCTION...] "
                          "or TRANSFORMATION:@FILE");
    Names.push_back(Part.str());
  }
  return Error::success();
}

/// -fdiversify-skip=T:FUNCS and -fdiversify-only=T:FUNCS.
Error filterFunctions(OptionState &S, StringRef Value, StringRef Spelling,
                      bool Only) {
  auto [Name, List] = Value.split(':');
  if (Name.size() == Value.size() || List.empty())
    return invalidValue(Spelling, Value,
                        "expected TRANSFORMATION:FUNCTION[,FUNCTION...] or "
                        "TRANSFORMATION:@FILE");
  SmallVector<Transformation, 8> Kinds;
  if (Name == "all") {
    for (const TransformationInfo &Info : allTransformations())
      if (Info.PerFunction)
        Kinds.push_back(Info.Kind);
  } else {
    std::optional<Transformation> T = findTransformation(Name);
    if (!T)
      return createStringError(inconvertibleErrorCode(),
                               "unknown transformation '" + Name + "' in '" +
                                   Spelling + Value + "' (per-function: " +
                                   perFunctionNames() + ", all)");
    if (!allTransformations()[unsigned(*T)].PerFunction)
      return createStringError(
          inconvertibleErrorCode(),
          "'" + Name + "' in '" + Spelling + Value +
              "' cannot be turned off per function: it acts on whole "
              "modules or the link (per-function: " +
              perFunctionNames() + ")");
    Kinds.push_back(*T);
  }
  std::vector<std::string> Names;
  if (Error E = functionNames(Spelling, Value, List, Names))
    return E;
  for (Transformation T : Kinds) {
    if (Only)
      S.Result.Cfg.Diversity.Functions.restrict(T);
    for (const std::string &F : Names) {
      if (Only)
        S.Result.Cfg.Diversity.Functions.allow(T, F);
      else
        S.Result.Cfg.Diversity.Functions.skip(T, F);
    }
  }
  return Error::success();
}

const OptionInfo Options[] = {
    {"-fdiversify", "",
     "Diversify with the default transformations (the "
     "default)",
     [](OptionState &S, StringRef, StringRef) -> Error {
       S.Result.Cfg.Diversity.Transformations = TransformationSet::defaultSet();
       return Error::success();
     }},
    {"-fdiversify-nop-max=", "N",
     "Insert at most N no-ops in one place (1-16, default 1)",
     [](OptionState &S, StringRef V, StringRef Spelling) -> Error {
       return parseBounded(Spelling, V, 1, 16,
                           S.Result.Cfg.Diversity.Nops.MaxRun);
     }},
    {"-fdiversify-nop-probability-max=", "P",
     "Profile-guided no-ops: probability P in the coldest code (default "
     "0.5)",
     [](OptionState &S, StringRef V, StringRef Spelling) -> Error {
       S.Result.Cfg.Diversity.Nops.ProfileGuided = true;
       return parseProbability(Spelling, V,
                               S.Result.Cfg.Diversity.Nops.Coldest);
     }},
    {"-fdiversify-nop-probability-min=", "P",
     "Profile-guided no-ops: probability P in the hottest code (default 0)",
     [](OptionState &S, StringRef V, StringRef Spelling) -> Error {
       S.Result.Cfg.Diversity.Nops.ProfileGuided = true;
       return parseProbability(Spelling, V,
                               S.Result.Cfg.Diversity.Nops.Hottest);
     }},
    {"-fdiversify-nop-probability=", "P",
     "Insert no-ops before an instruction with probability P (0-1, default "
     "0.05)",
     [](OptionState &S, StringRef V, StringRef Spelling) -> Error {
       return parseProbability(Spelling, V,
                               S.Result.Cfg.Diversity.Nops.Uniform);
     }},
    {"-fdiversify-nops-in-loops", "",
     "Insert no-ops in innermost loops too (costs run time)",
     [](OptionState &S, StringRef, StringRef) -> Error {
       S.Result.Cfg.Diversity.Nops.InLoops = true;
       return Error::success();
     }},
    {"-fno-diversify-nops-in-loops", "",
     "Keep no-ops out of innermost loops unless profile counts decide (the "
     "default)",
     [](OptionState &S, StringRef, StringRef) -> Error {
       S.Result.Cfg.Diversity.Nops.InLoops = false;
       return Error::success();
     }},
    {"-fdiversify-frame-pad=", "BYTES",
     "Pad each stack frame with up to BYTES random bytes (0-4096, default "
     "32)",
     [](OptionState &S, StringRef V, StringRef Spelling) -> Error {
       return parseBounded(Spelling, V, 0, 4096,
                           S.Result.Cfg.Diversity.Frames.MaxPad);
     }},
    {"-fdiversify-gap-max=", "BYTES",
     "Gaps: put up to BYTES bytes of traps in each place control never falls "
     "through (0-256, default 2 on x86-64, 4 elsewhere)",
     [](OptionState &S, StringRef V, StringRef Spelling) -> Error {
       unsigned Bytes = 0;
       if (Error E = parseBounded(Spelling, V, 0, 256, Bytes))
         return E;
       S.Result.Cfg.Diversity.Gaps.MaxBytes = Bytes;
       return Error::success();
     }},
    {"-fdiversify-global-pad=", "BYTES",
     "Pad before each global variable with up to BYTES random bytes (0-4096, "
     "default 0)",
     [](OptionState &S, StringRef V, StringRef Spelling) -> Error {
       return parseBounded(Spelling, V, 0, 4096,
                           S.Result.Cfg.Diversity.Globals.MaxPad);
     }},
    {"-fdiversify-regs-callee-saved", "",
     "Let random register hints name callee-saved registers (the default)",
     [](OptionState &S, StringRef, StringRef) -> Error {
       S.Result.Cfg.Diversity.Regs.CalleeSaved = true;
       return Error::success();
     }},
    {"-fno-diversify-regs-callee-saved", "",
     "Keep callee-saved registers out of random register hints (cheaper)",
     [](OptionState &S, StringRef, StringRef) -> Error {
       S.Result.Cfg.Diversity.Regs.CalleeSaved = false;
       return Error::success();
     }},
    {"-fdiversify-blocks=", "MODE",
     "Block shuffling: 'chains' (move only blocks no fall-through joins: no "
     "jump added, the default) or 'all' (every block; broken fall-throughs "
     "become jumps)",
     [](OptionState &S, StringRef V, StringRef Spelling) -> Error {
       return parseMode(Spelling, V,
                        {{"chains", BlockShuffleMode::Chains},
                         {"all", BlockShuffleMode::All}},
                        S.Result.Cfg.Diversity.Blocks);
     }},
    {"-fdiversify-sched=", "MODE",
     "Schedule randomization: 'jitter' (break the scheduler's ties at "
     "random, the default) or 'random' (any ready instruction)",
     [](OptionState &S, StringRef V, StringRef Spelling) -> Error {
       return parseMode(
           Spelling, V,
           {{"jitter", ScheduleMode::Jitter}, {"random", ScheduleMode::Random}},
           S.Result.Cfg.Diversity.Sched);
     }},
    {"-fdiversify-seed-file=", "PATH",
     "Read the secret seed from the file PATH (all of its bytes)",
     [](OptionState &S, StringRef V, StringRef Spelling) -> Error {
       if (V.empty())
         return invalidValue(Spelling, V, "expected a file name");
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
    {"-fdiversify-skip=", "T:FUNCS",
     "Leave the functions FUNCS (f,g... or @FILE, one a line) as they are "
     "without the per-function transformation T ('all': every one)",
     [](OptionState &S, StringRef V, StringRef Spelling) -> Error {
       return filterFunctions(S, V, Spelling, /*Only=*/false);
     }},
    {"-fdiversify-only=", "T:FUNCS",
     "Let the per-function transformation T ('all': every one) act only on "
     "the functions FUNCS (f,g... or @FILE)",
     [](OptionState &S, StringRef V, StringRef Spelling) -> Error {
       return filterFunctions(S, V, Spelling, /*Only=*/true);
     }},
    {"-fdiversify=", "LIST",
     "Diversify with the transformations in LIST (comma-separated names, "
     "'default' or 'all')",
     setTransformations},
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
       return parseBounded(Spelling, V, 0, 16777216, S.Result.Cfg.GoldenSlack);
     }},
    {"-fdiversify-debug-crash", "", nullptr,
     [](OptionState &S, StringRef, StringRef) -> Error {
       S.Result.Cfg.DebugCrash = true;
       return Error::success();
     }},
    {"-fno-diversify", "", "Do not diversify: generate exactly clang's code",
     [](OptionState &S, StringRef, StringRef) -> Error {
       S.Result.Cfg.Diversity.Transformations = TransformationSet();
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

// Looks an argument up in the table: exact match for flags, prefix match for
// options that take a value.
const OptionInfo *findOption(StringRef Arg, StringRef &Value) {
  for (const OptionInfo &O : Options) {
    StringRef Spelling = O.Spelling;
    if (Spelling.ends_with("=")) {
      if (Arg.starts_with(Spelling)) {
        Value = Arg.drop_front(Spelling.size());
        return &O;
      }
    } else if (Arg == Spelling) {
      Value = "";
      return &O;
    }
  }
  return nullptr;
}

/// The options whose value is the secret itself.
constexpr StringLiteral SecretSpellings[] = {"-frandom-seed=",
                                             "-fdiversify-key="};

bool holdsSecret(StringRef Spelling) {
  return is_contained(SecretSpellings, Spelling);
}

/// Applies the options of DIVCC_OPTIONS after the command line's.
Error applyEnvironmentOptions(OptionState &S) {
  for (const std::string &Word : environmentOptions(S.Result.Cfg.Environment)) {
    StringRef Value;
    const OptionInfo *O = findOption(Word, Value);
    if (!O)
      return createStringError(inconvertibleErrorCode(),
                               "'" + Word +
                                   "' in DIVCC_OPTIONS is not a divcc option "
                                   "(clang's options go on the command line)");
    // An environment is inherited by every child and easily seen: a secret
    // has no place there (a seed file's name has). The message does not
    // repeat the value.
    if (holdsSecret(O->Spelling))
      return createStringError(inconvertibleErrorCode(),
                               "'" + Twine(O->Spelling) +
                                   "' is not accepted in DIVCC_OPTIONS: give "
                                   "the seed on the command line or name a "
                                   "seed file with -fdiversify-seed-file= "
                                   "or DIVCC_SEED_FILE");
    if (Error E = O->Handle(S, Value, O->Spelling))
      return createStringError(inconvertibleErrorCode(),
                               toString(std::move(E)) + " (in DIVCC_OPTIONS)");
  }
  return Error::success();
}

} // namespace

bool isSeedOption(StringRef Arg) {
  return Arg.starts_with("-fdiversify-seed-file=") ||
         any_of(SecretSpellings,
                [&](StringRef Spelling) { return Arg.starts_with(Spelling); });
}

std::string redactSecret(StringRef Arg) {
  for (StringRef Spelling : SecretSpellings)
    if (Arg.starts_with(Spelling))
      return (Spelling + "<secret>").str();
  return Arg.str();
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
    StringRef Value;
    if (const OptionInfo *O = findOption(A, Value)) {
      if (Error E = O->Handle(S, Value, O->Spelling))
        return E;
      continue;
    }
    if (isOwnLinkObject(A))
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
  for (const OptionInfo &O : Options) {
    if (!O.Help)
      continue;
    std::string Flag = std::string(O.Spelling) + O.MetaVar;
    OS << "  " << left_justify(Flag, 34) << ' ' << O.Help << '\n';
  }
  OS << "\nTransformations:\n";
  for (const TransformationInfo &Info : allTransformations())
    OS << "  " << left_justify(Info.Name, 10) << ' ' << Info.Summary
       << (Info.InDefaultSet ? " (default)" : "") << '\n';
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
