//===- VariantBuild.cpp - Building the variants of a population -----------===//

#include "divtool/population/VariantBuild.h"

#include "registry/Fingerprints.h"
#include "support/AtomicOutput.h"
#include "support/ElfRewrite.h"
#include "support/Sha256.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ObjCopy/CommonConfig.h"
#include "llvm/Object/BuildID.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>
#include <openssl/crypto.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace llvm;

namespace divcc {

void addRegistryOptions(CLI::App &Command, std::string &Registry,
                        std::string &SeedFile) {
  Command.add_option("--registry,-r", Registry, "The population's registry")
      ->required();
  Command
      .add_option("--seed-file,-k", SeedFile,
                  "The population's master secret (checked against the "
                  "registry)")
      ->required();
}

static Error failure(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

static Error failure(const Twine &What, std::error_code EC) {
  return createStringError(EC, What + ": " + EC.message());
}

Expected<MasterKey> readSeedFile(StringRef Path) {
  Expected<sys::fs::file_t> File = sys::fs::openNativeFileForRead(Path);
  if (!File)
    return failure("cannot read seed file '" + Path + "'",
                   errorToErrorCode(File.takeError()));
  SmallVector<char, 0> Bytes;
  sys::fs::file_status Status;
  // Reserve first, so that no partial copy of the secret is left behind in
  // memory freed by growing the buffer.
  if (!sys::fs::status(*File, Status))
    Bytes.reserve(Status.getSize() + 1);
  Error E = sys::fs::readNativeFileToEOF(*File, Bytes);
  sys::fs::closeFile(*File);
  auto Wipe =
      make_scope_exit([&] { OPENSSL_cleanse(Bytes.data(), Bytes.capacity()); });
  if (E)
    return failure("cannot read seed file '" + Path + "'",
                   errorToErrorCode(std::move(E)));
  if (Bytes.empty())
    return failure("seed file '" + Path + "' is empty");
  return MasterKey::fromSecret(
      arrayRefFromStringRef(StringRef(Bytes.data(), Bytes.size())));
}

Expected<OpenPopulation> openPopulation(StringRef RegistryPath,
                                        StringRef SeedFile) {
  Expected<MasterKey> Key = readSeedFile(SeedFile);
  if (!Key)
    return Key.takeError();
  Expected<Registry> Reg =
      Registry::open(RegistryPath, populationKeyId(*Key), /*Write=*/false);
  if (!Reg)
    return Reg.takeError();
  return OpenPopulation{std::move(*Key), std::move(*Reg)};
}

Expected<PrivateDir> PrivateDir::create(StringRef Prefix) {
  SmallString<256> Template;
  sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Template);
  sys::path::append(Template, Prefix + "-XXXXXX");
  // mkdtemp creates the directory with mode 0700.
  if (!::mkdtemp(const_cast<char *>(Template.c_str())))
    return failure("cannot create a temporary directory in '" +
                       sys::path::parent_path(Template) + "'",
                   std::error_code(errno, std::generic_category()));
  PrivateDir Dir;
  Dir.Path = std::string(Template);
  return Dir;
}

PrivateDir::PrivateDir(PrivateDir &&Other)
    : Path(std::move(Other.Path)), Secrets(std::move(Other.Secrets)),
      Kept(Other.Kept) {
  Other.Path.clear();
  Other.Secrets.clear();
}

PrivateDir::~PrivateDir() {
  for (const std::string &File : std::vector<std::string>(Secrets))
    removeSecret(File);
  if (!Path.empty() && !Kept)
    sys::fs::remove_directories(Path, /*IgnoreErrors=*/true);
}

Expected<std::string> PrivateDir::writeSecret(StringRef Name,
                                              ArrayRef<uint8_t> Bytes) {
  SmallString<256> File(Path);
  sys::path::append(File, Name);
  int Fd = ::open(File.c_str(),
                  O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (Fd < 0)
    return failure("cannot create a seed file in '" + Path + "'",
                   std::error_code(errno, std::generic_category()));
  Secrets.push_back(std::string(File));
  sys::RemoveFileOnSignal(File);
  size_t Done = 0;
  while (Done < Bytes.size()) {
    ssize_t N = ::write(Fd, Bytes.data() + Done, Bytes.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      std::error_code EC(errno, std::generic_category());
      ::close(Fd);
      removeSecret(File);
      return failure("cannot write a seed file in '" + Path + "'", EC);
    }
    Done += N;
  }
  ::close(Fd);
  return std::string(File);
}

void PrivateDir::removeSecret(StringRef File) {
  sys::fs::remove(File);
  sys::DontRemoveFileOnSignal(File);
  llvm::erase(Secrets, File.str());
}

Expected<std::string> writeVariantSeed(PrivateDir &Dir, const MasterKey &Key,
                                       StringRef Id) {
  Key256 Seed = variantSeed(Key, Id);
  Expected<std::string> File = Dir.writeSecret(Id, Seed);
  OPENSSL_cleanse(Seed.data(), Seed.size());
  return File;
}

/// The ELF type (ET_EXEC, ET_DYN...) of a little-endian ELF file, or 0.
static unsigned elfType(StringRef Path) {
  int Fd = ::open(Path.str().c_str(), O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return 0;
  uint8_t Header[18] = {};
  ssize_t N = ::pread(Fd, Header, sizeof(Header), 0);
  ::close(Fd);
  if (N != sizeof(Header) ||
      memcmp(Header,
             "\x7f"
             "ELF",
             4) != 0 ||
      Header[5] != 1 /* ELFDATA2LSB */)
    return 0;
  return support::endian::read16le(Header + 16);
}

static bool looksBuilt(StringRef Name, const struct stat &St, StringRef Path) {
  if (Name.ends_with(".o") || Name.ends_with(".a") || Name.ends_with(".so") ||
      Name.contains(".so."))
    return true;
  return (St.st_mode & S_IXUSR) && elfType(Path) != 0;
}

static StringRef relativeTo(StringRef Root, StringRef Path) {
  return Path.drop_front(Root.size()).ltrim('/');
}

Expected<CopyStats> copyTree(StringRef From, StringRef To,
                             ArrayRef<std::string> Exclude) {
  CopyStats Stats;
  if (std::error_code EC = sys::fs::create_directories(To))
    return failure("cannot create '" + To + "'", EC);
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(From, EC,
                                                /*follow_symlinks=*/false),
       End;
       It != End && !EC; It.increment(EC)) {
    std::string Source = It->path();
    if (is_contained(Exclude, Source)) {
      It.no_push();
      continue;
    }
    StringRef Relative = relativeTo(From, Source);
    SmallString<256> Target(To);
    sys::path::append(Target, Relative);
    struct stat St;
    if (::lstat(Source.c_str(), &St) != 0)
      return failure("cannot copy '" + Source + "'",
                     std::error_code(errno, std::generic_category()));
    if (S_ISDIR(St.st_mode)) {
      // Owner access is kept, so that the copy can be filled and removed.
      if (::mkdir(Target.c_str(), (St.st_mode & 07777) | 0700) != 0 &&
          errno != EEXIST)
        return failure("cannot create '" + Target + "'",
                       std::error_code(errno, std::generic_category()));
    } else if (S_ISLNK(St.st_mode)) {
      SmallString<256> Link;
      Link.resize(St.st_size + 1);
      ssize_t N = ::readlink(Source.c_str(), Link.data(), Link.size());
      if (N < 0 ||
          ::symlink(std::string(Link.data(), N).c_str(), Target.c_str()) != 0)
        return failure("cannot copy the link '" + Source + "'",
                       std::error_code(errno, std::generic_category()));
    } else if (S_ISREG(St.st_mode)) {
      if (std::error_code CopyEC = sys::fs::copy_file(Source, Target))
        return failure("cannot copy '" + Source + "'", CopyEC);
      // The modification times make `make` decide as it would in the
      // source tree.
      struct timespec Times[2] = {St.st_atim, St.st_mtim};
      if (::chmod(Target.c_str(), St.st_mode & 07777) != 0 ||
          ::utimensat(AT_FDCWD, Target.c_str(), Times, 0) != 0)
        return failure("cannot copy '" + Source + "'",
                       std::error_code(errno, std::generic_category()));
      ++Stats.Files;
      if (looksBuilt(sys::path::filename(Source), St, Source))
        Stats.BuiltFiles.push_back(Relative.str());
    }
  }
  if (EC)
    return failure("cannot copy the source tree '" + From + "'", EC);
  return Stats;
}

static int64_t modificationNanos(const struct stat &St) {
  return int64_t(St.st_mtim.tv_sec) * 1000000000 + St.st_mtim.tv_nsec;
}

TreeSnapshot snapshotTree(StringRef Root) {
  TreeSnapshot Snapshot;
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Root, EC, false), End;
       It != End && !EC; It.increment(EC)) {
    struct stat St;
    if (::lstat(It->path().c_str(), &St) == 0 && S_ISREG(St.st_mode))
      Snapshot[relativeTo(Root, It->path())] = {uint64_t(St.st_size),
                                                modificationNanos(St)};
  }
  return Snapshot;
}

