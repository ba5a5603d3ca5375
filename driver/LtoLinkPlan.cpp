//===- LtoLinkPlan.cpp - The command lines of an LTO link's steps ---------===//
//
// Invariants:
//  * Step 1 is the user's link with the output, the LTO inputs' paths made
//    absolute and four options of lld's own added: lld decides everything
//    a linker decides exactly as in a one-step LTO link.
//  * Step 3 holds no bitcode and no option of the linker's LTO: every
//    argument that held bitcode is replaced or left out, so the linker can
//    never generate undiversified code itself.
//  * Nothing here reads a file but through LinkFiles.
//
//===----------------------------------------------------------------------===//

#include "driver/LtoLinkPlan.h"

#include "support/Diagnostics.h"
#include "support/LinkerPluginProtocol.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

using namespace llvm;

namespace divcc {
namespace {

enum OptionFlags : unsigned {
  /// The option's value is the next argument, never an input.
  TakesArg = 1 << 0,
  /// Configures the linker's own LTO: left out of the final link.
  LinkerLto = 1 << 1,
  /// Asks the linker for an output the three steps cannot give.
  Refused = 1 << 2,
  /// Matches every argument that starts with the name.
  IsPrefix = 1 << 3,
};

struct LinkerOption {
  StringLiteral Name; // long options in their "--" spelling (see canonical)
  unsigned Flags;
};

/// The linker options divcc must understand (lld's spellings, which GNU ld
/// shares). Options not listed are flags or carry their value after '=':
/// they are passed through untouched.
constexpr LinkerOption LinkerOptions[] = {
    {"-F", TakesArg},
    {"-L", TakesArg},
    {"-R", TakesArg},
    {"-T", TakesArg},
    {"-e", TakesArg},
    {"-f", TakesArg},
    {"-h", TakesArg},
    {"-l", TakesArg},
    {"-m", TakesArg},
    {"-o", TakesArg},
    {"-u", TakesArg},
    {"-y", TakesArg},
    {"-z", TakesArg},
    {"--Map", TakesArg},
    {"--auxiliary", TakesArg},
    {"--defsym", TakesArg},
    {"--dependency-file", TakesArg},
    {"--dynamic-linker", TakesArg},
    {"--dynamic-list", TakesArg},
    {"--entry", TakesArg},
    {"--exclude-libs", TakesArg},
    {"--filter", TakesArg},
    {"--fini", TakesArg},
    {"--hash-style", TakesArg},
    {"--image-base", TakesArg},
    {"--init", TakesArg},
    {"--library", TakesArg},
    {"--library-path", TakesArg},
    {"--mllvm", TakesArg},
    {"--plugin", TakesArg | LinkerLto},
    {"--retain-symbols-file", TakesArg},
    {"--rpath", TakesArg},
    {"--script", TakesArg},
    {"--soname", TakesArg},
    {"--symbol-ordering-file", TakesArg},
    {"--sysroot", TakesArg},
    {"--trace-symbol", TakesArg},
    {"--undefined", TakesArg},
    {"--version-script", TakesArg},
    {"--why-extract", TakesArg},
    {"--wrap", TakesArg},
    // What would make lld write something else than the linked program:
    // divcc runs the code generation between two links itself.
    {"--plugin-opt=emit-asm", Refused},
    {"--plugin-opt=emit-llvm", Refused},
    {"--lto-emit-asm", Refused},
    {"--plugin-opt=thinlto-index-only", Refused | IsPrefix},
    {"--thinlto-index-only", Refused | IsPrefix},
    {"--plugin-opt=thinlto-emit-imports-files", Refused},
    {"--thinlto-emit-imports-files", Refused},
    {"--thinlto-emit-index-files", Refused},
    {"--plugin-opt=thinlto-prefix-replace=", Refused | IsPrefix},
    {"--thinlto-prefix-replace=", Refused | IsPrefix},
    {"--plugin-opt=thinlto-object-suffix-replace=", Refused | IsPrefix},
    {"--thinlto-object-suffix-replace=", Refused | IsPrefix},
    {"--plugin-opt=obj-path=", Refused | IsPrefix},
    {"--lto-obj-path=", Refused | IsPrefix},
    // The linker's own LTO, which the final link no longer does.
    {"--fat-lto-objects", LinkerLto},
    {"--plugin-opt=", LinkerLto | IsPrefix},
    {"--lto-", LinkerLto | IsPrefix},
    {"--thinlto-", LinkerLto | IsPrefix},
};

/// \p Arg with a long option in its "--" spelling: lld and GNU ld accept
/// "-name" and "--name" alike.
std::string canonical(StringRef Arg) {
  if (Arg.size() > 2 && Arg[0] == '-' && Arg[1] != '-')
    return ("-" + Arg).str();
  return Arg.str();
}

const LinkerOption *findLinkerOption(StringRef Arg) {
  if (!Arg.starts_with("-"))
    return nullptr;
  std::string Canonical = canonical(Arg);
  for (const LinkerOption &O : LinkerOptions)
    if (Arg == O.Name || Canonical == O.Name ||
        ((O.Flags & IsPrefix) && (Arg.starts_with(O.Name) ||
                                  StringRef(Canonical).starts_with(O.Name))))
      return &O;
  return nullptr;
}

/// \p Args with each @FILE replaced by the arguments FILE holds (GNU
/// quoting, as lld reads them), recursively.
Expected<std::vector<std::string>>
expandResponseFiles(ArrayRef<std::string> Args, const LinkFiles &Files,
                    unsigned Depth = 0) {
  std::vector<std::string> Out;
  for (const std::string &Arg : Args) {
    StringRef A = Arg;
    if (!A.consume_front("@")) {
      Out.push_back(Arg);
      continue;
    }
    if (Depth > 20)
      return makeError("response files nest too deep at '" + Arg + "'");
    std::optional<std::string> Text = Files.readResponseFile(A);
    if (!Text)
      return makeError("cannot read the linker's response file '" + A + "'");
    BumpPtrAllocator Alloc;
    StringSaver Saver(Alloc);
    SmallVector<const char *, 64> Words;
    cl::TokenizeGNUCommandLine(*Text, Saver, Words);
    std::vector<std::string> Inner(Words.begin(), Words.end());
    Expected<std::vector<std::string>> Expanded =
        expandResponseFiles(Inner, Files, Depth + 1);
    if (!Expanded)
      return Expanded.takeError();
    append_range(Out, *Expanded);
  }
  return Out;
}

/// The value of the option at \p I, joined (-Lx, --opt=x) or next; advances
/// \p I past it. \p Short and \p Long name the option; nothing if \p Args[I]
/// is not it.
std::optional<std::string> optionValue(ArrayRef<std::string> Args, size_t &I,
                                       StringRef Short, StringRef Long) {
  StringRef A = Args[I];
  std::string Canonical = canonical(A);
  if ((A == Short || Canonical == Long) && I + 1 < Args.size())
    return Args[++I];
  if (StringRef(Canonical).consume_front((Long + "=").str()))
    return StringRef(Canonical).drop_front(Long.size() + 1).str();
  if (A.size() > Short.size() && A.starts_with(Short) && !A.starts_with("--"))
    return A.drop_front(Short.size()).str();
  return std::nullopt;
}

/// \p Args with each -lNAME that finds an archive holding bitcode replaced
/// by the archive's path, searched as lld searches: every -L directory in
/// order, libNAME.so before libNAME.a unless -Bstatic, -l:FILE as named.
std::vector<std::string> resolveBitcodeLibraries(ArrayRef<std::string> Args,
                                                 const LinkFiles &Files,
                                                 bool FatLto) {
  std::vector<std::string> Dirs;
  for (size_t I = 0; I < Args.size(); ++I)
    if (auto Dir = optionValue(Args, I, "-L", "--library-path"))
      Dirs.push_back(*Dir);

  std::vector<std::string> Out;
  bool Static = false;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A == "-Bstatic" || A == "-static" || A == "-dn" || A == "-non_shared")
      Static = true;
    else if (A == "-Bdynamic" || A == "-dy" || A == "-call_shared")
      Static = false;
    size_t First = I;
    std::optional<std::string> Name = optionValue(Args, I, "-l", "--library");
    if (!Name) {
      Out.push_back(Args[I]);
      continue;
    }
    std::string Found;
    for (const std::string &Dir : Dirs) {
      StringRef N = *Name;
      SmallVector<std::string, 2> Candidates;
      if (N.consume_front(":"))
        Candidates.push_back(Dir + "/" + N.str());
      else {
        if (!Static)
          Candidates.push_back(Dir + "/lib" + N.str() + ".so");
        Candidates.push_back(Dir + "/lib" + N.str() + ".a");
      }
      for (const std::string &C : Candidates)
        if (Found.empty() && Files.isFile(C))
          Found = C;
      if (!Found.empty())
        break;
    }
    if (!Found.empty() &&
        Files.classify(Found, FatLto) == InputKind::ArchiveWithBitcode)
      Out.push_back(Found);
    else
      Out.insert(Out.end(), Args.begin() + First, Args.begin() + I + 1);
  }
  return Out;
}

