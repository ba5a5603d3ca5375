//===- LtoBackend.cpp - LTO code generation by divcc's code generator -----===//
//
// lld's BitcodeCompiler (lld/ELF/LTO.cpp, createConfig) and LLVMgold.so
// (gold-plugin.cpp, createLTO) generate LTO code with an lto::Config of
// their own, and LTOBackend.cpp's codegen() runs
//
//   TargetLibraryInfo, ModuleSummaryIndex, TargetMachine::addPassesToEmitFile
//
// on the module. Both are reproduced here: the same target options (those
// of LLVM's codegen flags, plus each linker's own), the same CPU, features,
// relocation model and levels, the same passes. With no transformation,
// the code is the linker's byte for byte (the LTO parity tests check this).
//
// Invariants:
//  * Every random choice comes from streams keyed by the module's stream
//    name (transforms/ModuleStreamName.cpp) and the function: a ThinLTO
//    module's code does not depend on the order or the number of back ends
//    run, nor on which thread runs them.
//  * ThinLTO back ends import exactly what lld's index says, from the same
//    bytes lld read (plain bitcode, an archive member, the .llvm.lto
//    section of a fat object).
//
//===----------------------------------------------------------------------===//

#include "codegen/LtoBackend.h"
#include "codegen/CodeGen.h"
#include "support/Diagnostics.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/CodeGen/CommandFlags.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ModuleSummaryIndex.h"
#include "llvm/LTO/Config.h"
#include "llvm/LTO/LTO.h"
#include "llvm/LTO/LTOBackend.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/SubtargetFeature.h"

using namespace llvm;

