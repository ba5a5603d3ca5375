//===- DiversifyingCommand.cpp - A clang -cc1 job with divcc's back end ---===//
//
// clang -cc1 ... -emit-obj -o out.o in.c   becomes
//
//   clang -cc1 ... -emit-llvm-bc -emit-llvm-uselists -o TMP.bc in.c
//   divcc code generator: TMP.bc -> out.o
//
// Only the action and the output change, so the front end sees exactly the
// options it would have seen (dependency files, diagnostics and the
// optimizer pipeline are clang's own), and the code generator reads its
// options from the very same cc1 arguments. Use-lists are kept in the
// bitcode because their order can steer instruction selection: without them
// the object would not be byte-identical to clang's.
//
//===----------------------------------------------------------------------===//

#include "driver/DiversifyingCommand.h"
#include "codegen/CodeGen.h"
#include "driver/Config.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using clang::driver::Command;

namespace divcc {

static bool isCc1(const Command &Cmd) {
  const auto &Args = Cmd.getArguments();
  return !Args.empty() && StringRef(Args[0]) == "-cc1";
}

bool DiversifyingCommand::generatesCode(const Command &Cmd) {
  if (!isCc1(Cmd))
    return false;
  for (const char *A : Cmd.getArguments())
    if (StringRef(A) == "-emit-obj" || StringRef(A) == "-S")
      return true;
  return false;
}

DiversifyingCommand::DiversifyingCommand(const Command &Cc1, const Config &Cfg)
    : Command(Cc1), Cfg(Cfg) {
  // Link-time shuffling moves input sections: every function needs its own.
  if (Cfg.Transformations.has(Transformation::Link)) {
    opt::ArgStringList Args = getArguments();
    Args.push_back("-ffunction-sections");
    replaceArguments(std::move(Args));
  }
  const auto &Args = getArguments();
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A == "-S")
      EmitAssembly = true;
    else if (A == "-o" && I + 1 < Args.size())
      OutputPath = Args[I + 1];
  }
}

opt::ArgStringList
DiversifyingCommand::frontendArguments(const char *BitcodePath) const {
  opt::ArgStringList Out;
  const auto &Args = getArguments();
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A == "-emit-obj" || A == "-S") {
      Out.push_back("-emit-llvm-bc");
      Out.push_back("-emit-llvm-uselists");
    } else if (A == "-o" && I + 1 < Args.size()) {
      Out.push_back("-o");
      Out.push_back(BitcodePath);
      ++I;
    } else {
      Out.push_back(Args[I]);
    }
  }
  return Out;
}

void DiversifyingCommand::Print(raw_ostream &OS, const char *Terminator,
                                bool Quote,
                                clang::driver::CrashReportInfo *CrashInfo) const {
  Command Frontend(*this);
  Frontend.replaceArguments(frontendArguments("<bitcode>"));
  Frontend.Print(OS, Terminator, Quote, CrashInfo);
  // The seed is deliberately absent: only what it diversifies is shown.
  OS << " \"divcc-codegen\" \"<bitcode>\" \"-o\" \"" << OutputPath << "\"";
  if (Cfg.diversifying())
    OS << " \"-fdiversify=" << Cfg.Transformations.str() << "\"";
  else
    OS << " \"-fno-diversify\"";
  OS << Terminator;
}

int DiversifyingCommand::Execute(ArrayRef<std::optional<StringRef>> Redirects,
                                 std::string *ErrMsg,
                                 bool *ExecutionFailed) const {
  SmallString<128> BitcodePath;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("divcc", "bc", BitcodePath)) {
    if (ErrMsg)
      *ErrMsg = "cannot create a temporary file: " + EC.message();
    if (ExecutionFailed)
      *ExecutionFailed = true;
    return -1;
  }
  FileRemover RemoveBitcode(BitcodePath);

  Command Frontend(*this);
  Frontend.replaceArguments(frontendArguments(BitcodePath.c_str()));
  if (int R = Frontend.Execute(Redirects, ErrMsg, ExecutionFailed))
    return R;

  const auto &Args = getArguments();
  SmallVector<const char *, 128> Cc1Args(Args.begin() + 1, Args.end());
  return runCodeGen({Cc1Args, BitcodePath, OutputPath, EmitAssembly}, Cfg);
}

} // namespace divcc
