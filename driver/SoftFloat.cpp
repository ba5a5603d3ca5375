//===- SoftFloat.cpp - `softfp`: libgcc's soft-float routines, diversified ===//
//
// Invariants:
//  * A link changes by one archive only, right before its first -lgcc. A
//    linker takes an archive's member only for a symbol still undefined
//    where the archive stands, so it takes from it what it would have
//    taken from libgcc.a there, and libgcc.a supplies the rest as before.
//  * Each copy is compiled from the source of the libgcc it stands in for
//    (GCC 12's soft-fp, runtime/CMakeLists.txt), with its target's
//    sfp-machine.h: it computes what libgcc's does, exceptions and
//    rounding modes included, and only its layout is the variant's. Like
//    libgcc.a's, the copies are position-independent and hidden: a shared
//    library exports none of them.
//  * Only routines the link's inputs call are compiled, and those they
//    call in turn; an input that holds bitcode may call any, once its code
//    is generated, so then all are. A routine left out stays libgcc's:
//    never wrong, only not diversified.
//  * The archive is made by a job of its own, right before the link, when
//    the inputs that jobs before it write exist.
//
//===----------------------------------------------------------------------===//

#include "driver/SoftFloat.h"

#include "codegen/CodeGen.h"
#include "driver/Config.h"
#include "driver/DiversifyingCommand.h"
#include "driver/ForkPool.h"
#include "driver/InProcessCc1.h"
#include "driver/LinkJob.h"
#include "driver/Resources.h"
#include "support/Diagnostics.h"
#include "targets/DiversityTarget.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Driver/Action.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "clang/Driver/InputInfo.h"
#include "clang/Driver/Options.h"
#include "clang/Driver/Tool.h"
#include "clang/Driver/ToolChain.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/ArchiveWriter.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace clang::driver;

namespace divcc {
namespace {

constexpr StringLiteral ArchivePrefix = "divcc-softfp";
constexpr StringLiteral SourceTree = "libgcc-soft-fp";

/// What the inputs of a link call: the symbols they leave undefined, or
/// anything at all (an input holds bitcode).
struct Calls {
  bool Anything = false;
  StringSet<> Undefined;

  void addObject(MemoryBufferRef Buffer) {
    file_magic Magic = identify_magic(Buffer.getBuffer());
    if (Magic == file_magic::bitcode) {
      Anything = true;
      return;
    }
    if (Magic != file_magic::elf_relocatable)
      return;
    Expected<std::unique_ptr<object::ObjectFile>> Obj =
        object::ObjectFile::createObjectFile(Buffer);
    if (!Obj) {
      consumeError(Obj.takeError()); // the linker will say what is wrong
      return;
    }
    for (const object::SymbolRef &Sym : (*Obj)->symbols()) {
      Expected<uint32_t> Flags = Sym.getFlags();
      Expected<StringRef> Name = Sym.getName();
      if (Flags && Name && (*Flags & object::SymbolRef::SF_Undefined))
        Undefined.insert(*Name);
      if (!Flags)
        consumeError(Flags.takeError());
      if (!Name)
        consumeError(Name.takeError());
    }
  }