/// What lld's arguments say about code generation (see lld's Driver.cpp).
LtoCodeGenOptions codeGenOptions(ArrayRef<std::string> Args) {
  LtoCodeGenOptions O;
  bool Pie = false, Shared = false;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A.consume_front("--plugin-opt=") || A.consume_front("-plugin-opt=")) {
      if (A.consume_front("mcpu="))
        O.LlvmArgs.push_back(("-mcpu=" + A).str());
      else if (A.starts_with("-"))
        O.LlvmArgs.push_back(A.str());
      else if (A.consume_front("O"))
        A.getAsInteger(10, O.OptLevel);
    } else if (A.consume_front("--lto-O") || A.consume_front("-lto-O")) {
      A.getAsInteger(10, O.OptLevel);
    } else if (A.consume_front("--lto-CGO") || A.consume_front("-lto-CGO")) {
      A.getAsInteger(10, O.CodeGenOptLevel);
    } else if (A == "-mllvm" && I + 1 < Args.size()) {
      O.LlvmArgs.push_back(Args[++I]);
    } else if (A.consume_front("-mllvm=") || A.consume_front("--mllvm=")) {
      O.LlvmArgs.push_back(A.str());
    } else if (A == "-pie" || A == "--pie") {
      Pie = true;
    } else if (A == "-no-pie" || A == "--no-pie") {
      Pie = false;
    } else if (A == "-shared" || A == "--shared" || A == "-Bshareable") {
      Shared = true;
    } else if (A == "-r" || A == "--relocatable") {
      O.Relocatable = true;
    }
  }
  O.Pic = Pie || Shared;
  return O;
}

