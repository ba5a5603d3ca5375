//===- IndependenceTest.cpp - Each transformation has its own streams -----===//
//
// Every transformation draws from its own random streams (one per
// transformation, module and function), so turning other transformations on
// or off must leave its decisions exactly as they were: otherwise every
// change of -fdiversify=LIST would silently re-randomize everything, and a
// transformation could not be judged (or turned off) on its own.
//
// tests/e2e/independence.py checks this on the corpus through the divcc
// binary. This test checks it in-process, through runCodeGen, on a small
// module built here: for each transformation T, something that only T
// decides is compared between T alone and T together with transformations
// that cannot change it, under one seed:
//
//   funcs      the order of the functions in the assembly;
//   globals    the order of the global variables;
//   nops       the instructions of each function; and where the NOPs go
//              when subst (which rewrites instructions one for one, before
//              NOP insertion) is added;
//   sched, regs, frames, blocks, subst
//              the instructions of each function, divcc's NOPs taken out
//              (NOP insertion is the last pass and only adds instructions).
//
// Each observable is also shown to change with the seed, so that each
// check could fail.
//
// The same holds within a transformation: turning a per-function
// transformation off for one function (-fdiversify-skip=, -fdiversify-only=)
// gives that function clang's code and leaves every other function's code
// as it was.
//
//===----------------------------------------------------------------------===//

#include "codegen/CodeGen.h"
#include "driver/Config.h"
#include "random/SecretSeed.h"
#include "transforms/FunctionFilter.h"
#include "transforms/Transformations.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <vector>

using namespace divcc;