  /// An object, an archive of objects, or anything else the linker reads
  /// (scripts, shared libraries: they add no call to a static routine).
  void addFile(StringRef Path) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
        MemoryBuffer::getFile(Path, /*IsText=*/false,
                              /*RequiresNullTerminator=*/false);
    if (!Buffer)
      return;
    MemoryBufferRef Ref = (*Buffer)->getMemBufferRef();
    if (identify_magic(Ref.getBuffer()) != file_magic::archive) {
      addObject(Ref);
      return;
    }
    Expected<std::unique_ptr<object::Archive>> Archive =
        object::Archive::create(Ref);
    if (!Archive) {
      consumeError(Archive.takeError());
      return;
    }
    Error Err = Error::success();
    for (const object::Archive::Child &Member : (*Archive)->children(Err)) {
      Expected<MemoryBufferRef> MemberBuffer = Member.getMemoryBufferRef();
      if (MemberBuffer)
        addObject(*MemberBuffer);
      else
        consumeError(MemberBuffer.takeError());
    }
    consumeError(std::move(Err));
  }
};

/// The libraries of the C and C++ runtimes, whose archives are not read:
/// reading libc.a would cost every link. A routine that only they call
/// (a static libm's sinl) stays libgcc's: correct, not diversified.
bool isRuntimeLibrary(StringRef Name) {
  static const StringSet<> Names = {"c",      "m",       "gcc",    "gcc_s",
                                    "gcc_eh", "stdc++",  "supc++", "dl",
                                    "util",   "pthread", "rt",     "atomic",
                                    "resolv", "c++",     "c++abi", "unwind"};
  return Names.contains(Name);
}

/// What the inputs on link line \p Args call: every file named (objects,
/// archives) and every archive a -lNAME finds in a -L directory.
Calls callsOfLink(ArrayRef<const char *> Args) {
  Calls Found;
  std::vector<StringRef> SearchDirs;
  std::vector<StringRef> Libraries;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A == "-L" && I + 1 < Args.size())
      SearchDirs.push_back(Args[++I]);
    else if (A.consume_front("-L"))
      SearchDirs.push_back(A);
    else if (A.consume_front("-l") && !A.starts_with(":") &&
             !isRuntimeLibrary(A))
      Libraries.push_back(A);
    else if (!A.starts_with("-") && sys::fs::is_regular_file(A))
      Found.addFile(A);
  }
  for (StringRef Name : Libraries)
    for (StringRef Dir : SearchDirs) {
      std::string Path = (Dir + "/lib" + Name + ".a").str();
      if (sys::fs::is_regular_file(Path)) {
        Found.addFile(Path);
        break;
      }
    }
  return Found;
}

/// The routines of \p Routines that \p Link calls.
std::vector<const LibgccRoutine *>
routinesCalled(const Calls &Link, ArrayRef<LibgccRoutine> Routines) {
  std::vector<const LibgccRoutine *> Called;
  for (const LibgccRoutine &R : Routines)
    if (Link.Anything || Link.Undefined.contains(R.Symbol))
      Called.push_back(&R);
  return Called;
}

/// The options of the link's compiles that choose the code a routine may
/// contain (the architecture, its extensions, the floating-point ABI).
std::vector<std::string> targetOptions(const opt::ArgList &Args) {
  std::vector<std::string> Options;
  for (auto Id :
       {options::OPT_march_EQ, options::OPT_mabi_EQ, options::OPT_mcpu_EQ})
    if (const opt::Arg *A = Args.getLastArg(Id))
      Options.push_back(A->getAsString(Args));
  return Options;
}

/// Compiles \p Routine from \p Tree (GCC's source tree, soft-fp's part of
/// it) into \p Object for \p Target with divcc's code generator: libgcc's
/// flags for soft-fp, as clang spells them.
Error compileRoutine(const LibgccRoutine &Routine, StringRef Tree,
                     const LibgccSoftFloat &SoftFloat,
                     const llvm::Triple &Target,
                     ArrayRef<std::string> TargetOptions, StringRef Object,
                     const Config &Cfg) {
  StringRef CmpReturnMode = SoftFloat.CmpReturnMode;
  std::vector<std::string> Args = {clangExecutable().str(),
                                   "-fno-integrated-cc1",
                                   "--target=" + Target.str()};
  Args.insert(Args.end(), TargetOptions.begin(), TargetOptions.end());
  Args.insert(
      Args.end(),
      {"-O2", "-fPIC", "-fvisibility=hidden", "-fno-stack-protector",
       "-DIN_LIBGCC2", ("-D__libgcc_cmp_return__=" + CmpReturnMode).str(),
       // soft-fp's _FP_UNREACHABLE is abort() for compilers it
       // does not know as GCC 4.5 or later.
       "-Dabort=__builtin_abort", "-w", ("-I" + Tree + "/libgcc/soft-fp").str(),
       ("-I" + Tree + "/libgcc/config/" + SoftFloat.ConfigDir).str(),
       ("-I" + Tree + "/libgcc").str(), ("-I" + Tree + "/include").str(), "-c",
       (Tree + "/" + Routine.Source).str(), "-o", Object.str()});
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());

  IntrusiveRefCntPtr<clang::DiagnosticOptions> DiagOpts =
      new clang::DiagnosticOptions();
  auto *Printer = new clang::TextDiagnosticPrinter(errs(), &*DiagOpts);
  Printer->setPrefix("divcc");
  clang::DiagnosticsEngine Diags(new clang::DiagnosticIDs(), &*DiagOpts,
                                 Printer);
  Driver D(clangExecutable(), Target.str(), Diags, "divcc (based on clang 19)");
  std::unique_ptr<Compilation> C(D.BuildCompilation(Argv));
  if (!C || C->containsError())
    return makeError("cannot plan the compile of " + Routine.Source);
  for (const Command &Job : C->getJobs()) {
    if (!DiversifyingCommand::generatesCode(Job))
      return makeError("unexpected job in the compile of " + Routine.Source);
    std::string Message;
    if (int Code = DiversifyingCommand(Job, Cfg).Execute({}, &Message, nullptr))
      return makeError("cannot compile libgcc's " + Routine.Source + " (" +
                       Twine(Code) + (Message.empty() ? "" : ": " + Message) +
                       ")");
  }
  return Error::success();
}