namespace divcc {
namespace {

/// LLVM's codegen flags (-mcpu, -mattr, -function-sections, ...), which
/// lld registers at startup and reads its target options from. Registered
/// only by an LTO link, so that compiles never see them.
void registerCodeGenFlags() {
  static codegen::RegisterCodeGenFlags Flags;
}

/// The lto::Config for code generation of the linker \p Options name.
lto::Config ltoConfig(const LtoCodeGenOptions &Options) {
  lto::Config C;
  C.Options = codegen::InitTargetOptionsFromCodeGenFlags(Triple());
  if (Options.Linker == LtoLinker::Lld) {
    // lld/ELF/LTO.cpp, createConfig.
    C.Options.EmitAddrsig = true;
    C.Options.FunctionSections = true;
    C.Options.DataSections = true;
    if (std::optional<Reloc::Model> RM = codegen::getExplicitRelocModel())
      C.RelocModel = *RM;
    else if (Options.Relocatable)
      C.RelocModel = std::nullopt;
    else
      C.RelocModel = Options.Pic ? Reloc::PIC_ : Reloc::Static;
  } else {
    // gold-plugin.cpp, createLTO: relocations older linkers read, no
    // address-significance tables, a section per function and datum unless
    // -r, the relocation model from what the linker writes.
    C.Options.MCOptions.X86RelaxRelocations = false;
    if (!codegen::getExplicitFunctionSections())
      C.Options.FunctionSections = !Options.Relocatable;
    if (!codegen::getExplicitDataSections())
      C.Options.DataSections = !Options.Relocatable;
    if (!Options.Relocatable)
      C.RelocModel = Options.Pic ? Reloc::PIC_ : Reloc::Static;
  }
  C.CodeModel = codegen::getExplicitCodeModel();
  C.OptLevel = Options.OptLevel;
  C.CPU = codegen::getCPUStr();
  C.MAttrs = codegen::getMAttrs();
  int CGO = Options.CodeGenOptLevel >= 0 ? Options.CodeGenOptLevel
                                         : int(std::min(Options.OptLevel, 3u));
  C.CGOptLevel = CodeGenOpt::getLevel(CGO).value_or(CodeGenOptLevel::Default);
  C.PTO.LoopVectorization = C.OptLevel > 1;
  C.PTO.SLPVectorization = C.OptLevel > 1;
  return C;
}

/// The target machine LTO's back end creates for \p M (LTOBackend.cpp,
/// createTargetMachine).
Expected<std::unique_ptr<TargetMachine>>
ltoTargetMachine(const lto::Config &C, const Module &M) {
  std::string Error;
  const Target *T = TargetRegistry::lookupTarget(M.getTargetTriple(), Error);
  if (!T)
    return createStringError(inconvertibleErrorCode(), Error);
  SubtargetFeatures Features;
  Features.getDefaultSubtargetFeatures(Triple(M.getTargetTriple()));
  for (const std::string &A : C.MAttrs)
    Features.AddFeature(A);
  std::optional<Reloc::Model> RelocModel = C.RelocModel;
  if (!RelocModel && M.getModuleFlag("PIC Level"))
    RelocModel =
        M.getPICLevel() == PICLevel::NotPIC ? Reloc::Static : Reloc::PIC_;
  std::optional<CodeModel::Model> CM = C.CodeModel;
  if (!CM)
    CM = M.getCodeModel();
  std::unique_ptr<TargetMachine> TM(
      T->createTargetMachine(M.getTargetTriple(), C.CPU, Features.getString(),
                             C.Options, RelocModel, CM, C.CGOptLevel));
  if (!TM)
    return createStringError(inconvertibleErrorCode(),
                             "cannot create a target machine for '" +
                                 M.getTargetTriple() + "'");
  if (std::optional<uint64_t> Threshold = M.getLargeDataThreshold())
    TM->setLargeDataThreshold(*Threshold);
  return TM;
}

/// The pipeline of LTO's codegen(): no explicit TargetTransformInfo (the
/// instruction selector adds the target's), no ObjC ARC contraction, no
/// verifier.
PipelineOptions ltoPipeline(const ModuleSummaryIndex *Index) {
  PipelineOptions P;
  P.TargetTransformInfo = false;
  P.SummaryIndex = Index;
  return P;
}

/// An LLVMContext set up as lto::LTOLLVMContext sets its own.
void configureContext(LLVMContext &Context) {
  Context.setDiscardValueNames(true);
  Context.enableDebugTypeODRUniquing();
}

Error failed(const Twine &What, Error E) {
  return makeError(What + ": " + toString(std::move(E)));
}

/// The bytes of a module lld names \p ModuleId: a file, or a member of an
/// archive ("ARCHIVE(MEMBER at OFFSET)"); for a fat object, its .llvm.lto
/// section. \p Owned keeps the files read.
Expected<MemoryBufferRef>
readModule(StringRef ModuleId,
           std::vector<std::unique_ptr<MemoryBuffer>> &Owned) {
  static const Regex ArchiveMember("^(.*)\\((.*) at ([0-9]+)\\)$");
  SmallVector<StringRef, 4> Parts;
  StringRef Path = ModuleId;
  std::optional<uint64_t> MemberOffset;
  if (ArchiveMember.match(ModuleId, &Parts)) {
    Path = Parts[1];
    uint64_t Offset;
    if (!Parts[3].getAsInteger(10, Offset))
      MemberOffset = Offset;
  }
  auto File = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                    /*RequiresNullTerminator=*/false);
  if (!File)
    return createStringError(File.getError(), "cannot read '%s': %s",
                             Path.str().c_str(),
                             File.getError().message().c_str());
  Owned.push_back(std::move(*File));
  MemoryBufferRef Bytes = Owned.back()->getMemBufferRef();
  if (MemberOffset) {
    auto Archive = object::Archive::create(Bytes);
    if (!Archive)
      return Archive.takeError();
    std::optional<MemoryBufferRef> Member;
    Error Err = Error::success();
    for (const object::Archive::Child &C : (*Archive)->children(Err))
      if (C.getChildOffset() == *MemberOffset) {
        Expected<MemoryBufferRef> Ref = C.getMemoryBufferRef();
        if (!Ref)
          return Ref.takeError();
        Member = *Ref;
        break;
      }
    if (Err)
      return Err;
    if (!Member)
      return createStringError(inconvertibleErrorCode(),
                               "no member at offset %llu in '%s'",
                               (unsigned long long)*MemberOffset,
                               Path.str().c_str());
    Bytes = *Member;
  }
  Expected<MemoryBufferRef> Bitcode = findLtoBitcode(Bytes);
  if (!Bitcode)
    return Bitcode.takeError();
  return MemoryBufferRef(Bitcode->getBuffer(), ModuleId);
}

} // namespace

Expected<MemoryBufferRef> findLtoBitcode(MemoryBufferRef Object) {
  if (identify_magic(Object.getBuffer()) == file_magic::bitcode)
    return Object;
  auto Obj = object::ObjectFile::createObjectFile(Object);
  if (!Obj)
    return Obj.takeError();
  for (const object::SectionRef &S : (*Obj)->sections()) {
    Expected<StringRef> Name = S.getName();
    if (Name && *Name == ".llvm.lto") {
      Expected<StringRef> Contents = S.getContents();
      if (!Contents)
        return Contents.takeError();
      return MemoryBufferRef(*Contents, Object.getBufferIdentifier());
    }
  }
  return createStringError(inconvertibleErrorCode(),
                           "'%s' holds no LLVM bitcode",
                           Object.getBufferIdentifier().str().c_str());
}

Error applyLtoCommandLine(const LtoCodeGenOptions &Options) {
  registerCodeGenFlags();
  cl::ResetAllOptionOccurrences();
  SmallVector<const char *, 16> Args = {"ld.lld (divcc)"};
  for (const std::string &A : Options.LlvmArgs)
    Args.push_back(A.c_str());
  std::string Problems;
  raw_string_ostream OS(Problems);
  if (!cl::ParseCommandLineOptions(Args.size(), Args.data(), "", &OS))
    return makeError("invalid LLVM option in the link: " +
                     StringRef(Problems).trim());
  return Error::success();
}

