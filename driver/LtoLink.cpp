//===- LtoLink.cpp - Links whose code divcc generates (-flto) -------------===//
//
// Invariants:
//  * lld decides everything a linker decides -- which archive members are
//    loaded, which symbols prevail, what is internalized, what each ThinLTO
//    module imports -- exactly as in a one-step LTO link with the same
//    arguments; divcc only generates the code in between.
//  * The final link sees no bitcode: bitcode objects are left out, archives
//    with bitcode members are replaced by copies holding only their native
//    members, fat objects (--fat-lto-objects) are left out, so lld can never
//    generate undiversified code itself.
//  * The objects of step 2 come last, regular module first, then ThinLTO
//    modules in lld's order: where lld puts the objects it generates.
//  * Every temporary file lives in one private directory, removed whatever
//    happens; the user's build directory gets nothing but the output.
//
//===----------------------------------------------------------------------===//

#include "driver/LtoLink.h"

#include "codegen/CodeGen.h"
#include "codegen/LtoBackend.h"
#include "driver/Config.h"
#include "driver/InProcessCc1.h"
#include "driver/LinkJob.h"
#include "support/AtomicOutput.h"
#include "support/Diagnostics.h"
#include "support/ElfRewrite.h"
#include "support/Environment.h"

#include "clang/Driver/Action.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Job.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/LTO/LTO.h"
#include "llvm/Object/Archive.h"
#include "llvm/ObjCopy/CommonConfig.h"
#include "llvm/Object/ArchiveWriter.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <sys/wait.h>
#include <unistd.h>

using namespace llvm;
using namespace clang::driver;

