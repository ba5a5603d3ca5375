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
#include "driver/ForkPool.h"
#include "driver/InProcessCc1.h"
#include "driver/LinkJob.h"
#include "driver/LtoLinkPlan.h"
#include "driver/Resources.h"
#include "support/AtomicOutput.h"
#include "support/Diagnostics.h"
#include "support/ElfRewrite.h"
#include "support/Environment.h"
#include "support/LinkerPluginProtocol.h"
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

#include <cerrno>
#include <fcntl.h>
#include <sys/socket.h>
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
                           std::optional<uint32_t> ElfFlags,
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
  return assembleCodeFreeObject(Asm, Triple((*Input)->getTargetTriple()), Out,
                                ElfFlags);
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

/// divcc's plugins (driver/Resources.h). Without the pass plugin lld
/// loads, lld's module would lose its use-list order, and the code
/// clang-19's LTO link generates; without the linker plugin, GNU ld could
/// not link at all: an absence is an error, never a quiet fallback.
constexpr StringLiteral LldPassPlugin = "divcc-lto-plugin.so";
constexpr StringLiteral GnuLinkerPlugin = "divcc-ld-plugin.so";

/// Back ends to run at once: \p Requested, or one per core.
unsigned backendJobs(unsigned Requested) {
  return Requested ? Requested
                   : std::max(1u, heavyweight_hardware_concurrency()
                                      .compute_thread_count());
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
    Expected<std::string> Plugin = divccResource(LldPassPlugin);
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
      if (Error E = compileOptimizedLtoModule(RegularModule, Objects.back(),
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
    ForkPool Pool(Backends.size() > 1 ? backendJobs(Plan.BackendJobs) : 1);
    for (const ThinBackend &B : Backends)
      Pool.start("the ThinLTO back end of '" + B.ModuleId + "'", [&] {
        return compileThinLtoModule(B.ModuleId, B.IndexPath, B.OutputPath,
                                    Plan.CodeGen, Cfg.plan());
      });
    if (Error E = Pool.wait())
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
    // A stub declares the generated code's e_flags: lld refuses RISC-V
    // objects of another floating-point ABI.
    std::optional<uint32_t> ElfFlags =
        Objects.empty() ? std::nullopt : objectElfFlags(Objects.front());
    std::vector<std::string> Replacement(Plan.Args.size());
    for (const LtoInput &Input : Plan.Inputs) {
      size_t I = Input.Argument;
      StringRef Arg = Plan.Args[I];
      if (Input.Kind != InputKind::ArchiveWithBitcode) {
        Replacement[I] = path("stub." + Twine(I) + ".o");
        if (Error E =
                writeSymbolOrderStub(Arg, *Generated, Extracting[Input.Path],
                                     ElfFlags, Replacement[I]))
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

/// The channel of a GNU ld link to divcc's linker plugin: lines read from
/// the socket, replies written to it.
class PluginChannel {
public:
  explicit PluginChannel(int Socket) : Socket(Socket) {}

  /// The next line; false once the plugin's end is closed.
  bool next(std::string &Line) {
    for (;;) {
      size_t End = Buffer.find('\n');
      if (End != std::string::npos) {
        Line = Buffer.substr(0, End);
        Buffer.erase(0, End + 1);
        return true;
      }
      char Bytes[4096];
      ssize_t N = ::read(Socket, Bytes, sizeof(Bytes));
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0)
        return false;
      Buffer.append(Bytes, N);
    }
  }

  void reply(StringRef Word) {
    std::string Line = (Word + "\n").str();
    // A linker that is gone reads nothing: its exit status says why.
    (void)!::send(Socket, Line.data(), Line.size(), MSG_NOSIGNAL);
  }

private:
  int Socket;
  std::string Buffer;
};

/// One LTO link through GNU ld or gold: the linker runs once with divcc's
/// linker plugin, which hands divcc every module to compile
/// (support/LinkerPluginProtocol.h).
class GnuLtoLink {
public:
  GnuLtoLink(StringRef Linker, ArrayRef<std::string> Args, StringRef Plugin,
             StringRef TempDir, ArrayRef<std::optional<StringRef>> Redirects,
             const Config &Cfg)
      : Linker(Linker), Args(Args), Plugin(Plugin), Dir(TempDir),
        Redirects(Redirects), Cfg(Cfg) {}

  Error run() {
    int Sockets[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Sockets))
      return makeError("cannot create the linker plugin's socket",
                       std::error_code(errno, std::generic_category()));
    // The linker inherits its end; divcc's own is closed on exec.
    ::fcntl(Sockets[1], F_SETFD, 0);
    std::vector<std::string> LinkArgs =
        withDivccLinkerPlugin(Args, Plugin, Sockets[1], Dir);
    SmallVector<StringRef, 128> Argv = {Linker};
    Argv.append(LinkArgs.begin(), LinkArgs.end());
    std::string Message;
    bool Failed = false;
    sys::ProcessInfo Process = sys::ExecuteNoWait(
        Linker, Argv, std::nullopt, Redirects, 0, &Message, &Failed);
    ::close(Sockets[1]);
    if (Failed) {
      ::close(Sockets[0]);
      return makeError("cannot run '" + Linker + "': " + Message);
    }
    Error Served = serve(Sockets[0]);
    // Closed before waiting: a plugin still waiting for its reply reads the
    // end of the channel, and the linker stops.
    ::close(Sockets[0]);
    sys::ProcessInfo Done = sys::Wait(Process, std::nullopt, &Message);
    if (Served)
      return Served;
    if (Done.ReturnCode < 0)
      return makeError("'" + Linker + "' ended: " + Message);
    return Done.ReturnCode ? alreadyReportedError() : Error::success();
  }

private:
  /// Compiles each module the plugin hands over, up to the linker's
  /// ThinLTO job count at once, and answers once all are written.
  Error serve(int Socket) {
    using namespace linker_plugin;
    PluginChannel Channel(Socket);
    LtoCodeGenOptions Options;
    Options.Linker = LtoLinker::Gnu;
    unsigned Jobs = 1;
    std::optional<ForkPool> Pool;
    std::string Line;
    while (Channel.next(Line)) {
      auto [Word, Rest] = StringRef(Line).split(' ');
      if (Word == LinkMessage) {
        SmallVector<StringRef, 3> Fields;
        Rest.split(Fields, ' ');
        if (Fields.size() != 3 || Fields[1].getAsInteger(10, Options.OptLevel) ||
            Fields[2].getAsInteger(10, Jobs))
          return unexpected(Line);
        StringRef Kind = Fields[0];
        Options.Relocatable = Kind == RelocatableOutput;
        Options.Pic = Kind == SharedOutput || Kind == PieOutput;
        if (!Options.Relocatable && !Options.Pic && Kind != ExecutableOutput)
          return unexpected(Line);
      } else if (Word == LlvmOptionMessage) {
        Options.LlvmArgs.push_back(Rest.str());
      } else if (Word == ModuleMessage) {
        unsigned Task;
        if (Rest.getAsInteger(10, Task))
          return unexpected(Line);
        if (!Pool) { // every option is in: forked back ends inherit them
          if (Error E = applyLtoCommandLine(Options))
            return E;
          Pool.emplace(backendJobs(Jobs));
        }
        Pool->start("the code generation of LTO task " + std::to_string(Task),
                    [&] {
                      return compileOptimizedLtoModule(
                          modulePath(Dir, Task), objectPath(Dir, Task),
                          Options, Cfg.plan());
                    });
      } else if (Word == EndMessage) {
        Error E = Pool ? Pool->wait() : Error::success();
        Channel.reply(E ? FailedReply : DoneReply);
        return E;
      } else {
        return unexpected(Line);
      }
    }
    // The linker ended before it asked for code: it failed, and said why.
    return Pool ? Pool->wait() : Error::success();
  }

  static Error unexpected(StringRef Line) {
    return makeError("unexpected message from divcc's linker plugin: '" +
                     Line + "'");
  }

  StringRef Linker;
  ArrayRef<std::string> Args;
  StringRef Plugin;
  std::string Dir;
  ArrayRef<std::optional<StringRef>> Redirects;
  const Config &Cfg;
};

/// A link job whose code divcc generates. Its errors are printed in one
/// place, here; its temporary files live in one private directory, removed
/// whatever happens.
class CodeGeneratingLinkCommand : public Command {
public:
  CodeGeneratingLinkCommand(const Command &Link, const Config &Cfg)
      : Command(Link), Cfg(Cfg) {}

  int Execute(ArrayRef<std::optional<StringRef>> Redirects,
              std::string *ErrMsg, bool *ExecutionFailed) const override {
    if (ExecutionFailed)
      *ExecutionFailed = false;
    TempDirectory Temp;
    if (std::error_code EC =
            sys::fs::createUniqueDirectory("divcc-lto", Temp.Path))
      return reportError(makeError("cannot create a temporary directory", EC));
    const opt::ArgStringList &Args = getArguments();
    std::vector<std::string> LinkArgs(Args.begin(), Args.end());
    return runRecoverably(
        [&] { return exitCodeFor(link(LinkArgs, Temp.Path, Redirects)); });
  }

protected:
  virtual Error link(ArrayRef<std::string> Args, StringRef TempDir,
                     ArrayRef<std::optional<StringRef>> Redirects) const = 0;

  const Config &Cfg;
};

/// An LTO link through lld, in three steps.
class LtoLinkCommand : public CodeGeneratingLinkCommand {
public:
  LtoLinkCommand(const Command &Link, const LinkFiles &Files,
                 const Config &Cfg)
      : CodeGeneratingLinkCommand(Link, Cfg), Files(Files) {}

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

private:
  Error link(ArrayRef<std::string> Args, StringRef TempDir,
             ArrayRef<std::optional<StringRef>> Redirects) const override {
    // Planned again now that the inputs exist: the objects of this very
    // command line's compiles are written by the jobs before this one.
    Expected<LtoLinkPlan> Plan = planLtoLink(Args, Files);
    if (!Plan)
      return Plan.takeError();
    return LtoLinkSteps(getExecutable(), *Plan, TempDir, Redirects, Cfg)
        .run();
  }

  const LinkFiles &Files;
};

/// An LTO link through GNU ld or gold, run once with divcc's linker plugin,
/// which the job's arguments (and -v) already name.
class GnuLtoLinkCommand : public CodeGeneratingLinkCommand {
public:
  GnuLtoLinkCommand(const Command &Link, std::string Plugin, const Config &Cfg)
      : CodeGeneratingLinkCommand(Link, Cfg), Plugin(std::move(Plugin)) {}

private:
  Error link(ArrayRef<std::string> Args, StringRef TempDir,
             ArrayRef<std::optional<StringRef>> Redirects) const override {
    return GnuLtoLink(getExecutable(), Args, Plugin, TempDir, Redirects, Cfg)
        .run();
  }

  std::string Plugin;
};

} // namespace

Error generateLtoCodeInDivcc(Compilation &C, const Config &Cfg) {
  auto &Slots = const_cast<JobList::list_type &>(C.getJobs().getJobs());
  static const RealLinkFiles Files;
  for (std::unique_ptr<Command> &Slot : Slots) {
    if (!isa<LinkJobAction>(Slot->getSource()))
      continue;
    const opt::ArgStringList &Args = Slot->getArguments();
    std::vector<std::string> LinkArgs(Args.begin(), Args.end());
    StringRef Linker = Slot->getExecutable();
    if (sys::path::filename(Linker) == "ld.lld") {
      Expected<LtoLinkPlan> Plan = planLtoLink(LinkArgs, Files);
      if (!Plan)
        return Plan.takeError();
      // Inputs compiled by the same command do not exist yet: clang's
      // -flto options say that this link generates code.
      if (Plan->GeneratesCode)
        Slot = std::make_unique<LtoLinkCommand>(*Slot, Files, Cfg);
      continue;
    }
    if (!loadsLlvmGoldPlugin(LinkArgs))
      continue;
    if (!isGnuLinker(Linker)) {
      if (!Cfg.diversifying())
        continue; // clang's own link
      return makeError("cannot generate the code of an LTO link through '" +
                       sys::path::filename(Linker) +
                       "': divcc generates it with lld, GNU ld (bfd) or gold "
                       "(-fuse-ld=lld, bfd or gold)");
    }
    Expected<std::string> Plugin = divccResource(GnuLinkerPlugin);
    if (!Plugin)
      return Plugin.takeError();
    opt::ArgStringList WithPlugin;
    for (const std::string &A : withDivccLinkerPlugin(LinkArgs, *Plugin))
      WithPlugin.push_back(C.getArgs().MakeArgString(A));
    Slot->replaceArguments(std::move(WithPlugin));
    Slot = std::make_unique<GnuLtoLinkCommand>(*Slot, *Plugin, Cfg);
  }
  return Error::success();
}

} // namespace divcc