static bool changedSince(const TreeSnapshot &Before, StringRef Relative,
                         const struct stat &St) {
  auto It = Before.find(Relative);
  return It == Before.end() ||
         It->second !=
             std::make_pair(uint64_t(St.st_size), modificationNanos(St));
}

Expected<std::vector<std::string>> findArtifacts(StringRef Tree,
                                                 const TreeSnapshot &Before,
                                                 ArrayRef<std::string> Named) {
  std::vector<std::string> Found;
  if (!Named.empty()) {
    for (const std::string &Relative : Named) {
      SmallString<256> Path(Tree);
      sys::path::append(Path, Relative);
      struct stat St;
      if (::lstat(Path.c_str(), &St) != 0)
        return failure("artifact '" + Relative +
                       "' was not built (it is "
                       "not in the variant's tree)");
      if (!S_ISREG(St.st_mode))
        return failure("artifact '" + Relative + "' is not a regular file");
      if (!changedSince(Before, Relative, St))
        return failure("artifact '" + Relative +
                       "' was not rebuilt: it is "
                       "the source tree's copy; clean the source tree (e.g. "
                       "make clean) so that the build compiles it with "
                       "divcc");
      Found.push_back(Relative);
    }
    return Found;
  }
  std::error_code EC;
  for (sys::fs::recursive_directory_iterator It(Tree, EC, false), End;
       It != End && !EC; It.increment(EC)) {
    struct stat St;
    if (::lstat(It->path().c_str(), &St) != 0 || !S_ISREG(St.st_mode))
      continue;
    StringRef Relative = relativeTo(Tree, It->path());
    unsigned Type = elfType(It->path());
    if ((Type == ELF::ET_EXEC || Type == ELF::ET_DYN) &&
        changedSince(Before, Relative, St))
      Found.push_back(Relative.str());
  }
  if (EC)
    return failure("cannot read the variant's tree '" + Tree + "'", EC);
  if (Found.empty())
    return failure("the build created no ELF executable or shared object in "
                   "the tree (was the source tree already built? clean it, "
                   "or name the outputs with --artifact)");
  llvm::sort(Found);
  return Found;
}

Expected<std::string> fileSha256(StringRef Path) {
  auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return failure("cannot read '" + Path + "'", Buffer.getError());
  return toHex(Sha256::digest((*Buffer)->getBuffer()));
}

std::string codeSha256(const ElfImage &Image) {
  Sha256 H;
  for (const CodeSegment &S : Image.code()) {
    uint8_t Header[16];
    support::endian::write64le(Header, S.Address);
    support::endian::write64le(Header + 8, S.Bytes.size());
    H.update(ArrayRef<uint8_t>(Header));
    H.update(S.Bytes);
  }
  return toHex(H.final());
}

std::vector<uint64_t> codeFingerprints(const ElfImage &Image) {
  std::vector<uint64_t> Hashes;
  for (const CodeSegment &S : Image.code())
    addFingerprints(S.Bytes, Hashes);
  sortUnique(Hashes);
  return Hashes;
}

