//===- RelativeSurvivalTest.cpp - divtool audit's relative survival -------===//
//
// Relative survival (divtool/audit/Relative.h) with answers worked out by
// hand: first on function and gadget lists written out with their code
// bytes, then on tiny x86-64 executables that clang-19 assembles and ld.lld
// links at test time (skipped if either is missing), through runAudit.
//
//   f: 5f c3     pop rdi; ret         gadgets at f+0, f+1
//   g: 5e 5a c3  pop rsi; pop rdx; ret  gadgets at g+0, g+1, g+2
//
//===----------------------------------------------------------------------===//

#include "divtool/audit/Audit.h"
#include "divtool/audit/Relative.h"

#include "TempDir.h"

#include "llvm/Support/Program.h"

#include <gtest/gtest.h>

#include <map>

using namespace divcc;

namespace {

/// Code bytes placed at addresses, as a CodeReader reads them.
struct Code {
  std::map<uint64_t, std::vector<uint8_t>> Pieces;

  void put(uint64_t Address, std::vector<uint8_t> Bytes) {
    Pieces[Address] = std::move(Bytes);
  }
  llvm::ArrayRef<uint8_t> at(uint64_t Address, uint64_t Size) const {
    auto It = Pieces.upper_bound(Address);
    if (It == Pieces.begin())
      return {};
    --It;
    uint64_t Offset = Address - It->first;
    if (Offset + Size > It->second.size())
      return {};
    return llvm::ArrayRef<uint8_t>(It->second).slice(Offset, Size);
  }
  auto reader() const {
    return [this](uint64_t A, uint64_t S) { return at(A, S); };
  }
};

const std::vector<uint8_t> F = {0x5f, 0xc3}, G = {0x5e, 0x5a, 0xc3};

Gadget gadget(uint64_t Address, uint32_t Size) {
  return {Address, Size, GadgetKind::Ret, 1};
}

/// The five gadgets of f at \p FAt and g at \p GAt, sorted by address.
std::vector<Gadget> gadgetsOf(uint64_t FAt, uint64_t GAt) {
  std::vector<Gadget> Out = {gadget(FAt, 2), gadget(FAt + 1, 1),
                             gadget(GAt, 3), gadget(GAt + 1, 2),
                             gadget(GAt + 2, 1)};
  std::sort(Out.begin(), Out.end(),
            [](auto &A, auto &B) { return A.Address < B.Address; });
  return Out;
}

struct Binary {
  Code Bytes;
  std::vector<FunctionSymbol> Functions; // sorted by address
};

/// f and g with their own bytes at their addresses.
Binary fg(uint64_t FAt, uint64_t GAt, std::vector<uint8_t> FBytes = F,
          std::vector<uint8_t> GBytes = G) {
  Binary B;
  B.Bytes.put(FAt, FBytes);
  B.Bytes.put(GAt, GBytes);
  B.Functions = {{"f", FAt, FBytes.size()}, {"g", GAt, GBytes.size()}};
  std::sort(B.Functions.begin(), B.Functions.end(),
            [](auto &A, auto &B) { return A.Address < B.Address; });
  return B;
}

uint64_t surviving(const Binary &Base, const std::vector<Gadget> &Gadgets,
                   const Binary &Variant,
                   std::vector<uint32_t> *Counts = nullptr) {
  RelativeIndex Index(Base.Functions, Gadgets);
  auto BaseCode = Base.Bytes.reader();
  auto VariantCode = Variant.Bytes.reader();
  return Index.compare(Gadgets, BaseCode, Variant.Functions, VariantCode,
                       Counts);
}

TEST(RelativeSurvivalTest, MovedFunctionsKeepTheirGadgets) {
  Binary Base = fg(0x1000, 0x1002);
  std::vector<Gadget> Gadgets = gadgetsOf(0x1000, 0x1002);
  RelativeIndex Index(Base.Functions, Gadgets);
  EXPECT_EQ(Index.inFunctions(), 5u);
  EXPECT_EQ(Index.outsideFunctions(), 0u);
  // Shuffled: g first, then f, elsewhere.
  EXPECT_EQ(surviving(Base, Gadgets, fg(0x2010, 0x2000)), 5u);
  // Against itself.
  EXPECT_EQ(surviving(Base, Gadgets, Base), 5u);
}

TEST(RelativeSurvivalTest, ChangedInsidesLoseThem) {
  Binary Base = fg(0x1000, 0x1002);
  std::vector<Gadget> Gadgets = gadgetsOf(0x1000, 0x1002);
  // A nop at the start of both: every gadget is one byte further in.
  Binary Nops = fg(0x1000, 0x1003, {0x90, 0x5f, 0xc3}, {0x90, 0x5e, 0x5a,
                                                        0xc3});
  EXPECT_EQ(surviving(Base, Gadgets, Nops), 0u);
  // Only f changed (pop rsi instead of pop rdi): its ret survives at f+1,
  // and g's three.
  EXPECT_EQ(surviving(Base, Gadgets, fg(0x3000, 0x2000, {0x5e, 0xc3})), 4u);
}

TEST(RelativeSurvivalTest, OutsideFunctionsNotCounted) {
  Binary Base = fg(0x1000, 0x1002);
  Base.Bytes.put(0x1005, {0x58, 0xc3}); // pop rax; ret, no symbol
  std::vector<Gadget> Gadgets = gadgetsOf(0x1000, 0x1002);
  Gadgets.push_back(gadget(0x1005, 2));
  Gadgets.push_back(gadget(0x1006, 1));
  RelativeIndex Index(Base.Functions, Gadgets);
  EXPECT_EQ(Index.inFunctions(), 5u);
  EXPECT_EQ(Index.outsideFunctions(), 2u);
  EXPECT_FALSE(Index.counted(5));
  // Even against itself, those two are not relative survivors.
  EXPECT_EQ(surviving(Base, Gadgets, Base), 5u);
}

TEST(RelativeSurvivalTest, NamesDefinedTwiceInTheBaseAreSkipped) {
  // Two local functions "h" (ElfImage keys the second "h#2") and a symbol
  // whose own name is "x#2", with no "x": a name of its own.
  Binary Base;
  Base.Bytes.put(0x1000, {0x5b, 0xc3, 0x5b, 0xc3, 0x59, 0xc3});
  Base.Functions = {{"h", 0x1000, 2}, {"h#2", 0x1002, 2}, {"x#2", 0x1004, 2}};
  std::vector<Gadget> Gadgets = {gadget(0x1000, 2), gadget(0x1001, 1),
                                 gadget(0x1002, 2), gadget(0x1003, 1),
                                 gadget(0x1004, 2), gadget(0x1005, 1)};
  EXPECT_EQ(symbolNames(Base.Functions),
            (std::vector<std::string>{"h", "h", "x#2"}));
  RelativeIndex Index(Base.Functions, Gadgets);
  EXPECT_EQ(Index.inFunctions(), 2u);
  EXPECT_EQ(Index.inAmbiguousFunctions(), 4u);
  EXPECT_EQ(surviving(Base, Gadgets, Base), 2u);
}

TEST(RelativeSurvivalTest, NamesDefinedTwiceInTheVariantMatchNothing) {
  Binary Base = fg(0x1000, 0x1002);
  std::vector<Gadget> Gadgets = gadgetsOf(0x1000, 0x1002);
  Binary Variant = fg(0x2000, 0x2002);
  Variant.Bytes.put(0x3000, F);
  Variant.Functions.push_back({"f#2", 0x3000, 2});
  EXPECT_EQ(surviving(Base, Gadgets, Variant), 3u); // g's only
}

TEST(RelativeSurvivalTest, OffsetPastTheVariantsFunction) {
  Binary Base = fg(0x1000, 0x1002);
  std::vector<Gadget> Gadgets = gadgetsOf(0x1000, 0x1002);
  // g's bytes are there, but the variant's g is one byte long: g+1 and
  // g+2 are in no function of that name. A missing f keeps nothing.
  Binary Variant;
  Variant.Bytes.put(0x2000, G);
  Variant.Functions = {{"g", 0x2000, 1}};
  EXPECT_EQ(surviving(Base, Gadgets, Variant), 1u);
  // Bytes that are not mapped in the variant never match.
  Variant.Functions = {{"g", 0x2000, 3}, {"f", 0x4000, 2}};
  EXPECT_EQ(surviving(Base, Gadgets, Variant), 3u);
}

TEST(RelativeSurvivalTest, CountsPerGadget) {
  Binary Base = fg(0x1000, 0x1002);
  std::vector<Gadget> Gadgets = gadgetsOf(0x1000, 0x1002);
  std::vector<uint32_t> Counts(Gadgets.size());
  surviving(Base, Gadgets, fg(0x2010, 0x2000), &Counts);
  surviving(Base, Gadgets, fg(0x3000, 0x3002, {0x5e, 0xc3}), &Counts);
  EXPECT_EQ(Counts, (std::vector<uint32_t>{1, 2, 2, 2, 2}));
}

//===----------------------------------------------------------------------===//
// Through runAudit, on executables built at test time
//===----------------------------------------------------------------------===//

/// Assembles \p Source and links it with f as the entry; "" on failure.
std::string build(const TempDir &Dir, const std::string &Name,
                  llvm::StringRef Source) {
  auto Clang = llvm::sys::findProgramByName("clang-19");
  auto Lld = llvm::sys::findProgramByName("ld.lld");
  if (!Clang || !Lld)
    return "";
  std::string S = Dir.write(Name + ".s", Source);
  std::string O = Dir.file(Name + ".o"), Exe = Dir.file(Name);
  llvm::StringRef Assemble[] = {*Clang, "-c", S, "-o", O};
  llvm::StringRef Link[] = {*Lld, "-e", "f", O, "-o", Exe};
  if (llvm::sys::ExecuteAndWait(*Clang, Assemble) != 0 ||
      llvm::sys::ExecuteAndWait(*Lld, Link) != 0)
    return "";
  return Exe;
}

std::string program(llvm::StringRef Padding, llvm::StringRef FBody,
                    llvm::StringRef GBody) {
  return (".text\n" + Padding +
          "\n.globl f\n.type f,@function\nf:\n" + FBody +
          "\n.size f, .-f\n.globl g\n.type g,@function\ng:\n" + GBody +
          "\n.size g, .-g\n")
      .str();
}

/// f and g as they are (Base), moved 16 bytes (Moved), and each after a
/// NOP (Changed); the test is skipped if clang-19 or ld.lld is missing.
class ExecutablesTest : public ::testing::Test {
protected:
  void SetUp() override {
    const char *FBody = "pop %rdi\nret", *GBody = "pop %rsi\npop %rdx\nret";
    Base = build(Dir, "base", program("", FBody, GBody));
    if (Base.empty())
      GTEST_SKIP() << "clang-19 or ld.lld not found";
    Moved = build(Dir, "moved", program(".fill 16, 1, 0xcc", FBody, GBody));
    Changed = build(
        Dir, "changed",
        program("", "nop\npop %rdi\nret", "nop\npop %rsi\npop %rdx\nret"));
    ASSERT_FALSE(Moved.empty() || Changed.empty());
  }

