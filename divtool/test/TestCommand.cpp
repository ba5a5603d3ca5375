//===- TestCommand.cpp - `divtool test`: which variants break the tests ---===//
//
// Builds the project once undiversified (-fno-diversify through
// DIVCC_OPTIONS) and K times diversified, through the population machinery
// (divtool/population/Population.h: the same variant ids and seeds as
// `divtool population` with the same seed file), runs the project's test
// command in each tree, and reports every variant whose result (exit
// status, standard output) differs from the undiversified build's. With
// --bisect, each such variant is narrowed to a transformation and, where it
// acts per function, to a function (Bisect.h).
//
// Invariants:
//   - No seed is printed, logged or put on a command line: variants are
//     named by id, and a reproduction is a `divtool test --only ID` line
//     that derives the same seed from the same seed file.
//   - The undiversified build runs the test twice and must give the same
//     result both times, so that a difference is the variant's, not the
//     test's noise.
//   - A variant that fails to build differs (the undiversified build
//     built).
//
//===----------------------------------------------------------------------===//

#include "divtool/CommandLine.h"
#include "divtool/Subcommands.h"
#include "divtool/population/Population.h"
#include "divtool/population/VariantBuild.h"
#include "divtool/test/Bisect.h"
#include "divtool/test/TestRun.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

using namespace llvm;

namespace divcc {
namespace {

struct TestCommandLine {
  unsigned Variants = 0;
  std::string SeedFile;
  std::string Build;
  std::string Source;
  std::string Out;
  std::string Transforms = "all";
  std::vector<std::string> Only;
  std::string Functions;
  bool Bisect = false;
  bool Keep = false;
  unsigned Jobs = 1;
  unsigned Timeout = 300;
  std::vector<std::string> Command;
};

/// The transformations of -fdiversify=LIST, in divcc's table order.
Expected<std::vector<Transformation>> parseTransforms(StringRef List) {
  TransformationSet Set;
  SmallVector<StringRef, 8> Names;
  List.split(Names, ',');
  for (StringRef Name : Names) {
    bool Known = false;
    for (const TransformationInfo &Info : allTransformations())
      if (Name == "all" || (Name == "default" && Info.InDefaultSet) ||
          Name == Info.Name) {
        Set.add(Info.Kind);
        Known = true;
      }
    if (!Known)
      return makeError("unknown transformation '" + Name +
                       "' in --transforms " + List);
  }
  std::vector<Transformation> Active;
  for (const TransformationInfo &Info : allTransformations())
    if (Set.has(Info.Kind))
      Active.push_back(Info.Kind);
  return Active;
}

class TestRunner {
public:
  TestRunner(const TestCommandLine &C, MasterKey Key,
             const DivccEnvironment &Env)
      : C(C), Key(std::move(Key)), Env(Env) {}
  int run();

private:
  Error prepare();
  Error runReference();
  /// Builds and tests K variants through buildPopulation.
  Error runPopulation();
  /// Builds variant \p Id (none: undiversified) with \p Options in a
  /// private tree and runs the test there (twice with \p Again); lists the
  /// build's functions into \p Functions if given.
  Expected<TestResult> buildAndTest(StringRef Id, const DivccOptions &Options,
                                    StringRef Stem,
                                    std::vector<std::string> *Functions,
                                    TestResult *Again = nullptr);
  void bisect(StringRef Id);
  std::string reproduction(StringRef Id, StringRef Transforms,
                           StringRef Functions) const;