/// Writes what llvm-objcopy with \p Configure's settings makes of the ELF
/// file \p From to \p To (atomically, with \p From's mode); returns the
/// SHA-256 of what was written.
static Expected<std::string>
writeObjcopy(StringRef From, StringRef To, StringRef What,
             function_ref<void(objcopy::CommonConfig &)> Configure) {
  Expected<SmallVector<char, 0>> Output = rewriteElf(From, Configure);
  if (!Output)
    return failure("cannot " + What + " '" + From +
                   "': " + toString(Output.takeError()));
  StringRef Bytes(Output->data(), Output->size());
  if (std::error_code EC =
          sys::fs::create_directories(sys::path::parent_path(To)))
    return failure("cannot create '" + sys::path::parent_path(To) + "'", EC);
  if (Error E = writeFileAtomically(To, Bytes))
    return failure("cannot write '" + To + "': " + toString(std::move(E)));
  struct stat St;
  if (::stat(From.str().c_str(), &St) == 0)
    ::chmod(To.str().c_str(), St.st_mode & 07777);
  return toHex(Sha256::digest(Bytes));
}

/// Writes a copy of the ELF file \p From without symbols and debug
/// information (llvm-strip's default) to \p To; returns its SHA-256.
static Expected<std::string> writeStrippedCopy(StringRef From, StringRef To) {
  return writeObjcopy(From, To, "strip", [](objcopy::CommonConfig &Common) {
    Common.StripAll = true;
  });
}

Expected<ArtifactRecord> examineArtifact(StringRef Tree, StringRef Relative,
                                         StringRef StripTo) {
  SmallString<256> Path(Tree);
  sys::path::append(Path, Relative);
  ArtifactRecord A;
  A.Path = Relative.str();
  auto Buffer = MemoryBuffer::getFile(Path, false, false);
  if (!Buffer)
    return failure("cannot read artifact '" + Path + "'", Buffer.getError());
  A.Size = (*Buffer)->getBufferSize();
  A.Sha256 = toHex(Sha256::digest((*Buffer)->getBuffer()));
  Expected<ElfImage> Image = ElfImage::open(Path);
  if (!Image) {
    // Not a binary divtool reads (an archive, a data file): recorded by
    // its hash alone.
    consumeError(Image.takeError());
    return A;
  }
  A.CodeSha256 = codeSha256(*Image);
  A.Fingerprints = codeFingerprints(*Image);
  if (!StripTo.empty()) {
    Expected<std::string> Stripped = writeStrippedCopy(Path, StripTo);
    if (!Stripped)
      return Stripped.takeError();
    A.StrippedSha256 = *Stripped;
  }
  return A;
}

bool hasLineTables(StringRef Path) {
  Expected<object::OwningBinary<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(Path);
  if (!Obj) {
    consumeError(Obj.takeError());
    return false;
  }
  for (const object::SectionRef &S : Obj->getBinary()->sections()) {
    Expected<StringRef> Name = S.getName();
    if (Name && *Name == ".debug_line" && S.getSize() > 0)
      return true;
    if (!Name)
      consumeError(Name.takeError());
  }
  return false;
}

std::string buildIdOf(StringRef Path) {
  Expected<object::OwningBinary<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(Path);
  if (!Obj) {
    consumeError(Obj.takeError());
    return "";
  }
  return toHex(object::getBuildID(Obj->getBinary()), /*LowerCase=*/true);
}

std::string keptDebugFile(StringRef Root, StringRef BuildId) {
  SmallString<256> File(Root);
  sys::path::append(File, ".build-id", BuildId.take_front(2),
                    BuildId.drop_front(2) + ".debug");
  return std::string(File);
}

Expected<std::string> keepDebugInfo(StringRef Path, StringRef Root) {
  std::string BuildId = buildIdOf(Path);
  // A build id of one byte would name no file in the layout.
  if (BuildId.size() < 4 || !hasLineTables(Path))
    return "";
  std::string File = keptDebugFile(Root, BuildId);
  Expected<std::string> Written = writeObjcopy(
      Path, File, "keep the debug information of",
      [](objcopy::CommonConfig &Common) { Common.OnlyKeepDebug = true; });
  if (!Written)
    return Written.takeError();
  // Debug files are data, whatever the binary's mode.
  ::chmod(File.c_str(), 0644);
  return File;
}

static bool isDivccName(StringRef Path) {
  StringRef Base = sys::path::filename(Path);
  return Base == "divcc" || Base == "div++";
}

/// NAME=VALUE with NAME a variable name: the value, else none.
static std::optional<StringRef> assignmentValue(StringRef Arg) {
  auto [Name, Value] = Arg.split('=');
  if (Name.size() == Arg.size() || Name.empty() ||
      !all_of(Name, [](char C) { return isAlnum(C) || C == '_'; }))
    return std::nullopt;
  return Value;
}

/// The divcc beside \p DivccOrDivxx.
static std::string siblingDivcc(StringRef Path) {
  SmallString<256> Divcc(sys::path::parent_path(Path));
  sys::path::append(Divcc, "divcc");
  return std::string(Divcc);
}

static std::string resolveDivcc(StringRef Named) {
  if (Named.contains('/')) {
    SmallString<256> Absolute(Named);
    sys::fs::make_absolute(Absolute);
    if (sys::fs::can_execute(Absolute))
      return siblingDivcc(Absolute);
  }
  if (ErrorOr<std::string> Found =
          sys::findProgramByName(sys::path::filename(Named)))
    return siblingDivcc(*Found);
  return "";
}

std::string findDivcc(ArrayRef<std::string> Command) {
  for (const std::string &Arg : Command) {
    StringRef Value = assignmentValue(Arg).value_or(Arg);
    if (isDivccName(Value))
      if (std::string Found = resolveDivcc(Value); !Found.empty())
        return Found;
  }
  for (const char *Variable : {"CC", "CXX"})
    if (const char *Value = ::getenv(Variable); Value && isDivccName(Value))
      if (std::string Found = resolveDivcc(Value); !Found.empty())
        return Found;
  if (ErrorOr<std::string> Found = sys::findProgramByName("divcc"))
    return *Found;
  std::string Self =
      sys::fs::getMainExecutable(nullptr, reinterpret_cast<void *>(&findDivcc));
  std::string Beside = siblingDivcc(Self);
  return sys::fs::can_execute(Beside) ? Beside : "";
}

