//===- TransformationTableTest.cpp - Every consumer has every row ---------===//
//
// Transformations.def is the one list of transformations; the enum, --help,
// the driver's options, divcc-llc's options (the same parser), the
// -run-pass registry and the pipeline are expanded from it. This test walks
// the rows and fails if any consumer lacks one. (tests/lit/passes/table.test
// checks divcc-llc's --help against divcc's.)
//
//===----------------------------------------------------------------------===//

#include "driver/Options.h"
#include "random/SecretSeed.h"
#include "targets/DiversityTarget.h"
#include "transforms/DiversityOptionParser.h"
#include "transforms/PassRegistry.h"
#include "transforms/Transformations.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Pass.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>

using namespace divcc;
using namespace llvm;

namespace {

TEST(TransformationTable, EveryRowHasItsPlace) {
  ASSERT_EQ(allTransformations().size(), size_t(Transformation::Count));
  std::set<std::string> Names;
  for (size_t I = 0; I < allTransformations().size(); ++I) {
    const TransformationInfo &Info = allTransformations()[I];
    EXPECT_EQ(unsigned(Info.Kind), I) << Info.Name;
    EXPECT_EQ(findTransformation(Info.Name), Info.Kind) << Info.Name;
    EXPECT_TRUE(Names.insert(Info.Name).second) << Info.Name << " twice";
  }
}

TEST(TransformationTable, HelpListsEveryRowAndItsOptions) {
  std::string Help = helpText("divcc");
  for (const TransformationInfo &Info : allTransformations()) {
    EXPECT_NE(Help.find(std::string("  ") + Info.Name + " "), std::string::npos)
        << Info.Name;
    EXPECT_NE(Help.find(Info.Summary), std::string::npos) << Info.Name;
  }
  for (const DiversityOption &Row : diversityOptions())
    EXPECT_NE(Help.find(std::string(Row.Spelling) + Row.MetaVar + " "),
              std::string::npos)
        << Row.Spelling;
}

TEST(TransformationTable, DriverAndParserTakeEveryRow) {
  DivccEnvironment Env;
  for (const TransformationInfo &Info : allTransformations()) {
    std::string List = std::string("-fdiversify=") + Info.Name;
    // The parser divcc-llc uses.
    DiversityOptions Options;
    Options.Transformations = TransformationSet();
    Expected<bool> Applied = applyDiversityOption(List, Options);
    ASSERT_TRUE(Applied && *Applied) << List;
    EXPECT_EQ(Options.Transformations.str(), Info.Name);
    // The driver.
    const char *Args[] = {List.c_str(), "-frandom-seed=table", "-c", "x.c"};
    Expected<ParsedCommandLine> Parsed = parseCommandLine(Args, Env);
    ASSERT_TRUE(!!Parsed) << toString(Parsed.takeError());
    EXPECT_EQ(Parsed->Cfg.Diversity.Transformations.str(), Info.Name);
    EXPECT_EQ(Parsed->ClangArgs, (std::vector<std::string>{"-c", "x.c"}));
  }
  // Each transformation's own options reach the driver too (with a value
  // that may be wrong: then the error names the option, proof it was
  // taken as divcc's and not handed to clang).
  for (const DiversityOption &Row : diversityOptions()) {
    std::string Arg = std::string(Row.Spelling) +
                      (StringRef(Row.Spelling).ends_with("=") ? "bogus" : "");
    const char *Args[] = {Arg.c_str(), "-frandom-seed=table"};
    Expected<ParsedCommandLine> Parsed = parseCommandLine(Args, Env);
    if (Parsed)
      EXPECT_TRUE(Parsed->ClangArgs.empty()) << Arg;
    else
      EXPECT_NE(toString(Parsed.takeError()).find(Row.Spelling),
                std::string::npos)
          << Arg;
  }
}

TEST(TransformationTable, RegistryAndPipelineHaveEveryPass) {
  MasterKey Key = MasterKey::fromSecret(arrayRefFromStringRef("table"));
  DiversityOptions Options;
  StreamSource Streams(Key, "module", Options.Functions);
  auto InPipeline = transformationsInPipelineOrder();
  for (const TransformationInfo &Info : allTransformations()) {
    std::string PassName = std::string("divcc-") + Info.Name;
    const RegisteredPass *Registered = findRegisteredPass(PassName);
    bool Placed = is_contained(InPipeline, &Info);
    if (Info.Slot == PipelineSlot::LinkTime) {
      EXPECT_EQ(Registered, nullptr) << Info.Name;
      EXPECT_FALSE(Placed) << Info.Name;
      continue;
    }
    ASSERT_NE(Registered, nullptr) << Info.Name;
    EXPECT_EQ(Registered->Kind, Info.Kind);
    EXPECT_EQ(Registered->Level, Info.Slot == PipelineSlot::BeforeISel
                                     ? PassLevel::IR
                                     : PassLevel::Machine);
    EXPECT_TRUE(Placed) << Info.Name;
    if (Info.Slot == PipelineSlot::SchedulerStrategy)
      continue; // a strategy of LLVM's scheduler, not a pass of its own
    std::unique_ptr<Pass> P(
        createTransformationPass(Info.Kind, Options, Streams));
    EXPECT_NE(P, nullptr) << Info.Name;
  }
  // The pipeline's order: by slot, then by the row's order.
  for (size_t I = 1; I < InPipeline.size(); ++I)
    EXPECT_LE(std::pair(InPipeline[I - 1]->Slot, InPipeline[I - 1]->Order),
              std::pair(InPipeline[I]->Slot, InPipeline[I]->Order));
}

// The default set is the target's: AArch64 adds `entry` to it (plain
// -fdiversify, "default" in a list), and to nothing else; a target adds
// only transformations that exist.
TEST(TransformationTable, TargetsAddToTheDefaultSetOnly) {
  std::unique_ptr<DiversityTarget> AArch64 =
      createDiversityTarget(Triple("aarch64-linux-gnu"));
  std::unique_ptr<DiversityTarget> X86 =
      createDiversityTarget(Triple("x86_64-linux-gnu"));
  ASSERT_TRUE(AArch64 && X86);
  auto OnTarget = [](TransformationSet Set, const DiversityTarget &Target) {
    Set.addTargetDefaults(Target);
    return Set;
  };
  TransformationSet Default = TransformationSet::defaultSet();
  EXPECT_FALSE(Default.has(Transformation::Entry));
  EXPECT_TRUE(OnTarget(Default, *AArch64).has(Transformation::Entry));
  EXPECT_EQ(OnTarget(Default, *X86).str(), Default.str());

  Expected<TransformationSet> WithDefault =
      parseTransformationList("nops,default", "-fdiversify=nops,default");
  ASSERT_TRUE(bool(WithDefault));
  TransformationSet Resolved = OnTarget(*WithDefault, *AArch64);
  EXPECT_TRUE(Resolved.has(Transformation::Entry));
  EXPECT_TRUE(Resolved.has(Transformation::Nops));
  Expected<TransformationSet> Listed =
      parseTransformationList("funcs,gaps", "-fdiversify=funcs,gaps");
  ASSERT_TRUE(bool(Listed));
  EXPECT_EQ(OnTarget(*Listed, *AArch64).str(), "funcs,gaps");
  EXPECT_EQ(OnTarget(TransformationSet(), *AArch64).str(), "");

  for (const char *Name : {"x86_64-linux-gnu", "aarch64-linux-gnu",
                           "riscv64-linux-gnu", "arm-linux-gnueabihf"}) {
    std::unique_ptr<DiversityTarget> Target =
        createDiversityTarget(Triple(Name));
    ASSERT_TRUE(Target) << Name;
    for (StringRef Added : Target->defaultSetAdditions())
      EXPECT_TRUE(findTransformation(Added).has_value()) << Name << Added.str();
  }
}

} // namespace
