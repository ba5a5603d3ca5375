//===- LtoLinkPlanTest.cpp - planLtoLink without a linker or files --------===//
//
// The command lines of an LTO link's three steps, planned from lld's
// arguments against a file system made up in memory: which arguments are
// bitcode inputs (objects, archives, fat objects, libraries found by -l),
// what response files hold, what lld's own LTO options say, and what divcc
// refuses.
//
//===----------------------------------------------------------------------===//

#include "driver/LtoLinkPlan.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

#include "gtest/gtest.h"

using namespace divcc;
using namespace llvm;

namespace {

class FakeFiles : public LinkFiles {
public:
  StringMap<InputKind> Kinds;        // every file, by path
  StringMap<std::string> Responses;  // response files' text
  InputKind classify(StringRef Path, bool FatLto) const override {
    auto It = Kinds.find(Path);
    if (It == Kinds.end())
      return InputKind::Native;
    // A fat object holds bitcode only for a link with --fat-lto-objects.
    if (It->second == InputKind::FatObject && !FatLto)
      return InputKind::Native;
    return It->second;
  }
  bool isFile(StringRef Path) const override {
    return Kinds.count(Path) || Responses.count(Path);
  }
  std::optional<std::string> readResponseFile(StringRef Path) const override {
    auto It = Responses.find(Path);
    if (It == Responses.end())
      return std::nullopt;
    return It->second;
  }
  std::string absolute(StringRef Path) const override {
    return Path.starts_with("/") ? Path.str() : "/work/" + Path.str();
  }
};

LtoLinkPlan plan(std::vector<std::string> Args, const FakeFiles &Files) {
  Expected<LtoLinkPlan> P = planLtoLink(Args, Files);
  if (!P) {
    ADD_FAILURE() << toString(P.takeError());
    return {};
  }
  return std::move(*P);
}

std::vector<size_t> inputArguments(const LtoLinkPlan &P) {
  std::vector<size_t> Out;
  for (const LtoInput &I : P.Inputs)
    Out.push_back(I.Argument);
  return Out;
}

const LtoTempFiles Temp("/tmp/lto");

TEST(LtoLinkPlan, NativeLinkGeneratesNoCode) {
  FakeFiles Files;
  Files.Kinds["a.o"] = InputKind::Native;
  LtoLinkPlan P = plan({"-o", "prog", "a.o", "-lc"}, Files);
  EXPECT_FALSE(P.GeneratesCode);
  EXPECT_TRUE(P.Inputs.empty());
}

TEST(LtoLinkPlan, BitcodeObjectsAndArchives) {
  FakeFiles Files;
  Files.Kinds["a.o"] = InputKind::Bitcode;
  Files.Kinds["b.o"] = InputKind::Native;
  Files.Kinds["libx.a"] = InputKind::ArchiveWithBitcode;
  // -o's value and -T's are never inputs, even when such files exist.
  Files.Kinds["script.ld"] = InputKind::Bitcode;
  LtoLinkPlan P = plan(
      {"-o", "prog", "a.o", "b.o", "libx.a", "-T", "script.ld"}, Files);
  EXPECT_TRUE(P.GeneratesCode);
  EXPECT_EQ(inputArguments(P), (std::vector<size_t>{2, 4}));
  EXPECT_EQ(P.Inputs[0].Path, "/work/a.o");
  EXPECT_EQ(P.Inputs[1].Kind, InputKind::ArchiveWithBitcode);

  // Step 1: the output and the inputs' paths replaced, lld's four options
  // added.
  std::vector<std::string> Resolve = P.resolveArgs(Temp);
  EXPECT_EQ(Resolve,
            (std::vector<std::string>{
                "-o", "/tmp/lto/regular.bc", "/work/a.o", "b.o",
                "/work/libx.a", "-T", "script.ld", "--plugin-opt=emit-llvm",
                "--thinlto-index-only=/tmp/lto/thin.list",
                "--thinlto-prefix-replace=;/tmp/lto/index/",
                "--why-extract=/tmp/lto/why-extract.txt"}));

  // Step 3: the stub in a.o's place, the archive left out (it had no native
  // member), the generated objects last.
  std::vector<std::string> Replacement(P.Args.size());
  Replacement[2] = "/tmp/lto/stub.2.o";
  std::vector<std::string> Final =
      P.finalArgs(Replacement, {"/tmp/lto/lto.regular.o"});
  EXPECT_EQ(Final, (std::vector<std::string>{"-o", "prog", "/tmp/lto/stub.2.o",
                                             "b.o", "-T", "script.ld",
                                             "/tmp/lto/lto.regular.o"}));
}

TEST(LtoLinkPlan, FatObjectsOnlyWithFatLtoObjects) {
  FakeFiles Files;
  Files.Kinds["fat.o"] = InputKind::FatObject;
  EXPECT_FALSE(plan({"fat.o"}, Files).GeneratesCode);
  LtoLinkPlan P = plan({"--fat-lto-objects", "fat.o"}, Files);
  EXPECT_TRUE(P.FatLto);
  EXPECT_EQ(inputArguments(P), (std::vector<size_t>{1}));
  // The final link gets neither the option nor the object.
  std::vector<std::string> Replacement(P.Args.size());
  EXPECT_EQ(P.finalArgs(Replacement, {"gen.o"}),
            (std::vector<std::string>{"gen.o"}));
}

TEST(LtoLinkPlan, ResponseFilesAreExpanded) {
  FakeFiles Files;
  Files.Kinds["a.o"] = InputKind::Bitcode;
  Files.Responses["args.rsp"] = "-o 'my prog' a.o @more.rsp";
  Files.Responses["more.rsp"] = "--thinlto-jobs=3\n-lm";
  LtoLinkPlan P = plan({"@args.rsp", "--as-needed"}, Files);
  EXPECT_EQ(P.Args, (std::vector<std::string>{"-o", "my prog", "a.o",
                                              "--thinlto-jobs=3", "-lm",
                                              "--as-needed"}));
  EXPECT_EQ(inputArguments(P), (std::vector<size_t>{2}));
  EXPECT_EQ(P.BackendJobs, 3u);

  Expected<LtoLinkPlan> Missing = planLtoLink({"@gone.rsp"}, Files);
  ASSERT_FALSE(Missing);
  EXPECT_NE(toString(Missing.takeError()).find("'gone.rsp'"),
            std::string::npos);
}

TEST(LtoLinkPlan, BackendJobs) {
  FakeFiles Files;
  EXPECT_EQ(plan({"--thinlto-jobs=4"}, Files).BackendJobs, 4u);
  EXPECT_EQ(plan({"-plugin-opt=jobs=2"}, Files).BackendJobs, 2u);
  EXPECT_EQ(plan({"--plugin-opt=jobs=5"}, Files).BackendJobs, 5u);
  // "all" and nothing: one per core, as lld.
  EXPECT_EQ(plan({"--thinlto-jobs=all"}, Files).BackendJobs, 0u);
  EXPECT_EQ(plan({}, Files).BackendJobs, 0u);
  // Options of the linker's LTO alone mean an LTO link.
  EXPECT_TRUE(plan({"--thinlto-jobs=4"}, Files).GeneratesCode);
}

TEST(LtoLinkPlan, PluginOptionsConfigureCodeGeneration) {
  FakeFiles Files;
  LtoLinkPlan P = plan({"-plugin", "/usr/lib/LLVMgold.so",
                        "-plugin-opt=mcpu=znver3", "--plugin-opt=O3",
                        "--plugin-opt=-enable-foo", "-mllvm", "-bar",
                        "--lto-CGO1", "-pie"},
                       Files);
  EXPECT_EQ(P.CodeGen.LlvmArgs,
            (std::vector<std::string>{"-mcpu=znver3", "-enable-foo", "-bar"}));
  EXPECT_EQ(P.CodeGen.OptLevel, 3u);
  EXPECT_EQ(P.CodeGen.CodeGenOptLevel, 1);
  EXPECT_TRUE(P.CodeGen.Pic);
  EXPECT_FALSE(P.CodeGen.Relocatable);
  // None of them reaches the final link; -mllvm does (lld reads it there).
  std::vector<std::string> Replacement(P.Args.size());
  EXPECT_EQ(P.finalArgs(Replacement, {}),
            (std::vector<std::string>{"-mllvm", "-bar", "-pie"}));
  EXPECT_TRUE(plan({"-r"}, Files).CodeGen.Relocatable);
  EXPECT_TRUE(plan({"-shared"}, Files).CodeGen.Pic);
}

TEST(LtoLinkPlan, BitcodeOnlyInLibrariesFoundByDashL) {
  FakeFiles Files;
  Files.Kinds["/lib/libbc.a"] = InputKind::ArchiveWithBitcode;
  Files.Kinds["/lib/libnat.a"] = InputKind::Native;
  Files.Kinds["/dyn/libbc.so"] = InputKind::Native;
  Files.Kinds["/dyn/libbc.a"] = InputKind::ArchiveWithBitcode;
  Files.Kinds["/lib/odd-name.a"] = InputKind::ArchiveWithBitcode;
  // -L after -l counts: lld collects every search directory first.
  LtoLinkPlan P = plan({"-o", "prog", "-lbc", "-l", "nat", "-l:odd-name.a",
                        "--library=bc", "-L/lib"},
                       Files);
  EXPECT_EQ(P.Args, (std::vector<std::string>{
                        "-o", "prog", "/lib/libbc.a", "-l", "nat",
                        "/lib/odd-name.a", "/lib/libbc.a", "-L/lib"}));
  EXPECT_EQ(inputArguments(P), (std::vector<size_t>{2, 5, 6}));

  // A shared library comes first, unless -Bstatic.
  LtoLinkPlan Dynamic = plan({"-L", "/dyn", "-lbc"}, Files);
  EXPECT_FALSE(Dynamic.GeneratesCode);
  EXPECT_EQ(Dynamic.Args, (std::vector<std::string>{"-L", "/dyn", "-lbc"}));
  LtoLinkPlan Static = plan({"-L", "/dyn", "-Bstatic", "-lbc"}, Files);
  EXPECT_EQ(Static.Args,
            (std::vector<std::string>{"-L", "/dyn", "-Bstatic", "/dyn/libbc.a"}));
  EXPECT_EQ(inputArguments(Static), (std::vector<size_t>{3}));
}

TEST(LtoLinkPlan, RefusesOptionsThatAskForAnotherOutput) {
  FakeFiles Files;
  for (const char *Refused :
       {"--thinlto-index-only", "--thinlto-index-only=list",
        "-thinlto-index-only", "--plugin-opt=thinlto-index-only",
        "--plugin-opt=emit-llvm", "-plugin-opt=emit-asm", "--lto-emit-asm",
        "--thinlto-emit-imports-files", "--thinlto-prefix-replace=a;b",
        "--thinlto-object-suffix-replace=a;b", "--lto-obj-path=x",
        "--plugin-opt=obj-path=x"}) {
    Expected<LtoLinkPlan> P = planLtoLink({"a.o", Refused}, Files);
    ASSERT_FALSE(P) << Refused;
    std::string Message = toString(P.takeError());
    EXPECT_NE(Message.find(std::string("'") + Refused + "'"), std::string::npos)
        << Message;
  }
  // Not refused: the value of an option that takes one.
  EXPECT_TRUE(!!planLtoLink({"-o", "--lto-emit-asm"}, Files));
}

} // namespace