std::string compilerIdentity(StringRef Divcc) {
  if (Divcc.empty())
    return "unknown (no divcc in the build command, $CC, $CXX or PATH)";
  SmallString<128> Output;
  std::string Version = "divcc";
  if (!sys::fs::createTemporaryFile("divtool-version", "txt", Output)) {
    std::optional<StringRef> Redirects[] = {StringRef(), StringRef(Output),
                                            StringRef()};
    if (sys::ExecuteAndWait(Divcc, {Divcc, "--version"}, std::nullopt,
                            Redirects, /*SecondsToWait=*/60) == 0)
      if (auto Buffer = MemoryBuffer::getFile(Output)) {
        // "divcc VERSION (...) on:" and clang's version on the next line.
        auto [First, Rest] = (*Buffer)->getBuffer().split('\n');
        Version = First.str();
        if (First.ends_with(":"))
          Version += " " + Rest.split('\n').first.str();
      }
    sys::fs::remove(Output);
  }
  SmallString<256> Real;
  if (sys::fs::real_path(Divcc, Real))
    Real = Divcc;
  Expected<std::string> Hash = fileSha256(Real);
  std::string HashText = Hash ? "SHA-256 " + *Hash : "unreadable";
  if (!Hash)
    consumeError(Hash.takeError());
  return Version + " (" + std::string(Real) + ", " + HashText + ")";
}

Expected<pid_t> startBuild(ArrayRef<std::string> Command, StringRef Dir,
                           ArrayRef<std::string> Env, StringRef Log) {
  return startProcess(Command, Dir, Env, Log, Log, /*OwnProcessGroup=*/false,
                      "the build command");
}

Expected<pid_t> startProcess(ArrayRef<std::string> Command, StringRef Dir,
                             ArrayRef<std::string> Env, StringRef Stdout,
                             StringRef Stderr, bool OwnProcessGroup,
                             StringRef What) {
  std::string Program = Command[0];
  if (!StringRef(Program).contains('/')) {
    SmallVector<StringRef, 16> Paths;
    std::string PathVariable =
        lookupEnvironment(Env, "PATH").value_or("/usr/bin:/bin");
    SplitString(PathVariable, Paths, ":");
    ErrorOr<std::string> Found = sys::findProgramByName(Program, Paths);
    if (!Found)
      return failure("cannot run " + What + ": '" + Program +
                     "' is not on PATH");
    Program = *Found;
  }
  int LogFd = -1, ErrFd = -1;
  for (auto [Path, Fd] : {std::pair<StringRef, int *>(Stdout, &LogFd),
                          std::pair<StringRef, int *>(Stderr, &ErrFd)}) {
    if (Fd == &ErrFd && Stderr == Stdout)
      break;
    *Fd = ::open(Path.str().c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
                 0644);
    if (*Fd < 0) {
      std::error_code EC(errno, std::generic_category());
      if (LogFd >= 0)
        ::close(LogFd);
      return failure("cannot create '" + Path + "'", EC);
    }
  }
  std::vector<char *> Argv, Envp;
  for (const std::string &A : Command)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  // PWD names the build's directory, not divtool's (make's $(PWD) and
  // scripts read it).
  std::string WorkingDir = Dir.str();
  std::string Pwd = "PWD=" + WorkingDir;
  for (const std::string &E : Env)
    if (variableName(E) != "PWD")
      Envp.push_back(const_cast<char *>(E.c_str()));
  Envp.push_back(Pwd.data());
  Envp.push_back(nullptr);

  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_addopen(&Actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&Actions, LogFd, 1);
  posix_spawn_file_actions_adddup2(&Actions, ErrFd >= 0 ? ErrFd : LogFd, 2);
  posix_spawn_file_actions_addchdir_np(&Actions, WorkingDir.c_str());
  posix_spawnattr_t Attributes;
  posix_spawnattr_init(&Attributes);
  if (OwnProcessGroup) {
    posix_spawnattr_setflags(&Attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&Attributes, 0);
  }
  pid_t Pid = 0;
  int Rc = posix_spawn(&Pid, Program.c_str(), &Actions, &Attributes,
                       Argv.data(), Envp.data());
  posix_spawnattr_destroy(&Attributes);
  posix_spawn_file_actions_destroy(&Actions);
  ::close(LogFd);
  if (ErrFd >= 0)
    ::close(ErrFd);
  if (Rc != 0)
    return failure("cannot run " + What + " '" + Program + "'",
                   std::error_code(Rc, std::generic_category()));
  return Pid;
}

std::optional<int> waitBuild(pid_t Pid, bool Block, struct rusage *Usage) {
  for (;;) {
    int Status = 0;
    pid_t R = ::wait4(Pid, &Status, Block ? 0 : WNOHANG, Usage);
    if (R == Pid)
      return Status;
    if (R == 0)
      return std::nullopt;
    if (errno != EINTR)
      return 255 << 8; // Lost: reported as a failure.
  }
}

std::string describeWaitStatus(int Status) {
  if (WIFEXITED(Status))
    return "exit status " + std::to_string(WEXITSTATUS(Status));
  if (WIFSIGNALED(Status))
    return "killed by signal " + std::to_string(WTERMSIG(Status)) + " (" +
           strsignal(WTERMSIG(Status)) + ")";
  return "wait status " + std::to_string(Status);
}

int exitCodeOf(int Status) {
  if (WIFEXITED(Status))
    return WEXITSTATUS(Status);
  if (WIFSIGNALED(Status))
    return 128 + WTERMSIG(Status);
  return 255;
}

std::string lastLines(StringRef Log, unsigned N) {
  auto Buffer = MemoryBuffer::getFile(Log);
  if (!Buffer)
    return "  (no log: " + Buffer.getError().message() + ")\n";
  SmallVector<StringRef, 0> Lines;
  (*Buffer)->getBuffer().rtrim('\n').split(Lines, '\n');
  if (Lines.size() == 1 && Lines[0].empty())
    return "  (the log is empty)\n";
  std::string Out;
  for (StringRef Line : ArrayRef(Lines).take_back(N)) {
    Out += "  ";
    Out +=
        Line.size() > 300 ? (Line.take_front(300) + "...").str() : Line.str();
    Out += "\n";
  }
  return Out;
}

