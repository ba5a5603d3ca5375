//===- DiversifyingCommand.h - A clang -cc1 job with divcc's back end -----===//
//
// The clang driver plans a build as a list of jobs (front end, assembler,
// linker). divcc keeps that plan and replaces each job that would generate
// machine code with a DiversifyingCommand, which runs the same clang -cc1
// command up to optimized bitcode, then divcc's own code generator. Every
// other job (preprocessing, assembling .s files, linking) runs unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DRIVER_DIVERSIFYINGCOMMAND_H
#define DIVCC_DRIVER_DIVERSIFYINGCOMMAND_H

#include "clang/Driver/Job.h"

namespace divcc {

struct Config;
class FrontendCache;

class DiversifyingCommand : public clang::driver::Command {
public:
  /// Whether \p Cmd is a clang -cc1 job that emits an object or assembly
  /// file, i.e. runs LLVM's code generator.
  static bool generatesCode(const clang::driver::Command &Cmd);

  DiversifyingCommand(const clang::driver::Command &Cc1, const Config &Cfg);

  void Print(llvm::raw_ostream &OS, const char *Terminator, bool Quote,
             clang::driver::CrashReportInfo *CrashInfo) const override;
  int Execute(llvm::ArrayRef<std::optional<llvm::StringRef>> Redirects,
              std::string *ErrMsg, bool *ExecutionFailed) const override;

private:
  /// The cc1 arguments with the output action replaced by \p Action and the
  /// output file by \p Output.
  llvm::opt::ArgStringList
  withAction(llvm::ArrayRef<const char *> Action, const char *Output) const;
  /// The cc1 arguments that make clang stop after optimization and write
  /// bitcode to \p BitcodePath.
  llvm::opt::ArgStringList frontendArguments(const char *BitcodePath) const;

  /// Runs the front end into \p BitcodePath, through the front-end cache.
  /// Returns the front end's exit status, or -1 with \p ErrMsg set.
  int runCachedFrontend(FrontendCache &Cache, llvm::StringRef BitcodePath,
                        std::string *ErrMsg, bool *ExecutionFailed) const;

  const Config &Cfg;
  bool EmitAssembly = false;
  std::string OutputPath;
};

} // namespace divcc

#endif