Error compileOptimizedLtoModule(StringRef BitcodePath, StringRef OutputPath,
                              const LtoCodeGenOptions &Options,
                              const DiversityPlan &Plan) {
  auto Buffer = MemoryBuffer::getFile(BitcodePath);
  if (!Buffer)
    return failed("cannot read the linked module",
                  errorCodeToError(Buffer.getError()));
  LLVMContext Context;
  configureContext(Context);
  Expected<std::unique_ptr<Module>> M =
      parseBitcodeFile((*Buffer)->getMemBufferRef(), Context);
  if (!M)
    return failed("invalid bitcode from the linker", M.takeError());
  lto::Config C = ltoConfig(Options);
  auto TM = ltoTargetMachine(C, **M);
  if (!TM)
    return failed("LTO", TM.takeError());
  return emitModule(**M, **TM, ltoPipeline(nullptr), {OutputPath, "", false},
                    Plan);
}

Error compileThinLtoModule(StringRef ModuleId, StringRef IndexPath,
                           StringRef OutputPath,
                           const LtoCodeGenOptions &Options,
                           const DiversityPlan &Plan) {
  Expected<std::unique_ptr<ModuleSummaryIndex>> Index =
      getModuleSummaryIndexForFile(IndexPath);
  if (!Index)
    return failed("cannot read the ThinLTO index '" + IndexPath.str() + "'",
                  Index.takeError());

  // Every module the index names, the imported ones included, from the
  // bytes lld read.
  std::vector<std::unique_ptr<MemoryBuffer>> Files;
  std::vector<std::string> Ids; // keys of ModuleMap, owned here
  for (const auto &Entry : (*Index)->modulePaths())
    Ids.push_back(Entry.first().str());
  if (!is_contained(Ids, ModuleId))
    Ids.push_back(ModuleId.str());
  MapVector<StringRef, BitcodeModule> ModuleMap;
  for (const std::string &Id : Ids) {
    Expected<MemoryBufferRef> Bytes = readModule(Id, Files);
    if (!Bytes)
      return failed("ThinLTO module '" + Id + "'", Bytes.takeError());
    Expected<std::vector<BitcodeModule>> Modules = getBitcodeModuleList(*Bytes);
    if (!Modules)
      return failed("ThinLTO module '" + Id + "'", Modules.takeError());
    BitcodeModule *Thin = lto::findThinLTOModule(*Modules);
    if (!Thin)
      return failed("ThinLTO module '" + Id + "'",
                    createStringError(inconvertibleErrorCode(),
                                      "it has no ThinLTO summary"));
    ModuleMap.insert({StringRef(Id), *Thin});
  }

  LLVMContext Context;
  configureContext(Context);
  Expected<std::unique_ptr<Module>> M =
      ModuleMap.find(ModuleId)->second.parseModule(Context);
  if (!M)
    return failed("ThinLTO module '" + ModuleId.str() + "'", M.takeError());

  FunctionImporter::ImportMapTy ImportList;
  if (!lto::initImportList(**M, **Index, ImportList))
    return failed("ThinLTO module '" + ModuleId.str() + "'",
                  createStringError(inconvertibleErrorCode(),
                                    "cannot read its import list"));
  DenseMap<StringRef, GVSummaryMapTy> DefinedGlobals;
  (*Index)->collectDefinedGVSummariesPerModule(DefinedGlobals);

  lto::Config C = ltoConfig(Options);
  Error Result = Error::success();
  (void)static_cast<bool>(Result); // checked: the hook assigns it
  // The back end imports and optimizes, then hands over the module it
  // would compile: divcc's code generator compiles it instead.
  C.PreCodeGenModuleHook = [&](unsigned, const Module &Optimized) {
    Module &Mod = const_cast<Module &>(Optimized); // the back end's own
    auto TM = ltoTargetMachine(C, Mod);
    if (!TM) {
      Result = failed("LTO", TM.takeError());
      return false;
    }
    Result = emitModule(Mod, **TM, ltoPipeline(Index->get()),
                        {OutputPath, "", false}, Plan);
    return false;
  };
  auto NoStream = [](unsigned, const Twine &)
      -> Expected<std::unique_ptr<CachedFileStream>> {
    return createStringError(inconvertibleErrorCode(),
                             "divcc's code generator writes LTO objects");
  };
  if (Error E = lto::thinBackend(C, /*Task=*/0, NoStream, **M, **Index,
                                 ImportList, DefinedGlobals[ModuleId],
                                 &ModuleMap)) {
    consumeError(std::move(Result));
    return failed("ThinLTO back end of '" + ModuleId.str() + "'",
                  std::move(E));
  }
  return Result;
}

} // namespace divcc