namespace {

// Something for every transformation: nine functions and seven global
// variables to shuffle (in .bss, .data and .rodata); loops and calls; a
// function of many independent operations (scheduling ties, register
// choices); a branchy function with many returns (blocks, gaps); stack
// buffers (frames); copies, additions of constants and zeroings
// (substitutions).
const char ModuleIR[] = R"IR(
source_filename = "independence.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@counter = global i32 0, align 4
@table = global [8 x i32] [i32 3, i32 1, i32 4, i32 1, i32 5, i32 9, i32 2, i32 6], align 16
@scale = global i64 3, align 8
@limit = constant i32 100, align 4
@greeting = constant [6 x i8] c"hello\00", align 1
@flags = global i8 1, align 1
@history = global [16 x i64] zeroinitializer, align 16

declare void @consume(ptr)

define i32 @sum_table(i32 %n) {
entry:
  %pos = icmp sgt i32 %n, 0
  br i1 %pos, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  %idx = and i32 %i, 7
  %idx64 = zext i32 %idx to i64
  %p = getelementptr inbounds [8 x i32], ptr @table, i64 0, i64 %idx64
  %v = load i32, ptr %p, align 4
  %m = mul i32 %v, %i
  %acc.next = add i32 %acc, %m
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  %r = phi i32 [ 0, %entry ], [ %acc.next, %loop ]
  ret i32 %r
}

define i32 @mix(i32 %a, i32 %b, i32 %c, i32 %d) {
entry:
  %t0 = mul i32 %a, 31
  %t1 = ashr i32 %b, 3
  %t2 = xor i32 %c, %d
  %t3 = shl i32 %d, 5
  %t4 = sub i32 %t0, %t1
  %t5 = add i32 %t2, %t3
  %t6 = mul i32 %a, %c
  %t7 = or i32 %b, %d
  %t8 = xor i32 %t4, %t5
  %t9 = add i32 %t6, %t7
  %t10 = mul i32 %t8, %t9
  %t11 = lshr i32 %t10, 7
  %t12 = add i32 %t11, %t0
  %t13 = sub i32 %t12, %t2
  ret i32 %t13
}

define i32 @classify(i32 %x) {
entry:
  %neg = icmp slt i32 %x, 0
  br i1 %neg, label %negative, label %nonneg
negative:
  %c0 = call i32 @mix(i32 %x, i32 1, i32 2, i32 3)
  ret i32 %c0
nonneg:
  %big = icmp sgt i32 %x, 1000
  br i1 %big, label %large, label %small
large:
  %l = sdiv i32 %x, 7
  store i32 %l, ptr @counter, align 4
  ret i32 %l
small:
  %low = and i32 %x, 1
  %odd = icmp ne i32 %low, 0
  br i1 %odd, label %oddb, label %evenb
oddb:
  %o = call i32 @sum_table(i32 %x)
  %o2 = add i32 %o, 5
  ret i32 %o2
evenb:
  %mid = icmp sgt i32 %x, 100
  br i1 %mid, label %evenbig, label %evensmall
evenbig:
  %e = mul i32 %x, %x
  ret i32 %e
evensmall:
  %es = call i32 @mix(i32 %x, i32 %x, i32 5, i32 9)
  ret i32 %es
}

define i64 @record(i64 %v) {
entry:
  %s = load i64, ptr @scale, align 8
  %f = load i8, ptr @flags, align 1
  %fz = zext i8 %f to i64
  %scaled = mul i64 %v, %s
  %withf = add i64 %scaled, %fz
  %slot = and i64 %v, 15
  %p = getelementptr inbounds [16 x i64], ptr @history, i64 0, i64 %slot
  store i64 %withf, ptr %p, align 8
  %cnt = load i32, ptr @counter, align 4
  %cnt1 = add i32 %cnt, 1
  store i32 %cnt1, ptr @counter, align 4
  ret i64 %withf
}

define i64 @checksum(ptr %data, i64 %len) {
entry:
  %empty = icmp eq i64 %len, 0
  br i1 %empty, label %exit, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %h1 = phi i64 [ 17, %entry ], [ %h1.next, %loop ]
  %h2 = phi i64 [ 31, %entry ], [ %h2.next, %loop ]
  %h3 = phi i64 [ 7, %entry ], [ %h3.next, %loop ]
  %p = getelementptr inbounds i8, ptr %data, i64 %i
  %b = load i8, ptr %p, align 1
  %bz = zext i8 %b to i64
  %m1 = mul i64 %h1, 33
  %h1.next = xor i64 %m1, %bz
  %m2 = shl i64 %h2, 5
  %a2 = add i64 %m2, %h2
  %h2.next = add i64 %a2, %bz
  %r3 = lshr i64 %h3, 3
  %x3 = xor i64 %r3, %h1
  %h3.next = add i64 %x3, %bz
  %i.next = add nuw i64 %i, 1
  %done = icmp eq i64 %i.next, %len
  br i1 %done, label %exit, label %loop
exit:
  %f1 = phi i64 [ 0, %entry ], [ %h1.next, %loop ]
  %f2 = phi i64 [ 0, %entry ], [ %h2.next, %loop ]
  %f3 = phi i64 [ 0, %entry ], [ %h3.next, %loop ]
  %s = xor i64 %f1, %f2
  %t = add i64 %s, %f3
  ret i64 %t
}

define i32 @fib(i32 %n) {
entry:
  %small = icmp slt i32 %n, 2
  br i1 %small, label %base, label %rec
base:
  ret i32 %n
rec:
  %n1 = sub i32 %n, 1
  %n2 = sub i32 %n, 2
  %f1 = call i32 @fib(i32 %n1)
  %f2 = call i32 @fib(i32 %n2)
  %s = add i32 %f1, %f2
  ret i32 %s
}

define i32 @with_buffers(i32 %n) {
entry:
  %a = alloca [24 x i8], align 16
  %b = alloca [24 x i8], align 16
  %c = alloca [24 x i8], align 16
  %d = alloca [24 x i8], align 16
  %e = alloca [24 x i8], align 16
  %f = alloca [24 x i8], align 16
  %x = alloca i32, align 4
  %y = alloca i32, align 4
  store i32 %n, ptr %x, align 4
  %n3 = mul i32 %n, 3
  store i32 %n3, ptr %y, align 4
  call void @consume(ptr %a)
  call void @consume(ptr %b)
  call void @consume(ptr %c)
  call void @consume(ptr %d)
  call void @consume(ptr %e)
  call void @consume(ptr %f)
  call void @consume(ptr %x)
  call void @consume(ptr %y)
  %vx = load i32, ptr %x, align 4
  %vy = load i32, ptr %y, align 4
  %s = add i32 %vx, %vy
  ret i32 %s
}

define i32 @clamp(i32 %v, i32 %lo, i32 %hi) {
entry:
  %below = icmp slt i32 %v, %lo
  br i1 %below, label %ret.lo, label %check.hi
check.hi:
  %above = icmp sgt i32 %v, %hi
  br i1 %above, label %ret.hi, label %ret.v
ret.lo:
  ret i32 %lo
ret.hi:
  ret i32 %hi
ret.v:
  ret i32 0
}

define i32 @run(i32 %n) {
entry:
  %a = call i32 @sum_table(i32 %n)
  %b = call i32 @mix(i32 %a, i32 %n, i32 7, i32 %a)
  %c = call i32 @classify(i32 %b)
  %w = sext i32 %c to i64
  %d = call i64 @record(i64 %w)
  %k = call i64 @checksum(ptr @greeting, i64 %d)
  %kt = trunc i64 %k to i32
  %e = call i32 @fib(i32 %kt)
  %f = call i32 @with_buffers(i32 %e)
  %lim = load i32, ptr @limit, align 4
  %g = call i32 @clamp(i32 %f, i32 0, i32 %lim)
  ret i32 %g
}
)IR";

