//===- UnusedPlt.h - Trapping the PLT an install no longer calls ----------===//
//
// BOLT moves every function, but not the PLT: its stubs (an indirect jump
// each, JOP gadgets) would be at the same address in every install of a
// golden master. A golden master binds every symbol at load time (divcc
// -fdiversify-golden links with -z now and compiles with -fno-plt), and
// BOLT's -plt=all turns the calls that remain, those the code generator
// makes to its runtime (_Unwind_Resume, __cxa_throw...), into calls
// through the GOT. With every symbol bound at load time, the lazy-binding
// part of the PLT never runs: its header, and each stub but its first
// instruction (`jmp *GOT`), become traps, and a stub nothing calls any
// more becomes traps whole. Calls remain in functions BOLT cannot analyse
// (a jump table it does not follow), which it moves without rewriting.
//
// What refers to the PLT is checked, not assumed: every instruction of the
// install's code (decoded from every offset a linear sweep reaches, so
// data in code errs on the side of keeping a stub), dynamic symbols
// defined there (a canonical PLT entry, the address of an imported
// function in a non-PIE program), and dynamic relocations' addends. A PLT
// section of another layout, or referred to elsewhere than at a stub's
// start, stays as it is.
//
//===----------------------------------------------------------------------===//

#ifndef DIVCC_DIVTOOL_INSTALL_UNUSEDPLT_H
#define DIVCC_DIVTOOL_INSTALL_UNUSEDPLT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

namespace divcc {

/// Whether the little-endian ELF64 image \p Image binds every symbol at
/// load time (DF_BIND_NOW, DF_1_NOW or DT_BIND_NOW).
llvm::Expected<bool> bindsNow(llvm::ArrayRef<char> Image);

/// Fills what the x86-64 image \p Image, which binds every symbol at load
/// time, never runs of its PLT (.plt, .plt.got) with int3; returns how many
/// stubs became traps whole.
llvm::Expected<unsigned> trapUnusedPlt(llvm::MutableArrayRef<char> Image);

} // namespace divcc

#endif