/// --thinlto-jobs= or --plugin-opt=jobs=; 0 (one per core) for "all" and
/// the like, as lld.
unsigned backendJobs(ArrayRef<std::string> Args) {
  unsigned Jobs = 0;
  for (StringRef A : Args)
    if (A.consume_front("--thinlto-jobs=") ||
        A.consume_front("-thinlto-jobs=") ||
        A.consume_front("--plugin-opt=jobs=") ||
        A.consume_front("-plugin-opt=jobs="))
      if (A.getAsInteger(10, Jobs))
        Jobs = 0;
  return Jobs;
}

} // namespace

LtoTempFiles::LtoTempFiles(StringRef Dir)
    : Dir(Dir.str()), IndexPrefix((Dir + "/index/").str()),
      RegularModule((Dir + "/regular.bc").str()),
      ThinList((Dir + "/thin.list").str()),
      WhyExtract((Dir + "/why-extract.txt").str()) {}

Expected<LtoLinkPlan> planLtoLink(ArrayRef<std::string> LinkerArgs,
                                  const LinkFiles &Files) {
  Expected<std::vector<std::string>> Expanded =
      expandResponseFiles(LinkerArgs, Files);
  if (!Expanded)
    return Expanded.takeError();
  LtoLinkPlan Plan;
  Plan.FatLto = is_contained(*Expanded, "--fat-lto-objects");
  Plan.Args = resolveBitcodeLibraries(*Expanded, Files, Plan.FatLto);
  const std::vector<std::string> &Args = Plan.Args;

  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (const LinkerOption *O = findLinkerOption(A)) {
      if (O->Flags & Refused)
        return makeError("cannot generate the code of this LTO link: '" + A +
                         "' asks the linker for another output than the "
                         "linked program, and divcc generates the code "
                         "between two links of its own");
      // -plugin names the linker's plugin, which lld ignores: only the
      // options of the LTO itself mean that code is generated.
      if ((O->Flags & LinkerLto) && !(O->Flags & TakesArg))
        Plan.GeneratesCode = true;
      if (O->Flags & TakesArg)
        ++I;
      continue;
    }
    if (A.starts_with("-") || !Files.isFile(A))
      continue;
    InputKind Kind = Files.classify(A, Plan.FatLto);
    if (Kind == InputKind::Native)
      continue;
    Plan.GeneratesCode = true;
    Plan.Inputs.push_back({I, Kind, Files.absolute(A)});
  }
  Plan.CodeGen = codeGenOptions(Args);
  Plan.BackendJobs = backendJobs(Args);
  return Plan;
}

