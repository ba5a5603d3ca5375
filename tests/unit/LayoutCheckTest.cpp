//===- LayoutCheckTest.cpp - Proving a rewritten golden master sound ------===//
//
// divtool/install/LayoutCheck.h on hand-made x86-64 programs that clang-19
// assembles and ld.lld links at test time (skipped if either is missing),
// all from Inputs/layout-check.s: a golden master, a sound rewrite of it,
// and rewrites with one stale reference each (a call into a trapped
// function, a data pointer into trapped code, a landing pad there, a
// computed-goto label translated by its old offset, an exported symbol
// naming trapped code, a label pointing to its function's start). Each must be refused, or repaired where the
// golden master says what was meant, and the repaired program pass.
//
//===----------------------------------------------------------------------===//

#include "divtool/install/LayoutCheck.h"

#include "LinkedPrograms.h"

#include <gtest/gtest.h>

using namespace divcc;
using namespace llvm;

namespace {

class LayoutCheckTest : public LinkedProgramsTest {
protected:
  void SetUp() override {
    LinkedProgramsTest::SetUp();
    if (IsSkipped())
      return;
    Golden = program(0);
  }

  /// The program of case \p Case of Inputs/layout-check.s.
  std::vector<uint8_t> program(unsigned Case) {
    std::string Name = "case" + std::to_string(Case);
    std::string Define = "-Wa,-defsym,CASE=" + std::to_string(Case);
    std::string Obj = assembleFile(Name, Source, {Define});
    std::string Exe = Dir.file(Name);
    link({"-pie", "-z", "now", "--export-dynamic", Obj, "-o", Exe});
    return readFile<std::vector<uint8_t>>(Exe);
  }

  LayoutCheckResult check(std::vector<uint8_t> &Output, bool Repair) {
    Expected<LayoutCheckResult> R = checkLayout(Golden, Output, Repair);
    EXPECT_TRUE(bool(R)) << (R ? "" : toString(R.takeError()));
    return R ? *R : LayoutCheckResult();
  }

  /// Checks case \p Case: refused without repairs with a violation naming
  /// \p Reference and \p Problem; with repairs, repaired once (if \p
  /// Repairable) and then sound, or refused as before.
  void expectStale(unsigned Case, StringRef Reference, StringRef Problem,
                   bool Repairable) {
    std::vector<uint8_t> Output = program(Case);
    std::vector<uint8_t> Original = Output;
    LayoutCheckResult Refused = check(Output, /*Repair=*/false);
    ASSERT_EQ(Refused.Violations.size(), 1u) << "case " << Case;
    EXPECT_NE(Refused.Violations[0].Reference.find(Reference.str()),
              std::string::npos)
        << Refused.Violations[0].describe();
    EXPECT_NE(Refused.Violations[0].Problem.find(Problem.str()),
              std::string::npos)
        << Refused.Violations[0].describe();
    EXPECT_EQ(Output, Original) << "a check without repairs changed nothing";

    LayoutCheckResult Repaired = check(Output, /*Repair=*/true);
    if (!Repairable) {
      EXPECT_TRUE(Repaired.Repairs.empty());
      EXPECT_EQ(Repaired.Violations.size(), 1u);
      return;
    }
    EXPECT_EQ(Repaired.Repairs.size(), 1u);
    EXPECT_TRUE(Repaired.Violations.empty())
        << Repaired.Violations[0].describe();
    EXPECT_NE(Output, Original);
    // The patched program passes on its own, and is the sound rewrite's
    // equal where it matters: its references.
    LayoutCheckResult Again = check(Output, /*Repair=*/false);
    EXPECT_TRUE(Again.Violations.empty());
    EXPECT_TRUE(Again.Repairs.empty());
  }

  std::string Source = DIVCC_UNITTEST_INPUTS "/layout-check.s";
  std::vector<uint8_t> Golden;
};

TEST_F(LayoutCheckTest, TheGoldenMasterItselfIsSound) {
  std::vector<uint8_t> Same = Golden;
  LayoutCheckResult R = check(Same, /*Repair=*/true);
  EXPECT_TRUE(R.Violations.empty()) << R.Violations[0].describe();
  EXPECT_TRUE(R.Repairs.empty());
  // The entry point, two calls, two table entries, the FDE, the landing
  // pad and the exported h at least.
  EXPECT_GE(R.References, 8u);
}

TEST_F(LayoutCheckTest, ASoundRewritePasses) {
  std::vector<uint8_t> Output = program(1);
  std::vector<uint8_t> Original = Output;
  LayoutCheckResult R = check(Output, /*Repair=*/true);
  EXPECT_TRUE(R.Violations.empty()) << R.Violations[0].describe();
  EXPECT_TRUE(R.Repairs.empty());
  EXPECT_EQ(Output, Original);
}

TEST_F(LayoutCheckTest, ACallIntoATrappedFunctionIsRepairedToItsNewPlace) {
  expectStale(2, "call at 0x", "the golden master's f", /*Repairable=*/true);
}

TEST_F(LayoutCheckTest, ADataPointerIntoTrappedCodeIsRepaired) {
  expectStale(3, "dynamic relocation at 0x", "in no function of the install",
              /*Repairable=*/true);
}

TEST_F(LayoutCheckTest, ALandingPadInTrappedCodeIsRefused) {
  expectStale(4, "exception landing pad", "in no function of the install",
              /*Repairable=*/false);
}

TEST_F(LayoutCheckTest, AComputedGotoLabelAtItsOldOffsetIsRepaired) {
  expectStale(5, "dynamic relocation at 0x", "inside an instruction",
              /*Repairable=*/true);
}

TEST_F(LayoutCheckTest, AnExportedSymbolNamingTrappedCodeIsRefused) {
  expectStale(6, "dynamic symbol 'h'", "in no function of the install",
              /*Repairable=*/false);
}

TEST_F(LayoutCheckTest, ALabelMovedToItsFunctionsStartIsRepaired) {
  expectStale(7, "dynamic relocation at 0x", "not the golden master's g+0x2",
              /*Repairable=*/true);
}

TEST_F(LayoutCheckTest, NotAnElfFileIsAnError) {
  std::vector<uint8_t> Junk = {'n', 'o', 't', ' ', 'e', 'l', 'f'};
  Expected<LayoutCheckResult> R = checkLayout(Golden, Junk, true);
  ASSERT_FALSE(bool(R));
  EXPECT_NE(toString(R.takeError()).find("cannot read the rewritten program"),
            std::string::npos);
}

} // namespace
