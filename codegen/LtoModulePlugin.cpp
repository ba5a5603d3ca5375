//===- LtoModulePlugin.cpp - lld's optimized LTO module, use-lists kept ---===//
//
// A pass plugin that lld loads (--load-pass-plugin) when divcc links with
// full LTO. At the end of lld's LTO optimization pipeline, which is where
// lld's code generator takes over, it writes the merged module to the file
// named by DIVCC_LTO_MODULE_OUTPUT, *with* the order of its use-lists.
// --plugin-opt=emit-llvm writes the same module without that order, and
// that order steers instruction selection: compiled from emit-llvm's file,
// some programs get other (equally correct) code than lld's.
//
// The plugin runs inside lld, so it uses nothing of divcc but LLVM.
//
//===----------------------------------------------------------------------===//

#include "support/Environment.h"

#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace llvm;

namespace {

struct WriteOptimizedModule : PassInfoMixin<WriteOptimizedModule> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    const char *Path = std::getenv(divcc::EnvLtoModuleOutput);
    if (!Path || !*Path)
      return PreservedAnalyses::all();
    std::error_code EC;
    raw_fd_ostream Out(Path, EC);
    if (EC) {
      errs() << "divcc: error: cannot write '" << Path
             << "': " << EC.message() << '\n';
      return PreservedAnalyses::all(); // divcc reports the missing module
    }
    WriteBitcodeToFile(M, Out, /*ShouldPreserveUseListOrder=*/true);
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "divcc-lto-module", "1",
          [](PassBuilder &PB) {
            PB.registerFullLinkTimeOptimizationLastEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel) {
                  MPM.addPass(WriteOptimizedModule());
                });
          }};
}
