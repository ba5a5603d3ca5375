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
#include "driver/LtoLinkPlan.h"
#include "support/AtomicOutput.h"
#include "support/Diagnostics.h"
#include "support/ElfRewrite.h"
#include "support/Environment.h"
#include "support/Process.h"

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

/// The pass plugin lld loads for divcc: lib/divcc/ beside an installed
/// divcc's bin/, or next to divcc in the build tree. Without it lld's
/// module would lose its use-list order, and the code clang-19's LTO link
/// generates: its absence is an error, never a quiet fallback.
Expected<std::string> ltoPluginPath() {
  static int Anchor;
  std::string Self = sys::fs::getMainExecutable(nullptr, &Anchor);
  StringRef Dir = sys::path::parent_path(Self);
  std::string Installed =
      (sys::path::parent_path(Dir) + "/lib/divcc/divcc-lto-plugin.so").str();
  std::string BuildTree = (Dir + "/divcc-lto-plugin.so").str();
  for (const std::string &Path : {Installed, BuildTree})
    if (sys::fs::exists(Path))
      return Path;
  return makeError("divcc's LTO plugin is missing: neither '" + Installed +
                   "' nor '" + BuildTree +
                   "' exists (install divcc whole, e.g. with cmake --install)");
}

/// The file system, as planLtoLink asks about it.
class RealLinkFiles : public LinkFiles {
public:
  InputKind classify(StringRef Path, bool FatLto) const override {
    return divcc::classify(Path, FatLto);
  }
  bool isFile(StringRef Path) const override {
    return sys::fs::is_regular_file(Path);
  }
  std::optional<std::string> readResponseFile(StringRef Path) const override {
    auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/true);
    if (!Buffer)
      return std::nullopt;
    return (*Buffer)->getBuffer().str();
  }
  std::string absolute(StringRef Path) const override {
    SmallString<256> Absolute(Path);
    sys::fs::make_absolute(Absolute);
    sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
    return Absolute.str().str();
  }
};

/// One ThinLTO back end to run: a module, its index, its object.
struct ThinBackend {
  std::string ModuleId, IndexPath, OutputPath;
};

