//===- OptionsTest.cpp - Tests of divcc's command-line options ------------===//

#include "driver/Options.h"
#include "random/RandomStream.h"
#include "random/SecretSeed.h"
#include "transforms/Transformations.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

using namespace divcc;

namespace {

const char *const SeedEnv = "DIVCC_SEED_FILE";

std::vector<uint64_t> wordsOf(const MasterKey &M) {
  RandomStream S(M, StreamLabel{"nops", "foo.c", "main"});
  std::vector<uint64_t> W;
  for (int I = 0; I < 4; ++I)
    W.push_back(S.next64());
  return W;
}

std::vector<uint64_t> wordsOfSecret(llvm::StringRef Secret) {
  return wordsOf(MasterKey::fromSecret(llvm::arrayRefFromStringRef(Secret)));
}

class OptionsTest : public ::testing::Test {
protected:
  void SetUp() override {
    // The tests decide DIVCC_SEED_FILE themselves.
    if (const char *Old = std::getenv(SeedEnv))
      SavedEnv = Old;
    unsetenv(SeedEnv);
  }

  void TearDown() override {
    if (SavedEnv)
      setenv(SeedEnv, SavedEnv->c_str(), 1);
    else
      unsetenv(SeedEnv);
    for (const std::string &Path : TempFiles)
      llvm::sys::fs::remove(Path);
  }

  llvm::Expected<ParsedCommandLine>
  parse(const std::vector<std::string> &Args) {
    std::vector<const char *> Argv;
    for (const std::string &A : Args)
      Argv.push_back(A.c_str());
    return parseCommandLine(Argv, DivccEnvironment::fromProcess());
  }

  /// Parses, requiring success.
  ParsedCommandLine parseOK(const std::vector<std::string> &Args) {
    llvm::Expected<ParsedCommandLine> P = parse(Args);
    if (!P) {
      ADD_FAILURE() << "unexpected error: " << llvm::toString(P.takeError());
      return ParsedCommandLine();
    }
    return std::move(*P);
  }

  /// Parses, requiring an error; returns its message.
  std::string parseError(const std::vector<std::string> &Args) {
    llvm::Expected<ParsedCommandLine> P = parse(Args);
    if (P) {
      std::string Joined;
      for (const std::string &A : Args)
        Joined += " " + A;
      ADD_FAILURE() << "accepted:" << Joined;
      return "";
    }
    return llvm::toString(P.takeError());
  }

  std::vector<uint64_t> keyWords(const ParsedCommandLine &P) {
    if (!P.Cfg.Key) {
      ADD_FAILURE() << "no master key";
      return {};
    }
    return wordsOf(*P.Cfg.Key);
  }

  /// A new temporary file holding exactly \p Contents.
  std::string tempFile(llvm::StringRef Contents) {
    llvm::SmallString<128> Path;
    int FD;
    std::error_code EC =
        llvm::sys::fs::createTemporaryFile("divcc-seed", "bin", FD, Path);
    EXPECT_FALSE(EC) << EC.message();
    {
      llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
      OS << Contents;
    }
    TempFiles.push_back(std::string(Path));
    return std::string(Path);
  }

  /// A path in the temporary directory that does not exist.
  std::string missingFile() {
    std::string Path = tempFile("x");
    llvm::sys::fs::remove(Path);
    Path += ".missing";
    EXPECT_FALSE(llvm::sys::fs::exists(Path));
    return Path;
  }

