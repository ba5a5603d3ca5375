//===- LinkJob.cpp - What divcc changes in the link job -------------------===//
//
// Invariants:
//  * Only link commands change, and only by appending arguments or (for
//    `link`) swapping in lld; what clang's driver decided stays.
//  * Everything added is derived from the transformation's own stream: the
//    seed lld sees and the padding size reveal nothing of the secret, and the
//    same secret gives the same link, bit for bit.
//  * Padding is never executed: it follows the C runtime's last piece of
//    .init (crtn.o, which ends _init with a return) and is filled with
//    trapping bytes.
//
//===----------------------------------------------------------------------===//

#include "driver/LinkJob.h"

#include "codegen/CodeGen.h"
#include "driver/Config.h"
#include "driver/LtoLinkPlan.h"
#include "random/RandomStream.h"
#include "support/Assembler.h"
#include "support/Diagnostics.h"
#include "targets/DiversityTarget.h"

#include "clang/Driver/Action.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "clang/Driver/Options.h"
#include "clang/Driver/ToolChain.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Host.h"

using namespace llvm;
using namespace clang::driver;

namespace divcc {

/// The names of the temporary objects divcc adds to a link.
static constexpr StringLiteral OffsetObjectPrefix = "divcc-offset";
static constexpr StringLiteral GoldenObjectPrefix = "divcc-golden";

static RandomStream linkStream(const Config &Cfg, Transformation T) {
  return RandomStream(*Cfg.Key, {transformationName(T), "", ""});
}

/// A relocatable link (-r) makes an object that is linked again later: its
/// .init would land in the middle of _init, so nothing may be added to it.
static bool isRelocatableLink(const Command &Cmd) {
  for (StringRef A : Cmd.getArguments())
    if (A == "-r" || A == "--relocatable" || A == "-i")
      return true;
  return false;
}

/// The ld.lld beside clang.
static const char *lldExecutable(const opt::ArgList &Args) {
  return Args.MakeArgString(sys::path::parent_path(clangExecutable()) +
                            "/ld.lld");
}

/// `link`: lld's --shuffle-sections lays out the functions of all object
/// files (each in its own section, see DiversifyingCommand) in a random
/// order. lld takes a 32-bit seed on its command line, drawn from the `link`
/// stream.
static Error shuffleSections(Compilation &C, const Config &Cfg) {
  const opt::ArgList &Args = C.getArgs();
  if (opt::Arg *A = Args.getLastArg(options::OPT_fuse_ld_EQ))
    if (StringRef(A->getValue()) != "lld")
      return createStringError("'-fdiversify=...link...' needs lld, but '" +
                               A->getAsString(Args) +
                               "' asks for another linker");
  RandomStream Random = linkStream(Cfg, Transformation::Link);
  // lld reads 0 as "random" and -1 as "reverse".
  auto Seed = uint32_t(Random.between(1, UINT32_MAX - 1));

  const char *Lld = lldExecutable(C.getArgs());
  for (Command &Cmd : C.getJobs()) {
    if (!isa<LinkJobAction>(Cmd.getSource()))
      continue;
    opt::ArgStringList LinkArgs = Cmd.getArguments();
    LinkArgs.push_back(
        C.getArgs().MakeArgString("--shuffle-sections=.text*=" + Twine(Seed)));
    Cmd.replaceArguments(std::move(LinkArgs));
    Cmd.replaceExecutable(Lld);
  }
  return Error::success();
}

/// The notes every object clang compiles carries (no executable stack), and
/// that the object is compatible with control-flow protection, which is
/// true of an object with no code that runs: a linker turns protection off
/// for the whole program when one object lacks the mark.
static void writeNotes(raw_ostream &Out, const TrapPadding &Padding) {
  Out << "\t.section .note.GNU-stack,\"\",%progbits\n";
  if (!Padding.FeatureProperty)
    return; // the target has no such property (RISC-V in LLVM 19)
  Out << "\t.section .note.gnu.property,\"a\",%note\n"
      << "\t.p2align 3\n"
      << "\t.long 4, 16, " << ELF::NT_GNU_PROPERTY_TYPE_0 << "\n"
      << "\t.asciz \"GNU\"\n"
      << "\t.long " << Padding.FeatureProperty << ", 4, " << Padding.FeatureBits
      << "\n"
      << "\t.p2align 3\n";
}

/// The padding knowledge of \p T, which the driver checked is supported.
static TrapPadding trapPadding(const llvm::Triple &T) {
  std::unique_ptr<DiversityTarget> Target = createDiversityTarget(T);
  if (!Target)
    report_fatal_error(Twine("divcc: link step for unsupported target ") +
                       T.str());
  return Target->trapPadding();
}

Error assembleCodeFreeObject(StringRef Body, const llvm::Triple &T,
                             const std::string &Obj,
                             std::optional<uint32_t> ElfFlags) {
  std::string Asm = Body.str();
  raw_string_ostream AsmOS(Asm);
  writeNotes(AsmOS, trapPadding(T));
  return assembleObject(Asm, T, Obj, ElfFlags);
}

std::optional<uint32_t> objectElfFlags(StringRef Path) {
  Expected<object::OwningBinary<object::ObjectFile>> Obj =
      object::ObjectFile::createObjectFile(Path);
  if (!Obj) {
    consumeError(Obj.takeError());
    return std::nullopt;
  }
  if (auto *Elf = dyn_cast<object::ELFObjectFileBase>(Obj->getBinary()))
    return Elf->getPlatformFlags();
  return std::nullopt;
}

/// The e_flags of the first ELF object of \p C's links (the C runtime's
/// start file, or the first input): what an object divcc adds to the link
/// must declare too, since lld refuses RISC-V objects of another
/// floating-point ABI. None if no link has one.
static std::optional<uint32_t> linkElfFlags(Compilation &C) {
  for (Command &Cmd : C.getJobs()) {
    if (!isa<LinkJobAction>(Cmd.getSource()))
      continue;
    for (const char *Arg : Cmd.getArguments())
      if (StringRef(Arg).ends_with(".o"))
        if (std::optional<uint32_t> Flags = objectElfFlags(Arg))
          return Flags;
  }
  return std::nullopt;
}

/// Assembles trap padding into \p Obj: \p InitSize bytes in .init, and
/// \p RodataSize zero bytes in .rodata.
static Error assemblePadding(const std::string &Obj, uint64_t InitSize,
                             uint64_t RodataSize, const llvm::Triple &T,
                             std::optional<uint32_t> ElfFlags) {
  std::string Asm;
  raw_string_ostream AsmOS(Asm);
  unsigned Fill = trapPadding(T).FillByte;
  AsmOS << "\t.section .init,\"ax\",%progbits\n"
        << "\t.fill " << InitSize << ", 1, " << Fill << "\n";
  if (RodataSize)
    AsmOS << "\t.section .rodata,\"a\",%progbits\n"
          << "\t.zero " << RodataSize << "\n";
  if (Error E = assembleCodeFreeObject(Asm, T, Obj, ElfFlags))
    return createStringError("cannot assemble the link-time padding: " +
                             toString(std::move(E)));
  return Error::success();
}

/// Where the padding object goes on a link line: before the C runtime's
/// first start file (crt1.o, Scrt1.o, ...; crti.o when there is none), or
/// before the first object without them (-nostartfiles, -nostdlib).
static size_t paddingPosition(const opt::ArgStringList &LinkArgs) {
  auto Position = [&](auto Matches) -> std::optional<size_t> {
    for (size_t I = 0; I < LinkArgs.size(); ++I)
      if ((I == 0 || StringRef(LinkArgs[I - 1]) != "-o") &&
          Matches(sys::path::filename(LinkArgs[I])))
        return I;
    return std::nullopt;
  };
  if (auto I = Position([](StringRef F) { return F.ends_with("crt1.o"); }))
    return *I;
  if (auto I = Position([](StringRef F) { return F == "crti.o"; }))
    return *I;
  if (auto I = Position([](StringRef F) { return F.ends_with(".o"); }))
    return *I;
  return LinkArgs.size();
}

/// `offset`: the C runtime's code (crt1.o's _start, crti.o's _init, crtn.o,
/// .fini) and the PLT are code divcc does not compile, and would otherwise
/// sit at the same address in every variant. An object of padding goes
/// first among the link's objects. Its .init holds 16 to 4096 bytes of
/// traps (64 KiB on the fixed-width targets, whose short gadgets line up
/// wherever two variants' code moved alike: TrapPadding::MaxInitPadding),
/// before _init: GNU ld (and gold) put .init first in the code segment, so
/// it moves _init, the PLT, all of .text and .fini. lld puts the read-only
/// data first and .text at the head of the code segment, .init after it:
/// for lld the object also starts .rodata with as many zeros (another
/// draw), which move the code segment itself. Neither costs .text, and
/// nothing runs into the traps: _init is entered by its symbol.
///
/// What comes before .init cannot move: the ELF headers, .dynsym, .dynstr,
/// the relocations. GNU ld maps them executable, in the segment of the
/// code, on every target but x86-64 (where -z separate-code is its
/// default), and their bytes hold gadgets at the same address in every
/// variant (RISC-V's `c.jr` is any halfword 0x8N82). A GNU ld link gets
/// -z separate-code first on its line, as lld keeps them out of its code
/// segment by default; the user's -z noseparate-code, later, still wins.
/// gold has no such option.
static Error padStartFiles(Compilation &C, const Config &Cfg) {
  RandomStream Random = linkStream(Cfg, Transformation::Offset);
  // Multiples of 16: the PLT and crt1.o's .text are 16-byte aligned, a
  // finer step would be rounded away. Never 0, so every variant moves.
  const llvm::Triple &T = C.getDefaultToolChain().getTriple();
  uint64_t Steps = trapPadding(T).MaxInitPadding / 16;
  uint64_t InitSize = 16 * Random.between(1, Steps);
  bool LinksWithLld = llvm::any_of(C.getJobs(), [](const Command &Cmd) {
    return isa<LinkJobAction>(Cmd.getSource()) &&
           StringRef(Cmd.getExecutable()).ends_with("ld.lld");
  });
  uint64_t RodataSize = LinksWithLld ? 16 * Random.between(1, Steps) : 0;

  const Driver &D = C.getDriver();
  std::string Obj = D.GetTemporaryPath(OffsetObjectPrefix, "o");
  if (C.getArgs().hasArg(options::OPT__HASH_HASH_HASH)) {
    // Commands are only printed: leave no file behind.
    sys::fs::remove(Obj);
  } else {
    C.addTempFile(C.getArgs().MakeArgString(Obj));
    if (Error E = assemblePadding(Obj, InitSize, RodataSize, T, linkElfFlags(C)))
      return E;
  }

  for (Command &Cmd : C.getJobs()) {
    if (!isa<LinkJobAction>(Cmd.getSource()) || isRelocatableLink(Cmd))
      continue;
    opt::ArgStringList LinkArgs = Cmd.getArguments();
    LinkArgs.insert(LinkArgs.begin() + paddingPosition(LinkArgs),
                    C.getArgs().MakeArgString(Obj));
    StringRef Linker = Cmd.getExecutable();
    if (isGnuLinker(Linker) && !Linker.ends_with("gold"))
      LinkArgs.insert(LinkArgs.begin(), {"-z", "separate-code"});
    Cmd.replaceArguments(std::move(LinkArgs));
  }
  return Error::success();
}

/// -fdiversify-golden: the relocations of every input section stay in the
/// program, which lets a binary rewriter (LLVM BOLT, run by divtool
/// rerandomize) move every function and fix every reference to it. GNU ld
/// and lld both spell it --emit-relocs. An object of trap padding, last on
/// the link line, ends .text with slack (-fdiversify-golden-slack bytes),
/// in a section of its own aligned to one byte: no alignment NOPs of the
/// linker come between the last function and the traps, since BOLT takes
/// for padding after a function traps alone, or NOPs and zeros, never
/// both, and ignores (leaves in place) a function with other padding.
/// BOLT's code for a new order is a little larger than the linker's (other
/// branch sizes, unaligned blocks), and it can take the original .text's
/// place only if it fits there; otherwise it goes to a new segment, and
/// the file grows by a page-aligned copy of the code. The program binds
/// its symbols at load time (-z now, and -fno-plt at compile time), so
/// that no install needs the PLT at its golden-master address.
static Error makeGoldenMaster(Compilation &C, const Config &Cfg) {
  const llvm::Triple &Target = C.getDefaultToolChain().getTriple();
  std::unique_ptr<DiversityTarget> DT = createDiversityTarget(Target);
  if (!DT || !DT->canLayOutAgain())
    return createStringError(
        "-fdiversify-golden: divtool rerandomize (LLVM BOLT) lays out x86-64 "
        "and AArch64 programs only, not " +
        Target.str());
  std::string Obj;
  if (Cfg.GoldenSlack > 0) {
    const llvm::Triple &T = C.getDefaultToolChain().getTriple();
    Obj = C.getDriver().GetTemporaryPath(GoldenObjectPrefix, "o");
    if (C.getArgs().hasArg(options::OPT__HASH_HASH_HASH)) {
      sys::fs::remove(Obj);
    } else {
      C.addTempFile(C.getArgs().MakeArgString(Obj));
      std::string Asm;
      raw_string_ostream(Asm)
          << "\t.section .text.divcc_golden_slack,\"ax\",@progbits\n\t.fill "
          << Cfg.GoldenSlack << ", 1, " << unsigned(trapPadding(T).FillByte)
          << "\n";
      if (Error E = assembleCodeFreeObject(Asm, T, Obj, linkElfFlags(C)))
        return createStringError("cannot assemble the golden master's slack: " +
                                 toString(std::move(E)));
    }
  }
  for (Command &Cmd : C.getJobs()) {
    if (!isa<LinkJobAction>(Cmd.getSource()) || isRelocatableLink(Cmd))
      continue;
    opt::ArgStringList LinkArgs = Cmd.getArguments();
    LinkArgs.push_back("--emit-relocs");
    // Every symbol bound at load time: BOLT can then call through the GOT
    // and divtool rerandomize trap the PLT, which BOLT does not move.
    LinkArgs.push_back("-z");
    LinkArgs.push_back("now");
    if (!Obj.empty())
      LinkArgs.push_back(C.getArgs().MakeArgString(Obj));
    Cmd.replaceArguments(std::move(LinkArgs));
  }
  return Error::success();
}

void linkForeignTargetsWithLld(Compilation &C) {
  const opt::ArgList &Args = C.getArgs();
  const llvm::Triple &Target = C.getDefaultToolChain().getTriple();
  llvm::Triple Host(sys::getProcessTriple());
  // -m32 and -mx32 are the host's linker's too.
  if (Args.hasArg(options::OPT_fuse_ld_EQ) ||
      Target.getArch() == Host.getArch() || (Target.isX86() && Host.isX86()))
    return;
  for (Command &Cmd : C.getJobs()) {
    if (!isa<LinkJobAction>(Cmd.getSource()))
      continue;
    // A TRIPLE-ld (binutils for the target) links for it; the host's ld,
    // which clang falls back to, does not.
    StringRef Linker = sys::path::filename(Cmd.getExecutable());
    if (Linker != "ld")
      continue;
    Cmd.replaceExecutable(lldExecutable(Args));
    if (Args.hasArg(options::OPT_v))
      noteStream() << "linking for " << Target.str()
                   << " with ld.lld: the host's ld cannot, and there is no "
                   << Target.str() << "-ld\n";
  }
}

bool isDivccTemporary(StringRef Arg, StringRef Prefix, StringRef Extension) {
  StringRef Name = sys::path::filename(Arg);
  if (!Name.consume_back(Extension) || !Name.consume_front(Prefix) ||
      !Name.consume_front("-"))
    return false;
  // GetTemporaryPath's unique part: six hexadecimal digits.
  return Name.size() == 6 && llvm::all_of(Name, isHexDigit);
}

bool isOwnLinkObject(StringRef Arg) {
  return isDivccTemporary(Arg, OffsetObjectPrefix, ".o") ||
         isDivccTemporary(Arg, GoldenObjectPrefix, ".o");
}

Error diversifyLinkJobs(Compilation &C, const Config &Cfg) {
  bool Links = llvm::any_of(C.getJobs(), [](const Command &Cmd) {
    return isa<LinkJobAction>(Cmd.getSource());
  });
  if (!Links)
    return Error::success();
  if (Cfg.GoldenMaster)
    if (Error E = makeGoldenMaster(C, Cfg))
      return E;
  if (Cfg.Diversity.Transformations.has(Transformation::Link))
    if (Error E = shuffleSections(C, Cfg))
      return E;
  if (Cfg.Diversity.Transformations.has(Transformation::Offset))
    if (Error E = padStartFiles(C, Cfg))
      return E;
  return Error::success();
}

} // namespace divcc