std::string describeVariant(const VariantRecord &V) {
  return "variant " + V.Id + (V.Label.empty() ? "" : " ('" + V.Label + "')");
}

/// A shell word for \p S.
static std::string shellQuote(StringRef S) {
  std::string Out = "'";
  for (char C : S)
    Out += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Out + "'";
}

/// Makes every divcc and div++ the build in \p Tree runs add -g: scripts of
/// those names in \p Bin, first on PATH, and NAME=.../divcc arguments and
/// $CC/$CXX pointed at them. Appended last, -g overrides a -g0 of the
/// build's own.
///
/// The debug information names \p CompilationDir, not \p Tree: each
/// compile gets -ffile-compilation-dir (its working directory with \p Tree
/// replaced by \p CompilationDir) and, when an argument names a path in
/// \p Tree, -fdebug-prefix-map. So the variants of a population, each in
/// its own tree, give the front-end cache the same compile commands (the
/// cache keys on the compilation directory once -g is on), and a rebuild in
/// a temporary tree gives the very bytes of the population's build. Paths
/// in the debug information name the population's source tree.
static Error addDebugInfoShim(StringRef Bin, StringRef Tree,
                              StringRef CompilationDir,
                              std::vector<std::string> &Command,
                              std::vector<std::string> &Env) {
  std::string Divcc = findDivcc(Command);
  if (Divcc.empty())
    return failure("cannot add debug information to the build: no divcc "
                   "found in the build command, $CC, $CXX or PATH");
  if (std::error_code EC =
          sys::fs::create_directories(Bin, true, sys::fs::perms::owner_all))
    return failure("cannot create '" + Bin + "'", EC);
  SmallString<256> DivccShim(Bin), DivxxShim(Bin);
  sys::path::append(DivccShim, "divcc");
  sys::path::append(DivxxShim, "div++");
  std::string Divxx = (sys::path::parent_path(Divcc) + "/div++").str();
  std::string T = shellQuote(Tree), D = shellQuote(CompilationDir);
  for (auto [Shim, Real] :
       {std::pair<StringRef, StringRef>(DivccShim, Divcc),
        std::pair<StringRef, StringRef>(DivxxShim, Divxx)}) {
    std::string Script =
        "#!/bin/sh\n# divtool: the build's " +
        sys::path::filename(Real).str() +
        ", with debug information that names the source tree\n"
        "d=$(pwd -P)\n"
        "case $d in " + T + ") d=" + D + " ;; " + T + "/*) d=" + D + "${d#" +
        T + "} ;; esac\n"
        "case \" $* \" in *" + T + "*) set -- \"$@\" -fdebug-prefix-map=" + T +
        "=" + D + " ;; esac\n"
        "exec " + shellQuote(Real) + " \"$@\" -g -ffile-compilation-dir=\"$d\"\n";
    if (Error E = writeFileAtomically(Shim, Script))
      return E;
    if (::chmod(Shim.str().c_str(), 0700) != 0)
      return failure("cannot make '" + Shim + "' executable",
                     std::error_code(errno, std::generic_category()));
  }
  auto Redirect = [&](StringRef Value) -> std::optional<std::string> {
    if (!isDivccName(Value))
      return std::nullopt;
    return sys::path::filename(Value) == "div++" ? std::string(DivxxShim)
                                                 : std::string(DivccShim);
  };
  for (std::string &Arg : Command) {
    if (std::optional<StringRef> Value = assignmentValue(Arg)) {
      if (std::optional<std::string> Shim = Redirect(*Value))
        Arg = (variableName(Arg) + "=" + *Shim).str();
    } else if (std::optional<std::string> Shim = Redirect(Arg)) {
      Arg = *Shim;
    }
  }
  for (std::string &E : Env) {
    StringRef Name = variableName(E);
    if (Name == "CC" || Name == "CXX") {
      if (std::optional<std::string> Shim =
              Redirect(StringRef(E).drop_front(Name.size() + 1)))
        E = (Name + "=" + *Shim).str();
    } else if (Name == "PATH") {
      E = ("PATH=" + Bin + ":" + StringRef(E).drop_front(5)).str();
    }
  }
  return Error::success();
}

Expected<RebuiltVariant> rebuildVariant(const VariantRecord &V,
                                        const MasterKey &Key,
                                        StringRef RegistryPath,
                                        const RebuildOptions &Options) {
  std::string Named = Options.Source.empty() ? V.SourceDir : Options.Source;
  SmallString<256> Source;
  if (std::error_code EC = sys::fs::real_path(Named, Source))
    return failure("source tree '" + Named + "'" +
                       (Options.Source.empty()
                            ? " (where the population was built from)"
                            : "") +
                       " cannot be read; name it with --source",
                   EC);
  if (!sys::fs::is_directory(Source))
    return failure("source tree '" + Source + "' is not a directory");
  if (V.BuildCommand.empty())
    return failure(describeVariant(V) + " has no recorded build command");

  // Leave out the population's directory (DIR of DIR/variants/ID/tree) and
  // the registry, should they be inside the source.
  std::vector<std::string> Exclude;
  for (StringRef Path : {sys::path::parent_path(sys::path::parent_path(
                             sys::path::parent_path(V.Tree))),
                         RegistryPath, StringRef(Options.SeedFile)}) {
    SmallString<256> Real;
    if (!Path.empty() && !sys::fs::real_path(Path, Real))
      Exclude.push_back(std::string(Real));
  }

  PrivateBuild B;
  B.Source = std::string(Source);
  B.Exclude = std::move(Exclude);
  B.Command = V.BuildCommand;
  B.Key = &Key;
  B.SeedId = V.Id;
  bool DebugInfo = Options.DebugInfo || V.KeptDebugInfo;
  B.What = describeVariant(V) + (DebugInfo ? " with debug information" : "");
  return buildPrivateCopy(
      B, Options,
      [&](PrivateDir &Dir, std::vector<std::string> &Command,
          std::vector<std::string> &Env) -> Error {
        if (!DebugInfo)
          return Error::success();
        // The compilation directory of the population's build: the
        // recorded source tree, whatever --source names.
        SmallString<256> Tree;
        if (std::error_code EC = sys::fs::real_path(Dir.path() + "/tree", Tree))
          return failure("'" + Dir.path() + "/tree'", EC);
        return addDebugInfoShim(Dir.path() + "/bin", Tree, V.SourceDir,
                                Command, Env);
      });
}

