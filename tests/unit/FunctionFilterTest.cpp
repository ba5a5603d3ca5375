//===- FunctionFilterTest.cpp - -fdiversify-skip= and -only= --------------===//
//
// The function filter and the StreamSource every pass draws through: a
// filtered function gets no stream, and every other function's stream is
// exactly the one it gets without any filter (FunctionFilter.h invariants).
//
//===----------------------------------------------------------------------===//

#include "random/RandomStream.h"
#include "random/SecretSeed.h"
#include "transforms/DiversityOptions.h"
#include "transforms/FunctionFilter.h"

#include "llvm/ADT/StringExtras.h"

#include "gtest/gtest.h"

#include <vector>

using namespace divcc;

namespace {

MasterKey testKey() {
  return MasterKey::fromSecret(llvm::arrayRefFromStringRef("filter-test"));
}

std::vector<uint64_t> draws(RandomStream &R) {
  std::vector<uint64_t> Out;
  for (int I = 0; I < 4; ++I)
    Out.push_back(R.next64());
  return Out;
}

TEST(FunctionFilterTest, EmptyFilterAllowsEverything) {
  FunctionFilter F;
  EXPECT_TRUE(F.empty());
  for (const TransformationInfo &Info : allTransformations())
    EXPECT_TRUE(F.allows(Info.Kind, "main"));
}

TEST(FunctionFilterTest, SkipTurnsOneTransformationOffForOneFunction) {
  FunctionFilter F;
  F.skip(Transformation::Nops, "hot_loop");
  EXPECT_FALSE(F.empty());
  EXPECT_FALSE(F.allows(Transformation::Nops, "hot_loop"));
  EXPECT_TRUE(F.allows(Transformation::Nops, "main"));
  EXPECT_TRUE(F.allows(Transformation::Regs, "hot_loop"));
}

TEST(FunctionFilterTest, OnlyListsAreCumulativeAndMayBeEmpty) {
  FunctionFilter F;
  F.restrict(Transformation::Frames);
  EXPECT_FALSE(F.allows(Transformation::Frames, "main"));
  F.allow(Transformation::Frames, "a");
  F.allow(Transformation::Frames, "b");
  EXPECT_TRUE(F.allows(Transformation::Frames, "a"));
  EXPECT_TRUE(F.allows(Transformation::Frames, "b"));
  EXPECT_FALSE(F.allows(Transformation::Frames, "c"));
  // A skip wins over an only.
  F.skip(Transformation::Frames, "b");
  EXPECT_FALSE(F.allows(Transformation::Frames, "b"));
  EXPECT_TRUE(F.allows(Transformation::Sched, "c"));
}

TEST(FunctionFilterTest, FilteredFunctionsGetNoStream) {
  MasterKey Key = testKey();
  FunctionFilter F;
  F.skip(Transformation::Subst, "f");
  StreamSource Streams(Key, "m.c:0123", F);
  EXPECT_EQ(Streams.forFunction(Transformation::Subst, "f"), nullptr);
  EXPECT_NE(Streams.forFunction(Transformation::Subst, "g"), nullptr);
  EXPECT_NE(Streams.forFunction(Transformation::Nops, "f"), nullptr);
}

TEST(FunctionFilterTest, OtherFunctionsKeepTheirStreams) {
  MasterKey Key = testKey();
  FunctionFilter None, Some;
  Some.skip(Transformation::Nops, "f");
  Some.allow(Transformation::Regs, "g");
  StreamSource Unfiltered(Key, "m.c:0123", None);
  StreamSource Filtered(Key, "m.c:0123", Some);
  for (auto [T, Fn] : {std::pair{Transformation::Nops, "g"},
                       std::pair{Transformation::Regs, "g"},
                       std::pair{Transformation::Sched, "f"}}) {
    auto A = Unfiltered.forFunction(T, Fn);
    auto B = Filtered.forFunction(T, Fn);
    ASSERT_TRUE(A && B);
    EXPECT_EQ(draws(*A), draws(*B)) << transformationName(T) << " " << Fn;
  }
}

TEST(FunctionFilterTest, StreamsAreTheLabelledStreams) {
  MasterKey Key = testKey();
  FunctionFilter None;
  StreamSource Streams(Key, "m.c:0123", None);
  auto PerFunction = Streams.forFunction(Transformation::Blocks, "main");
  RandomStream Expected(Key, {"blocks", "m.c:0123", "main"});
  EXPECT_EQ(draws(*PerFunction), draws(Expected));

  RandomStream Module = Streams.forModule(Transformation::Funcs);
  RandomStream ExpectedModule(Key, {"funcs", "m.c:0123", ""});
  EXPECT_EQ(draws(Module), draws(ExpectedModule));

  // Streams differ between modules, functions and transformations.
  StreamSource Other(Key, "n.c:4567", None);
  EXPECT_NE(draws(*Other.forFunction(Transformation::Blocks, "main")),
            draws(*Streams.forFunction(Transformation::Blocks, "main")));
  EXPECT_NE(draws(*Streams.forFunction(Transformation::Blocks, "f")),
            draws(*Streams.forFunction(Transformation::Blocks, "main")));
  EXPECT_NE(draws(*Streams.forFunction(Transformation::Nops, "main")),
            draws(*Streams.forFunction(Transformation::Blocks, "main")));
}

} // namespace