/// What makes the archive, as clang's driver knows a tool: one that prints
/// its own errors, so that a failure is not also reported as the linker's.
class SoftFloatTool : public Tool {
public:
  explicit SoftFloatTool(const ToolChain &TC)
      : Tool("divcc-softfp", "divcc-softfp", TC) {}
  bool hasGoodDiagnostics() const override { return true; }
  bool hasIntegratedCPP() const override { return false; }
  void ConstructJob(Compilation &, const JobAction &, const InputInfo &,
                    const InputInfoList &, const opt::ArgList &,
                    const char *) const override {}
};

/// The job before a link that writes the archive of its diversified
/// routines. It shares the link's action: when it fails, clang's driver
/// does not run the link.
class SoftFloatArchiveCommand : public Command {
public:
  SoftFloatArchiveCommand(const Command &Link, const Tool &Creator,
                          std::string Archive, LibgccSoftFloat SoftFloat,
                          std::vector<std::string> TargetOptions, bool Verbose,
                          const Config &Cfg)
      : Command(Link.getSource(), Creator, ResponseFileSupport::None(),
                "divcc-softfp", {}, Link.getInputInfos()),
        Link(Link), Archive(std::move(Archive)),
        SoftFloat(std::move(SoftFloat)),
        TargetOptions(std::move(TargetOptions)), Verbose(Verbose), Cfg(Cfg) {}

  void Print(raw_ostream &OS, const char *Terminator, bool Quote,
             CrashReportInfo *CrashInfo) const override {
    OS << " \"divcc-softfp\" \"<libgcc's soft-float routines the link "
          "calls>\" \"-o\" \""
       << Archive << "\"" << Terminator;
  }