/// Runs \p Backends, up to \p Jobs at once, each in a process forked from
/// this one: it holds the key, which thus never leaves divcc's memory, and
/// divcc's code generator keeps per-process state (LLVM's options, the
/// scheduler registry) that threads would share. A back end that fails in
/// its own process has printed why there.
Error runThinBackends(ArrayRef<ThinBackend> Backends, unsigned Jobs,
                      const LtoCodeGenOptions &Options, const Config &Cfg) {
  auto RunOne = [&](const ThinBackend &B) {
    return compileThinLtoModule(B.ModuleId, B.IndexPath, B.OutputPath, Options,
                                Cfg.plan());
  };
  if (Jobs <= 1 || Backends.size() <= 1) {
    for (const ThinBackend &B : Backends)
      if (Error E = RunOne(B))
        return E;
    return Error::success();
  }
  std::map<pid_t, const ThinBackend *> Running;
  size_t Next = 0;
  Error Result = Error::success();
  bool Failed = false; // then Result says why, and nothing more starts
  (void)static_cast<bool>(Result); // checked: a failure replaces it
  while (Running.size() || (Next < Backends.size() && !Failed)) {
    while (Running.size() < Jobs && Next < Backends.size() && !Failed) {
      const ThinBackend &B = Backends[Next++];
      outs().flush();
      errs().flush();
      pid_t Pid = ::fork();
      if (Pid == 0) {
        // The child's own crash recovery: a crash must end this process,
        // never return into the parent's frames.
        int R = runRecoverably([&] { return exitCodeFor(RunOne(B)); });
        errs().flush();
        ::_exit(R);
      }
      if (Pid < 0) { // no process to spare: run it here
        Result = RunOne(B);
        Failed = static_cast<bool>(Result);
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
    if (Status != 0 && !Failed) {
      Failed = true;
      // An exit status: the back end printed why in its own process.
      Result = WIFEXITED(Status)
                   ? alreadyReportedError()
                   : makeError("the ThinLTO back end of '" +
                               It->second->ModuleId +
                               "' ended: " + describeWaitStatus(Status));
    }
    Running.erase(It);
  }
  return Result;
}
/// The three steps of one LTO link (see LtoLink.h), as \p Plan says, with
/// the files they share in one private directory.
class LtoLinkSteps {
public:
  LtoLinkSteps(StringRef Lld, const LtoLinkPlan &Plan, StringRef TempDir,
               ArrayRef<std::optional<StringRef>> Redirects, const Config &Cfg)
      : Lld(Lld), Plan(Plan), Temp(TempDir), Redirects(Redirects), Cfg(Cfg) {}

  Error run() {
    if (Error E = resolveSymbols())
      return E;
    if (Error E = generateCode())
      return E;
    return linkObjects();
  }

private:
  std::string path(const Twine &Name) const {
    return (Temp.Dir + "/" + Name).str();
  }

  /// Runs lld; its own diagnostics are printed as it runs.
  Error runLld(ArrayRef<std::string> LldArgs,
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
    if (Code < 0)
      return makeError("cannot run '" + Lld + "': " + Message);
    return Code ? alreadyReportedError() : Error::success();
  }

  /// Step 1: lld resolves symbols and writes what is left to compile.
  Error resolveSymbols() {
    // lld writes each module's index at its path under the index prefix.
    for (const LtoInput &Input : Plan.Inputs) {
      SmallString<256> Dir(Temp.IndexPrefix);
      sys::path::append(Dir, sys::path::parent_path(Input.Path));
      sys::fs::create_directories(Dir);
    }
    std::vector<std::string> Resolve = Plan.resolveArgs(Temp);
    // The regular module with its use-lists' order, which emit-llvm's copy
    // lacks (codegen/LtoModulePlugin.cpp).
    Expected<std::string> Plugin = ltoPluginPath();
    if (!Plugin)
      return Plugin.takeError();
    std::string OrderedModule = path("regular.ordered.bc");
    Resolve.push_back("--load-pass-plugin=" + *Plugin);
    std::vector<std::string> Env =
        environmentWith({}, {assignment(EnvLtoModuleOutput, OrderedModule)});
    if (Error E = runLld(Resolve, Env))
      return E;
    RegularModule = sys::fs::exists(OrderedModule) ? OrderedModule
                                                   : Temp.RegularModule;
    return Error::success();
  }

  /// Step 2: divcc's code generator, with lld's options.
  Error generateCode() {
    if (Error E = applyLtoCommandLine(Plan.CodeGen))
      return E;
    if (sys::fs::exists(RegularModule)) {
      Objects.push_back(path("lto.regular.o"));
      if (Error E = compileRegularLtoModule(RegularModule, Objects.back(),
                                            Plan.CodeGen, Cfg.plan()))
        return E;
    }
    auto List = MemoryBuffer::getFile(Temp.ThinList, /*IsText=*/true);
    if (!List)
      return makeError("lld wrote no ThinLTO module list");
    SmallVector<StringRef, 16> Lines;
    (*List)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
    std::vector<ThinBackend> Backends;
    for (StringRef Line : Lines) {
      if (!Line.starts_with(Temp.IndexPrefix))
        continue;
      std::string Index = (Line + ".thinlto.bc").str();
      uint64_t Size = 0;
      if (sys::fs::file_size(Index, Size) || Size == 0)
        continue; // an archive member lld did not load
      Objects.push_back(path("lto." + Twine(Objects.size()) + ".o"));
      Backends.push_back({Line.drop_front(Temp.IndexPrefix.size()).str(),
                          Index, Objects.back()});
    }
    // Each module's code is the same whatever the number of jobs (see
    // LtoBackend.cpp).
    unsigned Jobs = Plan.BackendJobs
                        ? Plan.BackendJobs
                        : std::max(1u, heavyweight_hardware_concurrency()
                                           .compute_thread_count());
    if (Error E = runThinBackends(Backends, Jobs, Plan.CodeGen, Cfg))
      return E;
    for (const std::string &Object : Objects)
      if (Error E = dropSectionGroups(Object))
        return makeError("cannot prepare '" + Object +
                         "' for the final link: " + toString(std::move(E)));
    return Error::success();
  }

  /// The symbols through which each input made lld load archive members.
  StringMap<StringSet<>> extractingSymbols() const {
    StringMap<StringSet<>> Extracting;
    auto Why = MemoryBuffer::getFile(Temp.WhyExtract, /*IsText=*/true);
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
  Error linkObjects() {
    Expected<GeneratedSymbols> Generated = generatedSymbols(Objects);
    if (!Generated)
      return makeError("cannot read the generated objects: " +
                       toString(Generated.takeError()));
    StringMap<StringSet<>> Extracting = extractingSymbols();
    // What takes each bitcode input's place: a stub or a native archive.
    std::vector<std::string> Replacement(Plan.Args.size());
    for (const LtoInput &Input : Plan.Inputs) {
      size_t I = Input.Argument;
      StringRef Arg = Plan.Args[I];
      if (Input.Kind != InputKind::ArchiveWithBitcode) {
        Replacement[I] = path("stub." + Twine(I) + ".o");
        if (Error E = writeSymbolOrderStub(
                Arg, *Generated, Extracting[Input.Path], Replacement[I]))
          return makeError("cannot stand in for '" + Arg +
                           "': " + toString(std::move(E)));
        continue;
      }
      Replacement[I] = path("native." + Twine(I) + ".a");
      bool Empty = false;
      if (Error E =
              writeNativeArchive(Arg, Replacement[I], Plan.FatLto, Empty))
        return makeError("cannot copy the native members of '" + Arg +
                         "': " + toString(std::move(E)));
      if (Empty)
        Replacement[I].clear();
    }
    return runLld(Plan.finalArgs(Replacement, Objects));
  }

  StringRef Lld;
  const LtoLinkPlan &Plan;
  LtoTempFiles Temp;
  ArrayRef<std::optional<StringRef>> Redirects;
  const Config &Cfg;

  std::string RegularModule;        // step 1's, with use-list order if kept
  std::vector<std::string> Objects; // step 2's, in lld's order
};

class LtoLinkCommand : public Command {
public:
  LtoLinkCommand(const Command &Link, const LinkFiles &Files,
                 const Config &Cfg)
      : Command(Link), Files(Files), Cfg(Cfg) {}

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

  /// The one place an LTO link's errors are printed.
  int Execute(ArrayRef<std::optional<StringRef>> Redirects,
              std::string *ErrMsg, bool *ExecutionFailed) const override {
    if (ExecutionFailed)
      *ExecutionFailed = false;
    TempDirectory Temp;
    if (std::error_code EC =
            sys::fs::createUniqueDirectory("divcc-lto", Temp.Path))
      return reportError(makeError("cannot create a temporary directory", EC));
    // Planned again now that the inputs exist: the objects of this very
    // command line's compiles are written by the jobs before this one.
    const opt::ArgStringList &Args = getArguments();
    Expected<LtoLinkPlan> Plan =
        planLtoLink(std::vector<std::string>(Args.begin(), Args.end()), Files);
    if (!Plan)
      return reportError(Plan.takeError());
    return runRecoverably([&] {
      return exitCodeFor(
          LtoLinkSteps(getExecutable(), *Plan, Temp.Path, Redirects, Cfg)
              .run());
    });
  }

private:
  const LinkFiles &Files;
  const Config &Cfg;
};

} // namespace

Error generateLtoCodeInDivcc(Compilation &C, const Config &Cfg) {
  auto &Slots = const_cast<JobList::list_type &>(C.getJobs().getJobs());
  static const RealLinkFiles Files;
  for (std::unique_ptr<Command> &Slot : Slots) {
    if (!isa<LinkJobAction>(Slot->getSource()) ||
        sys::path::filename(Slot->getExecutable()) != "ld.lld")
      continue;
    const opt::ArgStringList &Args = Slot->getArguments();
    Expected<LtoLinkPlan> Plan =
        planLtoLink(std::vector<std::string>(Args.begin(), Args.end()), Files);
    if (!Plan)
      return Plan.takeError();
    // Inputs compiled by the same command do not exist yet: clang's
    // -flto options say that this link generates code.
    if (Plan->GeneratesCode)
      Slot = std::make_unique<LtoLinkCommand>(*Slot, Files, Cfg);
  }
  return Error::success();
}

} // namespace divcc