// LTO links through GNU ld and gold: clang's LLVMgold.so gives way to
// divcc's linker plugin, which alone is told divcc's socket and directory.
TEST(GnuLtoLink, RecognizesGnuLinkersLoadingLlvmGold) {
  std::vector<std::string> Args = {"-pie", "-plugin",
                                   "/usr/lib/llvm-19/lib/LLVMgold.so",
                                   "-plugin-opt=O2", "a.o"};
  EXPECT_TRUE(loadsLlvmGoldPlugin(Args));
  EXPECT_FALSE(loadsLlvmGoldPlugin({"-pie", "a.o"}));
  EXPECT_FALSE(loadsLlvmGoldPlugin({"-plugin", "/x/liblto_plugin.so"}));
  for (StringRef Gnu : {"/usr/bin/ld", "ld.bfd", "/usr/bin/ld.gold",
                        "/usr/bin/aarch64-linux-gnu-ld",
                        "aarch64-linux-gnu-ld.bfd"})
    EXPECT_TRUE(isGnuLinker(Gnu)) << Gnu.str();
  for (StringRef Other : {"/usr/bin/ld.lld", "ld64.lld", "/usr/bin/ld.mold",
                          "mold", "gold-wrapper", "old"})
    EXPECT_FALSE(isGnuLinker(Other)) << Other.str();
}

