//===- RISCV.h - The pieces of divcc's RISC-V target ----------------------===//
//
// Private to targets/: RISCVDiversityTarget.cpp assembles these into the one
// RISC-V 64 DiversityTarget.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_TARGETS_RISCV_RISCV_H
#define DIVCC_TARGETS_RISCV_RISCV_H

#include "targets/DiversityTarget.h"

namespace divcc {

std::unique_ptr<DiversityTarget> createRISCVDiversityTarget();

/// RISCVGadgetTarget.cpp.
std::unique_ptr<GadgetTarget>
createRISCVGadgetTarget(const llvm::MCInstrInfo &MII,
                        const llvm::MCRegisterInfo &MRI);

} // namespace divcc

#endif