  TempDir Dir;
  std::string Base, Moved, Changed;
};

TEST_F(ExecutablesTest, RelativeSurvival) {
  AuditOptions Opts;
  llvm::Expected<AuditResult> R = runAudit(Base, {Moved, Changed}, Opts);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Base.Gadgets, 5u);
  EXPECT_EQ(R->Relative.Symbols, "symtab");
  EXPECT_EQ(R->Relative.InFunctions, 5u);
  EXPECT_EQ(R->Relative.OutsideFunctions, 0u);
  // Moved: absolute 0%, relative 100%.
  EXPECT_EQ(R->Variants[0].Surviving, 0u);
  EXPECT_EQ(R->Variants[0].RelativeSurviving, 5u);
  EXPECT_DOUBLE_EQ(R->relativeSurvival(0), 1.0);
  // Changed inside: relative 0%.
  EXPECT_EQ(R->Variants[1].RelativeSurviving, 0u);
  EXPECT_DOUBLE_EQ(R->relativeSurvival(1), 0.0);
  EXPECT_EQ(R->Relative.Histogram, (std::vector<uint64_t>{0, 5, 0}));
  EXPECT_DOUBLE_EQ(R->meanRelativeSurvival(), 0.5);
}

// Branch stubs the linker writes have sized function symbols, but no
// pointer to one is ever held: their gadgets count outside functions, as
// the PLT's do.
TEST_F(ExecutablesTest, LinkerStubsAreNoFunctions) {
  std::string WithStubs = build(
      Dir, "stubs",
      program("", "pop %rdi\nret", "pop %rsi\npop %rdx\nret") +
          ".type __ThumbV7PILongThunk_g,@function\n"
          "__ThumbV7PILongThunk_g:\npop %rax\nret\n"
          ".size __ThumbV7PILongThunk_g, .-__ThumbV7PILongThunk_g\n"
          ".type __g_veneer,@function\n__g_veneer:\npop %rcx\nret\n"
          ".size __g_veneer, .-__g_veneer\n"
          ".type g_veneer,@function\ng_veneer:\npop %rbx\nret\n"
          ".size g_veneer, .-g_veneer\n");
  ASSERT_FALSE(WithStubs.empty());
  AuditOptions Opts;
  llvm::Expected<AuditResult> R = runAudit(WithStubs, {Base}, Opts);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Base.Gadgets, 11u);
  // f, g and g_veneer (a program's own name: no leading "__") are
  // functions.
  EXPECT_EQ(R->Relative.InFunctions, 7u);
  EXPECT_EQ(R->Relative.OutsideFunctions, 4u);
  std::vector<std::string> Names;
  for (const FunctionResult &F : R->Functions)
    Names.push_back(F.Name);
  EXPECT_EQ(Names, (std::vector<std::string>{"f", "g", "g_veneer"}));
}

