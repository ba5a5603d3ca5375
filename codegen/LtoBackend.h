//===- LtoBackend.h - LTO code generation by divcc's code generator -------===//
//
// With -flto, clang's compiles write bitcode and the linker generates the
// machine code. When divcc links, the linker still resolves symbols, merges
// and optimizes the modules -- lld writes the regular module and each
// ThinLTO module's index, divcc's GNU ld plugin each module it would
// compile -- and the code is then generated here, with the options the
// linker's own lto::Config would use, by divcc's code generator: with
// every transformation, each module drawing from its own streams.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_CODEGEN_LTOBACKEND_H
#define DIVCC_CODEGEN_LTOBACKEND_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <string>
#include <vector>

namespace divcc {

struct DiversityPlan;

/// The linker whose LTO code generation divcc reproduces: lld's
/// (lld/ELF/LTO.cpp, createConfig) or, for GNU ld and gold, LLVMgold.so's
/// (llvm/tools/gold/gold-plugin.cpp, createLTO).
enum class LtoLinker { Lld, Gnu };

/// What the link's command line says about LTO code generation.
struct LtoCodeGenOptions {
  LtoLinker Linker = LtoLinker::Lld;
  /// LLVM options, as lld applies them: --plugin-opt=mcpu=X becomes
  /// -mcpu=X, --plugin-opt=-X and -mllvm X become -X.
  std::vector<std::string> LlvmArgs;
  unsigned OptLevel = 2;       // --lto-O / --plugin-opt=O
  int CodeGenOptLevel = -1;    // --lto-CGO; -1: from OptLevel
  bool Pic = false;            // -pie or -shared
  bool Relocatable = false;    // -r

};

/// The LLVM bitcode of an LTO input: \p Object itself, or the .llvm.lto
/// section of a fat object (-ffat-lto-objects).
llvm::Expected<llvm::MemoryBufferRef> findLtoBitcode(llvm::MemoryBufferRef Object);

/// Applies \p Options' LLVM options to this process, as lld does when it
/// starts; an error says why they are invalid.
llvm::Error applyLtoCommandLine(const LtoCodeGenOptions &Options);

/// Generates the code of an optimized LTO module -- the merged regular
/// module lld wrote, or any module divcc's GNU ld plugin handed over -- from
/// \p BitcodePath into the object \p OutputPath.
llvm::Error compileOptimizedLtoModule(llvm::StringRef BitcodePath,
                                    llvm::StringRef OutputPath,
                                    const LtoCodeGenOptions &Options,
                                    const DiversityPlan &Plan);

/// Runs the ThinLTO back end of module \p ModuleId (a path, or lld's
/// "ARCHIVE(MEMBER at OFFSET)") with the index lld wrote to \p IndexPath --
/// imports, optimization -- and generates its code into \p OutputPath.
llvm::Error compileThinLtoModule(llvm::StringRef ModuleId,
                                 llvm::StringRef IndexPath,
                                 llvm::StringRef OutputPath,
                                 const LtoCodeGenOptions &Options,
                                 const DiversityPlan &Plan);

} // namespace divcc

#endif