TEST(GnuLtoLink, DivccPluginTakesLlvmGoldsPlace) {
  std::vector<std::string> Args = {
      "-pie",           "-plugin",         "/usr/lib/llvm-19/lib/LLVMgold.so",
      "-plugin-opt=O2", "-plugin",         "/other/plugin.so",
      "-plugin-opt=x",  "a.o"};
  std::vector<std::string> Job =
      withDivccLinkerPlugin(Args, "/p/lib/divcc/divcc-ld-plugin.so");
  EXPECT_EQ(Job, (std::vector<std::string>{
                     "-pie", "-plugin", "/p/lib/divcc/divcc-ld-plugin.so",
                     "-plugin-opt=O2", "-plugin", "/other/plugin.so",
                     "-plugin-opt=x", "a.o"}));
  // At run time, the socket and directory options follow divcc's plugin
  // (so they are its own, not the other plugin's).
  std::vector<std::string> Run = withDivccLinkerPlugin(
      Job, "/p/lib/divcc/divcc-ld-plugin.so", 5, "/tmp/divcc-lto-1");
  EXPECT_EQ(Run, (std::vector<std::string>{
                     "-pie", "-plugin", "/p/lib/divcc/divcc-ld-plugin.so",
                     "-plugin-opt=divcc-fd=5",
                     "-plugin-opt=divcc-dir=/tmp/divcc-lto-1",
                     "-plugin-opt=O2", "-plugin", "/other/plugin.so",
                     "-plugin-opt=x", "a.o"}));
}