  const TestCommandLine &C;
  MasterKey Key;
  const DivccEnvironment &Env;
  std::vector<Transformation> Active;
  DivccOptions Divcc; ///< What every variant's divcc is given.
  /// DIVCC_OPTIONS of divtool's environment, ahead of divtool test's own.
  DivccOptions UserOptions;
  std::string Source, SeedFile, Work, ResultsDir, CacheDir;
  std::optional<PrivateDir> WorkDir;
  std::vector<std::string> Exclude;
  std::vector<std::string> BuildCommand;
  TestCommandSpec Test;
  TestResult Reference;
  /// Each variant's result, in id order.
  std::vector<std::pair<std::string, TestResult>> Outcomes;
  unsigned Trials = 0;
};

Error TestRunner::prepare() {
  Expected<std::vector<Transformation>> Parsed = parseTransforms(C.Transforms);
  if (!Parsed)
    return Parsed.takeError();
  Active = std::move(*Parsed);
  // divcc reads these through DIVCC_OPTIONS, split at white space.
  if (hasWhiteSpace(C.Functions))
    return makeError("--functions '" + C.Functions +
                     "': names are separated by commas, without white space");
  Divcc.diversify(C.Transforms);
  if (!C.Functions.empty()) {
    for (Transformation T : Active) {
      if (!allTransformations()[unsigned(T)].PerFunction)
        return makeError("--functions applies to per-function transformations, "
                         "and '" +
                         Twine(transformationName(T)) +
                         "' in --transforms acts on whole modules or the link");
      Divcc.only(T, C.Functions);
    }
  }
  for (const std::string &Id : C.Only)
    if (!StringRef(Id).starts_with("v") || Id.size() < 5 ||
        !all_of(StringRef(Id).drop_front(), isDigit))
      return makeError("'" + Id + "' is not a variant id (v0001, v0002...)");

  Expected<std::string> Tree = resolveSourceTree(C.Source);
  if (!Tree)
    return Tree.takeError();
  Source = *Tree;
  SmallString<256> Real;
  SmallString<256> Seed(C.SeedFile);
  sys::fs::make_absolute(Seed);
  SeedFile = std::string(Seed);
  if (!sys::fs::real_path(SeedFile, Real))
    Exclude.push_back(std::string(Real));

  if (C.Out.empty()) {
    Expected<PrivateDir> Dir = PrivateDir::create("divtool-test");
    if (!Dir)
      return Dir.takeError();
    WorkDir.emplace(std::move(*Dir));
    if (C.Keep)
      WorkDir->keep();
    Work = WorkDir->path();
  } else {
    SmallString<256> Out(C.Out);
    sys::fs::make_absolute(Out);
    sys::path::remove_dots(Out, /*remove_dot_dot=*/true);
    std::error_code EC;
    if (sys::fs::exists(Out) &&
        sys::fs::directory_iterator(Out, EC) != sys::fs::directory_iterator())
      return makeError("'" + Out +
                       "' is not empty: divtool test needs a new "
                       "directory for --out");
    if ((EC = sys::fs::create_directories(Out)))
      return makeError("cannot create '" + Out + "': " + EC.message());
    if ((EC = sys::fs::real_path(Twine(Out), Out)))
      return makeError("'" + Out + "': " + EC.message());
    if (Out == Source)
      return makeError("--out '" + Out +
                       "' is the source tree; choose another");
    Work = std::string(Out);
  }
  Exclude.push_back(Work);
  ResultsDir = Work + "/results";
  if (C.Bisect && hasWhiteSpace(ResultsDir))
    return makeError("--bisect hands divcc function lists under '" + Work +
                     "', whose name must hold no white space: choose another "
                     "with --out");
  if (std::error_code EC = sys::fs::create_directories(ResultsDir + "/lists"))
    return makeError("cannot create '" + ResultsDir + "': " + EC.message());

  // Every build shares one front-end cache: the variants' rebuilds compile
  // the same source. DIVCC_CACHE_DIR, when set, chooses it (empty: none).
  if (const std::optional<std::string> &User = Env.CacheDir) {
    SmallString<256> Dir(*User);
    if (!User->empty())
      sys::fs::make_absolute(Dir);
    CacheDir = std::string(Dir);
  } else {
    CacheDir = Work + "/cache";
  }
  UserOptions = DivccOptions::fromEnvironment(Env);
  BuildCommand = {"/bin/sh", "-c", C.Build};
  Test.Argv = C.Command;
  Test.TimeoutSeconds = C.Timeout;
  return Error::success();
}

Expected<TestResult>
TestRunner::buildAndTest(StringRef Id, const DivccOptions &Options,
                         StringRef Stem, std::vector<std::string> *Functions,
                         TestResult *Again) {
  PrivateBuild B;
  B.Source = Source;
  B.Exclude = Exclude;
  B.Command = BuildCommand;
  B.Key = Id.empty() ? nullptr : &Key;
  B.SeedId = Id.str();
  B.What = Id.empty() ? "the project without diversity"
                      : ("variant " + Id + " with " + Options.str()).str();
  RebuildOptions O;
  O.Tool = "divtool test";
  O.Keep = C.Keep;
  O.CacheDir = CacheDir;
  O.Divcc = DivccOptions(UserOptions).append(Options);
  Expected<RebuiltVariant> Built = buildPrivateCopy(B, O);
  if (!Built)
    return buildFailure(toString(Built.takeError()));
  if (Functions)
    *Functions = functionsOfTree(Built->Tree);
  Expected<TestResult> Result = runTest(Test, Built->Tree, Stem);
  if (Result && Again) {
    Expected<TestResult> Second =
        runTest(Test, Built->Tree, (Stem + "-again").str());
    if (!Second)
      return Second.takeError();
    *Again = std::move(*Second);
  }
  return Result;
}

Error TestRunner::runReference() {
  // The test runs twice on the undiversified build: a test whose result
  // varies by itself would make every variant look broken.
  TestResult Second;
  Expected<TestResult> First =
      buildAndTest("", DivccOptions().noDiversity(),
                   ResultsDir + "/undiversified", nullptr, &Second);
  if (!First)
    return First.takeError();
  if (First->What == TestResult::Kind::BuildFailed)
    return makeError(First->BuildError);
  if (First->What == TestResult::Kind::TimedOut)
    return makeError("the test command timed out on the undiversified build "
                     "(after " +
                     Twine(C.Timeout) + " s; see --timeout)");
  if (!sameResult(*First, Second))
    return makeError("the test command gives different results on the same "
                     "undiversified build (" +
                     describeDifference(*First, Second, C.Timeout) +
                     "): divtool test needs a deterministic test");
  Reference = std::move(*First);
  outs() << "undiversified: " << describeResult(Reference, C.Timeout) << "\n";
  outs().flush();
  return Error::success();
}

Error TestRunner::runPopulation() {
  PopulationOptions P;
  P.Divcc = DivccOptions(UserOptions).append(Divcc);
  P.Count = C.Variants;
  P.Out = Work;
  P.SeedFile = SeedFile;
  P.Jobs = C.Jobs;
  P.Source = Source;
  P.Command = BuildCommand;
  P.Tool = "divtool test";
  Expected<PopulationBuilt> Built = buildPopulation(P, Key, Env);
  if (!Built)
    return Built.takeError();

  Expected<Registry> Reg =
      Registry::open(Built->RegistryPath, populationKeyId(Key), false);
  if (!Reg)
    return Reg.takeError();
  Expected<std::vector<VariantRecord>> Variants = Reg->variants();
  if (!Variants)
    return Variants.takeError();
  for (const VariantRecord &V : *Variants) {
    if (!is_contained(Built->Ids, V.Id))
      continue;
    if (V.Status != "built") {
      Outcomes.push_back(
          {V.Id, buildFailure("see " + sys::path::parent_path(V.Tree).str() +
                              "/build.log")});
      continue;
    }
    Expected<TestResult> R = runTest(Test, V.Tree, ResultsDir + "/" + V.Id);
    if (!R)
      return R.takeError();
    Outcomes.push_back({V.Id, std::move(*R)});
  }
  return Error::success();
}

std::string TestRunner::reproduction(StringRef Id, StringRef Transforms,
                                     StringRef Functions) const {
  std::vector<std::string> Words = {
      "divtool",      "test",           "--seed-file", SeedFile,
      "--source",     Source,           "--build",     C.Build,
      "--transforms", Transforms.str(), "--only",      Id.str()};
  if (!Functions.empty()) {
    Words.push_back("--functions");
    Words.push_back(Functions.str());
  }
  Words.push_back("--");
  Words.insert(Words.end(), C.Command.begin(), C.Command.end());
  return shellJoin(Words);
}

void TestRunner::bisect(StringRef Id) {
  outs() << "bisecting " << Id << ":\n";
  outs().flush();
  auto Run = [&](const DivccOptions &Options, bool List) -> Expected<Trial> {
    Trial T;
    std::string Stem =
        ResultsDir + "/" + Id.str() + "-bisect-" + std::to_string(++Trials);
    Expected<TestResult> R =
        buildAndTest(Id, Options, Stem, List ? &T.Functions : nullptr);
    if (!R)
      return R.takeError();
    T.Fails = !sameResult(Reference, *R);
    return T;
  };
  auto Say = [](const Twine &Line) {
    outs() << Line << "\n";
    outs().flush();
  };
  Expected<BisectResult> B =
      bisectVariant(Active, Run, ResultsDir + "/lists", Say);
  if (!B) {
    outs() << Id << ": bisection stopped: " << toString(B.takeError()) << "\n";
    return;
  }
  if (!B->Reproduced) {
    outs() << Id << ": not narrowed: " << B->Note << "\n";
    return;
  }
  std::string Names;
  for (Transformation T : B->Transformations)
    Names += (Names.empty() ? "" : ",") + std::string(transformationName(T));
  std::string Quoted;
  for (Transformation T : B->Transformations)
    Quoted += (Quoted.empty() ? "'" : ", '") +
              std::string(transformationName(T)) + "'";
  std::string FunctionList = join(B->Functions, ",");
  if (B->Functions.size() == 1)
    outs() << Id << " fails: function '" << B->Functions.front()
           << "' breaks under " << Quoted << "\n";
  else if (!B->Functions.empty())
    outs() << Id << " fails: functions " << FunctionList
           << " break together under " << Quoted << "\n";
  else
    outs() << Id << " fails under " << Quoted
           << (B->Transformations.size() > 1 ? " together" : "") << "\n";
  if (!B->Note.empty())
    outs() << "  (" << B->Note << ")\n";
  outs() << "  reproduce: " << reproduction(Id, Names, FunctionList) << "\n";
  if (!B->Functions.empty())
    outs() << "  work around: build with -fdiversify-skip=" << Names << ":"
           << FunctionList << "\n";
  outs().flush();
}

int TestRunner::run() {
  if (Error E = prepare())
    return reportError(std::move(E));
  if (Error E = runReference())
    return reportError(std::move(E));
  if (C.Only.empty()) {
    if (Error E = runPopulation())
      return reportError(std::move(E));
  } else {
    for (const std::string &Id : C.Only) {
      Expected<TestResult> R =
          buildAndTest(Id, Divcc, ResultsDir + "/" + Id, nullptr);
      if (!R)
        return reportError(R.takeError());
      Outcomes.push_back({Id, std::move(*R)});
    }
  }

  std::vector<std::string> Failing;
  for (const auto &[Id, R] : Outcomes) {
    if (sameResult(Reference, R)) {
      outs() << Id << ": same\n";
      continue;
    }
    Failing.push_back(Id);
    outs() << Id << ": differs: " << describeDifference(Reference, R, C.Timeout)
           << "\n";
    if (R.What == TestResult::Kind::BuildFailed)
      outs() << "  " << StringRef(R.BuildError).split('\n').first << "\n";
  }
  outs() << Failing.size() << " of " << Outcomes.size()
         << " variants differ from the undiversified build"
         << (Failing.empty() ? "" : ": " + join(Failing, ", ")) << "\n";
  for (const std::string &Id : Failing)
    outs() << Id << ": seed: the " << variantSeedDerivation(Id) << " in "
           << shellWord(SeedFile) << " (never shown)\n  reproduce: "
           << reproduction(Id, C.Transforms, C.Functions) << "\n";
  outs() << "outputs in " << ResultsDir
         << (WorkDir && !C.Keep
                 ? " (removed at exit; --keep or --out to keep them)"
                 : "")
         << "\n";
  outs().flush();
  if (C.Bisect)
    for (const std::string &Id : Failing)
      bisect(Id);
  return Failing.empty() ? 0 : 3;
}

int runTestCommand(const TestCommandLine &C, const DivccEnvironment &Env) {
  if (C.Command.empty())
    return reportError(makeError("no test command: give it after '--', e.g. "
                                 "divtool test ... -- ./run-tests"));
  if (C.Only.empty() && C.Variants == 0)
    return reportError(makeError("how many variants? give --variants K, or "
                                 "--only ID"));
  if (C.Bisect && !C.Functions.empty())
    return reportError(makeError("--bisect chooses the functions itself: leave "
                                 "out --functions"));
  Expected<MasterKey> Key = readSeedFile(C.SeedFile);
  if (!Key)
    return reportError(Key.takeError());
  return TestRunner(C, std::move(*Key), Env).run();
}

} // namespace

void addTestSubcommand(CLI::App &Divtool, RunSubcommand &Run) {
  auto C = std::make_shared<TestCommandLine>();
  CLI::App *Test = Divtool.add_subcommand(
      "test", "Run a project's tests against K variants and report those "
              "that behave differently from the undiversified build");
  Test->add_option("--variants,-n", C->Variants,
                   "How many variants to build and test (v0001...)")
      ->check(CLI::Range(1u, 100000u));
  addSeedFileOption(*Test, C->SeedFile,
                    "The master secret: variant ID's seed is derived from it "
                    "as divtool population derives it")
      ->required();
  Test->add_option("--build,-b", C->Build,
                   "The build command, run by /bin/sh in a copy of the "
                   "source tree (e.g. 'make CC=divcc')")
      ->required();
  addSourceOption(*Test, C->Source);
  Test->add_option("--out,-o", C->Out,
                   "A new directory for the variants' trees, logs and test "
                   "outputs (default: a temporary one, removed at the end)");
  Test->add_option("--transforms,-t", C->Transforms,
                   "The transformations of the variants, as in divcc's "
                   "-fdiversify=LIST (default: all)");
  Test->add_option("--only", C->Only,
                   "Test only this variant (repeatable), e.g. to reproduce "
                   "a failure")
      ->allow_extra_args(false);
  Test->add_option("--functions", C->Functions,
                   "Let the transformations act only on these functions "
                   "(f,g...; per-function transformations only)");
  Test->add_flag("--bisect", C->Bisect,
                 "Narrow each failing variant to a transformation and a "
                 "function");
  addKeepFlag(*Test, C->Keep,
              "Keep the temporary trees (and the temporary --out)");
  addJobsOption(*Test, C->Jobs);
  Test->add_option("--timeout", C->Timeout,
                   "Seconds a test run may take before it is killed and "
                   "counted as timed out (default 300)")
      ->check(CLI::Range(1u, 86400u));
  addCommandArgument(*Test, C->Command,
                     "The test command, after '--', run in the built tree "
                     "(e.g. ./run-tests)");
  Test->footer(
      "Exit status: 0 when every variant behaves as the undiversified build "
      "(same exit status, same standard output), 3 when some variant "
      "differs, 1 on bad input or when the undiversified build or its test "
      "fails to run, 2 on a usage error.");
  runWhenChosen(*Test, Run, C, runTestCommand);
}

} // namespace divcc