  int Execute(ArrayRef<std::optional<StringRef>> Redirects, std::string *ErrMsg,
              bool *ExecutionFailed) const override {
    if (ExecutionFailed)
      *ExecutionFailed = false;
    return runRecoverably([&] {
      if (Error E = writeArchive()) {
        printError(std::move(E));
        return 1;
      }
      return 0;
    });
  }

private:
  Error writeArchive() const {
    Expected<std::string> Tree = divccResource(SourceTree);
    if (!Tree)
      return Tree.takeError();
    const llvm::Triple &Target = getCreator().getToolChain().getTriple();
    std::vector<const LibgccRoutine *> Called =
        routinesCalled(callsOfLink(Link.getArguments()), SoftFloat.Routines);

    SmallString<128> Dir;
    if (std::error_code EC =
            sys::fs::createUniqueDirectory("divcc-softfp", Dir))
      return makeError("cannot create a temporary directory", EC);
    auto RemoveDir = make_scope_exit([&] { sys::fs::remove_directories(Dir); });

    std::vector<NewArchiveMember> Members;
    StringSet<> Compiled;
    while (!Called.empty()) {
      ForkPool Pool(hardware_concurrency().compute_thread_count());
      std::vector<std::string> Objects;
      for (const LibgccRoutine *R : Called) {
        Objects.push_back((Dir + "/" + R->Symbol + ".o").str());
        Compiled.insert(R->Symbol);
        Pool.start("the compile of libgcc's " + R->Source,
                   [&, R, Obj = Objects.back()] {
                     return compileRoutine(*R, *Tree, SoftFloat, Target,
                                           TargetOptions, Obj, Cfg);
                   });
      }
      if (Error E = Pool.wait())
        return E;
      // What the copies call in turn.
      Calls Next;
      for (const std::string &Obj : Objects) {
        Next.addFile(Obj);
        Expected<NewArchiveMember> Member =
            NewArchiveMember::getFile(Obj, /*Deterministic=*/true);
        if (!Member)
          return Member.takeError();
        Members.push_back(std::move(*Member));
      }
      Called.clear();
      for (const LibgccRoutine *R : routinesCalled(Next, SoftFloat.Routines))
        if (!Compiled.contains(R->Symbol))
          Called.push_back(R);
    }
    if (Verbose) {
      std::string Names;
      ListSeparator Comma(", ");
      for (const NewArchiveMember &M : Members)
        (Names += Comma) += sys::path::stem(M.MemberName);
      noteStream() << "softfp: diversified copies of "
                   << (Names.empty() ? "none of libgcc's soft-float routines "
                                       "(the link calls none)"
                                     : Names)
                   << "\n";
    }
    return llvm::writeArchive(Archive, Members, SymtabWritingMode::NormalSymtab,
                              object::Archive::K_GNU, /*Deterministic=*/true,
                              /*Thin=*/false);
  }

  const Command &Link;
  std::string Archive;
  LibgccSoftFloat SoftFloat;
  std::vector<std::string> TargetOptions;
  bool Verbose;
  const Config &Cfg;
};

} // namespace

Error linkDiversifiedSoftFloat(Compilation &C, const Config &Cfg) {
  if (!Cfg.Diversity.Transformations.has(Transformation::Softfp))
    return Error::success();
  std::unique_ptr<DiversityTarget> Target =
      createDiversityTarget(C.getDefaultToolChain().getTriple());
  if (!Target)
    return Error::success();
  LibgccSoftFloat SoftFloat = Target->libgccSoftFloat();
  if (SoftFloat.Routines.empty())
    return Error::success();

  // One compilation per process: the tool lives as long as its jobs.
  static std::unique_ptr<Tool> Creator;
  Creator = std::make_unique<SoftFloatTool>(C.getDefaultToolChain());
  const opt::ArgList &Args = C.getArgs();
  bool OnlyPrinted = Args.hasArg(options::OPT__HASH_HASH_HASH);
  auto &Slots = const_cast<JobList::list_type &>(C.getJobs().getJobs());
  for (size_t I = 0; I < Slots.size(); ++I) {
    Command &Link = *Slots[I];
    if (!isa<LinkJobAction>(Link.getSource()))
      continue;
    opt::ArgStringList LinkArgs = Link.getArguments();
    auto Libgcc = llvm::find_if(
        LinkArgs, [](const char *A) { return StringRef(A) == "-lgcc"; });
    if (Libgcc == LinkArgs.end())
      continue; // -nostdlib, --rtlib=compiler-rt: no libgcc to stand in for
    std::string Archive = C.getDriver().GetTemporaryPath(ArchivePrefix, "a");
    if (OnlyPrinted)
      sys::fs::remove(Archive);
    else
      C.addTempFile(Args.MakeArgString(Archive));
    LinkArgs.insert(Libgcc, Args.MakeArgString(Archive));
    Link.replaceArguments(std::move(LinkArgs));
    Slots.insert(Slots.begin() + I,
                 std::make_unique<SoftFloatArchiveCommand>(
                     Link, *Creator, Archive, SoftFloat, targetOptions(Args),
                     Args.hasArg(options::OPT_v), Cfg));
    ++I; // past the link
  }
  return Error::success();
}

bool isSoftFloatArchive(StringRef Arg) {
  return isDivccTemporary(Arg, ArchivePrefix, ".a");
}

} // namespace divcc