const unsigned NumFunctions = 9;
const unsigned NumGlobals = 7;

// The two secrets, as -frandom-seed=STRING would give them.
const char Seed[] = "independence";
const char OtherSeed[] = "independence, another variant";

// Transformations that move whole functions or variables: they change no
// function's instructions (only the numbers in local labels).
const std::string ReorderingOnly = "funcs,globals";

/// Every transformation that runs in the code generator (all but link and
/// offset, which act on the link job), as in -fdiversify=LIST.
std::string everyCodeGenTransformation() {
  std::string List;
  for (const TransformationInfo &Info : allTransformations())
    if (Info.Kind != Transformation::Link && Info.Kind != Transformation::Offset)
      List += std::string(List.empty() ? "" : ",") + Info.Name;
  return List;
}

/// The set named by \p List, spelled as in -fdiversify=LIST.
TransformationSet transformationsNamed(llvm::StringRef List) {
  TransformationSet Set;
  llvm::SmallVector<llvm::StringRef, 8> Names;
  List.split(Names, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef Name : Names) {
    if (std::optional<Transformation> T = findTransformation(Name))
      Set.add(*T);
    else
      ADD_FAILURE() << "no transformation named '" << Name.str() << "'";
  }
  return Set;
}

/// The names declared `.type NAME,@Kind` ("function" or "object"), in the
/// order of the assembly file, which is the order of the module's lists.
std::vector<std::string> symbolsOfKind(llvm::StringRef Asm,
                                       llvm::StringRef Kind) {
  std::vector<std::string> Names;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Asm.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    Line = Line.split('#').first.trim();
    if (!Line.consume_front(".type"))
      continue;
    auto [Name, Type] = Line.trim().split(',');
    if (Type.trim() == ("@" + Kind).str())
      Names.push_back(Name.trim().str());
  }
  return Names;
}

std::vector<std::string> functionOrder(llvm::StringRef Asm) {
  return symbolsOfKind(Asm, "function");
}

std::vector<std::string> globalOrder(llvm::StringRef Asm) {
  return symbolsOfKind(Asm, "object");
}

/// Each function's instructions and directives, comments removed.
using Bodies = std::map<std::string, std::vector<std::string>>;

/// The bodies of the functions of \p Asm. Local labels (.LBB0_1, .Ltmp3,
/// .LCPI2_0) are numbered in the order of the whole module, so they are
/// renamed by order of first appearance within their function: a body then
/// does not depend on where its function is, and still says which jump goes
/// to which block.
Bodies functionBodies(llvm::StringRef Asm) {
  static const std::regex FunctionStart(R"(^([^\s.][^\s:]*):\s+# @)");
  static const std::regex LocalLabel(R"(\.L([A-Za-z_]+?)\d+(_\d+)?\b)");
  Bodies Result;
  std::vector<std::string> *Body = nullptr;
  std::map<std::string, unsigned> Renamed;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Asm.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    std::string Text = Line.str();
    std::smatch Match;
    if (std::regex_search(Text, Match, FunctionStart)) {
      Body = &Result[Match[1]];
      Renamed.clear();
      continue;
    }
    if (!Body)
      continue;
    if (Line.starts_with(".Lfunc_end")) {
      Body = nullptr;
      continue;
    }
    llvm::StringRef Code = Line.split('#').first.rtrim();
    if (Code.empty())
      continue;
    std::string Normal;
    std::string Rest = Code.str();
    while (std::regex_search(Rest, Match, LocalLabel)) {
      auto [It, New] = Renamed.try_emplace(Match.str(), Renamed.size());
      Normal += Match.prefix().str() + ".L" + Match[1].str() + "#" +
                std::to_string(It->second);
      Rest = Match.suffix().str();
    }
    Body->push_back(Normal + Rest);
  }
  return Result;
}