namespace divcc {

bool requestsLto(ArrayRef<std::string> ClangArgs) {
  bool Lto = false;
  for (StringRef A : ClangArgs) {
    if (A == "-flto" || A.starts_with("-flto="))
      Lto = true;
    else if (A == "-fno-lto")
      Lto = false;
  }
  return Lto;
}

namespace {

/// What an input of the link holds.
enum class InputKind {
  Native,             // left as it is
  Bitcode,            // an LTO module: left out of the final link
  FatObject,          // native code and bitcode, linked as bitcode
  ArchiveWithBitcode, // replaced by its native members in the final link
};

bool isLtoMember(MemoryBufferRef Member, bool FatLto) {
  if (identify_magic(Member.getBuffer()) == file_magic::bitcode)
    return true;
  if (!FatLto)
    return false;
  Expected<MemoryBufferRef> Bitcode = findLtoBitcode(Member);
  if (!Bitcode) {
    consumeError(Bitcode.takeError());
    return false;
  }
  return true;
}

InputKind classify(StringRef Path, bool FatLto) {
  auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return InputKind::Native;
  MemoryBufferRef Bytes = (*Buffer)->getMemBufferRef();
  switch (identify_magic(Bytes.getBuffer())) {
  case file_magic::bitcode:
    return InputKind::Bitcode;
  case file_magic::elf_relocatable:
    return isLtoMember(Bytes, FatLto) ? InputKind::FatObject
                                      : InputKind::Native;
  case file_magic::archive: {
    auto Archive = object::Archive::create(Bytes);
    if (!Archive) {
      consumeError(Archive.takeError());
      return InputKind::Native;
    }
    Error Err = Error::success();
    bool HasBitcode = false;
    for (const object::Archive::Child &C : (*Archive)->children(Err)) {
      Expected<MemoryBufferRef> Member = C.getMemoryBufferRef();
      if (Member && isLtoMember(*Member, FatLto)) {
        HasBitcode = true;
        break;
      }
      if (!Member)
        consumeError(Member.takeError());
    }
    consumeError(std::move(Err));
    return HasBitcode ? InputKind::ArchiveWithBitcode : InputKind::Native;
  }
  default:
    return InputKind::Native;
  }
}

/// lld's options whose value is the next argument (never an input file).
bool takesSeparateValue(StringRef A) {
  static const StringRef Options[] = {
      "-o", "-m", "-dynamic-linker", "--dynamic-linker", "-soname", "-h",
      "-T", "--script", "--version-script", "-rpath", "-R", "-z", "-plugin",
      "-L", "-l", "-e", "--entry", "-u", "--undefined", "-y",
      "--trace-symbol", "--wrap", "--defsym", "-Map", "--Map",
      "--dynamic-list", "--sysroot", "-init", "-fini", "-F", "-f",
      "--filter", "--auxiliary", "--exclude-libs", "--dependency-file",
      "--symbol-ordering-file", "--retain-symbols-file", "-mllvm",
      "--why-extract", "--image-base", "--hash-style"};
  return is_contained(Options, A);
}

/// What lld's arguments say about code generation (see lld's Driver.cpp).
LtoCodeGenOptions codeGenOptions(ArrayRef<const char *> Args) {
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

/// Whether \p A configures lld's own LTO, which the final link no longer
/// does.
bool isLtoOption(StringRef A) {
  return A.starts_with("-plugin-opt=") || A.starts_with("--plugin-opt=") ||
         A.starts_with("--lto-") || A.starts_with("-lto-") ||
         A == "--fat-lto-objects" || A.starts_with("--thinlto-") ||
         A.starts_with("-thinlto-");
}

/// A private temporary directory, removed with its contents on destruction.
struct TempDirectory {
  SmallString<128> Path;
  ~TempDirectory() {
    if (!Path.empty())
      sys::fs::remove_directories(Path);
  }
};

/// A copy of the archive \p Path holding only its native members.
Error writeNativeArchive(StringRef Path, StringRef Out, bool FatLto,
                         bool &Empty) {
  auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return createStringError(Buffer.getError(), "cannot read '%s'",
                             Path.str().c_str());
  auto Archive = object::Archive::create((*Buffer)->getMemBufferRef());
  if (!Archive)
    return Archive.takeError();
  std::vector<NewArchiveMember> Members;
  Error Err = Error::success();
  for (const object::Archive::Child &C : (*Archive)->children(Err)) {
    Expected<MemoryBufferRef> Member = C.getMemoryBufferRef();
    if (!Member)
      return Member.takeError();
    if (isLtoMember(*Member, FatLto))
      continue;
    Expected<NewArchiveMember> New =
        NewArchiveMember::getOldMember(C, /*Deterministic=*/true);
    if (!New)
      return New.takeError();
    Members.push_back(std::move(*New));
  }
  if (Err)
    return Err;
  Empty = Members.empty();
  if (Empty)
    return Error::success();
  return writeArchive(Out, Members, SymtabWritingMode::NormalSymtab,
                      object::Archive::K_GNU, /*Deterministic=*/true,
                      /*Thin=*/false);
}

/// The global symbols of the objects divcc generated: those they reference
/// without defining, and those they define.
struct GeneratedSymbols {
  StringSet<> Undefined;
  StringSet<> Defined;
};

Expected<GeneratedSymbols> generatedSymbols(ArrayRef<std::string> Paths) {
  GeneratedSymbols Symbols;
  for (const std::string &Path : Paths) {
    auto Buffer = MemoryBuffer::getFile(Path);
    if (!Buffer)
      return errorCodeToError(Buffer.getError());
    auto Obj =
        object::ObjectFile::createObjectFile((*Buffer)->getMemBufferRef());
    if (!Obj)
      return Obj.takeError();
    for (const object::SymbolRef &Sym : (*Obj)->symbols()) {
      Expected<uint32_t> Flags = Sym.getFlags();
      Expected<StringRef> Name = Sym.getName();
      if (!Flags || !Name)
        return Flags ? Name.takeError() : Flags.takeError();
      if (*Flags & object::SymbolRef::SF_Undefined)
        Symbols.Undefined.insert(*Name);
      else if (*Flags & object::SymbolRef::SF_Global)
        Symbols.Defined.insert(*Name);
    }
  }
  return Symbols;
}

/// An object with no code or data to stand in for the bitcode input
/// \p Path in the final link. lld puts a symbol into its symbol table when
/// it first sees it, and that order is the order of the PLT, the GOT and
/// the dynamic symbol table: the stub names the bitcode's symbols at the
/// input's place, in the input's order, as lld's one-step LTO link sees
/// them there. A symbol the bitcode references is referenced alike (weak
/// where the bitcode's reference is weak, so that the same archive members
/// load); a symbol it defines is referenced weakly (which loads nothing),
/// and the generated object defines it later. Named are only the symbols
/// the generated code still references or defines globally (\p Generated),
/// and those whose reference made lld load an archive member
/// (\p Extracting): the others, optimized away or internalized, would
/// otherwise be imported for nothing.
Error writeSymbolOrderStub(StringRef Path, const GeneratedSymbols &Generated,
                           const StringSet<> &Extracting,
                           const std::string &Out) {
  auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return createStringError(Buffer.getError(), "cannot read '%s'",
                             Path.str().c_str());
  Expected<MemoryBufferRef> Bitcode =
      findLtoBitcode((*Buffer)->getMemBufferRef());
  if (!Bitcode)
    return Bitcode.takeError();
  Expected<std::unique_ptr<lto::InputFile>> Input =
      lto::InputFile::create(*Bitcode);
  if (!Input)
    return Input.takeError();
  // lld inserts a bitcode file's defined symbols first, then its undefined
  // ones (BitcodeFile::parse); an object's in symbol table order.
  std::string Defined, Undefined;
  for (const lto::InputFile::Symbol &Sym : (*Input)->symbols()) {
    StringRef Name = Sym.getName();
    bool Strong = false;
    if (Sym.isUndefined()) {
      if (!Generated.Undefined.contains(Name) &&
          !Generated.Defined.contains(Name) && !Extracting.contains(Name))
        continue;
      Strong = !Sym.isWeak();
    } else if (!Generated.Defined.contains(Name)) {
      continue;
    }
    (Sym.isUndefined() ? Undefined : Defined) +=
        (Strong ? "\t.globl \"" : "\t.weak \"") + Name.str() + "\"\n";
  }
  std::string Asm = Defined + Undefined;
  return assembleCodeFreeObject(Asm, Triple((*Input)->getTargetTriple()),
                                Out);
}

/// lld links the objects its own LTO generates with their section groups
/// ignored (ObjFile::parse with ignoreComdats): comdats were resolved in
/// the IR, and the groups code generation adds itself, such as
/// DW.ref.__gxx_personality_v0, keep one copy per object. Without its
/// group sections, \p Path links the same way in the final link.
Error dropSectionGroups(const std::string &Path) {
  Expected<SmallVector<char, 0>> Output =
      rewriteElf(Path, [](objcopy::CommonConfig &Common) {
        cantFail(Common.ToRemove.addMatcher(objcopy::NameOrPattern::create(
            ".group", objcopy::MatchStyle::Literal,
            [](Error E) { return E; })));
      });
  if (!Output)
    return Output.takeError();
  return writeFileAtomically(Path, StringRef(Output->data(), Output->size()));
}

/// The pass plugin lld loads for divcc, installed next to divcc.
std::string ltoPluginPath() {
  static int Anchor;
  std::string Self = sys::fs::getMainExecutable(nullptr, &Anchor);
  return (sys::path::parent_path(Self) + "/divcc-lto-plugin.so").str();
}

/// How many ThinLTO back ends may run at once: lld's --thinlto-jobs= or
/// --plugin-opt=jobs=, else one per core, as lld. Each module's code is the
/// same whatever this number (see LtoBackend.cpp).
unsigned backendJobs(ArrayRef<const char *> Args) {
  unsigned Jobs = 0;
  for (StringRef A : Args)
    if (A.consume_front("--thinlto-jobs=") || A.consume_front("-thinlto-jobs=") ||
        A.consume_front("--plugin-opt=jobs=") || A.consume_front("-plugin-opt=jobs="))
      if (A.getAsInteger(10, Jobs))
        Jobs = 0; // "all" and the like: one per core
  return Jobs ? Jobs : std::max(1u, heavyweight_hardware_concurrency().compute_thread_count());
}

/// One ThinLTO back end to run: a module, its index, its object.
struct ThinBackend {
  std::string ModuleId, IndexPath, OutputPath;
};

/// Runs \p Backends, up to \p Jobs at once, each in a process forked from
/// this one: it holds the key, which thus never leaves divcc's memory, and
/// divcc's code generator keeps per-process state (LLVM's options, the
/// scheduler registry) that threads would share.
int runThinBackends(ArrayRef<ThinBackend> Backends, unsigned Jobs,
                    const LtoCodeGenOptions &Options, const Config &Cfg) {
  auto RunOne = [&](const ThinBackend &B) {
    return compileThinLtoModule(B.ModuleId, B.IndexPath, B.OutputPath, Options,
                                Cfg.plan());
  };
  if (Jobs <= 1 || Backends.size() <= 1) {
    for (const ThinBackend &B : Backends)
      if (int R = RunOne(B))
        return R;
    return 0;
  }
  std::map<pid_t, const ThinBackend *> Running;
  size_t Next = 0;
  int Result = 0;
  while (Running.size() || (Next < Backends.size() && !Result)) {
    while (Running.size() < Jobs && Next < Backends.size() && !Result) {
      const ThinBackend &B = Backends[Next++];
      outs().flush();
      errs().flush();
      pid_t Pid = ::fork();
      if (Pid == 0) {
        // The child's own crash recovery: a crash must end this process,
        // never return into the parent's frames.
        int R = runRecoverably([&] { return RunOne(B); });
        errs().flush();
        ::_exit(R);
      }
      if (Pid < 0) { // no process to spare: run it here
        Result = RunOne(B);
        continue;
      }
      Running[Pid] = &B;
    }
    if (Running.empty())
      break;
    int Status = 0;
    pid_t Done = ::waitpid(-1, &Status, 0);
    if (Done < 0)
      break;
    auto It = Running.find(Done);
    if (It == Running.end())
      continue;
    if (!WIFEXITED(Status) || WEXITSTATUS(Status)) {
      if (!WIFEXITED(Status))
        printError("the ThinLTO back end of '" + It->second->ModuleId +
                   "' died of signal " + Twine(WTERMSIG(Status)));
      Result = 1;
    }
    Running.erase(It);
  }
  return Result;
}

/// The three steps of one LTO link (see LtoLink.h), with the files they
/// share in one private directory.
class LtoLinkSteps {
public:
  LtoLinkSteps(StringRef Lld, const opt::ArgStringList &Args, StringRef Temp,
               ArrayRef<std::optional<StringRef>> Redirects, const Config &Cfg)
      : Lld(Lld), Args(Args), Temp(Temp), Redirects(Redirects), Cfg(Cfg),
        FatLto(is_contained(Args, StringRef("--fat-lto-objects"))) {}

  int run() {
    findBitcodeInputs();
    if (int R = resolveSymbols())
      return R;
    if (int R = generateCode())
      return R;
    return linkObjects();
  }

private:
  std::string path(const Twine &Name) const { return (Temp + "/" + Name).str(); }

  int runLld(ArrayRef<const char *> LldArgs,
             ArrayRef<std::string> Environment = {}) const {
    SmallVector<StringRef, 128> Argv = {Lld};
    Argv.append(LldArgs.begin(), LldArgs.end());
    std::optional<SmallVector<StringRef, 64>> Env;
    if (!Environment.empty())
      Env.emplace(Environment.begin(), Environment.end());
    std::string Message;
    int Code = sys::ExecuteAndWait(
        Lld, Argv, Env ? std::optional(ArrayRef(*Env)) : std::nullopt,
        Redirects, 0, 0, &Message);
    if (Code < 0) {
      printError("cannot run '" + Lld + "': " + Message);
      return 1;
    }
    return Code;
  }

  void findBitcodeInputs() {
    for (size_t I = 0; I < Args.size(); ++I) {
      StringRef A = Args[I];
      if (takesSeparateValue(A)) {
        ++I;
        continue;
      }
      if (A.starts_with("-") || !sys::fs::is_regular_file(A))
        continue;
      InputKind Kind = classify(A, FatLto);
      if (Kind == InputKind::Native)
        continue;
      LtoInputs.push_back({I, Kind});
      // lld names each module by its path; step 1 writes the module's
      // index at that name under the private directory, where "../" could
      // lead out of it: lld gets absolute paths.
      SmallString<256> Absolute(A);
      sys::fs::make_absolute(Absolute);
      sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
      AbsolutePaths[I] = Absolute.str().str();
    }
  }

  /// Step 1: lld resolves symbols and writes what is left to compile.
  int resolveSymbols() {
    for (auto [I, Kind] : LtoInputs) {
      SmallString<256> Dir(IndexPrefix);
      sys::path::append(Dir, sys::path::parent_path(AbsolutePaths[I]));
      sys::fs::create_directories(Dir);
    }
    std::string IndexOnly = "--thinlto-index-only=" + ThinList;
    std::string PrefixReplace = "--thinlto-prefix-replace=;" + IndexPrefix;
    std::string WhyExtract = "--why-extract=" + WhyExtractFile;
    opt::ArgStringList Resolve;
    for (size_t I = 0; I < Args.size(); ++I) {
      if (StringRef(Args[I]) == "-o" && I + 1 < Args.size()) {
        Resolve.append({"-o", RegularModule.c_str()});
        ++I;
        continue;
      }
      Resolve.push_back(AbsolutePaths[I].empty() ? Args[I]
                                                 : AbsolutePaths[I].c_str());
    }
    Resolve.append({"--plugin-opt=emit-llvm", IndexOnly.c_str(),
                    PrefixReplace.c_str(), WhyExtract.c_str()});
    // The regular module with its use-lists' order, which emit-llvm's copy
    // lacks (codegen/LtoModulePlugin.cpp).
    std::string Plugin = ltoPluginPath();
    std::string LoadPlugin = "--load-pass-plugin=" + Plugin;
    std::string OrderedModule = path("regular.ordered.bc");
    std::vector<std::string> Env;
    if (sys::fs::exists(Plugin)) {
      Resolve.push_back(LoadPlugin.c_str());
      Env =
          environmentWith({}, {assignment(EnvLtoModuleOutput, OrderedModule)});
    }
    if (int R = runLld(Resolve, Env))
      return R;
    if (sys::fs::exists(OrderedModule))
      RegularModule = OrderedModule;
    return 0;
  }

  /// Step 2: divcc's code generator, with lld's options.
  int generateCode() {
    LtoCodeGenOptions Options = codeGenOptions(Args);
    if (!applyLtoCommandLine(Options))
      return 1;
    if (sys::fs::exists(RegularModule)) {
      Objects.push_back(path("lto.regular.o"));
      if (int R = compileRegularLtoModule(RegularModule, Objects.back(),
                                          Options, Cfg.plan()))
        return R;
    }
    auto List = MemoryBuffer::getFile(ThinList, /*IsText=*/true);
    if (!List) {
      printError("lld wrote no ThinLTO module list");
      return 1;
    }
    SmallVector<StringRef, 16> Lines;
    (*List)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
    std::vector<ThinBackend> Backends;
    for (StringRef Line : Lines) {
      if (!Line.starts_with(IndexPrefix))
        continue;
      std::string Index = (Line + ".thinlto.bc").str();
      uint64_t Size = 0;
      if (sys::fs::file_size(Index, Size) || Size == 0)
        continue; // an archive member lld did not load
      Objects.push_back(path("lto." + Twine(Objects.size()) + ".o"));
      Backends.push_back(
          {Line.drop_front(IndexPrefix.size()).str(), Index, Objects.back()});
    }
    if (int R = runThinBackends(Backends, backendJobs(Args), Options, Cfg))
      return R;
    for (const std::string &Object : Objects)
      if (Error E = dropSectionGroups(Object)) {
        printError("cannot prepare '" + Object +
                   "' for the final link: " + toString(std::move(E)));
        return 1;
      }
    return 0;
  }

  /// The symbols through which each input made lld load archive members.
  StringMap<StringSet<>> extractingSymbols() const {
    StringMap<StringSet<>> Extracting;
    auto Why = MemoryBuffer::getFile(WhyExtractFile, /*IsText=*/true);
    if (!Why)
      return Extracting;
    SmallVector<StringRef, 64> Lines;
    (*Why)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
    for (StringRef Line : ArrayRef(Lines).drop_front()) {
      SmallVector<StringRef, 3> Fields;
      Line.split(Fields, '\t');
      if (Fields.size() == 3)
        Extracting[Fields[0]].insert(Fields[2]);
    }
    return Extracting;
  }

  /// Step 3: the final link, with no bitcode left.
  int linkObjects() {
    Expected<GeneratedSymbols> Generated = generatedSymbols(Objects);
    if (!Generated) {
      printError("cannot read the generated objects: " +
                 toString(Generated.takeError()));
      return 1;
    }
    StringMap<StringSet<>> Extracting = extractingSymbols();
    // What takes each bitcode input's place: a stub or a native archive.
    std::vector<std::string> Replacement(Args.size());
    std::vector<bool> Drop(Args.size());
    for (auto [I, Kind] : LtoInputs) {
      if (Kind != InputKind::ArchiveWithBitcode) {
        Replacement[I] = path("stub." + Twine(I) + ".o");
        if (Error E = writeSymbolOrderStub(Args[I], *Generated,
                                           Extracting[AbsolutePaths[I]],
                                           Replacement[I])) {
          printError("cannot stand in for '" + Twine(Args[I]) +
                     "': " + toString(std::move(E)));
          return 1;
        }
        continue;
      }
      Replacement[I] = path("native." + Twine(I) + ".a");
      bool Empty = false;
      if (Error E =
              writeNativeArchive(Args[I], Replacement[I], FatLto, Empty)) {
        printError("cannot copy the native members of '" + Twine(Args[I]) +
                   "': " + toString(std::move(E)));
        return 1;
      }
      Drop[I] = Empty;
    }
    opt::ArgStringList Final;
    for (size_t I = 0; I < Args.size(); ++I) {
      if (Drop[I] || isLtoOption(Args[I]))
        continue;
      if (StringRef(Args[I]) == "-plugin" && I + 1 < Args.size()) {
        ++I;
        continue;
      }
      Final.push_back(Replacement[I].empty() ? Args[I]
                                             : Replacement[I].c_str());
    }
    for (const std::string &Object : Objects)
      Final.push_back(Object.c_str());
    return runLld(Final);
  }

  StringRef Lld;
  const opt::ArgStringList &Args;
  StringRef Temp;
  ArrayRef<std::optional<StringRef>> Redirects;
  const Config &Cfg;
  bool FatLto;

  std::vector<std::pair<size_t, InputKind>> LtoInputs; // argument, kind
  std::vector<std::string> AbsolutePaths = std::vector<std::string>(
      Args.size()); // of the LTO inputs, by argument
  std::string IndexPrefix = path("index/");
  std::string RegularModule = path("regular.bc");
  std::string ThinList = path("thin.list");
  std::string WhyExtractFile = path("why-extract.txt");
  std::vector<std::string> Objects; // step 2's, in lld's order
};

class LtoLinkCommand : public Command {
public:
  LtoLinkCommand(const Command &Link, const Config &Cfg)
      : Command(Link), Cfg(Cfg) {}

  void Print(raw_ostream &OS, const char *Terminator, bool Quote,
             CrashReportInfo *CrashInfo) const override {
    // The link runs twice around divcc's code generator. Its arguments are
    // shown once, on the last line: libtool reads a compiler's implicit
    // link objects and libraries from every -v line with a -L in it, and
    // would take them twice.
    OS << " \"" << getExecutable()
       << "\" \"<the link below>\" \"--plugin-opt=emit-llvm\" "
          "\"--thinlto-index-only=<list>\""
       << Terminator << " \"divcc-lto-codegen\" \"<modules>\" \""
       << (Cfg.diversifying()
               ? "-fdiversify=" + Cfg.Diversity.Transformations.str()
               : std::string("-fno-diversify"))
       << "\"" << Terminator;
    Command::Print(OS, Terminator, Quote, CrashInfo);
  }

  int Execute(ArrayRef<std::optional<StringRef>> Redirects,
              std::string *ErrMsg, bool *ExecutionFailed) const override {
    if (ExecutionFailed)
      *ExecutionFailed = false;
    TempDirectory Temp;
    if (std::error_code EC =
            sys::fs::createUniqueDirectory("divcc-lto", Temp.Path)) {
      printError("cannot create a temporary directory: " + EC.message());
      return 1;
    }
    return runRecoverably([&] {
      return LtoLinkSteps(getExecutable(), getArguments(), Temp.Path,
                          Redirects, Cfg)
          .run();
    });
  }

private:
  const Config &Cfg;
};

/// Whether \p Link is an lld link that generates code from bitcode.
bool linksBitcode(const Command &Link) {
  if (sys::path::filename(Link.getExecutable()) != "ld.lld")
    return false;
  const opt::ArgStringList &Args = Link.getArguments();
  bool FatLto = is_contained(Args, StringRef("--fat-lto-objects"));
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (isLtoOption(A))
      return true;
    if (takesSeparateValue(A)) {
      ++I;
      continue;
    }
    if (!A.starts_with("-") && sys::fs::is_regular_file(A) &&
        classify(A, FatLto) != InputKind::Native)
      return true;
  }
  return false;
}

} // namespace

Error generateLtoCodeInDivcc(Compilation &C, const Config &Cfg) {
  auto &Slots = const_cast<JobList::list_type &>(C.getJobs().getJobs());
  for (std::unique_ptr<Command> &Slot : Slots)
    if (isa<LinkJobAction>(Slot->getSource()) && linksBitcode(*Slot))
      Slot = std::make_unique<LtoLinkCommand>(*Slot, Cfg);
  return Error::success();
}

} // namespace divcc
