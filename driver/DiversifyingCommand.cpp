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
#include "cache/FrontendCache.h"
#include "codegen/CodeGen.h"
#include "driver/Config.h"
#include "driver/InProcessCc1.h"
#include "support/AtomicOutput.h"
#include "support/Diagnostics.h"

#include "clang/Basic/Version.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using clang::driver::Command;

namespace divcc {

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
  if (Cfg.Diversity.Transformations.has(Transformation::Link)) {
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

opt::ArgStringList DiversifyingCommand::withAction(ArrayRef<const char *> Action,
                                                  const char *Output) const {
  opt::ArgStringList Out;
  const auto &Args = getArguments();
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A == "-emit-obj" || A == "-S") {
      Out.append(Action.begin(), Action.end());
    } else if (A == "-o" && I + 1 < Args.size()) {
      Out.push_back("-o");
      Out.push_back(Output);
      ++I;
    } else {
      Out.push_back(Args[I]);
    }
  }
  return Out;
}

opt::ArgStringList
DiversifyingCommand::frontendArguments(const char *BitcodePath) const {
  return withAction({"-emit-llvm-bc", "-emit-llvm-uselists"}, BitcodePath);
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
    OS << " \"-fdiversify=" << Cfg.Diversity.Transformations.str() << "\"";
  else
    OS << " \"-fno-diversify\"";
  OS << Terminator;
}

namespace {

std::string readFile(StringRef Path) {
  auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string();
}

/// A temporary file, removed when this goes out of scope.
struct TempPath {
  SmallString<128> Path;
  std::optional<FileRemover> Remover;

  std::error_code create(StringRef Suffix) {
    if (std::error_code EC =
            sys::fs::createTemporaryFile("divcc", Suffix, Path))
      return EC;
    Remover.emplace(Path);
    return {};
  }
};

} // namespace

// Preprocesses (which also writes any dependency file), looks the key up,
// and on a miss runs the front end and stores its bitcode. The front end's
// diagnostics go through a file either way, so that a hit replays them.
int DiversifyingCommand::runCachedFrontend(FrontendCache &Cache,
                                           StringRef BitcodePath,
                                           std::string *ErrMsg,
                                           bool *ExecutionFailed) const {
  // The preprocessor's messages are dropped: the front end repeats them.
  TempPath Preprocessed, PreprocessorMessages, Diagnostics;
  for (auto [Temp, Suffix] : {std::pair(&Preprocessed, "i"),
                              std::pair(&PreprocessorMessages, "txt"),
                              std::pair(&Diagnostics, "txt")})
    if (std::error_code EC = Temp->create(Suffix)) {
      if (ErrMsg)
        *ErrMsg = "cannot create a temporary file: " + EC.message();
      if (ExecutionFailed)
        *ExecutionFailed = true;
      return -1;
    }

  std::optional<StringRef> ToPreprocessorMessages[] = {
      std::nullopt, std::nullopt, StringRef(PreprocessorMessages.Path)};
  bool PreprocessedOk =
      runCc1InProcess(withAction({"-E"}, Preprocessed.Path.c_str()),
                      ToPreprocessorMessages) == 0;
  const auto &Args = getArguments();
  std::optional<Sha256Digest> Key;
  if (PreprocessedOk) {
    // The libraries run the front end and the optimizer: an upgrade of
    // either is a new compiler, even if no executable changed.
    static const std::string Identity =
        executableIdentity(clangExecutable()) + "\n" +
        executableIdentity(sys::fs::getMainExecutable(nullptr, nullptr)) +
        "\n" +
        loadedCodeIdentity(
            reinterpret_cast<const void *>(&clang::getClangFullVersion)) +
        "\n" +
        loadedCodeIdentity(
            reinterpret_cast<const void *>(&sys::fs::getMainExecutable));
    Key = frontendCacheKey(Identity, ArrayRef(Args).drop_front(),
                           readFile(Preprocessed.Path));
    if (std::optional<CacheEntry> Hit = Cache.lookup(*Key)) {
      errs() << Hit->Diagnostics;
      if (Error E = writeFileAtomically(BitcodePath, Hit->Bitcode)) {
        // Reported here, as the front end reports its own errors (status 1).
        printError("cannot write '" + BitcodePath +
                   "': " + toString(std::move(E)));
        return 1;
      }
      return 0;
    }
  }

  // A miss, or preprocessing failed: the front end runs and reports.
  std::optional<StringRef> ToDiagnostics[] = {std::nullopt, std::nullopt,
                                              StringRef(Diagnostics.Path)};
  int R = runCc1InProcess(frontendArguments(BitcodePath.data()), ToDiagnostics);
  std::string Messages = readFile(Diagnostics.Path);
  errs() << Messages;
  if (R != 0 || !Key)
    return R;
  CacheEntry Entry;
  Entry.Bitcode = readFile(BitcodePath);
  Entry.Diagnostics = std::move(Messages);
  if (Error E = Cache.store(*Key, Entry))
    printWarning("cannot store in the cache: " + toString(std::move(E)));
  return 0;
}

int DiversifyingCommand::Execute(ArrayRef<std::optional<StringRef>> Redirects,
                                 std::string *ErrMsg,
                                 bool *ExecutionFailed) const {
  if (ExecutionFailed)
    *ExecutionFailed = false; // nothing to start; clang leaves it unset
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

  const auto &Args = getArguments();
  std::optional<FrontendCache> Cache;
  if (Cfg.Cache && isCacheable(ArrayRef(Args).drop_front()))
    Cache.emplace(*Cfg.Cache);
  if (Cache) {
    if (int R = runCachedFrontend(*Cache, BitcodePath, ErrMsg, ExecutionFailed))
      return R;
  } else {
    if (int R = runCc1InProcess(frontendArguments(BitcodePath.c_str()),
                                Redirects))
      return R;
  }

  SmallVector<const char *, 128> Cc1Args(Args.begin() + 1, Args.end());
  return runRecoverably([&] {
    return exitCodeFor(runCodeGen(
        {Cc1Args, BitcodePath, OutputPath, EmitAssembly}, Cfg.plan()));
  });
}

} // namespace divcc