/// Whether \p Line is one of divcc's x86 no-op forms
/// (targets/x86/X86DiversityTarget.cpp). LLVM itself emits none of them
/// in this module's code.
bool isNop(llvm::StringRef Line) {
  llvm::SmallVector<llvm::StringRef, 3> Words;
  llvm::SplitString(Line, Words, " \t,");
  std::string Insn = llvm::join(Words, " ");
  return Insn == "nop" || Insn == "movq %rbp %rbp" ||
         Insn == "movq %rsp %rsp" || Insn == "leaq (%rsi) %rsi" ||
         Insn == "leaq (%rdi) %rdi";
}

Bodies withoutNops(Bodies B) {
  for (auto &[Name, Lines] : B)
    llvm::erase_if(Lines, isNop);
  return B;
}

/// The bodies of the functions of \p Asm without divcc's NOPs.
Bodies codeWithoutNops(llvm::StringRef Asm) {
  return withoutNops(functionBodies(Asm));
}

unsigned countNops(const Bodies &B) {
  unsigned N = 0;
  for (const auto &[Name, Lines] : B)
    N += llvm::count_if(Lines, isNop);
  return N;
}

/// Where the NOPs are: every other line becomes "*".
Bodies nopPlacement(Bodies B) {
  for (auto &[Name, Lines] : B)
    for (std::string &Line : Lines)
      if (!isNop(Line))
        Line.assign(1, '*');
  return B;
}

/// Equality of two sets of bodies that names the first difference.
::testing::AssertionResult sameBodies(const Bodies &Expected,
                                      const Bodies &Actual) {
  if (Expected.size() != Actual.size())
    return ::testing::AssertionFailure()
           << Expected.size() << " functions, then " << Actual.size();
  for (const auto &[Name, Lines] : Expected) {
    auto It = Actual.find(Name);
    if (It == Actual.end())
      return ::testing::AssertionFailure() << Name << " is missing";
    const std::vector<std::string> &Other = It->second;
    for (size_t I = 0; I < std::max(Lines.size(), Other.size()); ++I) {
      std::string A = I < Lines.size() ? Lines[I] : "<end>";
      std::string B = I < Other.size() ? Other[I] : "<end>";
      if (A != B)
        return ::testing::AssertionFailure()
               << Name << ", line " << I + 1 << ": '" << A << "', then '" << B
               << "'";
    }
  }
  return ::testing::AssertionSuccess();
}

class IndependenceTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
    llvm::InitializeAllAsmParsers();
    BitcodePath = writeBitcode();
  }

  static void TearDownTestSuite() {
    if (!BitcodePath.empty())
      llvm::sys::fs::remove(BitcodePath);
    BitcodePath.clear();
  }

  /// The test module as bitcode in a new temporary file ("" on failure).
  static std::string writeBitcode() {
    llvm::LLVMContext Context;
    llvm::SMDiagnostic Err;
    std::unique_ptr<llvm::Module> M =
        llvm::parseAssemblyString(ModuleIR, Err, Context);
    if (!M) {
      std::string Message;
      llvm::raw_string_ostream OS(Message);
      Err.print("IndependenceTest", OS);
      ADD_FAILURE() << Message;
      return "";
    }
    std::string Broken;
    llvm::raw_string_ostream BrokenOS(Broken);
    if (llvm::verifyModule(*M, &BrokenOS)) {
      ADD_FAILURE() << "invalid test module: " << Broken;
      return "";
    }
    llvm::SmallString<128> Path;
    int FD;
    if (std::error_code EC = llvm::sys::fs::createTemporaryFile(
            "divcc-unittest-independence", "bc", FD, Path)) {
      ADD_FAILURE() << "cannot create a temporary file: " << EC.message();
      return "";
    }
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    llvm::WriteBitcodeToFile(*M, OS);
    return std::string(Path);
  }

  /// The assembly of the test module compiled at -O2 with the
  /// transformations in \p List (as in -fdiversify=LIST; "" for none) under
  /// the secret \p Secret ("" on failure).
  static std::string compile(llvm::StringRef List,
                             llvm::StringRef Secret = Seed,
                             const FunctionFilter &Functions = {}) {
    if (BitcodePath.empty())
      return "";
    Config Cfg;
    Cfg.Diversity.Transformations = transformationsNamed(List);
    Cfg.Diversity.Functions = Functions;
    Cfg.Seed = SeedSource::Flag;
    Cfg.Key = MasterKey::fromSecret(llvm::arrayRefFromStringRef(Secret));

    llvm::SmallString<128> OutputPath;
    if (std::error_code EC = llvm::sys::fs::createTemporaryFile(
            "divcc-unittest-independence", "s", OutputPath)) {
      ADD_FAILURE() << "cannot create a temporary file: " << EC.message();
      return "";
    }
    // What clang's driver passes to cc1 for `clang -O2 -S` on this target,
    // less what only the front end reads.
    const char *Cc1Args[] = {
        "-triple", "x86_64-pc-linux-gnu", "-S", "-O2",
        "-mrelocation-model", "pic", "-pic-level", "2", "-pic-is-pie",
        "-mframe-pointer=none", "-funwind-tables=2",
        "-target-cpu", "x86-64", "-tune-cpu", "generic",
        "-o", OutputPath.c_str(), "-x", "ir", BitcodePath.c_str()};
    CodeGenJob Job{Cc1Args, BitcodePath, OutputPath, /*EmitAssembly=*/true};

    std::string Asm;
    if (llvm::Error E = runCodeGen(Job, Cfg.plan())) {
      ADD_FAILURE() << "runCodeGen with '" << List.str() << "' failed: "
                    << llvm::toString(std::move(E));
    } else if (auto Buffer = llvm::MemoryBuffer::getFile(OutputPath)) {
      Asm = (*Buffer)->getBuffer().str();
    } else {
      ADD_FAILURE() << "cannot read " << OutputPath.str().str();
    }
    llvm::sys::fs::remove(OutputPath);
    return Asm;
  }

  static std::string BitcodePath;
};

std::string IndependenceTest::BitcodePath;

// The observables read what they should: without diversity, the module's
// own order and every function, with no NOP.
TEST_F(IndependenceTest, ObservablesOfTheUndiversifiedModule) {
  std::string Asm = compile("");
  EXPECT_EQ(functionOrder(Asm),
            (std::vector<std::string>{"sum_table", "mix", "classify", "record",
                                      "checksum", "fib", "with_buffers",
                                      "clamp", "run"}));
  EXPECT_EQ(globalOrder(Asm),
            (std::vector<std::string>{"counter", "table", "scale", "limit",
                                      "greeting", "flags", "history"}));
  EXPECT_EQ(functionBodies(Asm).size(), NumFunctions);
  EXPECT_EQ(countNops(functionBodies(Asm)), 0u);
}

TEST_F(IndependenceTest, FunctionOrderIsDecidedByFuncsAlone) {
  std::vector<std::string> Alone = functionOrder(compile("funcs"));
  ASSERT_EQ(Alone.size(), NumFunctions);
  EXPECT_EQ(functionOrder(compile(everyCodeGenTransformation())), Alone);
  EXPECT_NE(functionOrder(compile("funcs", OtherSeed)), Alone);
}

TEST_F(IndependenceTest, GlobalOrderIsDecidedByGlobalsAlone) {
  std::vector<std::string> Alone = globalOrder(compile("globals"));
  ASSERT_EQ(Alone.size(), NumGlobals);
  EXPECT_EQ(globalOrder(compile(everyCodeGenTransformation())), Alone);
  EXPECT_NE(globalOrder(compile("globals", OtherSeed)), Alone);
}