Expected<RebuiltVariant>
buildPrivateCopy(const PrivateBuild &B, const RebuildOptions &Options,
                 function_ref<Error(PrivateDir &, std::vector<std::string> &,
                                    std::vector<std::string> &)>
                     Prepare) {
  Expected<PrivateDir> Dir = PrivateDir::create("divtool-rebuild");
  if (!Dir)
    return Dir.takeError();
  RebuiltVariant R{std::move(*Dir), "", ""};
  R.Tree = R.Dir.path() + "/tree";
  R.Log = R.Dir.path() + "/build.log";
  if (Options.Keep)
    R.Dir.keep();
  errs() << Options.Tool << ": " << (B.Key ? "rebuilding " : "building ")
         << B.What << " from '" << B.Source << "' in '" << R.Tree << "'\n";
  Expected<CopyStats> Copied = copyTree(B.Source, R.Tree, B.Exclude);
  if (!Copied)
    return Copied.takeError();

  std::vector<std::string> Command = B.Command;
  std::vector<std::string> Add;
  std::string SeedFile;
  if (B.Key) {
    Expected<std::string> Written = writeVariantSeed(R.Dir, *B.Key, B.SeedId);
    if (!Written)
      return Written.takeError();
    SeedFile = *Written;
    Add.push_back("DIVCC_SEED_FILE=" + SeedFile);
  }
  if (!Options.CacheDir.empty())
    Add.push_back("DIVCC_CACHE_DIR=" + Options.CacheDir);
  if (!Options.DivccOptions.empty())
    Add.push_back("DIVCC_OPTIONS=" + Options.DivccOptions);
  // A DIVCC_OPTIONS of the user's reaches the build unless one is given.
  std::vector<std::string> Env =
      environmentWith({"DIVCC_CACHE_DIR", "DIVCC_SEED_FILE"}, Add);
  if (Prepare)
    if (Error E = Prepare(R.Dir, Command, Env))
      return E;

  Expected<pid_t> Pid = startBuild(Command, R.Tree, Env, R.Log);
  if (!Pid)
    return Pid.takeError();
  int Status = *waitBuild(*Pid, /*Block=*/true);
  if (B.Key)
    R.Dir.removeSecret(SeedFile);
  if (Status != 0)
    return failure("the " + Twine(B.Key ? "rebuild" : "build") + " of " +
                   B.What + " failed (" + describeWaitStatus(Status) +
                   "); the last lines of its log:\n" +
                   StringRef(lastLines(R.Log, 10)).rtrim('\n'));
  return R;
}

//===----------------------------------------------------------------------===//
// Building a population
//===----------------------------------------------------------------------===//

namespace {

std::string elapsed(std::chrono::steady_clock::time_point Start) {
  auto Seconds = std::chrono::duration_cast<std::chrono::seconds>(
                     std::chrono::steady_clock::now() - Start)
                     .count();
  std::string S;
  raw_string_ostream(S) << Seconds / 60 << ":"
                        << format("%02d", int(Seconds % 60));
  return S;
}

/// One variant on its way: its record and, while it builds, its process.
struct Build {
  VariantRecord Variant;
  std::string Dir; ///< DIR/variants/ID
  std::string Log;
  std::string SeedFile;
  TreeSnapshot Before;
  pid_t Pid = 0;
};

class Population {
public:
  Population(const PopulationOptions &C, Registry &R, const MasterKey &K,
             PrivateDir &Seeds, std::string Out, std::string Source,
             std::string DebugRoot, std::vector<std::string> Exclude,
             std::vector<std::string> Env)
      : C(C), Reg(R), Key(K), Seeds(Seeds), Out(std::move(Out)),
        Source(std::move(Source)), DebugRoot(std::move(DebugRoot)),
        Exclude(std::move(Exclude)), Env(std::move(Env)) {}

  /// Builds every variant; returns how many failed.
  unsigned run(std::vector<VariantRecord> Variants);

private:
  /// Copies the tree and starts the build; false if the variant failed.
  bool start(Build &B);
  void finish(Build &B, int Status);
  void failed(Build &B, const Twine &Why, int64_t ExitStatus);
  void progress(bool Force);
  void say(const Twine &Line);

  const PopulationOptions &C;
  Registry &Reg;
  const MasterKey &Key;
  PrivateDir &Seeds;
  std::string Out, Source;
  /// Where debug files are kept (DebugRoot/.build-id/...).
  std::string DebugRoot;
  std::vector<std::string> Exclude, Env;
  bool WarnedNoDebugInfo = false;

