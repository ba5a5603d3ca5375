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
#include "random/RandomStream.h"
#include "support/Assembler.h"
#include "targets/DiversityTarget.h"

#include "clang/Driver/Action.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "clang/Driver/Options.h"
#include "clang/Driver/ToolChain.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace clang::driver;

namespace divcc {

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

  const char *Lld = C.getArgs().MakeArgString(
      sys::path::parent_path(clangExecutable()) + "/ld.lld");
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
  Out << "\t.section .note.GNU-stack,\"\",%progbits\n"
      << "\t.section .note.gnu.property,\"a\",%note\n"
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
                             const std::string &Obj) {
  std::string Asm = Body.str();
  raw_string_ostream AsmOS(Asm);
  writeNotes(AsmOS, trapPadding(T));
  return assembleObject(Asm, T, Obj);
}

/// Assembles \p Size bytes of trap padding in .init into \p Obj.
static Error assemblePadding(const std::string &Obj, uint64_t Size,
                             const llvm::Triple &T) {
  std::string Asm;
  raw_string_ostream AsmOS(Asm);
  AsmOS << "\t.section .init,\"ax\",%progbits\n"
        << "\t.fill " << Size << ", 1, " << unsigned(trapPadding(T).FillByte)
        << "\n";
  if (Error E = assembleCodeFreeObject(Asm, T, Obj))
    return createStringError("cannot assemble the link-time padding: " +
                             toString(std::move(E)));
  return Error::success();
}

/// `offset`: the PLT and the C runtime's start files are code divcc does
/// not compile. The linker places the PLT right after .init (GNU ld: before
/// .text, so all of .text moves with it; lld: after .text), and each PLT
/// entry encodes its distance to the GOT. Appending 16 to 4096 bytes of trap
/// padding to .init moves all of them, whatever the other transformations
/// did to the size of the code.
static Error padInit(Compilation &C, const Config &Cfg) {
  RandomStream Random = linkStream(Cfg, Transformation::Offset);
  // A multiple of 16: the PLT is 16-byte aligned, a finer step would be
  // rounded away. Never 0, so every variant moves.
  uint64_t Size = 16 * Random.between(1, 256);
  const llvm::Triple &T = C.getDefaultToolChain().getTriple();

  const Driver &D = C.getDriver();
  std::string Obj = D.GetTemporaryPath("divcc-offset", "o");
  if (C.getArgs().hasArg(options::OPT__HASH_HASH_HASH)) {
    // Commands are only printed: leave no file behind.
    sys::fs::remove(Obj);
  } else {
    C.addTempFile(C.getArgs().MakeArgString(Obj));
    if (Error E = assemblePadding(Obj, Size, T))
      return E;
  }

  for (Command &Cmd : C.getJobs()) {
    if (!isa<LinkJobAction>(Cmd.getSource()) || isRelocatableLink(Cmd))
      continue;
    opt::ArgStringList LinkArgs = Cmd.getArguments();
    LinkArgs.push_back(C.getArgs().MakeArgString(Obj)); // after crtn.o
    Cmd.replaceArguments(std::move(LinkArgs));
  }
  return Error::success();
}

Error diversifyLinkJobs(Compilation &C, const Config &Cfg) {
  bool Links = llvm::any_of(C.getJobs(), [](const Command &Cmd) {
    return isa<LinkJobAction>(Cmd.getSource());
  });
  if (!Links)
    return Error::success();
  if (Cfg.Diversity.Transformations.has(Transformation::Link))
    if (Error E = shuffleSections(C, Cfg))
      return E;
  if (Cfg.Diversity.Transformations.has(Transformation::Offset))
    if (Error E = padInit(C, Cfg))
      return E;
  return Error::success();
}

} // namespace divcc