TEST_F(IndependenceTest, NopsAreDecidedByNopsAlone) {
  Bodies Alone = functionBodies(compile("nops"));
  ASSERT_EQ(Alone.size(), NumFunctions);
  EXPECT_GT(countNops(Alone), 0u);
  EXPECT_TRUE(
      sameBodies(Alone, functionBodies(compile("nops," + ReorderingOnly))));
  EXPECT_FALSE(sameBodies(Alone, functionBodies(compile("nops", OtherSeed))));
}

// Substitution rewrites instructions one for one before NOP insertion runs,
// so it may change what the NOPs sit between, but not where they go.
TEST_F(IndependenceTest, NopPlacementIsDecidedByNopsAlone) {
  Bodies Alone = nopPlacement(functionBodies(compile("nops")));
  EXPECT_TRUE(
      sameBodies(Alone, nopPlacement(functionBodies(compile("nops,subst")))));
  EXPECT_FALSE(sameBodies(
      Alone, nopPlacement(functionBodies(compile("nops", OtherSeed)))));
  // Substitution did rewrite instructions, so the first check says something.
  EXPECT_FALSE(sameBodies(codeWithoutNops(compile("nops")),
                          codeWithoutNops(compile("nops,subst"))));
}

// The transformations that change instructions inside functions: what each
// makes of every function stays the same when the reordering ones and NOP
// insertion are added (NOPs taken out again).
class IndependenceOfCodeTest
    : public IndependenceTest,
      public ::testing::WithParamInterface<const char *> {};

TEST_P(IndependenceOfCodeTest, CodeIsDecidedByTheTransformationAlone) {
  std::string T = GetParam();
  Bodies Alone = codeWithoutNops(compile(T));
  ASSERT_EQ(Alone.size(), NumFunctions);
  EXPECT_TRUE(sameBodies(
      Alone, codeWithoutNops(compile(T + ",nops," + ReorderingOnly))));
  EXPECT_FALSE(sameBodies(Alone, codeWithoutNops(compile(T, OtherSeed))));
}

INSTANTIATE_TEST_SUITE_P(Independence, IndependenceOfCodeTest,
                         ::testing::Values("sched", "regs", "frames", "blocks",
                                           "subst", "gaps", "saves",
                                           "prefixes"),
                         [](const auto &Info) {
                           return std::string(Info.param);
                         });

// Turning a per-function transformation off for one function it changes:
// that function gets clang's code, every other function keeps the code the
// transformation gave it; with -fdiversify-only= for that function, the
// other way round.
class FunctionFilterTest
    : public IndependenceTest,
      public ::testing::WithParamInterface<const char *> {};

TEST_P(FunctionFilterTest, TurningOneFunctionOffChangesNoOther) {
  std::string T = GetParam();
  std::optional<Transformation> Kind = findTransformation(T);
  ASSERT_TRUE(Kind.has_value());
  Bodies Plain = functionBodies(compile(""));
  Bodies Diversified = functionBodies(compile(T));
  ASSERT_EQ(Diversified.size(), NumFunctions);
  std::string Victim;
  for (const auto &[Name, Lines] : Diversified)
    if (Lines != Plain[Name]) {
      Victim = Name;
      break;
    }
  ASSERT_FALSE(Victim.empty()) << T << " changed no function";

  Bodies Expected = Diversified;
  Expected[Victim] = Plain[Victim];
  FunctionFilter Skip;
  Skip.skip(*Kind, Victim);
  EXPECT_TRUE(sameBodies(Expected, functionBodies(compile(T, Seed, Skip))))
      << "skipping " << Victim;

  Expected = Plain;
  Expected[Victim] = Diversified[Victim];
  FunctionFilter Only;
  Only.allow(*Kind, Victim);
  EXPECT_TRUE(sameBodies(Expected, functionBodies(compile(T, Seed, Only))))
      << "only " << Victim;
}

INSTANTIATE_TEST_SUITE_P(Independence, FunctionFilterTest,
                         ::testing::Values("nops", "sched", "regs", "frames",
                                           "blocks", "subst", "saves",
                                           "prefixes", "shift"),
                         [](const auto &Info) {
                           return std::string(Info.param);
                         });

} // namespace
