//===- TargetNames.h - Opcodes, registers and features looked up by name --===//
//
// The numbers of a target's opcodes, registers, register classes and
// subtarget features are generated into headers that the installed LLVM does
// not ship, so divcc's target files look each one up by its TableGen name,
// once per module (or once per table). A name that is not found means the
// installed LLVM is not the one divcc was written against: that is a fatal
// error naming the target and the name, never a silent fallback.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_TARGETS_TARGETNAMES_H
#define DIVCC_TARGETS_TARGETNAMES_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/MC/MCRegister.h"

#include <optional>

namespace llvm {
class MCInstrInfo;
class TargetRegisterClass;
class TargetRegisterInfo;
class TargetSubtargetInfo;
} // namespace llvm

namespace divcc {

/// The opcode called \p Name (e.g. "NOOP") in \p MII, a TargetInstrInfo or
/// the MC layer's table; \p Target names the target in the error.
unsigned opcodeNamed(const llvm::MCInstrInfo &MII, llvm::StringRef Target,
                     llvm::StringRef Name);

/// Every opcode of a target by name, for a table that looks up many: one
/// pass over the opcodes instead of one a name.
class OpcodeNames {
public:
  OpcodeNames(const llvm::MCInstrInfo &MII, llvm::StringRef Target);
  /// The opcode called \p Name; a fatal error naming it if there is none.
  unsigned operator()(llvm::StringRef Name) const;

private:
  llvm::StringRef Target;
  llvm::StringMap<unsigned> ByName;
};

/// A table of numbers looked up by name, built from the subtarget of the
/// first function that needs it: the numbers are the same for every
/// subtarget of one target.
template <typename Table> class LazyTable {
public:
  const Table &get(const llvm::TargetSubtargetInfo &STI) const {
    if (!Built)
      Built.emplace(STI);
    return *Built;
  }

private:
  mutable std::optional<Table> Built;
};

/// The physical register called \p Name, in any case ("rsp", "XZR").
llvm::MCRegister registerNamed(const llvm::TargetRegisterInfo &TRI,
                               llvm::StringRef Target, llvm::StringRef Name);

/// The register class called \p Name ("GPR64").
const llvm::TargetRegisterClass &
registerClassNamed(const llvm::TargetRegisterInfo &TRI, llvm::StringRef Target,
                   llvm::StringRef Name);

/// The bit index of the subtarget feature called \p Name ("macrofusion").
unsigned featureNamed(const llvm::TargetSubtargetInfo &STI,
                      llvm::StringRef Target, llvm::StringRef Name);

} // namespace divcc

#endif