  std::optional<std::string> SavedEnv;
  std::vector<std::string> TempFiles;
};

// --------------------------------------------------------------------------
// Splitting the command line.

TEST_F(OptionsTest, RemovesDivccOptionsAndKeepsTheRestInOrder) {
  ParsedCommandLine P =
      parseOK({"-O2", "-fdiversify=nops", "-c", "-frandom-seed=s", "foo.c",
               "-fdiversify-nop-max=3", "-o", "foo.o",
               "-fdiversify-nop-probability=0.25", "-Wall", "-fno-diversify",
               "-fdiversify", "-DX=-fdiversify", "bar.c"});
  EXPECT_EQ(P.ClangArgs,
            (std::vector<std::string>{"-O2", "-c", "foo.c", "-o", "foo.o",
                                      "-Wall", "-DX=-fdiversify", "bar.c"}));
  EXPECT_FALSE(P.Help);
  EXPECT_FALSE(P.Version);
  EXPECT_EQ(P.Cfg.Diversity.Nops.MaxRun, 3u);
  EXPECT_EQ(P.Cfg.Diversity.Nops.Uniform.threshold(), Probability::One / 4);
}

TEST_F(OptionsTest, NearMissSpellingsAreLeftForClang) {
  std::vector<std::string> Args = {"-fdiversifyx", "-fdiversify-nop-max",
                                   "-frandom-seed", "-fno-diversify=1",
                                   "--fdiversify", "-fdiversify-seed-file"};
  ParsedCommandLine P = parseOK(Args);
  EXPECT_EQ(P.ClangArgs, Args);
  EXPECT_EQ(P.Cfg.Seed, SeedSource::None);
  EXPECT_EQ(P.Cfg.Diversity.Transformations.str(),
            TransformationSet::defaultSet().str());
}

TEST_F(OptionsTest, EmptyCommandLine) {
  ParsedCommandLine P = parseOK({});
  EXPECT_TRUE(P.ClangArgs.empty());
  EXPECT_EQ(P.Cfg.Diversity.Transformations.str(),
            TransformationSet::defaultSet().str());
  // What moves code for no instruction executed, and shift's no-ops
  // before first returns (docs/performance.md).
  EXPECT_EQ(P.Cfg.Diversity.Transformations.str(),
            "funcs,sched,globals,subst,offset,gaps,saves,prefixes,shift,loops,"
            "softfp");
  EXPECT_FALSE(P.Cfg.Diversity.Shift.MaxNops); // the target's default
  EXPECT_EQ(P.Cfg.Diversity.Blocks, BlockShuffleMode::Chains);
  EXPECT_FALSE(P.Cfg.Diversity.Gaps.MaxBytes); // the target's default
  EXPECT_TRUE(P.Cfg.diversifying());
  EXPECT_EQ(P.Cfg.Diversity.Nops.MaxRun, 1u);
  EXPECT_EQ(P.Cfg.Diversity.Nops.Uniform.threshold(),
            Probability::fromFraction(0.05).threshold());
}

TEST_F(OptionsTest, HelpAndVersionAreNoticed) {
  EXPECT_TRUE(parseOK({"--help"}).Help);
  EXPECT_TRUE(parseOK({"-help"}).Help);
  EXPECT_TRUE(parseOK({"--version"}).Version);
  EXPECT_FALSE(parseOK({"-v"}).Version);
}

// --------------------------------------------------------------------------
// Transformations.

TEST_F(OptionsTest, NoDiversifyEmptiesTheSet) {
  ParsedCommandLine P = parseOK({"-fno-diversify"});
  EXPECT_TRUE(P.Cfg.Diversity.Transformations.empty());
  EXPECT_FALSE(P.Cfg.diversifying());
  for (const TransformationInfo &Info : allTransformations())
    EXPECT_FALSE(P.Cfg.Diversity.Transformations.has(Info.Kind)) << Info.Name;
  EXPECT_TRUE(parseOK({"-fdiversify=all", "-fno-diversify"})
                  .Cfg.Diversity.Transformations.empty());
  // Nothing to diversify and no seed: no key is drawn.
  EXPECT_FALSE(P.Cfg.Key.has_value());
  EXPECT_TRUE(parseOK({"-fdiversify"}).Cfg.Key.has_value());
}

TEST_F(OptionsTest, LastDiversifyOptionWins) {
  EXPECT_EQ(parseOK({"-fno-diversify", "-fdiversify"})
                .Cfg.Diversity.Transformations.str(),
            TransformationSet::defaultSet().str());
  EXPECT_EQ(parseOK({"-fdiversify=nops", "-fdiversify=funcs"})
                .Cfg.Diversity.Transformations.str(),
            "funcs");
}

TEST_F(OptionsTest, DiversifyNopsIsOnlyNops) {
  ParsedCommandLine P = parseOK({"-fdiversify=nops"});
  for (const TransformationInfo &Info : allTransformations())
    EXPECT_EQ(P.Cfg.Diversity.Transformations.has(Info.Kind),
              Info.Kind == Transformation::Nops)
        << Info.Name;
  EXPECT_EQ(P.Cfg.Diversity.Transformations.str(), "nops");
  EXPECT_TRUE(P.Cfg.diversifying());

  ParsedCommandLine F = parseOK({"-fdiversify=funcs"});
  EXPECT_FALSE(F.Cfg.Diversity.Transformations.has(Transformation::Nops));
  EXPECT_TRUE(F.Cfg.Diversity.Transformations.has(Transformation::Funcs));
}

TEST_F(OptionsTest, DiversifyAllAndLists) {
  ParsedCommandLine P = parseOK({"-fno-diversify", "-fdiversify=all"});
  for (const TransformationInfo &Info : allTransformations())
    EXPECT_TRUE(P.Cfg.Diversity.Transformations.has(Info.Kind)) << Info.Name;
  // Every transformation can be named on its own.
  for (const TransformationInfo &Info : allTransformations())
    EXPECT_EQ(parseOK({std::string("-fdiversify=") + Info.Name})
                  .Cfg.Diversity.Transformations.str(),
              Info.Name);
  EXPECT_EQ(
      parseOK({"-fdiversify=funcs,nops"}).Cfg.Diversity.Transformations.str(),
      "nops,funcs");
  EXPECT_EQ(
      parseOK({"-fdiversify=default"}).Cfg.Diversity.Transformations.str(),
      TransformationSet::defaultSet().str());
}

TEST_F(OptionsTest, UnknownTransformationIsNamed) {
  std::string E = parseError({"-fdiversify=nops,bogus"});
  EXPECT_NE(E.find("'bogus'"), std::string::npos) << E;
  EXPECT_NE(E.find("nops"), std::string::npos) << E; // lists the known ones
  EXPECT_NE(E.find("funcs"), std::string::npos) << E;

  E = parseError({"-fdiversify=NOPS"});
  EXPECT_NE(E.find("'NOPS'"), std::string::npos) << E;
  parseError({"-fdiversify=nops,"});
  parseError({"-fdiversify="});
}

// --------------------------------------------------------------------------
// No-op parameters.

TEST_F(OptionsTest, NopProbabilityOutOfRangeIsAnError) {
  std::string E = parseError({"-fdiversify-nop-probability=2"});
  EXPECT_NE(E.find("-fdiversify-nop-probability=2"), std::string::npos) << E;
  parseError({"-fdiversify-nop-probability=-0.5"});
  parseError({"-fdiversify-nop-probability=half"});
  parseError({"-fdiversify-nop-probability="});
  EXPECT_EQ(parseOK({"-fdiversify-nop-probability=1"})
                .Cfg.Diversity.Nops.Uniform.threshold(),
            Probability::One);
  EXPECT_EQ(parseOK({"-fdiversify-nop-probability=0"})
                .Cfg.Diversity.Nops.Uniform.threshold(),
            0u);
}

TEST_F(OptionsTest, NopMaxMustBeOneToSixteen) {
  for (const char *Bad : {"0", "17", "-1", "abc", "", "1.5", "4294967297"}) {
    std::string E = parseError({std::string("-fdiversify-nop-max=") + Bad});
    EXPECT_NE(E.find("-fdiversify-nop-max="), std::string::npos) << E;
  }
  EXPECT_EQ(parseOK({"-fdiversify-nop-max=1"}).Cfg.Diversity.Nops.MaxRun, 1u);
  EXPECT_EQ(parseOK({"-fdiversify-nop-max=16"}).Cfg.Diversity.Nops.MaxRun, 16u);
  EXPECT_EQ(parseOK({"-fdiversify-nop-max=7"}).Cfg.Diversity.Nops.MaxRun, 7u);
}

// --------------------------------------------------------------------------
// The secret.

TEST_F(OptionsTest, RandomSeedDeterminesTheStreams) {
  ParsedCommandLine A = parseOK({"-frandom-seed=SECRETVALUE"});
  ParsedCommandLine B = parseOK({"-c", "-frandom-seed=SECRETVALUE"});
  ParsedCommandLine C = parseOK({"-frandom-seed=SECRETVALUF"});
  EXPECT_EQ(A.Cfg.Seed, SeedSource::Flag);
  EXPECT_EQ(keyWords(A), keyWords(B));
  EXPECT_NE(keyWords(A), keyWords(C));
  EXPECT_EQ(keyWords(A), wordsOfSecret("SECRETVALUE"));
  // The last -frandom-seed= counts.
  EXPECT_EQ(keyWords(parseOK({"-frandom-seed=other", "-frandom-seed=SECRETVALUE"})),
            keyWords(A));
}

TEST_F(OptionsTest, NoSeedGivesAFreshKeyEachTime) {
  ParsedCommandLine A = parseOK({});
  ParsedCommandLine B = parseOK({});
  EXPECT_EQ(A.Cfg.Seed, SeedSource::None);
  EXPECT_NE(keyWords(A), keyWords(B));
}

TEST_F(OptionsTest, EmptyRandomSeedIsAnError) {
  std::string E = parseError({"-frandom-seed="});
  EXPECT_NE(E.find("-frandom-seed="), std::string::npos) << E;
}

TEST_F(OptionsTest, ErrorsNeverRepeatTheSecret) {
  std::string Missing = missingFile();
  std::string Empty = tempFile("");
  // Each of these is an error wherever it stands next to the secret.
  const std::vector<std::string> AlwaysBad = {
      "-fdiversify=bogus",
      "-fdiversify=",
      "-fdiversify=nops,",
      "-fdiversify-nop-probability=2",
      "-fdiversify-nop-probability=x",
      "-fdiversify-nop-max=0",
      "-fdiversify-nop-max=17",
      "-fdiversify-seed-file=",
      "-frandom-seed=",
  };
  // These compete with -frandom-seed= for the secret; whether they are an
  // error depends on which source wins, so only their messages are checked.
  const std::vector<std::string> BadSeedFiles = {
      "-fdiversify-seed-file=" + Missing,
      "-fdiversify-seed-file=" + Empty,
  };
  auto Check = [&](const std::string &Bad, bool MustFail) {
    for (bool SecretFirst : {true, false}) {
      std::vector<std::string> Args =
          SecretFirst
              ? std::vector<std::string>{"-frandom-seed=SECRETVALUE", Bad, "-c"}
              : std::vector<std::string>{Bad, "-c",
                                         "-frandom-seed=SECRETVALUE"};
      llvm::Expected<ParsedCommandLine> P = parse(Args);
      if (P) {
        EXPECT_FALSE(MustFail) << Bad << " accepted";
        continue;
      }
      std::string E = llvm::toString(P.takeError());
      EXPECT_FALSE(E.empty()) << Bad;
      EXPECT_EQ(E.find("SECRETVALUE"), std::string::npos)
          << "the secret appears in: " << E;
    }
  };
  for (const std::string &Bad : AlwaysBad)
    Check(Bad, true);
  for (const std::string &Bad : BadSeedFiles)
    Check(Bad, false);

  // An unreadable DIVCC_SEED_FILE does not matter once a secret is given.
  setenv(SeedEnv, Missing.c_str(), 1);
  EXPECT_EQ(keyWords(parseOK({"-frandom-seed=SECRETVALUE"})),
            wordsOfSecret("SECRETVALUE"));
  setenv(SeedEnv, Empty.c_str(), 1);
  EXPECT_EQ(keyWords(parseOK({"-frandom-seed=SECRETVALUE"})),
            wordsOfSecret("SECRETVALUE"));
}

TEST_F(OptionsTest, MissingSeedFileIsNamed) {
  std::string Missing = missingFile();
  std::string E = parseError({"-fdiversify-seed-file=" + Missing});
  EXPECT_NE(E.find(Missing), std::string::npos) << E;
  EXPECT_NE(E.find("-fdiversify-seed-file"), std::string::npos) << E;
}

TEST_F(OptionsTest, EmptySeedFileIsAnError) {
  std::string Empty = tempFile("");
  std::string E = parseError({"-fdiversify-seed-file=" + Empty});
  EXPECT_NE(E.find(Empty), std::string::npos) << E;
  EXPECT_NE(E.find("empty"), std::string::npos) << E;
}

TEST_F(OptionsTest, SeedFileContentIsTheSecret) {
  std::string File = tempFile("SECRETVALUE");
  ParsedCommandLine P = parseOK({"-fdiversify-seed-file=" + File});
  EXPECT_EQ(P.Cfg.Seed, SeedSource::File);
  EXPECT_EQ(P.Cfg.SeedFile, File);
  EXPECT_EQ(keyWords(P), keyWords(parseOK({"-frandom-seed=SECRETVALUE"})));

  // All bytes count: a trailing newline is part of the secret ...
  std::string WithNewline = tempFile("SECRETVALUE\n");
  ParsedCommandLine N = parseOK({"-fdiversify-seed-file=" + WithNewline});
  EXPECT_NE(keyWords(N), keyWords(P));
  EXPECT_EQ(keyWords(N), keyWords(parseOK({"-frandom-seed=SECRETVALUE\n"})));
  // ... and so is everything after a NUL byte.
  std::string Binary = tempFile(llvm::StringRef("ab\0cd\xff", 6));
  EXPECT_EQ(keyWords(parseOK({"-fdiversify-seed-file=" + Binary})),
            wordsOfSecret(llvm::StringRef("ab\0cd\xff", 6)));
}

TEST_F(OptionsTest, SeedFileFromTheEnvironment) {
  std::string File = tempFile("SECRETVALUE");
  std::string Other = tempFile("another secret");
  setenv(SeedEnv, File.c_str(), 1);

  ParsedCommandLine P = parseOK({"-c"});
  EXPECT_EQ(P.Cfg.Seed, SeedSource::Environment);
  EXPECT_EQ(P.Cfg.SeedFile, File);
  EXPECT_EQ(keyWords(P), wordsOfSecret("SECRETVALUE"));

  // Flags override the environment.
  ParsedCommandLine F = parseOK({"-frandom-seed=flag secret"});
  EXPECT_EQ(F.Cfg.Seed, SeedSource::Flag);
  EXPECT_EQ(keyWords(F), wordsOfSecret("flag secret"));
  ParsedCommandLine G = parseOK({"-fdiversify-seed-file=" + Other});
  EXPECT_EQ(G.Cfg.Seed, SeedSource::File);
  EXPECT_EQ(keyWords(G), wordsOfSecret("another secret"));

  // A missing file named by the environment is an error naming both.
  std::string Missing = missingFile();
  setenv(SeedEnv, Missing.c_str(), 1);
  std::string E = parseError({"-c"});
  EXPECT_NE(E.find(Missing), std::string::npos) << E;
  EXPECT_NE(E.find("DIVCC_SEED_FILE"), std::string::npos) << E;

  // An empty variable is no seed at all.
  setenv(SeedEnv, "", 1);
  EXPECT_EQ(parseOK({"-c"}).Cfg.Seed, SeedSource::None);
}

// --------------------------------------------------------------------------
// --help.

TEST_F(OptionsTest, HelpTextMentionsEveryTransformationAndOption) {
  std::string Help = helpText("divcc");
  ASSERT_FALSE(allTransformations().empty());
  for (const TransformationInfo &Info : allTransformations()) {
    EXPECT_NE(Help.find(std::string("  ") + Info.Name + " "), std::string::npos)
        << Info.Name;
    EXPECT_NE(Help.find(Info.Summary), std::string::npos) << Info.Name;
  }
  for (const char *Option :
       {"-fdiversify ", "-fdiversify=LIST", "-fno-diversify",
        "-fdiversify-nop-max=N", "-fdiversify-nop-probability=P",
        "-fdiversify-seed-file=PATH", "-frandom-seed=STRING",
        "DIVCC_SEED_FILE"})
    EXPECT_NE(Help.find(Option), std::string::npos) << Option;
  EXPECT_EQ(Help.find("SECRET"), std::string::npos);
  EXPECT_NE(helpText("div++").find("div++"), std::string::npos);
}

} // namespace