  bool Terminal = false;
  bool SourceChecked = false;
  unsigned Total = 0, Done = 0, Failed = 0, Running = 0;
  std::chrono::steady_clock::time_point Start, LastProgress;
  /// Artifact hash -> the first variant that built it.
  StringMap<std::string> Hashes;
  std::vector<std::string> Duplicates;
};

void Population::say(const Twine &Line) {
  if (Terminal)
    errs() << "\r\033[K";
  errs() << Line << "\n";
  progress(/*Force=*/true);
}

void Population::progress(bool Force) {
  auto Now = std::chrono::steady_clock::now();
  if (!Terminal || (!Force && Now - LastProgress < std::chrono::seconds(1)))
    return;
  LastProgress = Now;
  errs() << "\r\033[K" << C.Tool << ": " << Done << "/" << Total
         << " variants done";
  if (Failed)
    errs() << " (" << Failed << " failed)";
  errs() << ", " << Running << " building, " << elapsed(Start) << " elapsed";
  errs().flush();
}

void Population::failed(Build &B, const Twine &Why, int64_t ExitStatus) {
  ++Failed;
  ++Done;
  std::string Message = ("divtool: error: " + B.Variant.Id + ": " + Why).str();
  if (sys::fs::exists(B.Log))
    Message += "; the last lines of " + B.Log + ":\n" +
               StringRef(lastLines(B.Log, 10)).rtrim('\n').str();
  say(Message);
  if (Error E = Reg.recordFailed(B.Variant.Id, ExitStatus))
    say("divtool: error: " + toString(std::move(E)));
}

bool Population::start(Build &B) {
  if (sys::fs::exists(B.Dir)) {
    failed(B,
           "'" + B.Dir +
               "' already exists but is not in the registry "
               "(left by another registry?); remove it",
           -1);
    return false;
  }
  if (std::error_code EC = sys::fs::create_directories(B.Dir)) {
    failed(B, "cannot create '" + B.Dir + "': " + EC.message(), -1);
    return false;
  }
  Expected<CopyStats> Copied = copyTree(Source, B.Variant.Tree, Exclude);
  if (!Copied) {
    failed(B, toString(Copied.takeError()), -1);
    return false;
  }
  if (!SourceChecked && !Copied->BuiltFiles.empty()) {
    const std::string &Example = Copied->BuiltFiles.front();
    say("divtool: warning: the source tree holds " +
        Twine(Copied->BuiltFiles.size()) + " built file(s), e.g. '" + Example +
        "'; a build that reuses them links code divcc did not diversify: "
        "clean the source tree first (e.g. make clean)");
  }
  SourceChecked = true;
  B.Before = snapshotTree(B.Variant.Tree);
  Expected<std::string> SeedFile = writeVariantSeed(Seeds, Key, B.Variant.Id);
  if (!SeedFile) {
    failed(B, toString(SeedFile.takeError()), -1);
    return false;
  }
  B.SeedFile = *SeedFile;
  std::vector<std::string> Command = C.Command;
  std::vector<std::string> BuildEnv = Env;
  BuildEnv.push_back("DIVCC_SEED_FILE=" + B.SeedFile);
  if (C.KeepDebug) {
    // The scripts hold no secret; they go with the seeds, in the private
    // directory removed at the end.
    if (Error E = addDebugInfoShim(Seeds.path() + "/bin/" + B.Variant.Id,
                                   B.Variant.Tree, Source, Command, BuildEnv)) {
      Seeds.removeSecret(B.SeedFile);
      failed(B, toString(std::move(E)), -1);
      return false;
    }
  }
  Expected<pid_t> Pid = startBuild(Command, B.Variant.Tree, BuildEnv, B.Log);
  if (!Pid) {
    Seeds.removeSecret(B.SeedFile);
    failed(B, toString(Pid.takeError()), -1);
    return false;
  }
  B.Pid = *Pid;
  ++Running;
  return true;
}

void Population::finish(Build &B, int Status) {
  --Running;
  Seeds.removeSecret(B.SeedFile);
  if (Status != 0)
    return failed(B, "the build failed (" + describeWaitStatus(Status) + ")",
                  exitCodeOf(Status));
  Expected<std::vector<std::string>> Found =
      findArtifacts(B.Variant.Tree, B.Before, C.Artifacts);
  if (!Found)
    return failed(B, toString(Found.takeError()), 0);
  std::vector<ArtifactRecord> Artifacts;
  for (const std::string &Relative : *Found) {
    std::string StripTo;
    if (C.Strip || C.KeepDebug)
      StripTo = (Out + "/ship/" + B.Variant.Id + "/" + Relative);
    Expected<ArtifactRecord> A =
        examineArtifact(B.Variant.Tree, Relative, StripTo);
    if (!A)
      return failed(B, toString(A.takeError()), 0);
    if (C.KeepDebug && !A->CodeSha256.empty()) {
      Expected<std::string> Kept =
          keepDebugInfo(B.Variant.Tree + "/" + Relative, DebugRoot);
      if (!Kept)
        return failed(B, toString(Kept.takeError()), 0);
      if (Kept->empty() && !WarnedNoDebugInfo) {
        WarnedNoDebugInfo = true;
        say("divtool: warning: '" + Relative + "' of " + B.Variant.Id +
            " has no " +
            (buildIdOf(B.Variant.Tree + "/" + Relative).empty()
                 ? "build id (link with -Wl,--build-id)"
                 : "line tables (the build must run divcc or div++ by name: "
                   "through PATH, a CC=/CXX= argument, or $CC/$CXX)") +
            "; its debug information is not kept");
      }
    }
    auto [It, New] = Hashes.try_emplace(A->Sha256, B.Variant.Id);
    if (!New)
      Duplicates.push_back("'" + Relative + "' of " + It->second + " and " +
                           B.Variant.Id);
    Artifacts.push_back(std::move(*A));
  }
  if (Error E = Reg.recordBuilt(B.Variant.Id, Artifacts))
    return failed(B, toString(std::move(E)), 0);
  ++Done;
  std::string Names;
  for (const ArtifactRecord &A : Artifacts)
    Names += (Names.empty() ? "" : ", ") + A.Path;
  if (!Terminal)
    say(C.Tool + ": [" + Twine(Done) + "/" + Twine(Total) + "] " +
        B.Variant.Id + " built (" + Names + "), " + elapsed(Start) +
        " elapsed");
  else
    progress(true);
}

unsigned Population::run(std::vector<VariantRecord> Variants) {
  Terminal = C.Progress.value_or(sys::Process::StandardErrIsDisplayed());
  Start = LastProgress = std::chrono::steady_clock::now();
  Total = Variants.size();
  std::vector<Build> Builds;
  for (VariantRecord &V : Variants) {
    Build B;
    B.Dir = Out + "/variants/" + V.Id;
    B.Log = B.Dir + "/build.log";
    B.Variant = std::move(V);
    Builds.push_back(std::move(B));
  }
  progress(true);
  size_t Next = 0;
  std::vector<Build *> Active;
  while (Next < Builds.size() || !Active.empty()) {
    while (Active.size() < C.Jobs && Next < Builds.size()) {
      Build &B = Builds[Next++];
      if (start(B))
        Active.push_back(&B);
    }
    bool Finished = false;
    for (size_t I = 0; I < Active.size();) {
      if (std::optional<int> Status = waitBuild(Active[I]->Pid, false)) {
        finish(*Active[I], *Status);
        Active.erase(Active.begin() + I);
        Finished = true;
      } else {
        ++I;
      }
    }
    if (!Finished && !Active.empty()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      progress(false);
    }
  }
  if (Terminal)
    errs() << "\r\033[K";
  for (const std::string &D : Duplicates)
    errs() << "divtool: warning: identical artifacts " << D
           << ": the build is not diversified by DIVCC_SEED_FILE (does it "
              "pass -frandom-seed=, -fdiversify-seed-file= or -fno-diversify, "
              "or not use divcc?)\n";
  return Failed;
}

} // namespace

