//===- FunctionTableTest.cpp - Same code, other displacements -------------===//
//
// divtool symbolize's comparison of a function across two rebuilds
// (divtool/population/FunctionTable.h), on tiny x86-64 executables that
// clang-19 assembles and ld.lld links at test time (skipped if either is
// missing). In each, f calls a and g, takes the address of a constant,
// compares another, and tail-calls g; a comes before f and the constants
// before a (lld puts .rodata before .text), so making a longer moves f and
// g but not the constants: the displacements of f's call to a and of both
// RIP-relative operands (lea and cmp) change, not what they reach.
//
//===----------------------------------------------------------------------===//

#include "divtool/population/FunctionTable.h"
#include "analysis/Gadgets.h"

#include "TempDir.h"

#include "llvm/Support/Program.h"

#include <gtest/gtest.h>

using namespace divcc;

namespace {

struct Program {
  std::string A = "ret";
  std::string FirstCall = "a", Global = "value", Compared = "5";
};

std::string source(const Program &P) {
  return ".text\n"
         ".globl a\n.type a,@function\na:\n" +
         P.A +
         "\n.size a, .-a\n"
         ".globl f\n.type f,@function\nf:\n"
         "call " +
         P.FirstCall + "\ncall " + (P.FirstCall == "a" ? "g" : "a") +
         "\nleaq " + P.Global + "(%rip), %rax\ncmpl $" + P.Compared +
         ", value(%rip)\njmp g\n.size f, .-f\n"
         ".globl g\n.type g,@function\ng:\nret\n.size g, .-g\n"
         ".section .rodata\n.globl value\nvalue: .long 1\nother: .long 2\n";
}

/// Assembles and links \p P; "" if clang-19 or ld.lld is missing.
std::string build(const TempDir &Dir, const std::string &Name,
                  const Program &P) {
  auto Clang = llvm::sys::findProgramByName("clang-19");
  auto Lld = llvm::sys::findProgramByName("ld.lld");
  if (!Clang || !Lld)
    return "";
  std::string S = Dir.write(Name + ".s", source(P));
  std::string O = Dir.file(Name + ".o"), Exe = Dir.file(Name);
  llvm::StringRef Assemble[] = {*Clang, "-c", S, "-o", O};
  llvm::StringRef Link[] = {*Lld, "-e", "f", O, "-o", Exe};
  EXPECT_EQ(llvm::sys::ExecuteAndWait(*Clang, Assemble), 0) << Name;
  EXPECT_EQ(llvm::sys::ExecuteAndWait(*Lld, Link), 0) << Name;
  return Exe;
}

class FunctionTableTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (!llvm::sys::findProgramByName("clang-19") ||
        !llvm::sys::findProgramByName("ld.lld"))
      GTEST_SKIP() << "clang-19 or ld.lld not found";
    Base = read("base", {});
    auto D = Base->disassembler();
    ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
    Decoder = std::move(*D);
  }

  std::optional<FunctionTable> read(const std::string &Name, const Program &P) {
    std::string Exe = build(Dir, Name, P);
    llvm::Expected<FunctionTable> T = FunctionTable::read(Exe);
    EXPECT_TRUE(bool(T)) << llvm::toString(T.takeError());
    if (!T)
      return std::nullopt;
    return std::move(*T);
  }

  /// Whether f (or \p Name) is the same code in Base and \p Other.
  bool same(const FunctionTable &Other, llvm::StringRef Name = "f") {
    const FunctionTable::Function *F = Base->find(Name, 0);
    const FunctionTable::Function *G = Other.find(Name, 0);
    EXPECT_TRUE(F && G) << Name.str();
    return F && G && sameCode(*Base, *F, Other, *G, *Decoder);
  }

  TempDir Dir;
  std::optional<FunctionTable> Base;
  std::unique_ptr<Disassembler> Decoder;
};

TEST_F(FunctionTableTest, SameCodeAfterAMove) {
  std::optional<FunctionTable> Moved = read("moved", {"nop\nnop\nret"});
  ASSERT_TRUE(Moved);
  const FunctionTable::Function *F = Base->find("f", 0);
  const FunctionTable::Function *G = Moved->find("f", 0);
  ASSERT_TRUE(F && G);
  EXPECT_EQ(G->Address, F->Address + 2);
  // The displacements to a and to the constants differ (the lea after the
  // two 5-byte calls included)...
  EXPECT_NE(F->Bytes.substr(0, 5), G->Bytes.substr(0, 5));
  EXPECT_NE(F->Bytes.substr(10, 7), G->Bytes.substr(10, 7));
  // ...and reach the same places.
  EXPECT_TRUE(same(*Moved));
  EXPECT_TRUE(same(*Moved, "g"));
  EXPECT_FALSE(same(*Moved, "a"));
  EXPECT_EQ(Base->placeOf(F->Address + 1), "function f#0+1");
}

/// a made longer, as in SameCodeAfterAMove, and f changed by \p Change.
Program movedAnd(void (*Change)(Program &)) {
  Program P;
  P.A = "nop\nnop\nret";
  Change(P);
  return P;
}

TEST_F(FunctionTableTest, OtherCallTarget) {
  auto Other = read("calls", movedAnd([](Program &P) { P.FirstCall = "g"; }));
  ASSERT_TRUE(Other);
  EXPECT_FALSE(same(*Other));
}

TEST_F(FunctionTableTest, OtherGlobal) {
  auto Other = read("global", movedAnd([](Program &P) { P.Global = "other"; }));
  ASSERT_TRUE(Other);
  EXPECT_FALSE(same(*Other));
}

TEST_F(FunctionTableTest, OtherImmediateNextToADisplacement) {
  auto Other =
      read("immediate", movedAnd([](Program &P) { P.Compared = "6"; }));
  ASSERT_TRUE(Other);
  EXPECT_FALSE(same(*Other));
  // Unmoved, the same instruction differs only in its immediate.
  Program Unmoved;
  Unmoved.Compared = "6";
  auto InPlace = read("in-place", Unmoved);
  ASSERT_TRUE(InPlace);
  EXPECT_FALSE(same(*InPlace));
}

} // namespace