namespace {

TEST(SecretRedaction, MasksTheValueOfSecretOptionsOnly) {
  EXPECT_EQ(redactSecret("-frandom-seed=TopSecret"), "-frandom-seed=<secret>");
  EXPECT_EQ(redactSecret("-fdiversify-key=00ff"), "-fdiversify-key=<secret>");
  // A seed file's name and every other argument are shown as they are.
  EXPECT_EQ(redactSecret("-fdiversify-seed-file=k.seed"),
            "-fdiversify-seed-file=k.seed");
  EXPECT_EQ(redactSecret("-O2"), "-O2");
  EXPECT_EQ(redactSecret("@args.rsp"), "@args.rsp");
  EXPECT_TRUE(isSeedOption("-fdiversify-seed-file=k.seed"));
  EXPECT_TRUE(isSeedOption("-frandom-seed=x"));
  EXPECT_FALSE(isSeedOption("-frandom-seedx"));
}

TEST(ResponseFiles, NestedQuotedAndMissing) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("divcc-rsp", Dir));
  std::string Outer = (Dir + "/outer.rsp").str();
  std::string Inner = (Dir + "/inner.rsp").str();
  {
    std::error_code EC;
    llvm::raw_fd_ostream(Outer, EC) << "-O2 \"-frandom-seed=a b\" @" << Inner
                                    << "\n";
    ASSERT_FALSE(EC);
    llvm::raw_fd_ostream(Inner, EC) << "'x y.c' -o\\ out\n";
    ASSERT_FALSE(EC);
  }
  std::string OuterArg = "@" + Outer;
  llvm::SmallVector<const char *, 8> Args = {"divcc", OuterArg.c_str(),
                                             "@no-such-file.rsp"};
  llvm::BumpPtrAllocator Storage;
  ASSERT_FALSE(llvm::errorToBool(expandResponseFiles(Args, Storage)));
  std::vector<std::string> Got(Args.begin(), Args.end());
  EXPECT_EQ(Got, (std::vector<std::string>{"divcc", "-O2", "-frandom-seed=a b",
                                           "x y.c", "-o out",
                                           "@no-such-file.rsp"}));
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