Expected<PopulationBuilt> buildPopulation(const PopulationOptions &C) {
  if (C.Command.empty())
    return failure("no build command");
  if (C.Labels.size() > C.Count)
    return failure(Twine(C.Labels.size()) + " labels for " + Twine(C.Count) +
                   " variants: give at most one "
                   "--label per variant");
  Expected<MasterKey> Key = readSeedFile(C.SeedFile);
  if (!Key)
    return Key.takeError();
  std::string KeyId = populationKeyId(*Key);

  SmallString<256> Source(C.Source.empty() ? "." : C.Source);
  if (std::error_code EC = sys::fs::real_path(SmallString<256>(Source), Source))
    return failure("source tree '" + Source + "': " + EC.message());
  if (!sys::fs::is_directory(Source))
    return failure("source tree '" + Source + "' is not a directory");

  SmallString<256> Out(C.Out);
  sys::fs::make_absolute(Out);
  sys::path::remove_dots(Out, /*remove_dot_dot=*/true);
  if (Out == Source)
    return failure("the population's directory '" + Out +
                   "' is the source tree; choose another --out");
  if (std::error_code EC = sys::fs::create_directories(Out + "/variants"))
    return failure("cannot create '" + Out + "': " + EC.message());
  if (std::error_code EC = sys::fs::real_path(SmallString<256>(Out), Out))
    return failure("'" + Out + "': " + EC.message());
  if (Out == Source)
    return failure("the population's directory '" + Out +
                   "' is the source tree; choose another --out");
  SmallString<256> RegistryPath(C.Registry);
  if (C.Registry.empty())
    RegistryPath = (Out + "/registry.sqlite").str();
  sys::fs::make_absolute(RegistryPath);

  Expected<Registry> Reg = Registry::openOrCreate(RegistryPath, KeyId);
  if (!Reg)
    return Reg.takeError();

  // What the copies leave out: this population, should it sit inside the
  // source tree, and the registry with its journal.
  std::vector<std::string> Exclude = {std::string(Out)};
  SmallString<256> RealRegistry;
  if (!sys::fs::real_path(RegistryPath, RealRegistry)) {
    Exclude.push_back(std::string(RealRegistry));
    Exclude.push_back(std::string(RealRegistry) + "-journal");
  }
  // Nor the debug files kept beside a registry inside the source tree.
  Exclude.push_back((sys::path::parent_path(RealRegistry.empty()
                                                ? StringRef(RegistryPath)
                                                : StringRef(RealRegistry)) +
                     "/.build-id")
                        .str());
  // Nor is the master secret copied into every variant's tree.
  SmallString<256> RealSeedFile;
  if (!sys::fs::real_path(C.SeedFile, RealSeedFile) &&
      StringRef(RealSeedFile).starts_with((Source + "/").str())) {
    Exclude.push_back(std::string(RealSeedFile));
    errs() << "divtool: warning: the seed file '" << C.SeedFile
           << "' is inside the source tree; it is left out of the variants' "
              "copies, but keep it elsewhere\n";
  }

  Expected<PrivateDir> Seeds = PrivateDir::create("divtool-seeds");
  if (!Seeds)
    return Seeds.takeError();

  VariantRecord Template;
  Template.Compiler = compilerIdentity(findDivcc(C.Command));
  Template.BuildCommand = C.Command;
  Template.SourceDir = std::string(Source);
  Template.KeptDebugInfo = C.KeepDebug;
  std::vector<std::string> Labels = C.Labels;
  Labels.resize(C.Count);
  Expected<std::vector<VariantRecord>> Variants =
      Reg->reserveVariants(Template, Labels, [&](StringRef Id) {
        return (Out + "/variants/" + Id + "/tree").str();
      });
  if (!Variants)
    return Variants.takeError();

  // Variants share the front-end cache, unless the user chose one (or
  // none: DIVCC_CACHE_DIR set to an empty value).
  // A relative DIVCC_CACHE_DIR would be a cache per tree.
  std::vector<std::string> Add;
  std::optional<std::string> UserCache =
      sys::Process::GetEnv("DIVCC_CACHE_DIR");
  if (!UserCache) {
    Add.push_back(("DIVCC_CACHE_DIR=" + Out + "/cache").str());
  } else if (!UserCache->empty()) {
    SmallString<256> Absolute(*UserCache);
    sys::fs::make_absolute(Absolute);
    Add.push_back(("DIVCC_CACHE_DIR=" + Absolute).str());
  }
  // The launcher gets each compile with a key derived from the variant's
  // seed, never the seed (driver/RemoteCompile.h).
  if (!C.Launcher.empty())
    Add.push_back("DIVCC_PREFIX=" + C.Launcher);
  std::vector<std::string> Env =
      environmentWith({"DIVCC_SEED_FILE", "DIVCC_PREFIX"}, Add);

  std::string First = Variants->front().Id, Last = Variants->back().Id;
  Population P(C, *Reg, *Key, *Seeds, std::string(Out), std::string(Source),
               sys::path::parent_path(RegistryPath).str(), Exclude, Env);
  auto Start = std::chrono::steady_clock::now();
  PopulationBuilt Built;
  for (const VariantRecord &V : *Variants)
    Built.Ids.push_back(V.Id);
  Built.Failed = P.run(std::move(*Variants));
  errs() << C.Tool << ": " << (C.Count - Built.Failed) << " of " << C.Count
         << " variants built (" << First << (First == Last ? "" : " to " + Last)
         << ") in " << elapsed(Start) << "; registry " << RegistryPath << "\n";
  Built.Out = std::string(Out);
  Built.RegistryPath = std::string(RegistryPath);
  return Built;
}

} // namespace divcc