// The matrix: every binary against every other, both ways.
TEST_F(ExecutablesTest, Matrix) {
  AuditOptions Opts;
  Opts.Matrix = true;
  llvm::Expected<AuditResult> R = runAudit(Base, {Moved, Changed}, Opts);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  const SurvivalMatrix &M = R->Matrix;
  ASSERT_EQ(M.Binaries, (std::vector<std::string>{Base, Moved, Changed}));
  ASSERT_EQ(M.Cells.size(), 3u);
  auto Cell = [&](size_t A, size_t B) { return M.Cells[A][B]; };
  // The base row is the ordinary audit.
  EXPECT_DOUBLE_EQ(Cell(0, 1).Absolute, R->survival(0));
  EXPECT_DOUBLE_EQ(Cell(0, 1).Relative, R->relativeSurvival(0));
  EXPECT_DOUBLE_EQ(Cell(0, 2).Relative, R->relativeSurvival(1));
  // Moved 16 bytes: nothing at the same address, everything at the same
  // offset, both ways.
  EXPECT_DOUBLE_EQ(Cell(0, 1).Absolute, 0.0);
  EXPECT_DOUBLE_EQ(Cell(0, 1).Relative, 1.0);
  EXPECT_DOUBLE_EQ(Cell(1, 0).Absolute, 0.0);
  EXPECT_DOUBLE_EQ(Cell(1, 0).Relative, 1.0);
  // A NOP at the head of each function: nothing survives either way.
  EXPECT_DOUBLE_EQ(Cell(0, 2).Relative, 0.0);
  EXPECT_DOUBLE_EQ(Cell(2, 0).Relative, 0.0);
  EXPECT_DOUBLE_EQ(Cell(2, 1).Relative, 0.0);
  // A binary keeps all of its own gadgets.
  for (size_t A = 0; A < 3; ++A)
    EXPECT_DOUBLE_EQ(Cell(A, A).Absolute, 1.0) << A;
}

} // namespace