std::vector<std::string>
LtoLinkPlan::resolveArgs(const LtoTempFiles &Temp) const {
  std::vector<std::string> Out;
  std::vector<std::string> Paths(Args.size());
  for (const LtoInput &Input : Inputs)
    Paths[Input.Argument] = Input.Path;
  for (size_t I = 0; I < Args.size(); ++I) {
    if (Args[I] == "-o" && I + 1 < Args.size()) {
      Out.insert(Out.end(), {"-o", Temp.RegularModule});
      ++I;
      continue;
    }
    Out.push_back(Paths[I].empty() ? Args[I] : Paths[I]);
  }
  Out.insert(Out.end(), {"--plugin-opt=emit-llvm",
                         "--thinlto-index-only=" + Temp.ThinList,
                         "--thinlto-prefix-replace=;" + Temp.IndexPrefix,
                         "--why-extract=" + Temp.WhyExtract});
  return Out;
}

std::vector<std::string>
LtoLinkPlan::finalArgs(ArrayRef<std::string> Replacement,
                       ArrayRef<std::string> Objects) const {
  std::vector<bool> IsInput(Args.size());
  for (const LtoInput &Input : Inputs)
    IsInput[Input.Argument] = true;
  std::vector<std::string> Out;
  for (size_t I = 0; I < Args.size(); ++I) {
    if (IsInput[I]) {
      if (!Replacement[I].empty())
        Out.push_back(Replacement[I]);
      continue;
    }
    if (const LinkerOption *O = findLinkerOption(Args[I]);
        O && (O->Flags & LinkerLto)) {
      if (O->Flags & TakesArg)
        ++I;
      continue;
    }
    Out.push_back(Args[I]);
  }
  append_range(Out, Objects);
  return Out;
}

static bool isLlvmGoldPlugin(StringRef Path) {
  return sys::path::filename(Path) == "LLVMgold.so";
}

bool loadsLlvmGoldPlugin(ArrayRef<std::string> LinkerArgs) {
  for (size_t I = 0; I + 1 < LinkerArgs.size(); ++I)
    if ((LinkerArgs[I] == "-plugin" || LinkerArgs[I] == "--plugin") &&
        isLlvmGoldPlugin(LinkerArgs[I + 1]))
      return true;
  return false;
}

bool isGnuLinker(StringRef Linker) {
  StringRef Name = sys::path::filename(Linker);
  for (StringRef Gnu : {"ld", "ld.bfd", "ld.gold"})
    if (Name == Gnu || Name.ends_with(("-" + Gnu).str()))
      return true;
  return false;
}

std::vector<std::string> withDivccLinkerPlugin(ArrayRef<std::string> LinkerArgs,
                                               StringRef Plugin, int Socket,
                                               StringRef Dir) {
  std::vector<std::string> Out;
  for (size_t I = 0; I < LinkerArgs.size(); ++I) {
    bool IsPlugin = I > 0 &&
                    (LinkerArgs[I - 1] == "-plugin" ||
                     LinkerArgs[I - 1] == "--plugin") &&
                    (isLlvmGoldPlugin(LinkerArgs[I]) || LinkerArgs[I] == Plugin);
    if (!IsPlugin) {
      Out.push_back(LinkerArgs[I]);
      continue;
    }
    Out.push_back(Plugin.str());
    // The options up to the next -plugin are this plugin's.
    if (Socket >= 0) {
      Out.push_back(("-plugin-opt=" + linker_plugin::SocketOption +
                     Twine(Socket)).str());
      Out.push_back(
          ("-plugin-opt=" + linker_plugin::DirectoryOption + Dir).str());
    }
  }
  return Out;
}

} // namespace divcc
