//===- ElfRewrite.cpp - llvm-objcopy on an ELF file, in-process -----------===//

#include "support/ElfRewrite.h"

#include "llvm/ObjCopy/CommonConfig.h"
#include "llvm/ObjCopy/ELF/ELFConfig.h"
#include "llvm/ObjCopy/ELF/ELFObjcopy.h"
#include "llvm/Object/Binary.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace divcc {

Expected<SmallVector<char, 0>>
rewriteElf(StringRef Path,
           function_ref<void(objcopy::CommonConfig &)> Configure) {
  Expected<object::OwningBinary<object::Binary>> Binary =
      object::createBinary(Path);
  if (!Binary)
    return Binary.takeError();
  auto *Elf = dyn_cast<object::ELFObjectFileBase>(Binary->getBinary());
  if (!Elf)
    return createStringError(inconvertibleErrorCode(),
                             "'" + Path + "' is not an ELF file");
  objcopy::CommonConfig Common;
  Common.InputFilename = Path;
  Common.OutputFilename = Path;
  Configure(Common);
  objcopy::ELFConfig ElfConfig;
  SmallVector<char, 0> Output;
  raw_svector_ostream OS(Output);
  if (Error E =
          objcopy::elf::executeObjcopyOnBinary(Common, ElfConfig, *Elf, OS))
    return E;
  return Output;
}

} // namespace divcc
