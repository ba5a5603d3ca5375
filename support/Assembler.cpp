//===- Assembler.cpp - Assembly text to an object file, in this process ---===//
//
// The steps of llvm-mc's assembling mode (llvm/tools/llvm-mc/llvm-mc.cpp):
// the target's MC components, an object streamer, and the generic assembly
// parser with the target's parser on top. Errors in the text are reported
// through the source manager and fail the call.
//
//===----------------------------------------------------------------------===//

#include "support/Assembler.h"
#include "support/AtomicOutput.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/MC/MCAsmBackend.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCObjectWriter.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace divcc {

/// Sets the e_flags of the ELF file \p Path to \p Flags.
static Error setElfFlags(StringRef Path, uint32_t Flags) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> In = MemoryBuffer::getFile(Path);
  if (!In)
    return createStringError("cannot read '" + Path +
                             "': " + In.getError().message());
  std::string Bytes = (*In)->getBuffer().str();
  if (Bytes.size() < ELF::EI_NIDENT ||
      !StringRef(Bytes).starts_with(ELF::ElfMagic))
    return createStringError("'" + Path + "' is not an ELF file");
  // e_flags follows e_type, e_machine, e_version, e_entry, e_phoff, e_shoff.
  bool Is64 = Bytes[ELF::EI_CLASS] == ELF::ELFCLASS64;
  uint64_t Offset = ELF::EI_NIDENT + 2 + 2 + 4 + 3 * (Is64 ? 8 : 4);
  if (Bytes.size() < Offset + 4)
    return createStringError("'" + Path + "' is not an ELF file");
  if (Bytes[ELF::EI_DATA] == ELF::ELFDATA2MSB)
    support::endian::write32be(&Bytes[Offset], Flags);
  else
    support::endian::write32le(&Bytes[Offset], Flags);
  std::error_code EC;
  raw_fd_ostream Out(Path, EC);
  if (!EC) {
    Out << Bytes;
    Out.close();
    EC = Out.error();
  }
  if (EC)
    return createStringError("cannot write '" + Path + "': " + EC.message());
  return Error::success();
}

Error assembleObject(StringRef Assembly, const Triple &Target, StringRef Path,
                     std::optional<uint32_t> ElfFlags) {
  std::string LookupError;
  const llvm::Target *T = TargetRegistry::lookupTarget(Target.str(), LookupError);
  if (!T)
    return createStringError(LookupError);

  MCTargetOptions Options;
  std::unique_ptr<MCRegisterInfo> MRI(T->createMCRegInfo(Target.str()));
  std::unique_ptr<MCAsmInfo> MAI(T->createMCAsmInfo(*MRI, Target.str(), Options));
  std::unique_ptr<MCSubtargetInfo> STI(T->createMCSubtargetInfo(Target.str(), "", ""));
  std::unique_ptr<MCInstrInfo> MII(T->createMCInstrInfo());
  if (!MRI || !MAI || !STI || !MII)
    return createStringError("no assembler for target '" + Target.str() + "'");

  std::string Diagnostics;
  raw_string_ostream DiagnosticsOS(Diagnostics);
  SourceMgr Sources;
  Sources.setDiagHandler(
      [](const SMDiagnostic &D, void *OS) { D.print("", *static_cast<raw_ostream *>(OS)); },
      &DiagnosticsOS);
  Sources.AddNewSourceBuffer(MemoryBuffer::getMemBufferCopy(Assembly), SMLoc());

  MCContext Ctx(Target, MAI.get(), MRI.get(), STI.get(), &Sources, &Options);
  std::unique_ptr<MCObjectFileInfo> MOFI(
      T->createMCObjectFileInfo(Ctx, /*PIC=*/false));
  Ctx.setObjectFileInfo(MOFI.get());

  Expected<AtomicOutput> Out = AtomicOutput::create(Path);
  if (!Out)
    return Out.takeError();
  {
    std::unique_ptr<MCAsmBackend> Backend(T->createMCAsmBackend(*STI, *MRI, Options));
    std::unique_ptr<MCCodeEmitter> Emitter(T->createMCCodeEmitter(*MII, Ctx));
    std::unique_ptr<MCObjectWriter> Writer = Backend->createObjectWriter(Out->os());
    std::unique_ptr<MCStreamer> Streamer(T->createMCObjectStreamer(
        Target, Ctx, std::move(Backend), std::move(Writer), std::move(Emitter),
        *STI));
    std::unique_ptr<MCAsmParser> Parser(
        createMCAsmParser(Sources, Ctx, *Streamer, *MAI));
    std::unique_ptr<MCTargetAsmParser> TargetParser(
        T->createMCAsmParser(*STI, *Parser, *MII, Options));
    if (!TargetParser)
      return createStringError("no assembly parser for target '" + Target.str() + "'");
    Parser->setTargetParser(*TargetParser);
    if (Parser->Run(/*NoInitialTextSection=*/false))
      return createStringError("cannot assemble: " + Diagnostics);
  }
  if (Error E = Out->commit())
    return E;
  return ElfFlags ? setElfFlags(Path, *ElfFlags) : Error::success();
}

} // namespace divcc
